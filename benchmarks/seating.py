"""Seating figures: simulated events from 16 to 1,000 players, one 10,000-player round, and speed.

Run: ``python benchmarks/seating.py [events|large|speed|groups] [--only TEXT] [--time-limit S]`` (all
four by default; ``--only 18`` keeps the events whose name contains "18"; requests carry the protocol's
default ``time_limit_s`` unless ``--time-limit`` is given; ``--seeds 11-50`` runs the events over these
seeds and prints each axis's mean and standard error, the figures to compare changes on). Every round
goes through ``seat_round`` one
at a time with the history fed back, as an event would; results between Swiss rounds are simulated
(a placement bonus plus noise), so the standings move. Absent and withdrawn players are listed in
``absent``; a Swiss event's first round is seated at random, as the admin does.

Figures, counted here from the tables the engine returned (not from its report):

* repeats: repeated meetings = the sum over pairs of max(0, meetings − 1) over the whole event;
* above ideal: players whose seat counts (games in each wind seat: East, South, West, North, or
  East, South, West in a three-player event; a three-player table in a four-player event has no
  North) differ by more than 1 between their most and least used seat after the last round;
* spread: mean rank spread = mean over tables of (max rank − min rank) of the players at the table,
  ranks being positions among the players active that round in the standings before it; the figure
  is the mean over rounds 2 onwards (round 1 has no standings). Random events have none ("-").

A line reads ``repeats / above ideal / spread``. ``reference`` and ``before`` are the figures of the
reference engine and of our engine before this pass, as measured on the hidden scenario set (left
blank where none was given); ``dominated`` says whether the reference is at least as good on all
three and better on one.

* large: one Swiss round for 10,000 players after 5 rounds of random history (random tables and
  seat orders, random standings): seconds (median of 3), new repeated pairs, players above ideal
  after the round and the lowest count possible (players whose counts cannot reach a spread of 1
  whatever seat they get), and the round's mean rank spread;
* speed: one Swiss round (8th, with history) and one first round for 100, 1,000 and 10,000
  players, budget 5 s;
* groups (``docs/seating-groups.md``): 64 players in 16 teams of 4 (never) over 8 random rounds;
  120 players from 30 clubs of 2-8 (avoid) over 8 Swiss rounds; 10,000 players in 1,000 teams of
  10 (never), one Swiss round after 5 rounds of random history. Each with and without the groups:
  repeats, same-group pairs against their lower bound (per round, a group of ``m`` seated at ``t``
  tables has at least ``sum C(k_i, 2)`` pairs together, the ``k_i`` as even as possible; summed over
  groups and rounds), players above ideal, spread, time.
"""

from __future__ import annotations

import argparse
import itertools
import math
import random
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournament.engine.pairing import seat_round

SPEED_BUDGET_S = 5.0
PLACEMENT_POINTS = (45, 5, -15, -35)  # a placement bonus (順位点) plus noise makes the standings move


@dataclass(frozen=True)
class Scenario:
    name: str
    players: int
    rounds: int
    mode: str  # "swiss" or "random"
    table_size: int = 4
    remainder: str = "three"
    absences: str = ""  # "", "absent" (a few miss one round each), "withdraw" (a few leave for good)
    reference: tuple | None = None  # (repeats, above ideal, spread) of the reference, None = not given
    before: tuple | None = None  # ours before this pass on the hidden set


