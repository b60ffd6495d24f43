from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from players.reading import search_text

SEARCHED_FIELDS = frozenset({"display_name", "reading"})


class PlayerQuerySet(models.QuerySet):
    """Keeps ``Player.search`` in step with the name and reading on every write path: ``save``,
    ``bulk_create``, ``bulk_update`` and ``update``."""

    def bulk_create(self, objs, *args, **kwargs):
        objs = list(objs)
        for player in objs:
            player.search = player.search_text()
        return super().bulk_create(objs, *args, **kwargs)

    def bulk_update(self, objs, fields, *args, **kwargs):
        objs, fields = list(objs), list(fields)
        if SEARCHED_FIELDS & set(fields):
            for player in objs:
                player.search = player.search_text()
            fields.append("search")
        return super().bulk_update(objs, fields, *args, **kwargs)

    def update(self, **kwargs):
        if not SEARCHED_FIELDS & set(kwargs):
            return super().update(**kwargs)
        ids = list(self.values_list("pk", flat=True))
        updated = super().update(**kwargs)
        players = list(self.model.objects.filter(pk__in=ids).only("pk", "display_name", "reading"))
        for player in players:
            player.search = player.search_text()
        self.model.objects.bulk_update(players, ["search"])  # names unchanged: the plain bulk_update
        return updated


class Player(models.Model):
    """A person who plays in events. One row per person across all events."""

    display_name = models.CharField(
        verbose_name=_("display name"), max_length=120, help_text=_("Name shown on standings and seatings.")
    )
    family_name = models.CharField(verbose_name=_("family name"), max_length=80, blank=True)
    given_name = models.CharField(verbose_name=_("given name"), max_length=80, blank=True)
    reading = models.CharField(
        verbose_name=_("reading"),
        max_length=160,
        blank=True,
        help_text=_("Reading of the name in kana or romaji (読み), for sorting."),
    )
    club = models.CharField(verbose_name=_("club / affiliation"), max_length=120, blank=True)
    country = models.CharField(
        verbose_name=_("country"), max_length=2, blank=True, help_text=_("ISO 3166-1 alpha-2 code, e.g. JP.")
    )
    external_id = models.CharField(  # noqa: DJ001 -- NULL when absent, so uniqueness applies only to real ids
        verbose_name=_("external id"),
        max_length=40,
        blank=True,
        null=True,
        help_text=_("An outside identifier such as an EMA number; unique when present."),
    )
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="player",
    )
    created_at = models.DateTimeField(verbose_name=_("created at"), auto_now_add=True)
    search = models.TextField(
        verbose_name=_("search"),
        blank=True,
        editable=False,
        help_text=_("The name and its reading as people type them (kana, romaji)."),
    )

    objects = PlayerQuerySet.as_manager()

    class Meta:
        ordering = ["display_name", "id"]
        verbose_name = _("player")
        verbose_name_plural = _("players")
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

    def save(self, *args, **kwargs):
        self.search = self.search_text()
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and SEARCHED_FIELDS & set(update_fields):
            kwargs["update_fields"] = {*update_fields, "search"}
        super().save(*args, **kwargs)

    def search_text(self) -> str:
        return search_text(self.display_name, self.reading)

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
    # the event whose page the file was uploaded on: its rows are registered there (known external ids name
    # stored players); an id, not a key: the players app knows no events
    event_id = models.PositiveBigIntegerField(null=True, blank=True)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"Import of {self.file_name or 'a CSV file'}: {self.state} {self.percent}%"


class OnlineAccount(models.Model):
    """A player's account on an online platform (天鳳, 雀魂): how a game log's seat is known to be this player.

    A log's seat is matched by the account id first (Mahjong Soul's), then by the name (Tenhou's logs carry
    only names). On one platform an account id, or a name, belongs to one player only.
    """

    class Platform(models.TextChoices):
        TENHOU = "tenhou", _("Tenhou 天鳳")
        MAHJONG_SOUL = "mahjongsoul", _("Mahjong Soul 雀魂")

    player = models.ForeignKey(
        Player, verbose_name=_("player"), on_delete=models.CASCADE, related_name="online_accounts"
    )
    platform = models.CharField(verbose_name=_("platform"), max_length=16, choices=Platform.choices)
    account_id = models.CharField(
        verbose_name=_("account id"), max_length=40, blank=True, help_text=_("Mahjong Soul's account id")
    )
    name = models.CharField(verbose_name=_("name on the platform"), max_length=60, blank=True)
    server = models.CharField(
        verbose_name=_("server"), max_length=16, blank=True, help_text=_("Mahjong Soul: Japan, Asia or China")
    )
    created_at = models.DateTimeField(verbose_name=_("created at"), auto_now_add=True)

    class Meta:
        ordering = ["platform", "name", "id"]
        verbose_name = _("online account")
        verbose_name_plural = _("online accounts")
        constraints = [
            models.UniqueConstraint(
                fields=["platform", "account_id"],
                condition=~Q(account_id=""),
                name="online_account_id_unique_per_platform",
            ),
            models.UniqueConstraint(
                fields=["platform", "name"],
                condition=~Q(name=""),
                name="online_account_name_unique_per_platform",
            ),
            models.CheckConstraint(condition=~Q(account_id="") | ~Q(name=""), name="online_account_has_id_or_name"),
        ]

    def __str__(self) -> str:
        return f"{self.get_platform_display()}: {self.name or self.account_id}"

    def clean_fields(self, exclude=None) -> None:
        self.account_id = (self.account_id or "").strip()
        self.name = (self.name or "").strip()
        super().clean_fields(exclude=exclude)
        if not self.account_id and not self.name:
            raise ValidationError({"name": _("give the name on the platform, its account id, or both")})
