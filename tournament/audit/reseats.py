"""Re-seats: a table re-seated after its players sat in the wrong seats (``tournament.services.reseat``).

* every re-seat has its ruling, at its table (``reseat_ruling``);
* its seats after are its seats before in another order, and it moved each seat of the game to one other
  (``reseat_mapping``);
* each hand version it lists exists and follows one before it (``reseat_version``), and agrees with that
  version with its people moved to their real seats: the same dealer 親, honba 本場, outcome, riichi 立直, tenpai
  聴牌 and wins (``reseat_version_disagrees``).
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from tournament.audit.records import EventRecords, Violation
from tournament.models import HandVersion, TableReseat


def check_reseats(records: EventRecords) -> list[Violation]:
    """Every re-seat of the event's tables: its ruling, its mapping and the hand versions it wrote."""
    reseats = list(
        TableReseat.objects.filter(table__round__event=records.event)
        .select_related("ruling")
        .order_by("table_id", "pk")
    )
    violations = []
    for reseat in reseats:
        where = _("%(where)s re-seat %(id)s") % {"where": records.table_where(reseat.table_id), "id": reseat.pk}
        ruling = reseat.ruling
        if ruling is None or ruling.table_id != reseat.table_id or ruling.event_id != records.event.pk:
            violations.append(Violation("reseat_ruling", where, _("no ruling of this table records the re-seat")))
        moved = reseat.moved
        if sorted(reseat.seats_before) != sorted(reseat.seats_after) or sorted(moved) != list(range(len(moved))):
            violations.append(Violation("reseat_mapping", where, _("the seats after are not the seats before")))
            continue
        violations += _versions_checked(records, reseat, where)
    return violations


def _versions_checked(records: EventRecords, reseat: TableReseat, where: str) -> list[Violation]:
    hands = {hand.number: hand for hand in records.hands.get(reseat.table_id, [])}
    violations = []
    for number, version_number in reseat.hand_versions:
        hand = hands.get(number)
        versions = {v.version: v for v in records.versions.get(hand.id, [])} if hand else {}
        written, before = versions.get(version_number), versions.get(version_number - 1)
        hand_where = _("%(where)s hand %(hand)s v%(version)s") % {
            "where": where,
            "hand": number,
            "version": version_number,
        }
        if written is None or before is None:
            violations.append(Violation("reseat_version", hand_where, _("the version or the one before is missing")))
            continue
        if _people(before, reseat.moved) != _people(written, None):
            violations.append(
                Violation(
                    "reseat_version_disagrees",
                    hand_where,
                    _("its dealer, winners, riichi or tenpai are not those of the version before, re-seated"),
                )
            )
    return violations


def _people(version: HandVersion, moved: list[int] | None) -> tuple:
    """What a hand says of its people, each seat moved to ``moved[seat]`` (None: as recorded)."""

    def at(seat):
        return seat if seat is None or moved is None else moved[seat]

    wins = sorted((at(w["winner"]), at(w.get("discarder")), at(w.get("responsible"))) for w in version.wins)
    return (
        at(version.dealer_position),
        version.honba,
        version.outcome,
        sorted(at(p) for p in version.riichi_positions),
        sorted(at(p) for p in version.tenpai_positions),
        wins,
    )
