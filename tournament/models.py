"""Events 大会, entries, rounds 回戦, tables 卓, seats, hands 局 (versioned) and table results."""

from __future__ import annotations

import secrets
import zoneinfo

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.urls import reverse
from django.utils import timezone

from players.models import Player
from scoring.models import Ruleset
from tournament.engine.penalties import PENALTY_EFFECTS
from tournament.engine.standings import PRECEDENCE_KEYS
from tournament.fields import FractionField
from tournament.options import standings_precedence, table_numbers_parse

WINDS = ("E", "S", "W", "N")


class VersionedQuerySet(models.QuerySet):
    def current(self):
        """The version in force of each record; older versions stay for the audit trail."""
        return self.filter(is_current=True)


class VersionedRecord(models.Model):
    """One version of a record that is never edited in place: a correction adds the next version,
    marks it current and the one before not, and names who recorded it and when.

    The record it versions holds the head number (``Hand.current_version``, ``Table.result_version``):
    that is the row a writer locks and the optimistic check (``expected_version``) compares against.
    """

    version = models.PositiveIntegerField()
    is_current = models.BooleanField(default=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    recorded_by_card = models.ForeignKey(
        "ScorekeeperKey",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text="Recorded by the table's scorekeeper, through this table card (no account).",
    )
    recorded_at = models.DateTimeField(auto_now_add=True)

    objects = VersionedQuerySet.as_manager()

    class Meta:
        abstract = True

    @property
    def author(self) -> str:
        """Who recorded this version, for people: an account, a table card, or nobody (a simulation)."""
        if self.recorded_by_card_id:
            return f"table card #{self.recorded_by_card_id}"
        return str(self.recorded_by or "")


def default_time_zone() -> str:
    return settings.TIME_ZONE


class Event(models.Model):
    class Status(models.TextChoices):
        DRAFT = "draft", "Draft"
        REGISTRATION = "registration", "Registration"
        RUNNING = "running", "Running"
        FINISHED = "finished", "Finished"

    class EntryMode(models.TextChoices):
        HANDS = "hands", "Hand by hand"
        FINAL_SCORES = "final_scores", "Final scores only"

    class SeatingMethod(models.TextChoices):
        SWISS = "swiss", "Swiss (similar standing together)"
        RANDOM = "random", "Random, no repeats"
        INTERVAL = "interval", "Interval (fixed step)"

    class Remainder(models.TextChoices):
        THREE = "three", "Three-player tables"
        BYE = "bye", "Byes"

    name = models.CharField(max_length=160)
    slug = models.SlugField(max_length=80, unique=True)
    starts_on = models.DateField(null=True, blank=True)
    ends_on = models.DateField(null=True, blank=True)
    venue = models.CharField(max_length=200, blank=True)
    ruleset = models.ForeignKey(Ruleset, on_delete=models.PROTECT, related_name="events")
    table_size = models.PositiveSmallIntegerField(
        choices=[(4, "Four players"), (3, "Three players")], default=4
    )
    planned_rounds = models.PositiveSmallIntegerField(default=4)
    entry_mode = models.CharField(max_length=12, choices=EntryMode.choices, default=EntryMode.HANDS)
    advancing_places = models.PositiveSmallIntegerField(
        default=1, help_text="Places at a table that count as advancing 勝ち進み (1: the table's winner)."
    )
    standings_precedence = models.JSONField(
        default=list,
        blank=True,
        help_text='Ordered keys; empty means ["advances", "total_points"] (art. 41).',
    )
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.DRAFT)
    is_public = models.BooleanField(default=True)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="owned_events",
        help_text="The organizer who created the event; co-organizers and referees are its roles.",
    )
    seating_method = models.CharField(
        max_length=10, choices=SeatingMethod.choices, default=SeatingMethod.SWISS
    )
    seating_remainder = models.CharField(max_length=6, choices=Remainder.choices, default=Remainder.THREE)
    penalty_unit = models.PositiveIntegerField("penalty unit (art. 37)", default=100)
    tournament_play = models.BooleanField("tournament play (art. 43)", default=True)
    overtime_enabled = models.BooleanField("overtime 延長戦 (art. 39)", default=False)
    clock_bank_seconds = models.PositiveIntegerField("time bank per hand (art. 38)", null=True, blank=True)
    clock_increment_seconds = models.PositiveIntegerField("Fischer increment per move", default=0)
    time_zone = models.CharField(
        max_length=64,
        default=default_time_zone,
        help_text="Times on the event's pages are shown in this zone (an IANA name such as Asia/Tokyo).",
    )
    round_minutes = models.PositiveSmallIntegerField(
        "minutes per round", default=90, help_text="The round timer of the venue screen counts these down."
    )
    finals_mode = models.CharField(
        "finals (art. 40)",
        max_length=16,
        choices=[
            ("elimination", "Eliminate the overall last (40 ①–④)"),
            ("no_elimination", "No eliminations (40 ⑤)"),
        ],
        default="elimination",
    )
    final_games = models.PositiveSmallIntegerField(
        "games in the final (art. 40 ①)",
        default=1,
        help_text="規定対局: the final's decision (overtime, elimination, champion) comes after the last of "
        "these games; the finalists play them all first.",
    )
    champion = models.ForeignKey(
        "Entry",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="Decided by the final.",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-starts_on", "name"]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("tournament:event", args=[self.slug])

    @property
    def precedence(self) -> tuple[str, ...]:
        return standings_precedence(self)

    def clean(self) -> None:
        keys = self.standings_precedence or []
        if (
            not isinstance(keys, list)
            or any(k not in PRECEDENCE_KEYS for k in keys)
            or len(set(keys)) != len(keys)
        ):
            raise ValidationError(
                {
                    "standings_precedence": f"an ordered list of distinct keys from {', '.join(PRECEDENCE_KEYS)}"
                }
            )
        if self.starts_on and self.ends_on and self.ends_on < self.starts_on:
            raise ValidationError({"ends_on": "the event cannot end before it starts"})
        try:
            zoneinfo.ZoneInfo(self.time_zone)
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):
            raise ValidationError(
                {"time_zone": "an IANA time zone such as Asia/Tokyo or Europe/Paris"}
            ) from None
        if self.advancing_places < 1 or self.advancing_places >= self.table_size:
            raise ValidationError({"advancing_places": "between 1 and the table size − 1"})
        if self.final_games < 1:
            raise ValidationError({"final_games": "a final lasts at least one game"})


