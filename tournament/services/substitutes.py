"""Substitutes 代走: a player seated in an absent player's place (Pantheon's replacement player).

The organizer seats a substitute at a table before its first hand: the substitute becomes an entry of the
event marked ``substitute_for`` the absent player's entry, takes the seat, and plays it as usual; the absent
player is away (not seated until back). Every such change is a ruling (art. 44) with who and when. The
seat's result counts as the ruleset says (``Ruleset.substitute_result``): its own points for the absent
player, fixed points and last place for the absent player, or for nobody
(``tournament.engine.substitutes.substitute_credit``). A
substitute is never ranked and never seated by the automatic seating.
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from players.models import Player
from taikai.errors import TaikaiError
from tournament import selectors
from tournament.models import Entry, Seat, Table
from tournament.services.checks import require_table_unlocked
from tournament.services.common import require_published
from tournament.services.discipline import ruling_record
from tournament.services.entries import entry_status_set
from tournament.services.locks import lock_seat, lock_table


@transaction.atomic
def substitute_seat(*, seat: Seat, player: Player | None = None, name: str = "", reason: str = "", user=None) -> Entry:
    """Seat ``player`` (or a new player called ``name``) in the place of the seat's player, before the
    table's first hand; the substitute's entry, recorded with a ruling."""
    table = lock_table(seat.table_id)
    require_table_unlocked(table, field="seat")
    seat = lock_seat(seat.pk)
    require_published(table, field="seat")
    if table.status != Table.Status.PLAYING or selectors.table_hands_recorded(table):
        raise TaikaiError("game_started", _("a substitute takes a seat before the table's first hand"), field="seat")
    absent = seat.entry
    if absent.substitute_for_id is not None:
        raise TaikaiError("already_a_substitute", _("this seat is already played by a substitute"), field="seat")
    event = table.round.event
    if player is None:
        if not name.strip():
            raise TaikaiError(
                "player_required", _("choose the substitute, or give a new player's name"), field="player"
            )
        player = Player.objects.create(display_name=name.strip()[:120])
    existing = Entry.objects.filter(event=event, player=player).first()
    if existing is not None and existing.substitute_for_id != absent.pk:
        raise TaikaiError(
            "already_entered",
            _("%(player)s is a player of the event, not a substitute") % {"player": player},
            field="player",
        )
    substitute = existing or Entry.objects.create(event=event, player=player, substitute_for=absent)
    Seat.objects.filter(pk=seat.pk).update(entry=substitute, absence=Seat.Absence.PRESENT, left_after_hand=None)
    entry_status_set(entry=absent, status=Entry.Status.AWAY, reason=_("replaced by a substitute"))
    decision = _("%(substitute)s plays for %(absent)s at table %(table)s of round %(round)s (substitute).") % {
        "substitute": player,
        "absent": absent.player,
        "table": table.number,
        "round": table.round.number,
    }
    ruling_record(event=event, table=table, entry=absent, decision=f"{decision} {reason}".strip(), user=user)
    return substitute
