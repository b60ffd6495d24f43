"""Seating engine: Swiss draw (seed 004 art. 41), no-repeat random seating and interval seating.

The entry point is ``seat_round(request: dict) -> dict`` speaking ``shared/seating-protocol.md``;
``parse_request`` + ``seat_request`` give the same on frozen dataclasses.
"""

from .protocol import Seating, seat_request, seat_round
from .report import QualityReport
from .request import ERROR_CODES, SeatingRequest, parse_request

__all__ = [
    "ERROR_CODES",
    "QualityReport",
    "Seating",
    "SeatingRequest",
    "parse_request",
    "seat_request",
    "seat_round",
]