def personal_link_token() -> str:
    return secrets.token_urlsafe(24)


class RevocableRecord(models.Model):
    """A grant that can be revoked but is never deleted: revoking records who and when."""

    revoked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        abstract = True

    def revoke(self, by) -> None:
        """Revoke it now (a row already revoked keeps its first revocation); ``by`` is a user or None."""
        if self.revoked_at is None:
            self.revoked_at, self.revoked_by = timezone.now(), by
            self.save(update_fields=["revoked_at", "revoked_by"])


class EventRole(RevocableRecord):
    """A person's role in one event: co-organizer or referee. Revoking keeps the row, with who and when."""

    class Kind(models.TextChoices):
        ORGANIZER = "organizer", "Organizer"
        REFEREE = "referee", "Referee"

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="roles")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="event_roles")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    tables = models.CharField(
        max_length=200,
        blank=True,
        help_text="Referees only: the table numbers they cover, e.g. 1-8, 12. Empty: every table.",
    )
    granted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    granted_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["event", "kind", "user__username"]
        constraints = [
            models.UniqueConstraint(
                fields=["event", "user", "kind"],
                condition=models.Q(revoked_at__isnull=True),
                name="event_role_once_while_held",
            )
        ]

    def __str__(self) -> str:
        return f"{self.user} — {self.get_kind_display()} of {self.event}"

    def clean(self) -> None:
        try:
            table_numbers_parse(self.tables)
        except ValueError as exc:
            raise ValidationError({"tables": str(exc)}) from exc
        if self.tables.strip() and self.kind == self.Kind.ORGANIZER:
            raise ValidationError({"tables": "an organizer covers the whole event"})

    @property
    def table_numbers(self) -> frozenset[int] | None:
        """The tables a referee covers, or None for every table."""
        return table_numbers_parse(self.tables) or None


