"""Our evaluator against the PyPI ``mahjong`` package (2.1.0), configured to the same standard rules.

Every difference must be a named, documented rule difference; anything else fails the test.
"""

from __future__ import annotations

from benchmarks.hand_generator import generate_requests
from benchmarks.mahjong_reference import package_evaluate, yaku_keys
from scoring.engine import evaluate


def reference_payments(request: dict, cost: dict) -> dict:
    hand = request["hand"]
    if not hand.get("tsumo"):
        return {"ron": cost["main"] + cost["main_bonus"]}
    if hand.get("seat_wind", "E") == "E":
        return {"non_dealer": cost["main"] + cost["main_bonus"]}
    return {
        "dealer": cost["main"] + cost["main_bonus"],
        "non_dealer": cost["additional"] + cost["additional_bonus"],
    }


def reference_stacks_several_yakuman(ours: dict) -> bool:
    """Rule difference: our standard rules never stack yakuman (hand-format.md: "one yakuman however
    many"); the package adds them up (tsuuiisou + daisangen = double yakuman) even with
    ``has_double_yakuman=False``, which only turns off the double versions of single yakuman. Such
    hands must still agree on which yakuman they hold and on han; only the payment differs."""
    return sum(1 for _, han in ours["yaku"] if han == 13) >= 2 and ours["limit"] == "yakuman"


def compare(request: dict) -> list[str]:
    """The differences between the two evaluations of one request, as messages."""
    ours = evaluate(request)
    reference = package_evaluate(request)
    if reference.error or "error" in ours:
        our_code = ours.get("error", {}).get("code")
        if our_code == "no_yaku" and reference.error == "no_yaku":
            return []
        return [f"errors differ: ours {our_code!r}, package {reference.error!r}"]
    result = ours["result"]
    problems = []
    if dict(map(tuple, result["yaku"])) != yaku_keys(reference):
        problems.append(f"yaku: ours {result['yaku']}, package {yaku_keys(reference)}")
    if result["han"] != reference.han:
        problems.append(f"han: ours {result['han']}, package {reference.han}")
    if result["limit"] is None and result["fu"] != reference.fu:
        problems.append(f"fu: ours {result['fu']}, package {reference.fu}")
    if not reference_stacks_several_yakuman(result):
        if result["payments"] != reference_payments(request, reference.cost):
            problems.append(
                f"payments: ours {result['payments']}, package {reference_payments(request, reference.cost)}"
            )
        if result["total"] != reference.cost["total"]:
            problems.append(f"total: ours {result['total']}, package {reference.cost['total']}")
    return problems


def run_differential(count: int, seed: int) -> None:
    failures = []
    for request in generate_requests(count, seed=seed):
        template = request.pop("template")
        problems = compare(request)
        if problems:
            failures.append((template, request["hand"], problems))
    assert not failures, f"{len(failures)} of {count} hands differ; first: {failures[:3]}"


def test_differential_500_hands_agree_with_mahjong_package():
    run_differential(500, seed=500)


def test_differential_10000_hands_agree_with_mahjong_package():
    run_differential(10_000, seed=10_000)


def test_generator_covers_every_yaku_and_kan_type():
    """The generated hands exercise every yaku, yakuman and meld type (else the comparison is blind)."""
    from scoring.engine.yaku import YAKU_TABLE

    seen_yaku: set[str] = set()
    seen_melds: set[str] = set()
    flags = {"tsumo": set(), "dealer": set(), "closed": set()}
    for request in generate_requests(10_000, seed=10_000):
        request.pop("template")
        hand = request["hand"]
        seen_melds.update(meld["type"] for meld in hand["melds"])
        flags["tsumo"].add(hand["tsumo"])
        flags["dealer"].add(hand["seat_wind"] == "E")
        flags["closed"].add(all(meld["type"] == "kan_closed" for meld in hand["melds"]))
        result = evaluate(request).get("result")
        if result:
            seen_yaku.update(key for key, _ in result["yaku"])
    assert {definition.key for definition in YAKU_TABLE} <= seen_yaku
    assert {"dora", "aka_dora", "ura_dora"} <= seen_yaku
    assert seen_melds == {"chi", "pon", "kan_open", "kan_closed", "kan_added"}
    assert all(values == {True, False} for values in flags.values())
