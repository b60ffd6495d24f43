"""The players' pages of registration (no account needed) and the check-in desk (organizers).

* ``/events/<slug>/register/``: the sign-up form, phone first;
* ``/r/<token>/``: a sign-up's private page: its state and place in the waiting list, its details, the
  messages sent, withdraw, check in at the venue (a QR of the page to show at the desk), and the table of
  the latest published round;
* ``/console/events/<slug>/check-in/``: the desk: counts, a search by name, kana or romaji, check in, the
  players still missing, close check-in (art. 42), a waiting player who came, a late arrival.
"""

from __future__ import annotations

from urllib.parse import urlencode

import segno
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from core.caller import client_address
from registration import selectors, services
from registration.forms import TRAP, SignUpForm
from registration.models import SignUp
from taikai.errors import Forbidden, TaikaiError
from tournament import access
from tournament import selectors as tournament_selectors
from tournament.localtime import event_time_zone_activate
from tournament.pages import public_event_or_404


@require_http_methods(["GET", "POST"])
def sign_up(request, slug: str):
    event = public_event_or_404(slug)
    event_time_zone_activate(event)
    registration = selectors.registration_of(event)
    if registration is None:
        raise Http404("this event takes no sign-ups")
    form = SignUpForm(request.POST or None, registration=registration)
    status = 200
    if request.method == "POST" and form.is_valid():
        actor = access.actor_for(request)
        organizer = not actor.anonymous and access.may_manage(actor, event.pk)  # not counted by the limit
        try:
            made = services.sign_up_create(
                event=event,
                values=form.cleaned_data,
                language=get_language() or "en",
                address="" if organizer else client_address(request),
                trap=form.cleaned_data.get(TRAP, ""),
                by=request.user if organizer else None,
            )
        except TaikaiError as exc:
            form.add_error(exc.field if exc.field in form.fields else None, exc.message)
        else:
            return redirect("registration:private", services.private_token(made))
    if request.method == "POST":
        status = 400
    context = {
        "event": event,
        "registration": registration,
        "form": form,
        "counts": selectors.sign_up_counts(event),
        "open": registration.is_open(),
    }
    return render(request, "registration/sign_up.html", context, status=status)


PRIVATE_ACTIONS = {"withdraw": services.sign_up_withdraw, "check_in": services.sign_up_check_in}


@require_http_methods(["GET", "POST"])
def private(request, token: str):
    """A sign-up's own page: only its link opens it (no account, no role reaches it another way)."""
    sign_up = services.sign_up_from_token(token)
    event_time_zone_activate(sign_up.event)
    registration = selectors.registration_of(sign_up.event)
    form = SignUpForm(
        request.POST if request.POST.get("action") == "edit" else None, registration=registration, instance=sign_up
    )
    status = 200
    action = request.POST.get("action") if request.method == "POST" else None
    if action is not None:
        try:
            if action == "edit":
                if form.is_valid():
                    services.sign_up_edit(sign_up=sign_up, values=form.cleaned_data)
                    messages.success(request, _("Your details are saved."))
                    return redirect("registration:private", token)
            elif action == "renew":
                renewed = services.sign_up_link_renew(sign_up=sign_up)
                messages.success(request, _("This is your new link: the old one no longer works. Keep this one."))
                return redirect("registration:private", services.private_token(renewed))
            elif action in PRIVATE_ACTIONS:
                PRIVATE_ACTIONS[action](sign_up=sign_up)
                messages.success(request, _("Withdrawn.") if action == "withdraw" else _("You are checked in."))
                return redirect("registration:private", token)
            else:
                raise TaikaiError(
                    "invalid_action", _("unknown action %(action)s") % {"action": repr(action)}, field="action"
                )
        except TaikaiError as exc:
            messages.error(request, exc.message)
        status = 400
        sign_up.refresh_from_db()
    url = request.build_absolute_uri(reverse("registration:private", args=[token]))
    context = {
        "sign_up": sign_up,
        "event": sign_up.event,
        "form": form,
        "registration": registration,
        "place": selectors.waiting_place(sign_up),
        "seat": selectors.sign_up_seat(sign_up),
        "checkin_open": services.checkin_open(registration),
        "sent": sign_up.messages.order_by("-created_at"),
        "qr": segno.make(url, error="m").svg_inline(scale=4),
    }
    response = render(request, "registration/private.html", context, status=status)
    response["Referrer-Policy"] = "same-origin"  # the link is the key: never sent to another site
    response["Cache-Control"] = "private, no-store"
    return response


DESK_ACTIONS = {
    "check_in": services.sign_up_check_in,
    "undo_check_in": services.sign_up_check_in_undo,
    "seat_waiting": services.waiting_seat_at_venue,
    "late": services.late_arrival,
}


@require_http_methods(["GET", "POST"])
def desk(request, slug: str):
    """The check-in desk, for the event's organizers, on a phone."""
    event = tournament_selectors.event_get(slug)
    if event is None:
        raise Http404("no such event")
    actor = access.actor_for(request)
    if actor.anonymous:
        return redirect_to_login(request.get_full_path())
    if not access.may_manage(actor, event.pk):
        raise Forbidden("forbidden", _("your role in this event does not allow this"))
    event_time_zone_activate(event)
    registration = selectors.registration_of(event)
    if registration is None:
        raise Http404("this event takes no sign-ups")
    if request.method == "POST":
        action = request.POST.get("action", "")
        just_checked = None
        try:
            if action == "close":
                missing = services.checkin_close(event=event, by=request.user)
                messages.success(
                    request, _("Check-in is closed: %(count)s players are away for round 1.") % {"count": len(missing)}
                )
            elif action in DESK_ACTIONS:
                chosen = get_object_or_404(SignUp, pk=_int(request.POST.get("sign_up")), event=event)
                DESK_ACTIONS[action](sign_up=chosen, by=request.user)
                messages.success(request, _desk_done(action, chosen))
                just_checked = chosen.pk if action == "check_in" else None
            else:
                raise TaikaiError(
                    "invalid_action", _("unknown action %(action)s") % {"action": repr(action)}, field="action"
                )
        except TaikaiError as exc:
            messages.error(request, exc.message)
        return redirect(_desk_url(slug, request.POST.get("q", ""), just_checked))
    query = request.GET.get("q", "").strip()[:80]
    context = {
        "event": event,
        "registration": registration,
        "counts": selectors.sign_up_counts(event),
        "found": selectors.sign_ups_found(event, query),
        "q": query,
        "missing": selectors.missing_at_check_in(event),
        "checkin_open": services.checkin_open(registration),
        "undo": selectors.checked_in_sign_up(event, request.GET.get("checked")),
    }
    return render(request, "registration/desk.html", context)


def _desk_url(slug: str, query: str, just_checked: int | None) -> str:
    """Back to the desk, its search kept, and the player just checked in offered to undo."""
    kept = {"q": query} | ({"checked": just_checked} if just_checked else {})
    return f"{reverse('registration:desk', args=[slug])}?{urlencode(kept)}"


def _desk_done(action: str, sign_up: SignUp) -> str:
    """What the desk reads after a tap (a check-in is followed by its undo button on the page)."""
    if action == "check_in":
        return _("%(name)s is checked in.") % {"name": sign_up.name}
    if action == "undo_check_in":
        return _("%(name)s is not checked in any more.") % {"name": sign_up.name}
    return _("%(name)s: done.") % {"name": sign_up.name}


def _int(value) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        raise TaikaiError("invalid_sign_up", _("the sign-up is missing or not a number"), field="sign_up") from None