class Entry(models.Model):
    """A player's place in an event."""

    class Status(models.TextChoices):
        ACTIVE = "active", "Active"
        AWAY = "away", "Away (not seated until back)"
        WITHDRAWN = "withdrawn", "Withdrawn"
        DISQUALIFIED = "disqualified", "Disqualified"

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="entries")
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.ACTIVE)
    substitute_for = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="substitutes"
    )
    status_reason = models.CharField(max_length=200, blank=True)
    disqualified_by_penalty = models.ForeignKey(
        "Penalty",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text="Disqualified automatically by this penalty (art. 43); cancelling it lifts the "
        "disqualification unless an organizer confirmed it. Empty: a director's decision.",
    )
    disqualification_confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    disqualification_confirmed_at = models.DateTimeField(
        null=True, blank=True, help_text="Confirmed by an organizer: stays even if the penalty is cancelled."
    )
    registered_at = models.DateTimeField(auto_now_add=True)
    link_token = models.CharField(
        max_length=40,
        unique=True,
        default=personal_link_token,
        editable=False,
        help_text="The player's personal link to their own page in this event.",
    )

    class Meta:
        ordering = ["event", "player__display_name"]
        constraints = [
            models.UniqueConstraint(fields=["event", "player"], name="entry_player_once_per_event")
        ]
        verbose_name_plural = "entries"

    def __str__(self) -> str:
        return f"{self.player} @ {self.event}"

    @property
    def award_eligible(self) -> bool:
        return self.status != self.Status.DISQUALIFIED

    @property
    def disqualification_confirmed(self) -> bool:
        return self.disqualification_confirmed_at is not None


class Round(models.Model):
    class Status(models.TextChoices):
        DRAFT = "draft", "Seating draft"
        PUBLISHED = "published", "Published"
        PLAYING = "playing", "Playing"
        COMPLETED = "completed", "Completed"

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.DRAFT)
    is_final = models.BooleanField("final 決勝戦 (art. 40)", default=False)
    seating_report = models.JSONField(default=dict, blank=True)
    timer_started_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When the round's play started: the venue screen's timer counts from it.",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["event", "number"]
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="round_number_once_per_event")
        ]

    def __str__(self) -> str:
        return f"{self.event} — round {self.number}"


class Table(models.Model):
    class Status(models.TextChoices):
        PLAYING = "playing", "Playing"
        FINISHED = "finished", "Finished"

    class Overtime(models.TextChoices):
        """Where the game's overtime 延長戦 stands (art. 39), as the engine decided it."""

        NONE = "none", "No overtime"
        PLAYING = "playing", "Overtime in play"
        WON = "won_with_condition", "Ended: a winner met the win condition"
        NO_WINNER = "no_winner", "Ended: a hand without a winner"
        CLOSED = "closed_by_organizer", "Closed by the directors (art. 44)"
        FINAL = "final", "Overtime of the final (decided by art. 40)"

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PLAYING)
    overtime_year = models.PositiveSmallIntegerField(
        default=0, help_text="0: no overtime; 1, 2, 3…: the overtime year the game ended in (art. 39)."
    )
    overtime_state = models.CharField(max_length=20, choices=Overtime.choices, default=Overtime.NONE)
    result_version = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["round", "number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="table_number_once_per_round")
        ]

    def __str__(self) -> str:
        return f"{self.round} — table {self.number}"

    @property
    def multiplier(self) -> int:
        """Placement points ×1 in year 1 (and without overtime), ×2 in year 2, … (art. 39)."""
        return max(1, self.overtime_year)


class SeatQuerySet(models.QuerySet):
    def playing(self):
        """The seats of the game: everyone but a player absent before it (art. 42), in seat order."""
        return self.exclude(absence=Seat.Absence.ABSENT_BEFORE).order_by("position")


class Seat(models.Model):
    """A player at a table. ``position`` 0..3 is East, South, West, North at the start of the game."""

    class Absence(models.TextChoices):
        PRESENT = "present", "Present"
        ABSENT_BEFORE = "absent_before", "Absent before the game"
        ABSENT_DURING = "absent_during", "Left during the game"

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="seats")
    entry = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="seats")
    position = models.PositiveSmallIntegerField(choices=list(enumerate(WINDS)))
    absence = models.CharField(max_length=14, choices=Absence.choices, default=Absence.PRESENT)
    left_after_hand = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text="Left during the game: the last hand played (art. 42); later hands go on without.",
    )

    objects = SeatQuerySet.as_manager()

    class Meta:
        ordering = ["table", "position"]
        constraints = [
            models.UniqueConstraint(fields=["table", "position"], name="seat_position_once_per_table"),
            models.UniqueConstraint(fields=["round", "entry"], name="seat_player_once_per_round"),
        ]

    def __str__(self) -> str:
        return f"{WINDS[self.position]}: {self.entry.player}"

    @property
    def wind(self) -> str:
        return WINDS[self.position]

    @property
    def in_game(self) -> bool:
        """Art. 42: a player absent before the game is not one of its seats (the table plays 3 or 2)."""
        return self.absence != self.Absence.ABSENT_BEFORE

    def plays_hand(self, number: int) -> bool:
        """Art. 42: absent before the game, or left during it before hand ``number``: not in that hand."""
        if not self.in_game:
            return False
        return not (self.absence == self.Absence.ABSENT_DURING and (self.left_after_hand or 0) < number)


