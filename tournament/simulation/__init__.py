"""Simulated events: a pure game (:mod:`.game`) played through the services (:mod:`.play`); a large finished
event written in bulk for the benchmarks (:mod:`.bulk`).

Used for the demo data, to measure the services on a large field and, together with
``tournament.audit``, to check that everything the services record holds together.
"""

from tournament.simulation.game import (
    HAND_CAP,
    NO_INCIDENTS,
    OVERTIME_HAND_CAP,
    OVERTIME_THRESHOLD,
    GameState,
    Incidents,
    SimulationError,
    fu_allowed,
    game_advance,
    hand_draw,
    overtime_wanted,
    replayed_hand,
    seat_leaves,
    tables_partition,
    win_value_draw,
)
from tournament.simulation.play import (
    INCIDENT_NAMES,
    SEATING_CHOICES,
    SimulationSummary,
    event_create,
    event_simulate,
    final_play,
    round_play,
    round_seat,
    simulated_players,
    table_play,
)

__all__ = [
    "HAND_CAP",
    "INCIDENT_NAMES",
    "NO_INCIDENTS",
    "OVERTIME_HAND_CAP",
    "OVERTIME_THRESHOLD",
    "SEATING_CHOICES",
    "GameState",
    "Incidents",
    "SimulationError",
    "SimulationSummary",
    "event_create",
    "event_simulate",
    "final_play",
    "fu_allowed",
    "game_advance",
    "hand_draw",
    "overtime_wanted",
    "replayed_hand",
    "round_play",
    "round_seat",
    "seat_leaves",
    "simulated_players",
    "table_play",
    "tables_partition",
    "win_value_draw",
]
