"""Seating jobs: a request to seat an event's next round, run by a Celery task."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tournament.models.events import Event


class SeatingJob(models.Model):
    """One request to seat an event's next round, run by a Celery task; its progress and errors.

    The running task beats (``heartbeat_at``) every few seconds; a job queued or running whose last beat
    is older than ``tournament.services.seating.SEATING_STALE_SECONDS`` has lost its worker, and the
    organizer may ask again (the seating is idempotent per round)."""

    class State(models.TextChoices):
        QUEUED = "queued", _("Queued")
        RUNNING = "running", _("Running")
        DONE = "done", _("Done")
        FAILED = "failed", _("Failed")

    event = models.ForeignKey(Event, verbose_name=_("event"), on_delete=models.CASCADE, related_name="seating_jobs")
    round_number = models.PositiveSmallIntegerField(verbose_name=_("round number"))
    state = models.CharField(verbose_name=_("state"), max_length=8, choices=State.choices, default=State.QUEUED)
    percent = models.PositiveSmallIntegerField(verbose_name=_("percent"), default=0)
    message = models.TextField(verbose_name=_("message"), blank=True)
    # the language of whoever asked: the worker writes the job's messages in it
    language = models.CharField(max_length=16, blank=True, default="", editable=False)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("requested by"),
        null=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(verbose_name=_("created at"), auto_now_add=True)
    updated_at = models.DateTimeField(verbose_name=_("updated at"), auto_now=True)
    heartbeat_at = models.DateTimeField(verbose_name=_("heartbeat at"), null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(verbose_name=_("attempts"), default=1)

    class Meta:
        ordering = ["-created_at"]
        constraints = [models.UniqueConstraint(fields=["event", "round_number"], name="one_seating_job_per_round")]
        verbose_name = _("seating job")
        verbose_name_plural = _("seating jobs")

    def __str__(self) -> str:
        # Translators: state is the job's code (queued, running, done, failed), not translated
        return gettext("Seating of %(event)s round %(round)s: %(state)s %(percent)s%%") % {
            "event": self.event,
            "round": self.round_number,
            "state": self.state,
            "percent": self.percent,
        }
