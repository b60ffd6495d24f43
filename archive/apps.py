from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ArchiveConfig(AppConfig):
    """An event as a file: the versioned archive exported, its JSON Schema, and an archive read back as a new
    event (the admin's upload, ``manage.py import_event``). No models of its own: built on ``tournament``."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "archive"
    verbose_name = _("Archive")
