"""The one mapping from an ``Event`` row (and its ruleset) to the tournament engine's settings.

One function per kind of settings; the row is read by attribute only.
"""

from __future__ import annotations

import random
import zlib
from typing import TYPE_CHECKING

from scoring.options import ruleset_uma
from tournament.engine import clock
from tournament.engine.game_end import GameEndRules
from tournament.engine.standings import DEFAULT_PRECEDENCE, StandingsOptions, draw_lots
from tournament.engine.table_result import TableRules

if TYPE_CHECKING:
    from tournament.models import Event

SEATING_TIME_LIMIT_S = 4.0


def table_rules(event: Event) -> TableRules:
    """Placement points 順位点, oka and ties for a game of the event (art. 42 short tables included)."""
    ruleset = event.ruleset
    return TableRules(
        uma_4=ruleset_uma(ruleset, 4),
        uma_3=ruleset_uma(ruleset, 3),
        uma_2=ruleset_uma(ruleset, 2),
        start_points=ruleset.start_points,
        return_points=ruleset.return_points,
        tie_rule=ruleset.tie_rule,
        advancing_places=event.advancing_places,
    )


def game_end_rules(event: Event) -> GameEndRules:
    """When a game ends before its last hand: the round's time up, a chombo, busting (the ruleset's)."""
    ruleset = event.ruleset
    return GameEndRules(
        time_up_ending=ruleset.time_up_ending,
        chombo_ends_game=ruleset.chombo_ends_game,
        busting=ruleset.busting,
    )


def standings_precedence(event: Event) -> tuple[str, ...]:
    """Art. 41: the keys that order the overall standings 総合順位, the article's by default."""
    return tuple(event.standings_precedence or DEFAULT_PRECEDENCE)


def standings_options(event: Event) -> StandingsOptions:
    return StandingsOptions(precedence=standings_precedence(event))


def standings_lots(event: Event, entry_ids) -> dict | None:
    """The lots 抽選 that break the standings' last ties, drawn from the event's seed over its entries by id
    (None when the precedence has no lot)."""
    if "lot" not in standings_precedence(event):
        return None
    return draw_lots(sorted(entry_ids), random.Random(f"taikai-lot:{event.draw_seed}"))


def clock_settings(event: Event, *, players: int, absent: frozenset[int] = frozenset()) -> clock.ClockSettings:
    """Art. 38: the time bank 持ち時間 per hand and the increment per move, for ``players`` seats of which
    ``absent`` have left the game (art. 42)."""
    return clock.ClockSettings(
        bank_ms=(event.clock_bank_seconds or 0) * 1000,
        increment_ms=event.clock_increment_seconds * 1000,
        players=players,
        absent=absent,
    )


def round_draw_seed(event: Event, round_number: int) -> int:
    """A round's draw seed when none is set: derived from the event's draw seed and the round's number, so the
    same event seats the same round the same way wherever it is drawn again."""
    return zlib.crc32(f"{event.draw_seed}:{round_number}".encode())


def seating_settings(
    event: Event,
    *,
    round_number: int,
    swiss_ready: bool,
    seed: int | None = None,
    time_limit_s: float | None = None,
) -> dict:
    """The settings part of a ``../shared/seating-protocol.md`` request. Swiss needs standings, so the
    first round of a Swiss event is seated at random (``swiss_ready`` false)."""
    mode = event.seating_method if (swiss_ready or event.seating_method != "swiss") else "random"
    return {
        "table_size": event.table_size,
        "mode": mode,
        "remainder": event.seating_remainder,
        "round": round_number,
        "total_rounds": max(event.planned_rounds, round_number),
        "seed": round_draw_seed(event, round_number) if seed is None else seed,
        "time_limit_s": SEATING_TIME_LIMIT_S if time_limit_s is None else time_limit_s,
    }


def table_numbers_parse(text: str) -> frozenset[int]:
    """A referee's tables written as ``"1-8, 12"``: the numbers they cover. Empty text covers none here;
    the caller reads empty as "every table". Raises ``ValueError`` naming the part it cannot read."""
    numbers: set[int] = set()
    for part in (p.strip() for p in text.replace("、", ",").split(",")):
        if not part:
            continue
        low, _, high = part.partition("-")
        try:
            first, last = int(low), int(high or low)
        except ValueError:
            raise ValueError(f"{part!r} is not a table number or a range such as 1-8") from None
        if first < 1 or last < first or last - first > 10_000:
            raise ValueError(f"{part!r} is not a range of table numbers from 1 up")
        numbers.update(range(first, last + 1))
    return frozenset(numbers)