SCENARIOS = (
    Scenario("random 16x5", 16, 5, "random"),
    Scenario("random 20x6", 20, 6, "random"),
    Scenario("random 32x10", 32, 10, "random", reference=(0, None, None), before=(34, None, None)),
    Scenario("random 18x6 t3", 18, 6, "random", table_size=3, reference=(7, None, None), before=(9, None, None)),
    Scenario("random 18x6 4+3", 18, 6, "random", reference=(7, None, None), before=(9, None, None)),
    Scenario("random 17x7 bye", 17, 7, "random", remainder="bye"),
    Scenario("random 24x8 absent", 24, 8, "random", absences="absent"),
    Scenario("random 40x9 withdraw", 40, 9, "random", absences="withdraw"),
    Scenario("random 27x9 t3", 27, 9, "random", table_size=3),
    Scenario("random 64x12", 64, 12, "random"),
    Scenario("random 100x10 absent", 100, 10, "random", absences="absent"),
    Scenario("random 256x8", 256, 8, "random"),
    Scenario("random 1000x6", 1000, 6, "random"),
    Scenario("swiss 16x12", 16, 12, "swiss", reference=(None, 0, None), before=(None, 3, None)),
    Scenario("swiss 17x8 4+3", 17, 8, "swiss"),
    Scenario("swiss 18x7 4+3", 18, 7, "swiss", reference=(22, None, None), before=(25, None, None)),
    Scenario("swiss 17x8 t3", 17, 8, "swiss", table_size=3),
    Scenario("swiss 18x7 t3", 18, 7, "swiss", table_size=3, reference=(22, None, None), before=(25, None, None)),
    Scenario("swiss 19x6 absent", 19, 6, "swiss", absences="absent"),
    Scenario("swiss 22x9 bye", 22, 9, "swiss", remainder="bye"),
    Scenario("swiss 32x8", 32, 8, "swiss"),
    Scenario("swiss 40x10 withdraw", 40, 10, "swiss", absences="withdraw"),
    Scenario("swiss 48x8", 48, 8, "swiss"),
    Scenario("swiss 64x12", 64, 12, "swiss"),
    Scenario("swiss 100x8 absent", 100, 8, "swiss", absences="absent"),
    Scenario("swiss 150x6 t3", 150, 6, "swiss", table_size=3),
    Scenario("swiss 256x10", 256, 10, "swiss", reference=(3, None, 5.68), before=(0, None, 4.36)),
    Scenario("swiss 500x5 withdraw", 500, 5, "swiss", absences="withdraw"),
    Scenario("swiss 1000x8", 1000, 8, "swiss", reference=(None, 112, 3.95), before=(None, 336, 3.24)),
)

LARGE_REFERENCE = (None, 4379, 4.85)
LARGE_BEFORE = (None, 5214, 3.02)


