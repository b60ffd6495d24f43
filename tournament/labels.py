"""Hand labels (East 1, South 2, 1 honba …) worked out from the dealer sequence of the game."""

from __future__ import annotations

import itertools

from tournament.engine.overtime import overtime_hand_at, regular_hand_label
from tournament.selectors import overtime_seasons_played


def prevailing_wind(dealer_positions: list[int]) -> int:
    """0 = East round 東場, 1 = South 南場, …: it advances each time the deal passes back to seat 0."""
    wind = 0
    for before, after in itertools.pairwise(dealer_positions):
        if after < before:
            wind += 1
    return min(wind, 3)


def hand_label(event, table, number: int, hand_input, *, overtime: bool = False) -> str:
    """East 1, South 4, 2 honba … for a regular hand; 1年春 (Y1 Spring) … for an overtime hand (art. 39)."""
    from django.db.models import F

    from tournament.models import HandVersion

    if overtime:
        earlier_overtime = overtime_seasons_played(table, before_number=number)
        hand = overtime_hand_at(earlier_overtime)
        return f"{hand.label_ja} ({hand.label_en})"

    earlier = list(
        HandVersion.objects.filter(
            hand__table=table, hand__number__lt=number, version=F("hand__current_version")
        )
        .order_by("hand__number")
        .values_list("dealer_position", flat=True)
    )
    players = table.seats.exclude(absence="absent_before").count()
    return regular_hand_label(
        prevailing_wind([*earlier, hand_input.dealer_position]),
        hand_input.dealer_position + 1,
        hand_input.honba,
        players=players,
    )
