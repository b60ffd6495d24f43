"""Tables 卓 and their seats (who plays where, who was absent or left, art. 42)."""

from __future__ import annotations

import functools

from django.conf import settings
from django.db import models
from django.utils.translation import get_language, gettext
from django.utils.translation import gettext_lazy as _

from tournament.models.base import SEAT_WIND_CHOICES
from tournament.models.entries import Entry
from tournament.models.rounds import Round


class Table(models.Model):
    class Status(models.TextChoices):
        PLAYING = "playing", _("Playing")
        FINISHED = "finished", _("Finished")

    class Overtime(models.TextChoices):
        """Where the game's overtime 延長戦 stands (art. 39), as the engine decided it."""

        NONE = "none", _("No overtime")
        PLAYING = "playing", _("Overtime in play")
        WON = "won_with_condition", _("Ended: a winner met the win condition")
        NO_WINNER = "no_winner", _("Ended: a hand without a winner")
        CLOSED = "closed_by_organizer", _("Closed by the directors (art. 44)")
        FINAL = "final", _("Overtime of the final (decided by art. 40)")

    round = models.ForeignKey(Round, verbose_name=_("round"), on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField(verbose_name=_("number"))
    status = models.CharField(verbose_name=_("status"), max_length=10, choices=Status.choices, default=Status.PLAYING)
    overtime_year = models.PositiveSmallIntegerField(
        verbose_name=_("overtime year"),
        default=0,
        help_text=_("0: no overtime; 1, 2, 3…: the overtime year the game ended in (art. 39)."),
    )
    overtime_state = models.CharField(
        verbose_name=_("overtime state"), max_length=20, choices=Overtime.choices, default=Overtime.NONE
    )
    result_version = models.PositiveIntegerField(verbose_name=_("result version"), default=0)
    # The game in progress as pages show it, kept by the hand services with every hand written: the points
    # of each seat in the game after the last hand in force, how many hands, and a counter of hand writes
    # (pages are cached for it). Derived from the hands, never edited.
    running_points = models.JSONField(verbose_name=_("points after the last hand"), default=list, blank=True)
    running_hands = models.PositiveSmallIntegerField(verbose_name=_("hands in force"), default=0)
    running_version = models.PositiveIntegerField(verbose_name=_("hand writes"), default=0)
    # A referee held the late players' clock for this table (nobody is marked absent by it here): who, when.
    late_held_at = models.DateTimeField(verbose_name=_("late players' clock held at"), null=True, blank=True)
    # The referee was warned (and the table announced) the minute before its late players are marked absent.
    late_warned_at = models.DateTimeField(verbose_name=_("late players' warning announced at"), null=True, blank=True)
    late_held_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("late players' clock held by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    # who held it, as an imported archive named them (no account here): kept as text
    late_held_by_name = models.CharField(
        verbose_name=_("late players' clock held by (name)"), max_length=150, blank=True
    )

    class Meta:
        ordering = ["round", "number"]
        constraints = [models.UniqueConstraint(fields=["round", "number"], name="table_number_once_per_round")]
        verbose_name = _("table")
        verbose_name_plural = _("tables")

    def __str__(self) -> str:
        return gettext("%(round)s — table %(number)s") % {"round": self.round, "number": self.number}

    @property
    def multiplier(self) -> int:
        """Placement points ×1 in year 1 (and without overtime), ×2 in year 2, … (art. 39)."""
        return max(1, self.overtime_year)


class SeatQuerySet(models.QuerySet):
    def playing(self):
        """The seats of the game: everyone but a player absent before it (art. 42), in seat order."""
        return self.exclude(absence=Seat.Absence.ABSENT_BEFORE).order_by("position")


class SeatArrival(models.TextChoices):
    """Who said a player is at their table."""

    REFEREE = "referee", _("the referee")
    PLAYER = "player", _("the player's own link")


class SeatAbsence(models.TextChoices):
    PRESENT = "present", _("Present")
    ABSENT_BEFORE = "absent_before", _("Absent before the game")
    ABSENT_DURING = "absent_during", _("Left during the game")


@functools.lru_cache(maxsize=64)
def wind_label(position: int, language: str | None) -> str:
    """A wind read in ``language``, the one active (an audit of a 10,000-player event reads 300,000)."""
    return str(SEAT_WIND_CHOICES[position][1])


class SeatReading:
    """What a seat says from its ``position`` and ``absence``: a ``Seat`` row, or a seat read as plain
    values for a page."""

    @property
    def wind(self) -> str:
        """The seat's wind in one character, in the reader's language (E, S, W, N; 東 南 西 北)."""
        return wind_label(self.position, get_language())

    @property
    def in_game(self) -> bool:
        """Art. 42: a player absent before the game is not one of its seats (the table plays 3 or 2)."""
        return self.absence != SeatAbsence.ABSENT_BEFORE


class Seat(SeatReading, models.Model):
    """A player at a table. ``position`` 0..3 is East, South, West, North at the start of the game."""

    Absence = SeatAbsence
    Arrival = SeatArrival

    table = models.ForeignKey(Table, verbose_name=_("table"), on_delete=models.CASCADE, related_name="seats")
    round = models.ForeignKey(Round, verbose_name=_("round"), on_delete=models.CASCADE, related_name="seats")
    entry = models.ForeignKey(Entry, verbose_name=_("entry"), on_delete=models.PROTECT, related_name="seats")
    position = models.PositiveSmallIntegerField(verbose_name=_("position"), choices=SEAT_WIND_CHOICES)
    absence = models.CharField(
        verbose_name=_("absence"), max_length=14, choices=Absence.choices, default=Absence.PRESENT
    )
    left_after_hand = models.PositiveSmallIntegerField(
        verbose_name=_("left after hand"),
        null=True,
        blank=True,
        help_text=_("Left during the game: the last hand played (art. 42); later hands go on without."),
    )
    # Checked in at the table (the referee saw them, or their own link said "I am here"): never late.
    arrived_at = models.DateTimeField(verbose_name=_("checked in at the table at"), null=True, blank=True)
    arrived_how = models.CharField(
        verbose_name=_("checked in by"), max_length=8, choices=SeatArrival.choices, blank=True
    )
    # Marked absent by the late players' clock (art. 42), not by a referee: when.
    late_marked_at = models.DateTimeField(verbose_name=_("marked absent as late at"), null=True, blank=True)

    objects = SeatQuerySet.as_manager()

    class Meta:
        ordering = ["table", "position"]
        constraints = [
            models.UniqueConstraint(fields=["table", "position"], name="seat_position_once_per_table"),
            models.UniqueConstraint(fields=["round", "entry"], name="seat_player_once_per_round"),
        ]
        verbose_name = _("seat")
        verbose_name_plural = _("seats")

    def __str__(self) -> str:
        return gettext("%(wind)s: %(player)s") % {
            "wind": self.get_position_display(),
            "player": self.entry.player,
        }

    def plays_hand(self, number: int) -> bool:
        """Art. 42: absent before the game, or left during it before hand ``number``: not in that hand."""
        if not self.in_game:
            return False
        return not (self.absence == self.Absence.ABSENT_DURING and (self.left_after_hand or 0) < number)
