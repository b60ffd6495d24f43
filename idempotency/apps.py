from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class IdempotencyConfig(AppConfig):
    """Writes that can be sent twice: a client-made key makes a second sending give back the first answer."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "idempotency"
    verbose_name = _("Repeated writes")
