from django.apps import AppConfig
from django.db.models.signals import post_migrate, post_save
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from core.announce import subject_register
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

        # A ruleset saved while a round's writes read each ruleset once is read again (services/locks.py).
        from scoring.models import Ruleset
        from tournament.services.locks import ruleset_read_again

        post_save.connect(ruleset_read_again, sender=Ruleset, dispatch_uid="tournament_ruleset_read_again")

        announcements_register()


def announcements_register() -> None:
    """What the tournament announces (``core.announce``), each with its facts:

    * ``hand``: ``table`` (id), ``table_number``, ``number``, ``version``, ``label`` (東1局 / East 1, 0 honba)
      — a hand recorded, corrected or voided; ``being_checked``: its round's results are not public yet (the
      event publishes results once checked), so only the staff hear of it;
    * ``table``: ``table``, ``table_number``, ``status``, ``result_version`` — a result confirmed, a table
      reopened, a round checked (``being_checked`` as for a hand);
    * ``standings``: ``computed_at`` — the standings were computed again;
    * ``seating``: ``round`` (number) — a round's seating was published;
    * ``clock``: ``table``, ``table_number``, ``state`` — a clock started, pressed, paused, resumed, flagged
      or stopped.
    """
    subject_register("hand", "table", "table_number", "number", "version", "label", "being_checked", app="tournament")
    subject_register("table", "table", "table_number", "status", "result_version", "being_checked", app="tournament")
    subject_register("standings", "computed_at", app="tournament")
    subject_register("seating", "round", app="tournament")
    subject_register("clock", "table", "table_number", "state", app="tournament")
