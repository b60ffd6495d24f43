from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ProfilesConfig(AppConfig):
    """The player across events: duplicate players merged (recorded, reversible), a public profile page with
    their events and hands, its opt-out, and a search over every player."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "profiles"
    verbose_name = _("Player profiles")
