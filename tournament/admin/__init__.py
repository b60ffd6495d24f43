"""The organizer's and referee's screens in the admin, one module per subject."""

from tournament.admin import discipline, events, hands, players, roles, rounds, rulesets, seating_jobs, tables, teams

__all__ = [
    "discipline",
    "events",
    "hands",
    "players",
    "roles",
    "rounds",
    "rulesets",
    "seating_jobs",
    "tables",
    "teams",
]
