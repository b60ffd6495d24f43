from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _

from core.announce import subject_register


class RegistrationConfig(AppConfig):
    """Before the first round: sign-ups with a waiting list, messages to the players, check-in at the door."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "registration"
    verbose_name = _("Registration")

    def ready(self) -> None:
        from registration import tasks  # noqa: F401 -- registers the Celery task with the app

        # checkin: ``checked_in``, how many players are checked in — a check-in made, undone or closed.
        subject_register("checkin", "checked_in", app="registration")