def absent_in_round(scenario: Scenario, ids: list[int], round_number: int) -> list[int]:
    """Seeded absences: "absent": about 1 in 16 (at least one) miss each round from round 2, each
    only that round; "withdraw": about 1 in 16 (at least one) leave for good, spread over the rounds
    after the first third."""
    rng = random.Random(f"{scenario.name}:absences")
    count = max(1, len(ids) // 16)
    if scenario.absences == "absent":
        if round_number == 1:
            return []
        return random.Random(f"{scenario.name}:{round_number}").sample(ids, count)
    if scenario.absences == "withdraw":
        leaving = rng.sample(ids, count)
        first = max(2, scenario.rounds // 3 + 1)
        span = max(1, scenario.rounds - first)
        return [player for index, player in enumerate(leaving) if round_number >= first + index % span]
    return []


def simulate_results(tables: list, scores: dict, rng: random.Random) -> None:
    for table in tables:
        placements = list(PLACEMENT_POINTS[: len(table)])
        rng.shuffle(placements)
        for player, bonus in zip(table, placements, strict=False):
            scores[player] += bonus + rng.randrange(-20, 21)


def repeated_meetings(history: list) -> int:
    counts: dict[tuple, int] = {}
    for tables in history:
        for table in tables:
            for pair in itertools.combinations(sorted(table), 2):
                counts[pair] = counts.get(pair, 0) + 1
    return sum(count - 1 for count in counts.values())


def seat_counts(history: list, seats: int) -> dict:
    counts: dict = {}
    for tables in history:
        for table in tables:
            for seat, player in enumerate(table):
                counts.setdefault(player, [0] * seats)[seat] += 1
    return counts


def above_ideal(history: list, seats: int) -> int:
    return sum(1 for counts in seat_counts(history, seats).values() if max(counts) - min(counts) > 1)


def round_spread(tables: list, standings: list, absent: set) -> float:
    rank = {player: position for position, player in enumerate(p for p in standings if p not in absent)}
    spreads = [max(rank[p] for p in table) - min(rank[p] for p in table) for table in tables]
    return sum(spreads) / len(spreads)


def run_event(
    scenario: Scenario, seed: int = 11, time_limit_s: float | None = None, groups: list | None = None
) -> dict:
    rng = random.Random(seed)
    ids = list(range(1, scenario.players + 1))
    scores = dict.fromkeys(ids, 0)
    history: list = []
    spreads = []
    started = time.perf_counter()
    slowest = 0.0
    group_pairs = group_bound = 0
    for round_number in range(1, scenario.rounds + 1):
        absent = absent_in_round(scenario, ids, round_number)
        swiss = scenario.mode == "swiss" and round_number > 1
        standings = sorted(ids, key=lambda player: (-scores[player], player)) if swiss else []
        request = {
            "players": ids,
            "history": history,
            "standings": standings,
            "absent": absent,
            "mode": "swiss" if swiss else "random",
            "table_size": scenario.table_size,
            "remainder": scenario.remainder,
            "round": round_number,
            "total_rounds": scenario.rounds,
            "seed": seed,
        }
        if time_limit_s is not None:
            request["time_limit_s"] = time_limit_s
        if groups:
            request["groups"] = groups
        round_started = time.perf_counter()
        response = seat_round(request)
        slowest = max(slowest, time.perf_counter() - round_started)
        assert "tables" in response, response
        if groups:
            pairs, bound = same_group_pairs(groups, response["tables"])
            group_pairs += pairs
            group_bound += bound
        if swiss:
            spreads.append(round_spread(response["tables"], standings, set(absent)))
        history.append(response["tables"])
        simulate_results(response["tables"], scores, rng)
    return {
        "repeats": repeated_meetings(history),
        "above": above_ideal(history, scenario.table_size),
        "spread": sum(spreads) / len(spreads) if spreads else None,
        "seconds": time.perf_counter() - started,
        "slowest_round": slowest,
        "group_pairs": group_pairs,
        "group_bound": group_bound,
        "history": history,
    }


def same_group_pairs(groups: list, tables: list) -> tuple[int, int]:
    """(pairs of a group seated together, their lower bound) in one round, recounted here."""
    table_of = {player: index for index, table in enumerate(tables) for player in table}
    pairs = bound = 0
    for group in groups:
        seated = [table_of[player] for player in group["members"] if player in table_of]
        for first, second in itertools.combinations(seated, 2):
            pairs += first == second
        low, extra = divmod(len(seated), len(tables))
        bound += extra * (low + 1) * low // 2 + (len(tables) - extra) * low * (low - 1) // 2
    return pairs, bound


def _figure(value) -> str:
    if value is None:
        return "-"
    return f"{value:.2f}" if isinstance(value, float) else str(value)


def _triple(values) -> str:
    return " / ".join(_figure(value) for value in values) if values else "-"


def dominated(ours: tuple, theirs: tuple | None) -> bool:
    """The reference at least as good on every axis it was measured on, and better on one."""
    if theirs is None:
        return False
    pairs = [(mine, ref) for mine, ref in zip(ours, theirs, strict=True) if ref is not None and mine is not None]
    return bool(pairs) and all(ref <= mine for mine, ref in pairs) and any(ref < mine for mine, ref in pairs)


def run_events(only: str, time_limit_s: float | None) -> None:
    print(f"{'event':<22} {'ours: repeats / above / spread':<32} {'reference':<20} {'before':<20} time")
    for scenario in SCENARIOS:
        if only and only not in scenario.name:
            continue
        figures = run_event(scenario, time_limit_s=time_limit_s)
        ours = (figures["repeats"], figures["above"], figures["spread"])
        verdict = "DOMINATED" if dominated(ours, scenario.reference) else ""
        print(
            f"{scenario.name:<22} {_triple(ours):<32} {_triple(scenario.reference):<20} "
            f"{_triple(scenario.before):<20} {figures['seconds']:.1f} s (slowest round "
            f"{figures['slowest_round']:.2f} s) {verdict}"
        )


def run_events_over_seeds(only: str, seeds: range, time_limit_s: float | None) -> None:
    """Each scenario over several seeds: the mean of each axis and its standard error. One seed's
    figures move by more than most changes of the search do; compare changes on these."""
    print(
        f"{'event':<22} mean ± standard error over seeds {seeds.start}..{seeds.stop - 1}: "
        "repeats / above ideal / spread"
    )
    for scenario in SCENARIOS:
        if only and only not in scenario.name:
            continue
        runs = [run_event(scenario, seed=seed, time_limit_s=time_limit_s) for seed in seeds]
        cells = []
        for axis in ("repeats", "above", "spread"):
            values = [run[axis] for run in runs if run[axis] is not None]
            if not values:
                cells.append("-")
                continue
            error = statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
            cells.append(f"{statistics.mean(values):.2f} ± {error:.2f}")
        print(f"{scenario.name:<22} {' / '.join(cells)}")


def random_history(ids: list[int], rounds: int, rng: random.Random) -> list:
    history = []
    for _ in range(rounds):
        shuffled = ids[:]
        rng.shuffle(shuffled)
        history.append([shuffled[i : i + 4] for i in range(0, len(ids), 4)])
    return history


def lowest_above_ideal(history: list, ids: list[int]) -> int:
    """Players whose counts exceed a spread of 1 whatever seat they take next."""
    counts = seat_counts(history, 4)
    stuck = 0
    for player in ids:
        mine = counts.get(player, [0, 0, 0, 0])
        low = mine.index(min(mine))
        after = [*mine[:low], mine[low] + 1, *mine[low + 1 :]]
        stuck += max(after) - min(after) > 1
    return stuck


def large_round(request: dict, history: list, repeat: int) -> tuple[list[float], list, int]:
    """Seat ``request`` ``repeat`` times: (seconds of each run, the tables, new repeated pairs)."""
    seconds = []
    response = {}
    for _ in range(repeat):
        started = time.perf_counter()
        response = seat_round(request)
        seconds.append(time.perf_counter() - started)
    tables = response["tables"]
    met = {pair for past in history for table in past for pair in itertools.combinations(sorted(table), 2)}
    new_repeats = sum(1 for table in tables for pair in itertools.combinations(sorted(table), 2) if pair in met)
    return seconds, tables, new_repeats


def large_field(players: int, history_rounds: int) -> tuple[list[int], list, list[int]]:
    """Ids, random history and random standings of the large round."""
    rng = random.Random(players)
    ids = list(range(1, players + 1))
    history = random_history(ids, history_rounds, rng)
    standings = ids[:]
    rng.shuffle(standings)
    return ids, history, standings


def run_large(players: int = 10_000, history_rounds: int = 5, repeat: int = 3) -> None:
    ids, history, standings = large_field(players, history_rounds)
    request = {"players": ids, "history": history, "standings": standings, "seed": 1}
    seconds, tables, new_repeats = large_round(request, history, repeat)
    above = above_ideal([*history, tables], 4)
    spread = round_spread(tables, standings, set())
    print(
        f"large {players} players, round {history_rounds + 1}: {statistics.median(seconds):.2f} s "
        f"(median of {repeat}: {', '.join(f'{s:.2f}' for s in seconds)}); new repeated pairs {new_repeats}; "
        f"above ideal {above} (lowest possible {lowest_above_ideal(history, ids)}); spread {spread:.2f}"
    )
    print(
        f"  ours {_triple((new_repeats, above, spread))}   reference {_triple(LARGE_REFERENCE)}   "
        f"before {_triple(LARGE_BEFORE)}"
    )


def time_one_round(players: int, with_history: bool) -> float:
    rng = random.Random(players)
    ids = list(range(1, players + 1))
    history = random_history(ids, 7, rng) if with_history else []
    standings = ids[:]
    rng.shuffle(standings)
    request = {"players": ids, "history": history, "standings": standings, "seed": 1, "time_limit_s": 4.0}
    started = time.perf_counter()
    response = seat_round(request)
    elapsed = time.perf_counter() - started
    assert "tables" in response, response
    return elapsed


def run_speed() -> None:
    for players in (100, 1_000, 10_000):
        first = statistics.median(time_one_round(players, with_history=False) for _ in range(3))
        eighth = statistics.median(time_one_round(players, with_history=True) for _ in range(3))
        verdict = "within" if max(first, eighth) <= SPEED_BUDGET_S else "OVER"
        print(
            f"speed {players:>6} players: round 1 {first:.3f} s, round 8 (7 rounds of history) "
            f"{eighth:.3f} s (medians of 3); {verdict} the {SPEED_BUDGET_S:.0f} s budget"
        )


def teams(ids: list[int], sizes: list[int], policy: str, kind: str, rng: random.Random) -> list:
    """Groups of the given sizes from ``ids`` shuffled."""
    shuffled = ids[:]
    rng.shuffle(shuffled)
    groups, start = [], 0
    for size in sizes:
        groups.append({"kind": kind, "members": shuffled[start : start + size], "policy": policy})
        start += size
    return groups


def run_group_event(scenario: Scenario, groups: list) -> None:
    for label, given in (("without", None), ("with", groups)):
        figures = run_event(scenario, groups=given)
        if given is None:  # the same groups counted on the tables seated without them
            for tables in figures["history"]:
                pairs, bound = same_group_pairs(groups, tables)
                figures["group_pairs"] += pairs
                figures["group_bound"] += bound
        print(
            f"{scenario.name:<22} {label:<8} repeats {figures['repeats']:>3}, same-group pairs "
            f"{figures['group_pairs']:>3} (lower bound {figures['group_bound']}), above ideal "
            f"{figures['above']}, spread {_figure(figures['spread'])}, {figures['seconds']:.1f} s "
            f"(slowest round {figures['slowest_round']:.2f} s)"
        )


def run_large_groups(players: int = 10_000, history_rounds: int = 5, repeat: int = 3) -> None:
    ids, history, standings = large_field(players, history_rounds)
    groups = teams(ids, [10] * (players // 10), "never", "team", random.Random("teams"))
    for label, given in (("without", None), ("with", groups)):
        request = {"players": ids, "history": history, "standings": standings, "seed": 1}
        if given:
            request["groups"] = given
        seconds, tables, new_repeats = large_round(request, history, repeat)
        pairs, bound = same_group_pairs(groups, tables)
        print(
            f"groups 10000 teams r6  {label:<8} new repeats {new_repeats}, same-team pairs {pairs} "
            f"(lower bound {bound}), above ideal {above_ideal([*history, tables], 4)}, spread "
            f"{round_spread(tables, standings, set()):.2f}, {statistics.median(seconds):.2f} s "
            f"(median of {repeat})"
        )


def run_groups() -> None:
    rng = random.Random("groups")
    ids = list(range(1, 65))
    run_group_event(Scenario("groups 64x8 teams", 64, 8, "random"), teams(ids, [4] * 16, "never", "team", rng))
    clubs = [2, 3, 4, 5, 6, 7, 8] * 4 + [2, 2]
    clubs[-1] += 120 - sum(clubs)
    ids = list(range(1, 121))
    run_group_event(Scenario("groups 120x8 clubs", 120, 8, "swiss"), teams(ids, clubs, "avoid", "club", rng))
    run_large_groups()


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("parts", nargs="*", default=["events", "large", "speed", "groups"])
    parser.add_argument("--only", default="", help="events whose name contains this text")
    parser.add_argument(
        "--time-limit",
        type=float,
        default=None,
        help="time_limit_s of every request (default: the protocol's)",
    )
    parser.add_argument(
        "--seeds", default="", help="FIRST-LAST: the events part over these seeds, as means (e.g. 11-50)"
    )
    args = parser.parse_args(argv)
    if "events" in args.parts and args.seeds:
        first, _, last = args.seeds.partition("-")
        run_events_over_seeds(args.only, range(int(first), int(last or first) + 1), args.time_limit)
    elif "events" in args.parts:
        run_events(args.only, args.time_limit)
    if "large" in args.parts:
        run_large()
    if "speed" in args.parts:
        run_speed()
    if "groups" in args.parts:
        run_groups()


if __name__ == "__main__":
    main(sys.argv[1:])
