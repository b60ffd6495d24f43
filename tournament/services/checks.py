"""Checked rounds: once a referee or an organizer has checked a round's results, the round is locked, and no
hand, result, penalty, absence, ruling or clock of it changes through any path until it is unlocked, with a
reason, by the event's owner (or an organizer token). Every check and unlocking is kept (``RoundCheck``)."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from core.announce import announce
from core.prepared import PreparedRead
from taikai.errors import Conflict, TaikaiError
from tournament.models import ApiToken, Event, Round, RoundCheck, Table
from tournament.services.common import recorder
from tournament.services.locks import lock_round, lock_round_tables
from tournament.services.standings import standings_schedule_recompute


def require_unlocked(round_: Round, *, field: str = "round") -> None:
    """Refuse any change to a checked round (``round_locked``, 409), naming who checked it and when."""
    if round_.checked_at is None:
        return
    raise Conflict(
        "round_locked",
        # Translators: a refusal; round is its number, when the time it was checked.
        _(
            "round %(round)s was checked at %(when)s and is locked: the event's owner or a head referee unlocks "
            "it, with a reason"
        )
        % {"round": round_.number, "when": timezone.localtime(round_.checked_at).strftime("%Y-%m-%d %H:%M")},
        field=field,
    )


# The round's check as a write reads it under its table's lock, compiled once (``core.prepared``).
_round_check_read = PreparedRead(lambda round_id: Round.objects.only("id", "number", "checked_at").filter(pk=round_id))


def require_table_unlocked(table: Table, *, field: str = "round") -> None:
    """``require_unlocked`` for the table's round, read afresh once the caller holds the table's lock: a check
    locks every table of its round first, so a check committed meanwhile is seen and nothing slips into a
    round being checked."""
    require_unlocked(_round_check_read.get(table.round_id), field=field)


def round_results_hidden(round_: Round) -> bool:
    """Are the round's results kept from the public (the event publishes results once checked, and the round is
    not checked)? Its hands and results then reach only the staff's live streams."""
    return round_.event.results_after_check and round_.checked_at is None


def table_announce(table: Table) -> None:
    """Tell the live pages a table's state or result changed (``being_checked``: for the staff's streams only)."""
    announce(
        "table",
        table.round.event_id,
        table=table.pk,
        table_number=table.number,
        status=table.status,
        result_version=table.result_version,
        being_checked=round_results_hidden(table.round),
    )


def _public_results_changed(round_: Round) -> None:
    """An event that publishes results only once checked shows the round (or hides it again) after commit: the
    standings are computed again, and a checked round's tables reach the public live pages."""
    if Event.objects.filter(pk=round_.event_id, results_after_check=True).exists():
        standings_schedule_recompute(event_id=round_.event_id)
        if round_.checked_at is not None:
            for table in round_.tables.select_related("round__event").order_by("number"):
                table_announce(table)


def _by(user) -> dict:
    if isinstance(user, ApiToken):
        return {"by": None, "by_token": user}
    return {"by": recorder(user), "by_token": None}


@transaction.atomic
def round_check(*, round_: Round, user=None) -> Round:
    """Mark the round's results checked: every table has its result; the round is locked from now on."""
    round_ = lock_round(round_.pk)
    lock_round_tables(round_)
    if round_.checked_at is not None:
        raise Conflict(
            "already_checked", _("round %(round)s is checked already") % {"round": round_.number}, field="round"
        )
    open_tables = sorted(round_.tables.exclude(status=Table.Status.FINISHED).values_list("number", flat=True))
    if round_.status == Round.Status.DRAFT or open_tables:
        raise TaikaiError(
            "round_not_finished",
            _("every table needs its result before the round is checked: tables %(tables)s")
            % {"tables": ", ".join(map(str, open_tables)) or "—"},
            field="round",
        )
    by = _by(user)
    round_.checked_at = timezone.now()
    round_.checked_by, round_.checked_by_token = by["by"], by["by_token"]
    round_.save(update_fields=["checked_at", "checked_by", "checked_by_token"])
    RoundCheck.objects.create(round=round_, kind=RoundCheck.Kind.CHECK, **by)
    _public_results_changed(round_)
    return round_


@transaction.atomic
def round_unlock(*, round_: Round, reason: str, user=None) -> Round:
    """Unlock a checked round, saying why; checking it again is a new check."""
    reason = (reason or "").strip()
    if not reason:
        raise TaikaiError("reason_required", _("say why the round is unlocked"), field="reason")
    round_ = lock_round(round_.pk)
    if round_.checked_at is None:
        raise Conflict("not_checked", _("round %(round)s is not checked") % {"round": round_.number}, field="round")
    round_.checked_at = None
    round_.checked_by = round_.checked_by_token = None
    round_.save(update_fields=["checked_at", "checked_by", "checked_by_token"])
    RoundCheck.objects.create(round=round_, kind=RoundCheck.Kind.UNLOCK, reason=reason, **_by(user))
    _public_results_changed(round_)
    return round_
