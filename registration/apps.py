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
        from registration.services import check_in_open_guard
        from tournament.services.guards import round_guard_register

        # Seating a round waits for check-in to be closed (an organizer may override it, with a reason).
        round_guard_register("check_in_open", check_in_open_guard)

        # checkin: ``checked_in``, how many players are checked in — a check-in made, undone or closed.
        subject_register("checkin", "checked_in", app="registration")
