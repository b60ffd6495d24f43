from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class OpsConfig(AppConfig):
    """Running the site: probes, metrics, request ids in the logs, error reports, checked backups."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "ops"
    verbose_name = _("Operations")

    def ready(self) -> None:
        # Count what the tournament announces (hands recorded) and what the other apps write (sign-ups,
        # sign-in lockouts), and time the Celery tasks, without those apps knowing about it.
        from ops import signals

        signals.connect()
