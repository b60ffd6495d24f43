"""The event's standings as last computed, and their rows."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tournament.fields import FractionField
from tournament.models.entries import Entry
from tournament.models.events import Event


class StandingsSnapshot(models.Model):
    """The event's standings as last computed: when, over which rounds, and how many rows. The rows are
    ``StandingsRow``s; pages read them a slice at a time and never recompute."""

    event = models.OneToOneField(
        Event, verbose_name=_("event"), on_delete=models.CASCADE, related_name="standings_snapshot"
    )
    computed_at = models.DateTimeField(verbose_name=_("computed at"))
    rounds_included = models.PositiveSmallIntegerField(verbose_name=_("rounds included"), default=0)
    round_numbers = models.JSONField(
        verbose_name=_("round numbers"),
        default=list,
        help_text=_("The rounds with a column on the standings."),
    )
    row_count = models.PositiveIntegerField(verbose_name=_("rows"), default=0)
    hidden_from_round = models.PositiveSmallIntegerField(
        verbose_name=_("hidden from round"),
        null=True,
        blank=True,
        help_text=_("The public rows stop before this round (the event hides its last rounds)."),
    )
    checking_from_round = models.PositiveSmallIntegerField(
        verbose_name=_("being checked from round"),
        null=True,
        blank=True,
        help_text=_("The public rows stop before this round because its results are not checked yet."),
    )

    class Meta:
        verbose_name = _("standings snapshot")
        verbose_name_plural = _("standings snapshots")

    def __str__(self) -> str:
        return gettext("Standings of %(event)s at %(time)s") % {
            "event": self.event,
            "time": f"{self.computed_at:%Y-%m-%d %H:%M}",
        }


class StandingsRow(models.Model):
    """One player's line of the standings as last computed, at its place (``position`` 0 is first): a page
    of the standings reads its slice by position, a player's page its own row by entry."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="standings_rows")
    position = models.PositiveIntegerField()
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="standings_rows")
    rank = models.PositiveIntegerField()
    award_rank = models.PositiveIntegerField(null=True, blank=True)  # disqualified players passed over
    advances = models.PositiveIntegerField(default=0)
    total_points = FractionField()
    games = models.PositiveIntegerField(default=0)
    penalty_points = models.PositiveIntegerField(default=0)  # art. 37, raw points, already deducted
    status = models.CharField(max_length=12, choices=Entry.Status.choices)
    name = models.CharField(max_length=120)
    club = models.CharField(max_length=120, blank=True)
    country = models.CharField(max_length=2, blank=True)
    history = models.JSONField(default=list)  # [round number, game points as text, advanced] per game
    search = models.TextField(blank=True)  # the player's search keys and the club, folded

    class Meta:
        ordering = ["event_id", "position"]
        constraints = [
            models.UniqueConstraint(fields=["event", "position"], name="standings_row_position_once"),
            models.UniqueConstraint(fields=["event", "entry"], name="standings_row_entry_once"),
        ]

    def __str__(self) -> str:
        return f"{self.rank}. {self.name} ({self.event})"

    def cells(self, round_numbers) -> list[tuple[str, bool] | None]:
        """One (game points, advanced) per round of ``round_numbers``, None where the player has no game."""
        played = {number: (points, advanced) for number, points, advanced in self.history}
        return [played.get(number) for number in round_numbers]
