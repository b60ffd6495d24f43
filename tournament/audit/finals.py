"""The final (arts. 40, 43).

* the champion is not disqualified (``champion_disqualified``) and played the last final game
  (``champion_not_finalist``); before the last of the event's ``final_games`` games nothing is decided:
  the same finalists play on, less the disqualified (``final_decided_early``).
"""

from __future__ import annotations

from itertools import pairwise

from django.utils.translation import gettext as _

from tournament.audit.discipline import disqualifies
from tournament.audit.records import EventRecords, Violation
from tournament.models import Entry


def check_final(records: EventRecords) -> list[Violation]:
    """Art. 43: the champion keeps award eligibility and played the last final game; art. 40 ①: before
    the last prescribed game nothing is decided (the same finalists play on, less the disqualified)."""
    violations = []
    event = records.event
    statuses = dict(Entry.objects.filter(event=event).values_list("id", "status"))
    # disqualified then or now: a disqualification lifted later does not make the final's past wrong
    was_disqualified = {e for e, status in statuses.items() if status == Entry.Status.DISQUALIFIED} | {
        p.entry_id for p in records.penalties if disqualifies(event, p.kind)
    }
    rounds = sorted({t.round for t in records.tables.values() if t.round.is_final}, key=lambda r: r.number)
    players = {
        round_.id: {
            s.entry_id
            for t in records.tables.values()
            if t.round_id == round_.id
            for s in records.seats.get(t.id, [])
            if s.in_game
        }
        for round_ in rounds
    }
    for earlier, later in list(pairwise(rounds))[: max(0, event.final_games - 1)]:
        gone = players[earlier.id] - players[later.id]
        if players[later.id] - players[earlier.id] or gone - was_disqualified:
            violations.append(
                Violation(
                    "final_decided_early",
                    _("round %(round)s") % {"round": later.number},
                    _(
                        "final game %(game)s of %(games)s: entries %(entries)s left the final "
                        "before its last prescribed game"
                    )
                    % {"game": rounds.index(later) + 1, "games": event.final_games, "entries": sorted(gone)},
                )
            )
    if event.champion_id is None:
        return violations
    where = _("champion (entry %(entry)s)") % {"entry": event.champion_id}
    if statuses.get(event.champion_id) == Entry.Status.DISQUALIFIED:
        violations.append(Violation("champion_disqualified", where, _("the champion is disqualified (art. 43)")))
    if not rounds or event.champion_id not in players[rounds[-1].id]:
        violations.append(Violation("champion_not_finalist", where, _("the champion did not play the last final game")))
    elif len(rounds) < event.final_games:
        others = players[rounds[-1].id] - {event.champion_id}
        if others - was_disqualified:
            violations.append(
                Violation(
                    "final_decided_early",
                    where,
                    _("crowned after %(played)s of the %(games)s prescribed final games")
                    % {"played": len(rounds), "games": event.final_games},
                )
            )
    return violations
