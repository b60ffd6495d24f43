"""The tournament's records, one module per subject (the subjects of ``tournament.services``): events 大会,
entries, teams, roles, rounds 回戦, tables 卓 and seats, hands 局 (versioned), seat results (versioned),
standings, discipline, the clock, seating jobs, table cards and API tokens (the broker queue is
``core.models``).

Every model is imported here: Django finds the app's models in ``tournament.models``, and the rest of the
project imports them from it (``from tournament.models import Event``). The modules themselves import each
other, never this package."""

from tournament.models.base import SEAT_WIND_CHOICES
from tournament.models.clock import TableClock
from tournament.models.discipline import PENALTY_KIND_CHOICES, Penalty, Ruling, TableReseat
from tournament.models.entries import Entry, personal_link_token
from tournament.models.events import Event, default_time_zone
from tournament.models.hands import Hand, HandVersion
from tournament.models.results import SeatResult
from tournament.models.roles import EventRole
from tournament.models.rounds import Round, RoundCheck, RoundGuardOverride
from tournament.models.rule_changes import RuleChange
from tournament.models.seating import SeatingJob
from tournament.models.standings import StandingsRow, StandingsSnapshot
from tournament.models.tables import Seat, SeatReading, Table
from tournament.models.teams import Team, TeamMember, TeamSwap
from tournament.models.tokens import ApiToken, ScorekeeperKey

__all__ = [
    "PENALTY_KIND_CHOICES",
    "SEAT_WIND_CHOICES",
    "ApiToken",
    "Entry",
    "Event",
    "EventRole",
    "Hand",
    "HandVersion",
    "Penalty",
    "Round",
    "RoundCheck",
    "RoundGuardOverride",
    "RuleChange",
    "Ruling",
    "ScorekeeperKey",
    "Seat",
    "SeatReading",
    "SeatResult",
    "SeatingJob",
    "StandingsRow",
    "StandingsSnapshot",
    "Table",
    "TableClock",
    "TableReseat",
    "Team",
    "TeamMember",
    "TeamSwap",
    "default_time_zone",
    "personal_link_token",
]
