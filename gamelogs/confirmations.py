"""Confirmation windows of online rounds: players confirm from their private link that they will play the round;
at the window's close the unconfirmed are left out of the round's seating and marked absent, and the event's rule
(its online league's) says what more becomes of them: nothing, away until back, or withdrawn.

The seating asks :func:`unconfirmed_left_out` (a receiver of ``tournament.services.seating.seating_leaves_out``)
who is left out; the marks are written by :func:`confirmation_window_close`, run at the close by
``manage.py close_confirmation_windows`` (or the admin's "Close now").
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from gamelogs.models import ConfirmationWindow, OnlineLeague, PlayConfirmation
from taikai.errors import Conflict, TaikaiError
from tournament.models import Entry, Event, Round
from tournament.services.entries import entry_status_set
from tournament.services.locks import lock_event


@transaction.atomic
def confirmation_window_open(*, event: Event, round_number: int, closes_at: datetime) -> ConfirmationWindow:
    """A window for ``round_number``, before it is seated, closing in the future."""
    event = lock_event(event.pk)
    if Round.objects.filter(event=event, number=round_number).exists():
        raise Conflict(
            "round_already_seated",
            _("round %(round)s is seated already") % {"round": round_number},
            field="round_number",
        )
    if closes_at <= timezone.now():
        raise TaikaiError("closes_in_the_past", _("the window must close in the future"), field="closes_at")
    window, _created = ConfirmationWindow.objects.update_or_create(
        event=event, round_number=round_number, defaults={"closes_at": closes_at, "closed_at": None}
    )
    return window


def window_is_open(window: ConfirmationWindow, now: datetime | None = None) -> bool:
    return window.closed_at is None and (now or timezone.now()) < window.closes_at


@transaction.atomic
def play_confirm(*, window: ConfirmationWindow, entry: Entry) -> PlayConfirmation:
    """The player of ``entry`` will play the window's round (from their private link); once is enough."""
    window = ConfirmationWindow.objects.select_for_update().get(pk=window.pk)
    if entry.event_id != window.event_id:
        raise TaikaiError("not_in_the_event", _("this player is not entered in the event"), field="entry")
    if not window_is_open(window):
        raise Conflict(
            "confirmation_closed",
            _("the confirmation for round %(round)s closed at %(closes)s")
            % {"round": window.round_number, "closes": timezone.localtime(window.closes_at).strftime("%Y-%m-%d %H:%M")},
            field="window",
        )
    answer, _created = PlayConfirmation.objects.get_or_create(
        window=window, entry=entry, defaults={"state": PlayConfirmation.State.CONFIRMED}
    )
    return answer


def _unconfirmed(window: ConfirmationWindow) -> list[int]:
    """The active entries of the window's event without a confirmation, by entry id."""
    confirmed = PlayConfirmation.objects.filter(window=window, state=PlayConfirmation.State.CONFIRMED).values(
        "entry_id"
    )
    return list(
        Entry.objects.filter(event_id=window.event_id, status=Entry.Status.ACTIVE)
        .exclude(pk__in=confirmed)
        .order_by("pk")
        .values_list("pk", flat=True)
    )


@transaction.atomic
def confirmation_window_close(*, window: ConfirmationWindow, now: datetime | None = None) -> list[int]:
    """At (or after) the window's close: every active entry that did not confirm is marked absent for the round,
    and the event's rule applied to it; returns their entry ids. Closing a closed window does nothing."""
    now = now or timezone.now()
    window = ConfirmationWindow.objects.select_for_update().get(pk=window.pk)
    if window.closed_at is not None:
        return []
    if now < window.closes_at:
        raise TaikaiError("window_still_open", _("the window has not closed yet"), field="window")
    absent = _unconfirmed(window)
    PlayConfirmation.objects.bulk_create(
        PlayConfirmation(window=window, entry_id=entry_id, state=PlayConfirmation.State.ABSENT) for entry_id in absent
    )
    league = OnlineLeague.objects.filter(event_id=window.event_id).first()
    rule = league.unconfirmed if league is not None else OnlineLeague.Unconfirmed.LEFT_OUT
    if rule != OnlineLeague.Unconfirmed.LEFT_OUT:
        reason = _("did not confirm for round %(round)s") % {"round": window.round_number}
        for entry in Entry.objects.filter(pk__in=absent):
            entry_status_set(entry=entry, status=rule, reason=reason)
    window.closed_at = now
    window.save(update_fields=["closed_at"])
    return absent


def confirmation_windows_close_due(now: datetime | None = None) -> int:
    """Close every window whose time has come; returns how many were closed."""
    now = now or timezone.now()
    due = list(ConfirmationWindow.objects.filter(closed_at__isnull=True, closes_at__lte=now))
    for window in due:
        confirmation_window_close(window=window, now=now)
    return len(due)


def unconfirmed_left_out(sender, *, event: Event, round_number: int, **kwargs) -> list[int]:
    """Receiver of ``seating_leaves_out``: a round with a confirmation window is seated once the window has
    closed, without the players who did not confirm (``confirmation_window_open`` while it is open)."""
    window = ConfirmationWindow.objects.filter(event=event, round_number=round_number).first()
    if window is None:
        return []
    if window_is_open(window):
        raise TaikaiError(
            "confirmation_window_open",
            _("round %(round)s is seated once its confirmation window closes, at %(closes)s")
            % {
                "round": round_number,
                "closes": timezone.localtime(window.closes_at).strftime("%Y-%m-%d %H:%M"),
            },
            field="round",
        )
    return _unconfirmed(window)