class Hand(models.Model):
    """One hand 局 of a table's game. Its content lives in versions: a correction is a new version."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="hands")
    number = models.PositiveSmallIntegerField(help_text="Order within the game, from 1.")
    current_version = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["table", "number"]
        constraints = [models.UniqueConstraint(fields=["table", "number"], name="hand_number_once_per_table")]

    def __str__(self) -> str:
        return f"{self.table} — hand {self.number}"


class HandVersionQuerySet(VersionedQuerySet):
    def in_force(self):
        """The current version of each hand of the game: a hand voided as entered by mistake is not one."""
        return self.current().exclude(outcome=HandVersion.Outcome.VOID)


class HandVersion(VersionedRecord):
    class Outcome(models.TextChoices):
        RON = "ron", "Ron 栄和"
        TSUMO = "tsumo", "Tsumo 自摸和"
        EXHAUSTIVE_DRAW = "exhaustive_draw", "Exhaustive draw 荒牌流局"
        ABORTIVE_DRAW = "abortive_draw", "Abortive draw 途中流局"
        REPLAYED = "replayed", "Stopped and replayed (art. 36 ③)"
        VOID = "void", "Void (entered by mistake)"

    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="versions")
    label = models.CharField(max_length=30)
    overtime = models.BooleanField(
        default=False, help_text="An overtime hand 延長戦 (art. 39): 1年春, 1年夏, …"
    )
    dealer_position = models.PositiveSmallIntegerField()
    honba = models.PositiveSmallIntegerField(default=0)  # 本場
    deposits_in = models.PositiveIntegerField(default=0)  # 供託 carried in, in points
    riichi_positions = models.JSONField(default=list, blank=True)
    outcome = models.CharField(max_length=16, choices=Outcome.choices)
    wins = models.JSONField(
        default=list, blank=True
    )  # [{winner, discarder, han, fu, yakuman, yaku, limit, hand}]
    tenpai_positions = models.JSONField(default=list, blank=True)
    deltas = models.JSONField(default=list)  # per seat position, deposits included
    deposits_out = models.PositiveIntegerField(default=0)
    note = models.CharField(max_length=200, blank=True)

    objects = HandVersionQuerySet.as_manager()

    class Meta:
        ordering = ["hand", "-version"]
        constraints = [
            models.UniqueConstraint(fields=["hand", "version"], name="hand_version_once"),
            models.UniqueConstraint(
                fields=["hand"], condition=models.Q(is_current=True), name="hand_one_current_version"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.hand} v{self.version}"


class SeatResult(VersionedRecord):
    """A seat's result in a table's game. Each confirmation is a new version; older ones stay."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="results")
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="results")
    entry = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="results")
    final_points = models.IntegerField(null=True, blank=True)
    placement = models.PositiveSmallIntegerField(null=True, blank=True)
    point_score = FractionField()
    placement_points = FractionField()  # 順位点 × multiplier
    oka = FractionField()
    game_points = FractionField()
    multiplier = models.PositiveSmallIntegerField(default=1)
    advanced = models.BooleanField(default=False)
    forfeit = models.BooleanField(default=False)  # 不戦敗 (art. 42)

    class Meta:
        ordering = ["table", "seat__position", "-version"]
        constraints = [
            models.UniqueConstraint(fields=["seat", "version"], name="seat_result_version_once"),
            models.UniqueConstraint(
                fields=["seat"], condition=models.Q(is_current=True), name="seat_one_current_result"
            ),
        ]
        indexes = [models.Index(fields=["entry", "is_current"])]

    def __str__(self) -> str:
        return f"{self.entry.player} at {self.table} v{self.version}"


class StandingsSnapshot(models.Model):
    """The event's standings as last computed; the public page reads this, never recomputes."""

    event = models.OneToOneField(Event, on_delete=models.CASCADE, related_name="standings_snapshot")
    rows = models.JSONField(default=list)
    computed_at = models.DateTimeField()
    rounds_included = models.PositiveSmallIntegerField(default=0)

    def __str__(self) -> str:
        return f"Standings of {self.event} at {self.computed_at:%Y-%m-%d %H:%M}"


PENALTY_KIND_CHOICES = [(kind.value, effect.label) for kind, effect in PENALTY_EFFECTS.items()]


