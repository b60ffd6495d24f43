from django.conf import settings
from django.db import models
from django.db.models import Q


class Player(models.Model):
    """A person who plays in events. One row per person across all events."""

    display_name = models.CharField(max_length=120, help_text="Name shown on standings and seatings.")
    family_name = models.CharField(max_length=80, blank=True)
    given_name = models.CharField(max_length=80, blank=True)
    reading = models.CharField(
        max_length=160, blank=True, help_text="Reading of the name in kana or romaji (読み), for sorting."
    )
    club = models.CharField("club / affiliation", max_length=120, blank=True)
    country = models.CharField(max_length=2, blank=True, help_text="ISO 3166-1 alpha-2 code, e.g. JP.")
    external_id = models.CharField(  # noqa: DJ001 -- NULL when absent, so uniqueness applies only to real ids
        max_length=40,
        blank=True,
        null=True,
        help_text="An outside identifier such as an EMA number; unique when present.",
    )
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="player"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["display_name", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["external_id"],
                condition=Q(external_id__isnull=False) & ~Q(external_id=""),
                name="player_external_id_unique_when_present",
            )
        ]
        indexes = [models.Index(fields=["display_name"]), models.Index(fields=["country"])]

    def __str__(self) -> str:
        return self.display_name

    def clean_fields(self, exclude=None) -> None:
        # Normalise before the field checks. Blank means "none": NULL, so the uniqueness ignores it.
        if self.external_id is not None:
            self.external_id = self.external_id.strip() or None
        self.country = (self.country or "").strip().upper()
        super().clean_fields(exclude=exclude)


class PlayerImport(models.Model):
    """A CSV file of players imported by a Celery worker (a large file): its progress, then the number
    imported or every problem found (nothing is imported if a row has one)."""

    class State(models.TextChoices):
        QUEUED = "queued", "Queued"
        RUNNING = "running", "Running"
        DONE = "done", "Done"
        FAILED = "failed", "Failed"

    file_name = models.CharField(max_length=200, blank=True)
    data = models.BinaryField(help_text="the file as uploaded, until it is imported")
    lines = models.PositiveIntegerField(default=0)
    state = models.CharField(max_length=8, choices=State.choices, default=State.QUEUED)
    percent = models.PositiveSmallIntegerField(default=0)
    message = models.TextField(blank=True)
    problems = models.JSONField(default=list, blank=True)
    imported = models.PositiveIntegerField(default=0)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"Import of {self.file_name or 'a CSV file'}: {self.state} {self.percent}%"
