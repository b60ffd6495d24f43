"""Rounds 回戦: created with their tables (typed, seated by the engine, or by the final), published,
completed."""

from __future__ import annotations

from collections.abc import Sequence

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from core.announce import announce
from taikai.errors import TaikaiError
from tournament import selectors
from tournament.models import Entry, Event, Round, Seat, Table
from tournament.services.checks import require_unlocked
from tournament.services.common import refuse_while_open, status_set
from tournament.services.guards import round_guards_require
from tournament.services.locks import lock_event, lock_round
from tournament.services.standings import standings_schedule_recompute


@transaction.atomic
def round_create(
    *,
    event: Event,
    tables: Sequence[Sequence[int]],
    report: dict | None = None,
    status: str = Round.Status.PUBLISHED,
    is_final: bool = False,
    override: Sequence[str] | None = None,
    override_reason: str = "",
    user=None,
    request: dict | None = None,
) -> Round:
    """Create the next round with its tables: ``tables`` lists entry ids in seat order East, South, …
    ``request``: the seating request the engine drew the tables from (its seed is kept as the round's).

    The guards before a round apply (``round_guards_require``); ``override`` names guards an organizer
    overrides, with ``override_reason``, recorded. A published round's announced start is now."""
    event = lock_event(event.pk)
    if event.status == Event.Status.FINISHED:
        raise TaikaiError("event_finished", _("the event is finished"), field="event")
    round_guards_require(
        event,
        selectors.event_next_round_number(event),
        override=override,
        reason=override_reason,
        user=user,
    )
    flat = [entry_id for table in tables for entry_id in table]
    if not tables:
        raise TaikaiError("no_tables", _("a round needs at least one table"), field="tables")
    if len(set(flat)) != len(flat):
        raise TaikaiError("player_seated_twice", _("a player is seated twice in this round"), field="tables")
    for number, table in enumerate(tables, start=1):
        if not 2 <= len(table) <= 4:
            raise TaikaiError(
                "invalid_table_size",
                _("table %(table)s has %(count)s players (2–4)") % {"table": number, "count": len(table)},
                field="tables",
            )
    entries = selectors.event_entries_by_id(event, flat)
    for entry_id in flat:
        entry = entries.get(entry_id)
        if entry is None:
            raise TaikaiError(
                "entry_not_in_event",
                _("entry %(entry)s is not registered in this event") % {"entry": entry_id},
                field="tables",
            )
        if entry.status != Entry.Status.ACTIVE:
            inactive = {
                Entry.Status.AWAY: _("%(player)s is away"),
                Entry.Status.WITHDRAWN: _("%(player)s is withdrawn"),
                Entry.Status.DISQUALIFIED: _("%(player)s is disqualified"),
            }
            # Translators: status is the entry's status, in lower case.
            message = inactive.get(entry.status) or _("%(player)s is %(status)s")
            raise TaikaiError(
                "entry_inactive", message % {"player": entry.player, "status": entry.status}, field="tables"
            )
    round_ = Round.objects.create(
        event=event,
        number=selectors.event_next_round_number(event),
        status=status,
        seating_report=report or {},
        is_final=is_final,
        starts_at=timezone.now() if status == Round.Status.PUBLISHED else None,
        draw_seed=(request or {}).get("seed"),
        seating_request=request or {},
    )
    table_rows = Table.objects.bulk_create(Table(round=round_, number=n) for n in range(1, len(tables) + 1))
    Seat.objects.bulk_create(
        Seat(table=table_row, round=round_, entry_id=entry_id, position=position)
        for table_row, table in zip(table_rows, tables, strict=True)
        for position, entry_id in enumerate(table)
    )
    if event.status in (Event.Status.DRAFT, Event.Status.REGISTRATION):
        status_set(event, Event.Status.RUNNING)
    return round_


@transaction.atomic
def round_publish(*, round_: Round) -> Round:
    """A seating draft becomes the published seating players see."""
    round_ = lock_round(round_.pk)
    if round_.status != Round.Status.DRAFT:
        already = {
            Round.Status.PUBLISHED: _("round %(round)s is already published"),
            Round.Status.PLAYING: _("round %(round)s is already playing"),
            Round.Status.COMPLETED: _("round %(round)s is already completed"),
        }
        raise TaikaiError("not_a_draft", already[round_.status] % {"round": round_.number})
    status_set(round_, Round.Status.PUBLISHED)
    if round_.starts_at is None:  # the announced start, unless set by hand before
        round_.starts_at = timezone.now()
        round_.save(update_fields=["starts_at"])
    announce("seating", round_.event_id, round=round_.number)
    return round_


@transaction.atomic
def round_complete(*, round_: Round) -> Round:
    round_ = lock_round(round_.pk)
    refuse_while_open(
        selectors.round_open_table_numbers(round_),
        code="tables_still_playing",
        # Translators: numbers lists table numbers ("2, 5").
        message=_("tables %(numbers)s have no confirmed result"),
        field="round",
    )
    status_set(round_, Round.Status.COMPLETED)
    standings_schedule_recompute(event_id=round_.event_id)
    return round_


@transaction.atomic
def round_timer_start(*, round_: Round) -> Round:
    """Start the round's timer now (the venue screen counts the event's minutes per round down from it)."""
    round_ = lock_round(round_.pk)
    if round_.status in (Round.Status.DRAFT, Round.Status.COMPLETED):
        raise TaikaiError("round_not_in_play", _("start the timer of a published round still in play"), field="round")
    round_.timer_started_at = timezone.now()
    round_.save(update_fields=["timer_started_at"])
    return round_


@transaction.atomic
def round_start_set(*, round_: Round, starts_at) -> Round:
    """Set the round's announced start by hand (late players count from it); not once the round is completed
    or checked."""
    round_ = lock_round(round_.pk)
    require_unlocked(round_)
    if round_.status == Round.Status.COMPLETED:
        raise TaikaiError("round_not_in_play", _("the round is completed"), field="starts_at")
    if starts_at is None:
        raise TaikaiError("starts_at_required", _("give the round's start"), field="starts_at")
    round_.starts_at = starts_at
    round_.save(update_fields=["starts_at"])
    return round_