class Penalty(models.Model):
    """A foul logged by a referee. Never deleted: a cancellation records who and why."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="penalties")
    table = models.ForeignKey(
        Table, null=True, blank=True, on_delete=models.PROTECT, related_name="penalties"
    )
    entry = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="penalties")
    round_number = models.PositiveSmallIntegerField(null=True, blank=True)
    hand_number = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="The hand the rights are lost for."
    )
    kind = models.CharField(max_length=30, choices=PENALTY_KIND_CHOICES)
    points = models.PositiveIntegerField(
        default=0, help_text="Penalty points deducted from the event total (art. 37)."
    )
    reason = models.CharField(max_length=300)
    logged_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    logged_at = models.DateTimeField(auto_now_add=True)
    cancelled_at = models.DateTimeField(null=True, blank=True)
    cancelled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    cancel_reason = models.CharField(max_length=300, blank=True)

    class Meta:
        ordering = ["event", "logged_at"]
        indexes = [models.Index(fields=["table", "hand_number"])]
        verbose_name_plural = "penalties"

    def __str__(self) -> str:
        return f"{self.get_kind_display().split(' — ')[0]}: {self.entry.player}"


class Ruling(models.Model):
    """A director's decision (art. 44), attached to the event and optionally a table or player."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="rulings")
    table = models.ForeignKey(Table, null=True, blank=True, on_delete=models.PROTECT, related_name="rulings")
    entry = models.ForeignKey(Entry, null=True, blank=True, on_delete=models.PROTECT, related_name="rulings")
    decision = models.TextField()
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    decided_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["event", "decided_at"]

    def __str__(self) -> str:
        return f"Ruling at {self.event} ({self.decided_at:%Y-%m-%d %H:%M})"


class TableClock(models.Model):
    """The chess clock of a table's current hand (art. 38), server-authoritative."""

    table = models.OneToOneField(Table, on_delete=models.CASCADE, related_name="clock")
    hand_number = models.PositiveSmallIntegerField()
    state = models.JSONField()
    version = models.PositiveIntegerField(default=1)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"Clock of {self.table}, hand {self.hand_number}"


class QueuedTask(models.Model):
    """Celery work a service asked for, written in the service's own transaction (an outbox): sent to the
    broker after the commit and deleted once the broker has it. A row that stays was not taken (the broker
    was down or unreachable); ``tournament.services.queue.outbox_flush`` sends it when the broker is back."""

    task = models.CharField(max_length=100)
    args = models.JSONField(default=list)
    commit_time = models.BooleanField(default=False, help_text="the time it is sent is its last argument")
    created_at = models.DateTimeField(auto_now_add=True)
    attempts = models.PositiveIntegerField(default=0)
    last_attempt_at = models.DateTimeField(null=True, blank=True)
    last_error = models.CharField(max_length=300, blank=True)

    class Meta:
        ordering = ["id"]
        indexes = [models.Index(fields=["created_at"])]

    def __str__(self) -> str:
        return f"{self.task}{tuple(self.args)}"


class SeatingJob(models.Model):
    """One request to seat an event's next round, run by a Celery task; its progress and errors.

    The running task beats (``heartbeat_at``) every few seconds; a job queued or running whose last beat
    is older than ``tournament.services.seating.SEATING_STALE_SECONDS`` has lost its worker, and the
    organizer may ask again (the seating is idempotent per round)."""

    class State(models.TextChoices):
        QUEUED = "queued", "Queued"
        RUNNING = "running", "Running"
        DONE = "done", "Done"
        FAILED = "failed", "Failed"

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="seating_jobs")
    round_number = models.PositiveSmallIntegerField()
    state = models.CharField(max_length=8, choices=State.choices, default=State.QUEUED)
    percent = models.PositiveSmallIntegerField(default=0)
    message = models.TextField(blank=True)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    heartbeat_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(default=1)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(fields=["event", "round_number"], name="one_seating_job_per_round")
        ]

    def __str__(self) -> str:
        return f"Seating of {self.event} round {self.round_number}: {self.state} {self.percent}%"


class ScorekeeperKey(RevocableRecord):
    """A link and PIN that let someone without an account keep one table's score in its round.

    Only digests are stored: the link and the PIN are shown once, on the printed table card.
    """

    MAX_FAILED_PINS = 5

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="scorekeeper_keys")
    token_digest = models.CharField(max_length=64, unique=True)
    pin_hash = models.CharField(max_length=128)
    failed_pins = models.PositiveSmallIntegerField(default=0)
    issued_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    issued_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["table", "-issued_at"]

    def __str__(self) -> str:
        return f"Scorekeeper key of {self.table} ({self.issued_at:%Y-%m-%d %H:%M})"

    @property
    def locked(self) -> bool:
        return self.failed_pins >= self.MAX_FAILED_PINS
