"""A foul logged at the table (or its penalty cancelled), by a referee of the table."""

from __future__ import annotations

from django.contrib import messages
from django.http import JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from taikai.errors import TaikaiError
from tournament import access, selectors
from tournament.console.common import refused, table_and_caller
from tournament.engine.penalties import PENALTY_EFFECTS, PenaltyKind, is_disqualifying
from tournament.forms import PenaltyForm
from tournament.models import PENALTY_KIND_CHOICES, Entry
from tournament.outbox import outbox_form_refusal, outbox_refusal, wants_json
from tournament.services.discipline import penalty_log


@require_http_methods(["GET", "POST"])
def table_penalty(request, table_id: int):
    """Log a foul at the table, then go back to it. A disqualifying foul asks first and says so after."""
    table, actor = table_and_caller(table_id, request)
    if not access.may_referee(actor, table.round.event_id, table.number):
        return refused(request, actor)
    event = table.round.event
    seats = selectors.table_seats(table)
    hand = selectors.table_hands_recorded(table) + 1
    initial = {"hand_number": request.GET.get("hand") or hand, "seat": request.GET.get("seat")}
    form = PenaltyForm(
        request.POST or None,
        seats=seats,
        kinds=penalty_choices(event.ruleset),
        initial=initial,
        tournament_play=event.tournament_play,
    )
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        entry = form.seats[data["seat"]].entry
        try:
            penalty_log(
                event=event,
                entry=entry,
                kind=data["kind"],
                reason=data["reason"],
                table=table,
                hand_number=data["hand_number"],
                user=request.user,
            )
        except TaikaiError as exc:
            if wants_json(request):
                return outbox_refusal(exc)
            form.add_error(None, exc.message)
        else:
            if wants_json(request):
                return JsonResponse(
                    {
                        "ok": True,
                        "message": _("The penalty of %(player)s is logged.") % {"player": entry.player},
                    }
                )
            entry.refresh_from_db()
            if entry.status == Entry.Status.DISQUALIFIED:
                messages.warning(
                    request,
                    _("%(player)s is disqualified (art. 43): no award, still in the records.")
                    % {"player": entry.player},
                )
            messages.success(request, _("The penalty of %(player)s is logged.") % {"player": entry.player})
            return redirect("console:table", table.pk)
    if request.method == "POST" and wants_json(request):
        return outbox_form_refusal(form)
    status = 400 if request.method == "POST" else 200
    disqualifying = [
        kind.value for kind in PENALTY_EFFECTS if is_disqualifying(kind, tournament_play=event.tournament_play)
    ]
    return render(
        request,
        "tournament/console/penalty.html",
        {"table": table, "event": event, "form": form, "disqualifying": disqualifying},
        status=status,
    )


PENALTY_CHOICES = PENALTY_KIND_CHOICES  # each foul's label, read in the language of the page


def penalty_choices(ruleset) -> list:
    """The fouls a referee may log under ``ruleset``: a chombo 錯和 only where the ruleset sets chombo points."""
    return [(kind, label) for kind, label in PENALTY_CHOICES if kind != PenaltyKind.CHOMBO or ruleset.chombo_points]
