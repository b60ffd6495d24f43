"""Guards before a round 回戦: seating the next round is refused while a table of the previous round has no result
(``previous_round_unfinished``, naming the tables) or while the check-in list is still open (``check_in_open``,
a guard the registration app adds: this app never imports it). Each refusal says what to do. An organizer may
override a guard with a reason: the override is kept (``RoundGuardOverride``: which guard, what it said, why, who
and when) and stands for that round's seating wherever it runs (the admin, the API, the seating job).

A round whose tables all have their results but which is not completed yet is still refused
(``round_in_progress``: complete it first); that one has nothing to override."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from django.utils.translation import gettext as _

from taikai.errors import TaikaiError
from tournament.models import ApiToken, Event, Round, RoundGuardOverride, Table
from tournament.services.common import recorder

# A guard reads the event and the round to seat and says why it refuses, or None.
GuardCheck = Callable[[Event, int], str | None]

OVERRIDABLE = tuple(RoundGuardOverride.Guard.values)
_GUARDS: dict[str, GuardCheck] = {}


def round_guard_register(code: str, check: GuardCheck) -> None:
    """Add a guard another app keeps (registration: ``check_in_open``), by its code (one of ``OVERRIDABLE``)."""
    if code not in OVERRIDABLE:
        raise ValueError(f"unknown round guard {code!r}")
    _GUARDS[code] = check


def _previous_round_unfinished(event: Event, round_number: int) -> str | None:
    open_tables = (
        Table.objects.filter(round__event=event, round__number__lt=round_number)
        .exclude(round__status__in=(Round.Status.COMPLETED, Round.Status.DRAFT))
        .exclude(status=Table.Status.FINISHED)
        .order_by("round__number", "number")
        .values_list("round__number", "number")
    )
    by_round: dict[int, list[int]] = {}
    for number, table in open_tables:
        by_round.setdefault(number, []).append(table)
    if not by_round:
        return None
    previous = max(by_round)
    return _(
        "round %(round)s is not finished: tables %(tables)s have no result; confirm their results (or mark the "
        "round's absences) first, or override with a reason"
    ) % {"round": previous, "tables": ", ".join(map(str, by_round[previous]))}


_GUARDS[RoundGuardOverride.Guard.PREVIOUS_ROUND_UNFINISHED] = _previous_round_unfinished


def round_guard_overrides(event: Event, round_number: int) -> list[RoundGuardOverride]:
    return list(RoundGuardOverride.objects.filter(event=event, round_number=round_number).select_related("by"))


def round_guard_refusals(event: Event, round_number: int) -> dict[str, str]:
    """Every guard that refuses seating ``round_number`` now, by code, with what it says."""
    refusals = {}
    for code in OVERRIDABLE:
        check = _GUARDS.get(code)
        message = check(event, round_number) if check is not None else None
        if message:
            refusals[code] = message
    return refusals


def override_read(codes: Iterable[str] | None, reason: str | None) -> tuple[list[str], str]:
    """An override as asked (the guards' codes and the reason), checked: known codes, and a reason with any."""
    if codes is None:
        codes = []
    if isinstance(codes, str) or not all(isinstance(code, str) for code in codes):
        raise TaikaiError("invalid_override", _("override: a list of guards' codes"), field="override")
    codes = list(dict.fromkeys(codes))
    unknown = [code for code in codes if code not in OVERRIDABLE]
    if unknown:
        raise TaikaiError(
            "invalid_override",
            _("override: unknown guards %(codes)s (these can be overridden: %(known)s)")
            % {"codes": ", ".join(unknown), "known": ", ".join(OVERRIDABLE)},
            field="override",
        )
    reason = (reason or "").strip() if isinstance(reason, str) or reason is None else None
    if reason is None:
        raise TaikaiError("invalid_reason", _("the reason is text"), field="reason")
    if codes and not reason:
        raise TaikaiError("reason_required", _("say why the guard is overridden"), field="reason")
    return codes, reason


def round_guards_require(
    event: Event, round_number: int, *, override: Iterable[str] | None = None, reason: str = "", user=None
) -> list[RoundGuardOverride]:
    """Refuse to seat ``round_number`` while a guard refuses it and has not been overridden for that round; with
    ``override`` (guards' codes) and a reason, record an override of each of those guards that refuses now.
    Run it inside the transaction that seats or queues the round: a refusal leaves nothing written."""
    codes, reason = override_read(override, reason)
    overridden = {row.guard for row in round_guard_overrides(event, round_number)}
    recorded = []
    for code, message in round_guard_refusals(event, round_number).items():
        if code in overridden:
            continue
        if code not in codes:
            raise TaikaiError(code, message, field="event")
        recorded.append(
            RoundGuardOverride.objects.create(
                event=event,
                round_number=round_number,
                guard=code,
                refusal=message,
                reason=reason,
                by=recorder(user),
                by_token=user if isinstance(user, ApiToken) else None,
            )
        )
        overridden.add(code)
    unfinished = Round.objects.filter(event=event, number__lt=round_number).exclude(status=Round.Status.COMPLETED)
    if RoundGuardOverride.Guard.PREVIOUS_ROUND_UNFINISHED in overridden:
        unfinished = unfinished.filter(status=Round.Status.DRAFT)  # a draft is published first, whatever the override
    first = unfinished.order_by("number").values_list("number", flat=True).first()
    if first is not None:
        raise TaikaiError(
            "round_in_progress",
            _("round %(round)s is not completed yet: complete it first") % {"round": first},
            field="round",
        )
    return recorded
