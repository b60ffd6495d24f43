from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LiveConfig(AppConfig):
    """The hall as the directors see it: referee calls, extra time for a table, the board of every table."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "live"
    verbose_name = _("The hall")

    def ready(self) -> None:
        # Push what the tournament announces after each commit to the live streams.
        from core.announce import subscribe
        from live.publish import on_announcement

        subscribe(on_announcement)
