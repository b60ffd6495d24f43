from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SeasonsConfig(AppConfig):
    """Series (leagues, seasons) of events: their standings by a rule, and ratings across events (the EMA
    ranking projection, an Elo rating by placement)."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "seasons"
    verbose_name = _("Series and ratings")

    def ready(self) -> None:
        from core.announce import subscribe
        from seasons import tasks  # noqa: F401 -- registers the Celery task with the app
        from seasons.services import on_announcement

        # standings computed for a finished event: the series holding it are computed again
        subscribe(on_announcement)
