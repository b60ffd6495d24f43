"""Every write of registration: signing up, approving, refusing, withdrawing, the waiting list, check-in.

Places are counted under the registration's row lock (``_locked``): two sign-ups for the last place, or a
withdrawal and a promotion at once, never take the confirmed count above the cap, and the waiting list is
promoted in its order. A confirmed sign-up is an entry of the event, of a player made from the sign-up: an
EMA number or other id typed by a stranger is a claim, never a link to a stored player; an organizer merges
the sign-up with the stored player it names (``sign_up_player_merge``), and the player's own edits never reach
a stored player. A withdrawn sign-up's entry is withdrawn. Every change is kept
(``SignUpChange``: what, the state before and after, why, who, when) and every message to the player is
kept and sent by e-mail after the commit (Celery, through the broker queue of ``core.queue``).
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass

from django.core import signing
from django.core.cache import cache
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from core.announce import announce
from core.queue import enqueue_on_commit
from players.models import Player
from registration import selectors
from registration.models import (
    FIELDS,
    REQUIRED_ALWAYS,
    BlockedEmail,
    Registration,
    SignUp,
    SignUpChange,
    SignUpMessage,
)
from registration.site import site_url
from taikai.errors import Forbidden, TaikaiError
from tournament.models import Entry, Event
from tournament.services.entries import entry_register_player, entry_status_set

SEND_MESSAGE = "registration.send_message"
# per public network address and THROTTLE_SECONDS: a person signs up once, a script many times (an
# organizer's sign-ups, from the API or their own session, are not counted)
SIGN_UPS_PER_ADDRESS = 10
THROTTLE_SECONDS = 600
LINK_SALT = "registration.private-link"
State = SignUp.State
LIVE = (State.PENDING, State.WAITING, State.CONFIRMED)  # a sign-up that counts against its e-mail address


class TooManySignUps(TaikaiError):
    """Too many sign-ups from one network address for now (HTTP 429): ``retry_after`` seconds to wait."""

    status = 429

    def __init__(self, retry_after: int):
        minutes = max(1, -(-retry_after // 60))
        message = ngettext(
            "too many sign-ups from this network; try again in %(minutes)s minute",
            "too many sign-ups from this network; try again in %(minutes)s minutes",
            minutes,
        )
        super().__init__("too_many_sign_ups", message % {"minutes": minutes})
        self.retry_after = retry_after


# --- the private link -------------------------------------------------------------------------------


def private_token(sign_up: SignUp) -> str:
    """The secret of a sign-up's private link: its id and nonce, signed with the site's key."""
    return signing.Signer(salt=LINK_SALT, sep=".").sign(f"{sign_up.pk}-{sign_up.nonce}")


def sign_up_from_token(token: str) -> SignUp:
    try:
        pk, nonce = signing.Signer(salt=LINK_SALT, sep=".").unsign(token).split("-", 1)
        sign_up = SignUp.objects.select_related("event", "entry").get(pk=int(pk), nonce=nonce)
    except (signing.BadSignature, ValueError, SignUp.DoesNotExist):
        raise Forbidden(
            "link_invalid",
            _(
                "this link does not open a sign-up: it is mistyped, or it was renewed and no longer works "
                "(the new link was sent by e-mail)"
            ),
        ) from None
    return sign_up


@transaction.atomic
def sign_up_link_renew(*, sign_up: SignUp, by=None) -> SignUp:
    """A new private link for the sign-up (the player's, from their link, or an organizer's): the old link
    opens nothing from now on, and the new one is sent by e-mail. Recorded."""
    _registration, sign_up = _locked_sign_up(sign_up)
    sign_up.nonce = secrets.token_urlsafe(12)
    sign_up.save(update_fields=["nonce"])
    _change(sign_up, "link_renewed", sign_up.state, sign_up.state, by=by)
    _message(sign_up, "link")
    return sign_up


# --- signing up -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SignUpValues:
    name: str
    email: str
    reading: str = ""
    club: str = ""
    country: str = ""
    external_id: str = ""

    @classmethod
    def checked(cls, registration: Registration, raw: dict) -> SignUpValues:
        """The values asked by the registration, trimmed, each required one present; the e-mail valid."""
        values = {name: " ".join(str(raw.get(name) or "").split()) for name in FIELDS}
        for name in FIELDS:
            if name not in registration.asked and name not in REQUIRED_ALWAYS:
                values[name] = ""
            elif not values[name] and (name in registration.required or name in REQUIRED_ALWAYS):
                raise TaikaiError("required", _("this field is required"), field=name)
        values["email"] = values["email"].lower()
        try:
            validate_email(values["email"])
        except Exception:
            raise TaikaiError("invalid_email", _("enter a valid e-mail address"), field="email") from None
        limits = {f.name: f.max_length for f in SignUp._meta.fields if f.name in FIELDS}
        for name, value in values.items():
            if len(value) > limits[name]:
                raise TaikaiError("too_long", _("at most %(max)s characters") % {"max": limits[name]}, field=name)
        return cls(**values)


def _open_registration(event: Event) -> Registration:
    registration = Registration.objects.filter(event=event).first()
    if registration is None or not registration.is_open():
        raise TaikaiError("registration_closed", _("sign-ups for this event are not open"), field="event")
    return registration


def _throttle(address: str) -> None:
    """Count a public sign-up against its network address, in windows of THROTTLE_SECONDS; refused past
    SIGN_UPS_PER_ADDRESS, saying when the window ends. No address (an organizer's sign-up): not counted."""
    if not address:
        return
    now = time.time()
    window = int(now // THROTTLE_SECONDS)
    key = f"registration:address:{address}:{window}"
    try:
        cache.add(key, 0, THROTTLE_SECONDS + 60)
        count = cache.incr(key)
    except Exception:  # the cache is down: sign-ups go on, unthrottled (a failed cache degrades, never refuses)
        return
    if count > SIGN_UPS_PER_ADDRESS:
        raise TooManySignUps(retry_after=int((window + 1) * THROTTLE_SECONDS - now) + 1)


@transaction.atomic
def sign_up_create(
    *, event: Event, values: dict, language: str = "en", address: str = "", trap: str = "", by=None
) -> SignUp:
    """A person signs up (no account needed): confirmed while places are left (or pending when the organizer
    approves each), else on the waiting list in order. ``address`` is a public sign-up's network address,
    counted by the limit (an organizer's sign-up, ``by`` them, gives none). An EMA number or other id that a
    live sign-up of the event already gave makes the second one pending, for the organizer to tell apart.
    ``trap`` is the form's hidden field that people never fill (a honeypot): a filled one is refused as a form
    error, nothing written."""
    if trap:
        raise TaikaiError("invalid_form", _("the form could not be read; reload the page and try again"))
    registration = _open_registration(event)
    checked = SignUpValues.checked(registration, values)
    _throttle(address)
    registration = _locked(event.pk)
    _email_allowed(registration, checked.email)
    same_id = (
        bool(checked.external_id)
        and SignUp.objects.filter(event=event, external_id=checked.external_id, state__in=LIVE).exists()
    )
    rank = (SignUp.objects.filter(event=event).aggregate(last=Max("rank"))["last"] or 0) + 1
    sign_up = SignUp.objects.create(
        event=event,
        state=State.WAITING,
        rank=rank,
        language=language[:8] or "en",
        nonce=secrets.token_urlsafe(12),
        **checked.__dict__,
    )
    _change(sign_up, "signed_up", "", State.WAITING, by=by)
    if registration.approval or same_id:
        _move(sign_up, State.PENDING, "signed_up")
        _message(sign_up, "pending")
    elif _places_left(registration) > 0:
        _confirm(sign_up, "signed_up")
    else:
        _message(sign_up, "waiting")
    return sign_up


def _email_allowed(registration: Registration, email: str, *, besides: SignUp | None = None) -> None:
    """Refused: an address blocked for the event, or one already holding as many live sign-ups (pending,
    waiting, confirmed, checked in) as one address may (``besides``: the sign-up that is changing address)."""
    if BlockedEmail.objects.filter(event_id=registration.event_id, email=email).exists():
        raise TaikaiError("email_blocked", _("sign-ups from this address are refused for this event"), field="email")
    live = SignUp.objects.filter(event_id=registration.event_id, email=email, state__in=LIVE)
    if besides is not None:
        live = live.exclude(pk=besides.pk)
    if live.count() >= registration.pending_per_email:
        raise TaikaiError(
            "too_many_pending",
            _("this e-mail address already has as many sign-ups for this event as one address may have"),
            field="email",
        )


def _locked(event_id: int) -> Registration:
    registration = Registration.objects.select_for_update(no_key=True).filter(event_id=event_id).first()
    if registration is None:
        raise TaikaiError("no_registration", _("this event takes no sign-ups"), field="event")
    return registration


def _places_left(registration: Registration) -> int:
    return selectors.places_left(registration)


def _change(sign_up: SignUp, what: str, before: str, after: str, *, reason: str = "", by=None) -> None:
    SignUpChange.objects.create(
        sign_up=sign_up,
        what=what,
        state_before=before,
        state_after=after,
        reason=reason[:300],
        by=by if by is not None and by.is_authenticated else None,
    )


def _move(sign_up: SignUp, state: str, what: str, *, reason: str = "", by=None) -> None:
    before = sign_up.state
    sign_up.state = state
    sign_up.save(update_fields=["state"])
    _change(sign_up, what, before, state, reason=reason, by=by)


def _confirm(sign_up: SignUp, what: str, *, by=None, reason: str = "", under_way: bool = False) -> None:
    """The sign-up takes a place: it becomes an entry of the event, of a player made from the sign-up (the EMA
    number or other id it gives is a claim: it stays on the sign-up, and names no stored player until an
    organizer merges them), and the player is told. ``under_way``: promoted while the event is under way, the
    player is away (not seated) until they come to the desk (``late_arrival``), and told so."""
    promoted = sign_up.state == State.WAITING and what != "signed_up"
    if sign_up.entry_id is None:
        values = {
            "display_name": sign_up.name,
            "reading": sign_up.reading,
            "club": sign_up.club,
            "country": sign_up.country,
        }
        sign_up.entry = entry_register_player(event=sign_up.event, values=values)
        sign_up.made_player = sign_up.entry.player
        sign_up.save(update_fields=["entry", "made_player"])
    elif sign_up.entry.status != Entry.Status.ACTIVE and not under_way:
        entry_status_set(entry=sign_up.entry, status=Entry.Status.ACTIVE, reason=_("registration confirmed"))
    if under_way and sign_up.entry.status != Entry.Status.AWAY:
        entry_status_set(
            entry=sign_up.entry,
            status=Entry.Status.AWAY,
            reason=_("promoted while the event is under way: seated once at the desk"),
        )
    _move(sign_up, State.CONFIRMED, what, by=by, reason=reason)
    _message(sign_up, "promoted_under_way" if under_way else "promoted" if promoted else "confirmed")


def _promote_waiting(registration: Registration, *, by=None, under_way_too: bool = False) -> list[SignUp]:
    """Fill the places left from the waiting list, first come first served (in its order). While the event is
    under way nobody is promoted, unless an organizer asked for it knowingly (``under_way_too``)."""
    late = selectors.registration_under_way(registration)
    if late and not under_way_too:
        return []
    promoted = []
    for first in selectors.waiting_first(registration):
        _confirm(first, "promoted", by=by, under_way=late)
        promoted.append(first)
    return promoted


# --- the organizer's actions -------------------------------------------------------------------------


def _locked_sign_up(sign_up: SignUp) -> tuple[Registration, SignUp]:
    """The registration's lock, then the sign-up as it is now."""
    registration = _locked(sign_up.event_id)
    return registration, SignUp.objects.select_related("event", "entry").get(pk=sign_up.pk)


def _require(sign_up: SignUp, *states: str) -> None:
    if sign_up.state not in states:
        raise TaikaiError(
            "invalid_state",
            _("%(name)s is %(state)s: this cannot be done now")
            % {"name": sign_up.name, "state": sign_up.get_state_display()},
            field="state",
        )


@transaction.atomic
def sign_up_approve(*, sign_up: SignUp, by) -> SignUp:
    """A pending sign-up is approved: confirmed if a place is left, else it waits in its order."""
    registration, sign_up = _locked_sign_up(sign_up)
    _require(sign_up, State.PENDING)
    if _places_left(registration) > 0:
        _confirm(sign_up, "approved", by=by)
    else:
        _move(sign_up, State.WAITING, "approved", by=by)
        _message(sign_up, "waiting")
    return sign_up


@transaction.atomic
def sign_up_refuse(*, sign_up: SignUp, by, reason: str = "", block: bool = False) -> SignUp:
    """Refuse a sign-up (with ``block``, every later one from its address too). A confirmed player refused
    loses their place, which goes to the waiting list."""
    registration, sign_up = _locked_sign_up(sign_up)
    _require(sign_up, State.PENDING, State.WAITING, State.CONFIRMED)
    was_confirmed = sign_up.state == State.CONFIRMED
    if sign_up.entry_id:
        entry_status_set(entry=sign_up.entry, status=Entry.Status.WITHDRAWN, reason=_("registration refused"))
    _move(sign_up, State.REFUSED, "refused", reason=reason, by=by)
    if block:
        BlockedEmail.objects.get_or_create(
            event_id=sign_up.event_id, email=sign_up.email, defaults={"reason": reason[:300], "by": by}
        )
    _message(sign_up, "refused", reason=reason)
    if was_confirmed:
        _promote_waiting(registration, by=by)
    return sign_up


@transaction.atomic
def registration_cap_set(*, event: Event, cap: int, by, promote_under_way: bool = False) -> list[SignUp]:
    """More (or fewer) places: before the event is under way the waiting list fills the new places at once.
    Once it is under way (check-in closed, or round 1 seated) nobody is promoted unless the organizer, shown who
    would be (``selectors.waiting_first``), asks for it with ``promote_under_way``: those promoted are told the event is
    in progress and to come to the desk, and are away (not seated) until they check in there. Lowering the cap
    takes no place from anyone confirmed: it only stops promotions until the count is below it again."""
    if isinstance(cap, bool) or not isinstance(cap, int) or cap < 0:
        raise TaikaiError("invalid_cap", _("the places are a whole number, 0 or more"), field="cap")
    registration = _locked(event.pk)
    registration.cap = cap
    registration.save(update_fields=["cap"])
    return _promote_waiting(registration, by=by, under_way_too=promote_under_way)


@transaction.atomic
def waiting_move(*, sign_up: SignUp, before: SignUp | None, reason: str, by) -> SignUp:
    """Move a waiting sign-up in the waiting list, just before ``before`` (None: to its end), with the reason
    recorded. The list is renumbered from its first place."""
    if not reason.strip():
        raise TaikaiError("reason_required", _("say why the order changes"), field="reason")
    _registration, sign_up = _locked_sign_up(sign_up)
    _require(sign_up, State.WAITING)
    waiting = [
        s
        for s in SignUp.objects.filter(event_id=sign_up.event_id, state=State.WAITING).order_by("rank")
        if s.pk != sign_up.pk
    ]
    at = next((i for i, s in enumerate(waiting) if before is not None and s.pk == before.pk), len(waiting))
    ordered = [*waiting[:at], sign_up, *waiting[at:]]
    ranks = sorted(s.rank for s in ordered)
    top = (SignUp.objects.filter(event_id=sign_up.event_id).aggregate(last=Max("rank"))["last"] or 0) + 1
    for offset, item in enumerate(ordered):  # out of the way first: ranks are unique per event
        SignUp.objects.filter(pk=item.pk).update(rank=top + offset)
    for item, rank in zip(ordered, ranks, strict=True):
        SignUp.objects.filter(pk=item.pk).update(rank=rank)
    sign_up.refresh_from_db()
    _change(sign_up, "reordered", State.WAITING, State.WAITING, reason=reason, by=by)
    return sign_up


# --- the player's own link ----------------------------------------------------------------------------


@transaction.atomic
def sign_up_withdraw(*, sign_up: SignUp) -> SignUp:
    """The player withdraws (from their private link): a confirmed place goes to the first waiting player."""
    registration, sign_up = _locked_sign_up(sign_up)
    _require(sign_up, State.PENDING, State.WAITING, State.CONFIRMED)
    was_confirmed = sign_up.state == State.CONFIRMED
    if sign_up.entry_id:
        entry_status_set(entry=sign_up.entry, status=Entry.Status.WITHDRAWN, reason=_("withdrew"))
    _move(sign_up, State.WITHDRAWN, "withdrew")
    _message(sign_up, "withdrawn")
    if was_confirmed:
        _promote_waiting(registration)
    return sign_up


@transaction.atomic
def sign_up_edit(*, sign_up: SignUp, values: dict) -> SignUp:
    """The player corrects their details (before the event starts): the sign-up's own; the entry's player
    follows only when it was made from this sign-up, never a stored player an organizer merged it with."""
    registration, sign_up = _locked_sign_up(sign_up)
    _require(sign_up, State.PENDING, State.WAITING, State.CONFIRMED)
    checked = SignUpValues.checked(registration, values)
    if checked.email != sign_up.email:  # a new address is held to the same limits as a new sign-up
        _email_allowed(registration, checked.email, besides=sign_up)
    for name, value in checked.__dict__.items():
        setattr(sign_up, name, value)
    sign_up.save(update_fields=list(FIELDS))
    if sign_up.own_player:
        player = sign_up.entry.player
        player.display_name, player.reading, player.club = sign_up.name, sign_up.reading, sign_up.club
        player.save(update_fields=["display_name", "reading", "club"])
    _change(sign_up, "edited", sign_up.state, sign_up.state)
    return sign_up


# --- check-in ---------------------------------------------------------------------------------------------


def checkin_open(registration: Registration | None) -> bool:
    now = timezone.now()
    return bool(
        registration
        and registration.checkin_opens_at
        and registration.checkin_opens_at <= now
        and registration.checkin_closed_at is None
    )


def check_in_open_guard(event: Event, round_number: int) -> str | None:
    """The guard before a round (``check_in_open``): a check-in list set up and not closed yet, with players still
    missing, refuses the seating, saying what to do (the tournament's seating asks it; it never imports this app)."""
    registration = Registration.objects.filter(event=event).first()
    if registration is None or registration.checkin_opens_at is None or registration.checkin_closed_at is not None:
        return None
    expected = SignUp.objects.filter(event=event, state=State.CONFIRMED).count()
    checked_in = _checked_in(event.pk)
    if expected and checked_in >= expected:
        return None  # everyone who signed up is here: closing the list would decide nothing
    return _(
        "check-in is still open (%(checked_in)s of %(expected)s players checked in): close check-in at the desk "
        "first (those missing are away for the round), or override with a reason"
    ) % {"checked_in": checked_in, "expected": expected}


@transaction.atomic
def sign_up_check_in(*, sign_up: SignUp, by=None) -> SignUp:
    """The player is at the venue: from their own link (``by`` None) or at the desk (an organizer)."""
    registration, sign_up = _locked_sign_up(sign_up)
    if not checkin_open(registration):
        raise TaikaiError("checkin_closed", _("check-in is not open"), field="event")
    _require(sign_up, State.CONFIRMED)
    if sign_up.checked_in_at is None:
        sign_up.checked_in_at = timezone.now()
        sign_up.save(update_fields=["checked_in_at"])
        _change(sign_up, "checked_in", sign_up.state, sign_up.state, by=by)
        _announce_check_in(sign_up.event_id)
    return sign_up


@transaction.atomic
def sign_up_check_in_undo(*, sign_up: SignUp, by) -> SignUp:
    """The desk tapped the wrong name: the check-in is taken back while check-in is open (recorded; the
    player is missing again). Undoing one not checked in changes nothing."""
    registration, sign_up = _locked_sign_up(sign_up)
    if not checkin_open(registration):
        raise TaikaiError("checkin_closed", _("check-in is not open"), field="event")
    _require(sign_up, State.CONFIRMED)
    if sign_up.checked_in_at is not None:
        sign_up.checked_in_at = None
        sign_up.save(update_fields=["checked_in_at"])
        _change(sign_up, "check_in_undone", sign_up.state, sign_up.state, by=by)
        _announce_check_in(sign_up.event_id)
    return sign_up


def _announce_check_in(event_id: int) -> None:
    """The desk's page follows the count live (after the commit; the count only, no names)."""
    announce("checkin", event_id, checked_in=_checked_in(event_id))


def _checked_in(event_id: int) -> int:
    """Confirmed players checked in at the venue."""
    return SignUp.objects.filter(event_id=event_id, state=State.CONFIRMED, checked_in_at__isnull=False).count()


@transaction.atomic
def checkin_close(*, event: Event, by) -> list[SignUp]:
    """Art. 42 before the game: every confirmed player not checked in is away for round 1 (not seated until
    back); their sign-ups are listed. Round 1 is then seated from those checked in."""
    registration = _locked(event.pk)
    if registration.checkin_closed_at is not None:
        raise TaikaiError("checkin_closed", _("check-in is already closed"), field="event")
    registration.checkin_closed_at = timezone.now()
    registration.save(update_fields=["checkin_closed_at"])
    missing = list(
        SignUp.objects.filter(event=event, state=State.CONFIRMED, checked_in_at__isnull=True).select_related("entry")
    )
    for sign_up in missing:
        entry_status_set(entry=sign_up.entry, status=Entry.Status.AWAY, reason=_("not checked in (art. 42)"))
        _change(sign_up, "absent", sign_up.state, sign_up.state, reason=_("not checked in"), by=by)
    _announce_check_in(event.pk)
    return missing


@transaction.atomic
def waiting_seat_at_venue(*, sign_up: SignUp, by) -> SignUp:
    """A waiting player who came to the venue takes a place left free by a player absent at check-in."""
    registration, sign_up = _locked_sign_up(sign_up)
    _require(sign_up, State.WAITING)
    if registration.checkin_closed_at is None:
        raise TaikaiError("checkin_open", _("close check-in first: the free places are known then"), field="event")
    if _checked_in(sign_up.event_id) >= registration.cap:
        raise TaikaiError("no_free_place", _("no place is free"), field="event")
    _confirm(sign_up, "seated_at_venue", by=by, reason=_("came to the venue"))
    sign_up.checked_in_at = timezone.now()
    sign_up.save(update_fields=["checked_in_at"])
    _announce_check_in(sign_up.event_id)
    return sign_up


@transaction.atomic
def late_arrival(*, sign_up: SignUp, by) -> SignUp:
    """A player away at check-in arrives later: seated again from the next round (the organizer's action)."""
    _registration, sign_up = _locked_sign_up(sign_up)
    _require(sign_up, State.CONFIRMED)
    if sign_up.entry is None or sign_up.entry.status != Entry.Status.AWAY:
        raise TaikaiError("not_away", _("%(name)s is not away") % {"name": sign_up.name}, field="state")
    entry_status_set(entry=sign_up.entry, status=Entry.Status.ACTIVE, reason=_("arrived late"))
    sign_up.checked_in_at = timezone.now()
    sign_up.save(update_fields=["checked_in_at"])
    _change(sign_up, "arrived_late", sign_up.state, sign_up.state, by=by)
    _announce_check_in(sign_up.event_id)
    return sign_up


# --- messages -----------------------------------------------------------------------------------------------


def _message(sign_up: SignUp, kind: str, *, reason: str = "") -> SignUpMessage:
    """Write the message in the player's language, keep it, and send it after the commit."""
    with translation.override(sign_up.language):
        subject, body = _words(sign_up, kind, reason)
    message = SignUpMessage.objects.create(sign_up=sign_up, kind=kind, subject=subject[:200], body=body)
    enqueue_on_commit(SEND_MESSAGE, message.pk, site_url())  # its link opens the site where it was written
    return message


def _words(sign_up: SignUp, kind: str, reason: str) -> tuple[str, str]:
    event = {"event": sign_up.event.name, "name": sign_up.name}
    if kind == "confirmed":
        return _("Your place at %(event)s is confirmed") % event, _(
            "%(name)s, your place at %(event)s is confirmed. Open your link at the venue to check in."
        ) % event
    if kind == "promoted":
        return _("A place at %(event)s is yours") % event, _(
            "%(name)s, a place at %(event)s was freed and is now yours: you are confirmed. If you cannot come, "
            "withdraw from your link so that the next person gets it."
        ) % event
    if kind == "promoted_under_way":
        return _("A place at %(event)s is yours") % event, _(
            "%(name)s, a place at %(event)s is now yours, but the event is already under way: check-in is closed. "
            "Come to the check-in desk if you can still play: you are seated from the next round after checking in "
            "there. If you cannot come, withdraw from your link."
        ) % event
    if kind == "waiting":
        return _("You are on the waiting list of %(event)s") % event, _(
            "%(name)s, %(event)s is full: you are on its waiting list, in the order of sign-up. When a place is "
            "freed you get it at once and are told."
        ) % event
    if kind == "pending":
        return _("Your sign-up for %(event)s is received") % event, _(
            "%(name)s, your sign-up for %(event)s is received. The organizers approve each one; you are told."
        ) % event
    if kind == "refused":
        words = _("%(name)s, your sign-up for %(event)s was refused.") % event
        return _("Your sign-up for %(event)s") % event, (f"{words} {reason}".strip())
    if kind == "link":
        return _("Your new link for %(event)s") % event, _(
            "%(name)s, your sign-up for %(event)s has a new private link, below: the old one no longer opens it."
        ) % event
    if kind == "withdrawn":
        return _("You withdrew from %(event)s") % event, _("%(name)s, you withdrew from %(event)s.") % event
    return _("%(event)s is coming") % event, _(  # the reminder
        "%(name)s, %(event)s is coming. Open your link at the venue to check in."
    ) % event


def reminders_send(*, event: Event) -> int:
    """The reminder before the day, once, to every confirmed player."""
    with transaction.atomic():
        registration = _locked(event.pk)
        if registration.reminder_sent_at is not None:
            return 0
        registration.reminder_sent_at = timezone.now()
        registration.save(update_fields=["reminder_sent_at"])
        confirmed = list(SignUp.objects.filter(event=event, state=State.CONFIRMED).select_related("event"))
        for sign_up in confirmed:
            _message(sign_up, "reminder")
    return len(confirmed)


def message_send(*, message_id: int, link: str) -> bool:
    """Send one kept message by e-mail (the Celery task's work): once, with the player's private link."""
    from django.core.mail import EmailMessage

    with transaction.atomic():
        message = (
            SignUpMessage.objects.select_for_update(no_key=True, of=("self",))
            .select_related("sign_up")
            .filter(pk=message_id)
            .first()
        )
        if message is None or message.sent_at is not None:
            return False
        EmailMessage(message.subject, f"{message.body}\n\n{link}", to=[message.sign_up.email]).send()
        message.sent_at = timezone.now()
        message.save(update_fields=["sent_at"])
    return True


@transaction.atomic
def sign_up_external_id_confirm(*, sign_up: SignUp, by) -> SignUp:
    """The organizer confirms the EMA number or other id a confirmed sign-up gave, when no stored player holds
    it: the player made from the sign-up takes it (one who holds it is merged with instead). Recorded."""
    _registration, sign_up = _locked_sign_up(sign_up)
    _require(sign_up, State.CONFIRMED)
    if not sign_up.external_id:
        raise TaikaiError(
            "no_external_id", _("%(name)s gave no EMA number or other id") % {"name": sign_up.name}, field="external_id"
        )
    if not sign_up.own_player:
        raise TaikaiError(
            "player_stored",
            _("%(name)s is a stored player: their number is changed in Players") % {"name": sign_up.name},
            field="player",
        )
    player = Player.objects.select_for_update(no_key=True).get(pk=sign_up.entry.player_id)
    holder = Player.objects.filter(external_id=sign_up.external_id).exclude(pk=player.pk).first()
    if holder is not None:
        raise TaikaiError(
            "external_id_taken",
            _("%(player)s (#%(id)s) holds this number: merge the sign-up with them instead")
            % {"player": holder, "id": holder.pk},
            field="external_id",
        )
    player.external_id = sign_up.external_id
    try:
        with transaction.atomic():
            player.save(update_fields=["external_id"])
    except IntegrityError:  # stored meanwhile by someone else
        raise TaikaiError(
            "external_id_taken",
            _("a stored player holds this number: merge the sign-up with them instead"),
            field="external_id",
        ) from None
    _change(sign_up, "id_confirmed", sign_up.state, sign_up.state, reason=sign_up.external_id, by=by)
    return sign_up


@transaction.atomic
def sign_up_player_merge(*, sign_up: SignUp, player, by) -> SignUp:
    """The organizer says a confirmed sign-up is a stored player (a likely match): its entry is that player's
    from now on, and the player made at sign-up is removed when nothing else names it. Recorded."""
    _registration, sign_up = _locked_sign_up(sign_up)
    _require(sign_up, State.CONFIRMED)
    entry = sign_up.entry
    made = entry.player
    if made.pk == player.pk:
        return sign_up
    if Entry.objects.filter(event_id=sign_up.event_id, player=player).exists():
        raise TaikaiError(
            "already_entered", _("%(player)s is already a player of this event") % {"player": player}, field="player"
        )
    Entry.objects.filter(pk=entry.pk).update(player=player)
    sign_up.refresh_from_db()  # the entry's player is the stored one now: the sign-up's edits never reach it
    if not Entry.objects.filter(player=made).exists() and made.user_id is None:
        Player.objects.filter(pk=made.pk).delete()
    _change(
        sign_up,
        "merged",
        sign_up.state,
        sign_up.state,
        reason=_("the same as player #%(id)s") % {"id": player.pk},
        by=by,
    )
    return sign_up
