from django.apps import AppConfig


class PlayersConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "players"

    def ready(self) -> None:
        # Register the Celery tasks in every process: the services queue them by their pinned names.
        from players import tasks  # noqa: F401
