"""A table calls a referee; one referee takes the call (the others see who); it is closed with a note."""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from live.models import RefereeCall
from live.publish import call_announce
from taikai.errors import Conflict, TaikaiError
from tournament.models import ScorekeeperKey, Table
from tournament.services.common import recorder, require_published
from tournament.services.locks import lock_table

NOTE_MAX = 200


def _reason_checked(reason: str) -> str:
    if reason not in RefereeCall.Reason.values:
        raise TaikaiError(
            "invalid_reason",
            _("the reason is one of %(reasons)s") % {"reasons": ", ".join(RefereeCall.Reason.values)},
            field="reason",
        )
    return reason


@transaction.atomic
def referee_call(*, table: Table, reason: str, note: str = "", user=None) -> RefereeCall:
    """Call a referee to ``table`` (its scorekeeper or a referee). A table has one open call at a time: a
    second call while one is open gives back the open one (a double tap calls once)."""
    reason = _reason_checked(reason)
    note = (note or "").strip()
    if len(note) > NOTE_MAX:
        raise TaikaiError("note_too_long", _("at most %(count)s characters") % {"count": NOTE_MAX}, field="note")
    table = lock_table(table.pk)
    require_published(table)
    if table.status != Table.Status.PLAYING:
        raise TaikaiError("table_finished", _("the table's result is confirmed; its game is over"), field="table")
    open_call = RefereeCall.objects.filter(table=table, closed_at__isnull=True).first()
    if open_call is not None:
        return open_call
    card = user if isinstance(user, ScorekeeperKey) else None
    try:
        with transaction.atomic():
            call = RefereeCall.objects.create(
                table=table, reason=reason, note=note, called_by=recorder(user), called_by_card=card
            )
    except IntegrityError:  # another device of the table called at the same moment
        return RefereeCall.objects.get(table=table, closed_at__isnull=True)
    transaction.on_commit(lambda: call_announce(call, state="open"))
    return call


def _locked_open(call: RefereeCall) -> RefereeCall:
    call = RefereeCall.objects.select_for_update(no_key=True, of=("self",)).select_related("taken_by").get(pk=call.pk)
    if call.closed_at is not None:
        raise Conflict("call_closed", _("this call is closed already"))
    return call


@transaction.atomic
def referee_call_take(*, call: RefereeCall, user) -> RefereeCall:
    """``user`` goes to the table. Taken once: a second referee is told who has it."""
    call = _locked_open(call)
    if call.taken_by_id == user.pk:
        return call
    if call.taken_by_id is not None:
        raise Conflict("call_taken", _("%(referee)s has taken this call") % {"referee": call.taken_by})
    call.taken_by, call.taken_at = user, timezone.now()
    call.save(update_fields=["taken_by", "taken_at"])
    transaction.on_commit(lambda: call_announce(call, state="taken"))
    return call


@transaction.atomic
def referee_call_close(*, call: RefereeCall, note: str, user) -> RefereeCall:
    """Close the call with what was decided; the note stays in the table's record."""
    note = (note or "").strip()
    if not note:
        raise TaikaiError("note_required", _("write what was decided"), field="note")
    call = _locked_open(call)
    now = timezone.now()
    if call.taken_by_id is None:
        call.taken_by, call.taken_at = user, now
    call.closed_by, call.closed_at, call.closing_note = user, now, note
    call.save(update_fields=["taken_by", "taken_at", "closed_by", "closed_at", "closing_note"])
    transaction.on_commit(lambda: call_announce(call, state="closed"))
    return call
