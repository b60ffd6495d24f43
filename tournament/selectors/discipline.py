"""Discipline: penalties (the fouls in force for a hand, art. 35–37, 43) and rulings (art. 44)."""

from __future__ import annotations

from tournament.engine.penalties import PenaltyKind, fouls_in_force, is_disqualifying
from tournament.models import (
    Entry,
    Event,
    HandVersion,
    Penalty,
    Ruling,
    Table,
)


def table_rights_fouls(table: Table, *, hand_number: int) -> dict[int, list[PenaltyKind]]:
    """Entry id → the fouls whose lost rights (claim 拾, ron, tsumo) hold for that player in hand
    ``hand_number``: those logged for it, and an art. 36 ③ wall wrecking of the hands just before it that
    were stopped and replayed (the offender has no claim and no win in the replay). Two queries."""
    outcomes = dict(
        HandVersion.objects.current()
        .filter(hand__table=table, hand__number__lt=hand_number)
        .values_list("hand__number", "outcome")
    )
    chain = replayed_before(outcomes, hand_number)
    rows = Penalty.objects.filter(
        table=table, hand_number__in=[hand_number, *chain], cancelled_at__isnull=True
    ).values_list("entry_id", "hand_number", "kind")
    return rights_fouls(rows, hand_number=hand_number, chain=chain)


def replayed_before(outcomes: dict[int, str], hand_number: int) -> list[int]:
    """The hands just before hand ``hand_number`` that were stopped and replayed (art. 36 ③), latest first:
    ``outcomes`` maps a hand's number to its outcome (a hand voided or not recorded ends the chain)."""
    chain = []
    number = hand_number - 1
    while outcomes.get(number) == HandVersion.Outcome.REPLAYED:
        chain.append(number)
        number -= 1
    return chain


def rights_fouls(rows, *, hand_number: int, chain: list[int]) -> dict[int, list[PenaltyKind]]:
    """Entry id → the fouls whose lost rights hold in hand ``hand_number`` (see ``table_rights_fouls``), from
    ``rows`` (entry id, hand number, kind) of the table's fouls not cancelled and the ``chain`` of replayed
    hands before it (``replayed_before``); rows of other hands are passed over. No query."""
    own: dict[int, list[str]] = {}
    before: dict[int, dict[int, list[str]]] = {}
    for entry_id, number, kind in rows:
        if number == hand_number:
            own.setdefault(entry_id, []).append(kind)
        elif number in chain:
            before.setdefault(entry_id, {}).setdefault(number, []).append(kind)
    return {
        entry_id: fouls_in_force(own.get(entry_id, []), [before.get(entry_id, {}).get(n, []) for n in chain])
        for entry_id in {*own, *before}
    }


def entry_disqualifying_penalties(entry: Entry, *, tournament_play: bool) -> list[Penalty]:
    """The entry's penalties in force that disqualify under art. 43, oldest first."""
    penalties = Penalty.objects.filter(entry=entry, cancelled_at__isnull=True).order_by("logged_at", "id")
    return [p for p in penalties if is_disqualifying(p.kind, tournament_play=tournament_play)]


def table_penalties(table: Table) -> list[Penalty]:
    return list(Penalty.objects.filter(table=table).select_related("entry__player").order_by("logged_at"))


def event_penalty_point_rows(event: Event) -> list[tuple[int, int, int | None]]:
    """(entry id, points, round number) of every penalty in force that carries points (art. 37)."""
    return list(
        Penalty.objects.filter(event=event, cancelled_at__isnull=True, points__gt=0).values_list(
            "entry_id", "points", "round_number"
        )
    )


def table_rulings(table: Table) -> list[Ruling]:
    return list(
        Ruling.objects.filter(table=table).select_related("entry__player", "decided_by").order_by("decided_at", "id")
    )


def event_rulings(event: Event) -> list[Ruling]:
    return list(
        Ruling.objects.filter(event=event)
        .select_related("entry__player", "table__round", "decided_by")
        .order_by("decided_at", "id")
    )
