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

    class TableStart(models.TextChoices):
        TOURNAMENT_LOBBY = "tournament_lobby", _("the organizer starts each table in the event's tournament lobby")
        FRIEND_ROOM = "friend_room", _("a player of each table hosts a friend room")

    platform = models.CharField(
        verbose_name=_("platform"),
        max_length=16,
        choices=OnlineAccount.Platform.choices,
        default=OnlineAccount.Platform.TENHOU,
        help_text=_("Where the event's games are played: the seating shows each player's name there."),
    )
    table_start = models.CharField(
        verbose_name=_("how a table starts"),
        max_length=20,
        choices=TableStart.choices,
        default=TableStart.FRIEND_ROOM,
    )
    lobby_adapter = models.CharField(
        verbose_name=_("lobby adapter"),
        max_length=30,
        default="manual",
        help_text=_(
            "What starts the tables: manual (the seating says what to do; always works), or an adapter that calls "
            "the platform, once the site enables it (ONLINE_LOBBY_ADAPTERS)."
        ),
    )

    class Unconfirmed(models.TextChoices):
        LEFT_OUT = "left_out", _("left out of that round")
        AWAY = "away", _("marked away (not seated until back)")
        WITHDRAWN = "withdrawn", _("withdrawn from the event")

    unconfirmed = models.CharField(
        verbose_name=_("a player who did not confirm"),
        max_length=10,
        choices=Unconfirmed.choices,
        default=Unconfirmed.LEFT_OUT,
        help_text=_(
            "Where a round has a confirmation window: what becomes of a player who did not confirm by its close "
            "(always left out of that round's seating and marked absent for it)."
        ),
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


class ConfirmationWindow(models.Model):
    """Before an online round is seated, its players confirm from their private link that they will play; at the
    window's close the unconfirmed are left out of the round's seating and marked absent."""

    event = models.ForeignKey(
        "tournament.Event",
        verbose_name=_("event"),
        on_delete=models.CASCADE,
        related_name="confirmation_windows",
    )
    round_number = models.PositiveSmallIntegerField(verbose_name=_("round"))
    closes_at = models.DateTimeField(verbose_name=_("closes at"))
    closed_at = models.DateTimeField(
        verbose_name=_("closed at"),
        null=True,
        blank=True,
        help_text=_("When the unconfirmed were marked absent; empty: not yet."),
    )

    class Meta:
        ordering = ["event", "round_number"]
        verbose_name = _("confirmation window")
        verbose_name_plural = _("confirmation windows")
        constraints = [
            models.UniqueConstraint(fields=["event", "round_number"], name="one_confirmation_window_a_round")
        ]

    def __str__(self) -> str:
        return f"{self.event} · {self.round_number}"


class PlayConfirmation(models.Model):
    """A player's answer to a round's confirmation window: confirmed, or marked absent at its close."""

    class State(models.TextChoices):
        CONFIRMED = "confirmed", _("will play")
        ABSENT = "absent", _("absent (did not confirm)")

    window = models.ForeignKey(
        ConfirmationWindow, verbose_name=_("confirmation window"), on_delete=models.CASCADE, related_name="answers"
    )
    entry = models.ForeignKey(
        "tournament.Entry", verbose_name=_("entry"), on_delete=models.CASCADE, related_name="play_confirmations"
    )
    state = models.CharField(verbose_name=_("state"), max_length=10, choices=State.choices)
    at = models.DateTimeField(verbose_name=_("at"), auto_now_add=True)

    class Meta:
        ordering = ["window", "entry"]
        verbose_name = _("play confirmation")
        verbose_name_plural = _("play confirmations")
        constraints = [models.UniqueConstraint(fields=["window", "entry"], name="one_answer_a_window")]

    def __str__(self) -> str:
        return f"{self.window} · {self.entry_id} · {self.state}"


class OnlineTable(models.Model):
    """A table of a hybrid round played online: its game comes from a log, while the round's other tables play at
    the console. A round with no table flagged takes a log at any of its tables."""

    table = models.OneToOneField(
        "tournament.Table", verbose_name=_("table"), on_delete=models.CASCADE, related_name="online"
    )
    created_at = models.DateTimeField(verbose_name=_("flagged at"), auto_now_add=True)

    class Meta:
        ordering = ["table"]
        verbose_name = _("online table")
        verbose_name_plural = _("online tables")

    def __str__(self) -> str:
        return str(self.table)
