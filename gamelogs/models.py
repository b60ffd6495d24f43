"""A game log imported into an event's table, kept as it was given, and where its scoring and Taikai's differ."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from players.models import OnlineAccount


class GameLogImport(models.Model):
    """One online game recorded at one table from its log: the log itself is kept, with who brought it."""

    class Format(models.TextChoices):
        TENHOU_XML = "tenhou_xml", _("Tenhou XML (mjlog)")
        TENHOU_JSON = "tenhou_json", _("tenhou.net/6 JSON")

    event = models.ForeignKey(
        "tournament.Event", verbose_name=_("event"), on_delete=models.CASCADE, related_name="game_logs"
    )
    table = models.OneToOneField(
        "tournament.Table", verbose_name=_("table"), on_delete=models.PROTECT, related_name="game_log"
    )
    platform = models.CharField(verbose_name=_("platform"), max_length=16, choices=OnlineAccount.Platform.choices)
    game_id = models.CharField(verbose_name=_("game id"), max_length=80, blank=True)
    digest = models.CharField(verbose_name=_("digest (SHA-256)"), max_length=64)
    log_format = models.CharField(verbose_name=_("format"), max_length=16, choices=Format.choices)
    log = models.TextField(verbose_name=_("log"))
    players = models.JSONField(verbose_name=_("names in the log"), default=list)
    final_scores = models.JSONField(verbose_name=_("final scores in the log"), default=list)
    hands = models.PositiveSmallIntegerField(verbose_name=_("hands"))
    seating_before = models.JSONField(
        verbose_name=_("seat order before the log"),
        default=list,
        help_text=_("the table's entries from East as seated, before the log's seat order replaced it"),
    )
    imported_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("imported by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
    )
    imported_with = models.CharField(verbose_name=_("imported with"), max_length=120, blank=True)
    created_at = models.DateTimeField(verbose_name=_("imported at"), auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("imported game log")
        verbose_name_plural = _("imported game logs")
        constraints = [
            models.UniqueConstraint(fields=["event", "digest"], name="game_log_once_per_event"),
            models.UniqueConstraint(
                fields=["event", "platform", "game_id"],
                condition=~Q(game_id=""),
                name="game_log_id_once_per_event",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_platform_display()} {self.game_id or self.digest[:12]}"


class Disagreement(models.Model):
    """A hand where the log's scoring and Taikai's under the event's rules differ; the referee settles it."""

    class State(models.TextChoices):
        OPEN = "open", _("open")
        ACCEPTED = "accepted", _("the log's scoring accepted")
        CORRECTED = "corrected", _("corrected")

    log_import = models.ForeignKey(
        GameLogImport, verbose_name=_("game log"), on_delete=models.CASCADE, related_name="disagreements"
    )
    hand_number = models.PositiveSmallIntegerField(verbose_name=_("hand"))
    winner_position = models.PositiveSmallIntegerField(verbose_name=_("winner's seat"), null=True, blank=True)
    log_scoring = models.JSONField(verbose_name=_("the log's scoring"), default=dict)
    engine_scoring = models.JSONField(verbose_name=_("Taikai's scoring"), default=dict)
    state = models.CharField(verbose_name=_("state"), max_length=10, choices=State.choices, default=State.OPEN)
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("settled by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    resolved_at = models.DateTimeField(verbose_name=_("settled at"), null=True, blank=True)

    class Meta:
        ordering = ["log_import", "hand_number", "winner_position"]
        verbose_name = _("disagreement")
        verbose_name_plural = _("disagreements")

    def __str__(self) -> str:
        return f"{self.log_import} · {self.hand_number}"


class OnlineLeague(models.Model):
    """How an event takes online games: a free league (a table per log), the players a log may create, the
    platform's lobby its games come from, how old a log may be and whether the log's scoring stands at once."""

    event = models.OneToOneField(
        "tournament.Event", verbose_name=_("event"), on_delete=models.CASCADE, related_name="online_league"
    )
    free_tables = models.BooleanField(
        verbose_name=_("free online league"),
        default=False,
        help_text=_(
            "Each log becomes a table of the round in play (a new round when one of its players has played in it); "
            "otherwise a log goes to the table of a seated round that seats its players."
        ),
    )
    creates_players = models.BooleanField(
        verbose_name=_("players from the logs"),
        default=False,
        help_text=_("A log naming someone unknown creates the player, their online account and their entry."),
    )
    lobby = models.CharField(
        verbose_name=_("lobby"),
        max_length=40,
        blank=True,
        help_text=_("The platform's lobby the event's games are played in (Tenhou: its number); empty: any lobby."),
    )
    max_log_age_days = models.PositiveSmallIntegerField(
        verbose_name=_("oldest log (days)"),
        null=True,
        blank=True,
        help_text=_("A log whose game was played longer ago than this is refused; empty: no limit."),
    )
    accepts_log_scoring = models.BooleanField(
        verbose_name=_("accept the log's scoring"),
        default=False,
        help_text=_(
            "Where Taikai's scoring of a hand differs from the log's, the log's is accepted at once and the table's "
            "result confirmed; otherwise the result waits for a referee to settle each disagreement."
        ),
    )

    class Meta:
        verbose_name = _("online league")
        verbose_name_plural = _("online leagues")

    def __str__(self) -> str:
        return str(self.event)
