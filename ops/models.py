from django.db import models
from django.utils.translation import gettext_lazy as _


class Backup(models.Model):
    """A backup file made by ``manage.py backup`` (by beat during play), checked when it was made (the dump
    lists, the SQLite copy passes its integrity check) and, once ``manage.py restore_check`` has restored it,
    with what its audit found."""

    file = models.CharField(_("file"), max_length=500)
    vendor = models.CharField(_("database"), max_length=20)
    made_at = models.DateTimeField(_("made at"), auto_now_add=True)
    seconds = models.FloatField(_("seconds to make"), default=0)
    size = models.BigIntegerField(_("bytes"), default=0)
    good = models.BooleanField(_("checked good"), default=False)
    restore_checked_at = models.DateTimeField(_("restore checked at"), null=True, blank=True)
    restore_ok = models.BooleanField(_("restored and audited clean"), null=True, blank=True)
    restore_report = models.JSONField(_("restore check report"), default=dict, blank=True)

    class Meta:
        verbose_name = _("backup")
        verbose_name_plural = _("backups")
        ordering = ("-made_at",)

    def __str__(self) -> str:
        return self.file
