from django.apps import AppConfig
from django.db.models.signals import post_migrate
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from taikai.i18n import install_translator


def install_staff_groups(sender, **kwargs) -> None:
    """The Organizers and Referees groups follow the code after every migrate, once the last app's permissions
    exist: the groups also hold permissions of the apps built on this one, which come after it. Django sends
    the signal only for apps with models (not ``archive``), so the last of those is the one waited for."""
    from django.apps import apps

    from tournament.services.roles import staff_groups_install

    if sender is [config for config in apps.get_app_configs() if config.models_module is not None][-1]:
        staff_groups_install()


class TournamentConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournament"
    verbose_name = _("Tournament")

    def ready(self) -> None:
        # Register the Celery tasks in every process: the services queue them by their pinned names.
        from tournament import tasks  # noqa: F401

        # Messages raised by the engines are read in the language of the request (taikai/i18n.py).
        install_translator(gettext, ngettext)

        post_migrate.connect(install_staff_groups, dispatch_uid="tournament_staff_groups")
