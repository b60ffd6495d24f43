"""A substitute 代走 seated at a table for a player who cannot play, by a referee of the table."""

from __future__ import annotations

from django.contrib import messages
from django.http import JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from taikai.errors import TaikaiError
from tournament import access, selectors
from tournament.console.common import refused, table_and_caller
from tournament.forms import SubstituteForm
from tournament.outbox import outbox_form_refusal, outbox_refusal, wants_json
from tournament.services.substitutes import substitute_seat


@require_http_methods(["GET", "POST"])
def table_substitute(request, table_id: int):
    """Seat a substitute 代走 for a player who did not come, from the table (its referees and the organizers):
    find a stored player by name, kana, romaji, club or EMA number, or name a new one. The same service as the
    admin's page; a ruling records it (art. 44)."""
    table, actor = table_and_caller(table_id, request)
    if not access.may_referee(actor, table.round.event_id, table.number):
        return refused(request, actor)
    query = request.GET.get("q", "")
    candidates = selectors.substitute_candidates(table.round.event, query)
    form = SubstituteForm(
        request.POST or None, table=table, candidates=candidates, initial={"seat": request.GET.get("seat")}
    )
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            data = form.cleaned_data
            try:
                substitute = substitute_seat(
                    seat=form.chosen_seat,
                    player=data["player"],
                    name=data["name"],
                    reason=data["reason"],
                    user=actor.author_at(table),
                )
            except TaikaiError as exc:
                if wants_json(request):
                    return outbox_refusal(exc)
                form.add_error(exc.field if exc.field in form.fields else None, exc.message)
            else:
                done = _("%(player)s is seated as a substitute (代走).") % {"player": substitute.player}
                if wants_json(request):
                    return JsonResponse({"ok": True, "message": str(done)})
                messages.success(request, done)
                return redirect("console:table", table.pk)
        elif wants_json(request):
            return outbox_form_refusal(form)
    context = {
        "table": table,
        "event": table.round.event,
        "form": form,
        "query": query,
        "candidates": candidates,
    }
    return render(request, "tournament/console/substitute.html", context, status=status)
