from django.apps import AppConfig


class TournamentConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournament"

    def ready(self) -> None:
        # Register the Celery tasks in every process: the services queue them by their pinned names.
        from tournament import tasks  # noqa: F401
