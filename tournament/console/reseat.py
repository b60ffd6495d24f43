"""Re-seating a table that sat wrong, by a referee of the table or an organizer: who really sat in each wind,
then a confirmation; every hand is written again under the real seats and one ruling records it (art. 44)."""

from __future__ import annotations

from django.contrib import messages
from django.http import JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from taikai.errors import TaikaiError
from tournament import access, selectors
from tournament.console.common import refused, table_and_caller
from tournament.forms import ReseatForm
from tournament.outbox import outbox_form_refusal, outbox_refusal, wants_json
from tournament.services.reseat import table_reseat


@require_http_methods(["GET", "POST"])
def table_reseat_page(request, table_id: int):
    """Choose who really sat where; the page asks to confirm, then re-seats the table (the same service as the
    API's)."""
    table, actor = table_and_caller(table_id, request)
    if not access.may_referee(actor, table.round.event_id, table.number):
        return refused(request, actor)
    form = ReseatForm(request.POST or None, table=table)
    status, confirming = 200, False
    if request.method == "POST":
        status = 400
        if not form.is_valid():
            if wants_json(request):
                return outbox_form_refusal(form)
        elif not form.cleaned_data["confirm"]:
            if wants_json(request):  # a device's queue sends only a confirmed re-seat
                return outbox_refusal(TaikaiError("confirm_required", _("confirm the real seats first")))
            status, confirming = 200, True
        else:
            try:
                table_reseat(
                    table=table,
                    players=form.players,
                    reason=form.cleaned_data["reason"],
                    user=actor.author_at(table),
                )
            except TaikaiError as exc:
                if wants_json(request):
                    return outbox_refusal(exc)
                form.add_error(None, exc.message)
            else:
                done = _("The table is re-seated: every hand is written again under the real seats.")
                if wants_json(request):
                    return JsonResponse({"ok": True, "message": str(done)})
                messages.success(request, done)
                return redirect("console:table", table.pk)
    context = {
        "table": table,
        "event": table.round.event,
        "form": form,
        "confirming": confirming,
        "hands": selectors.table_hands_recorded(table),
    }
    return render(request, "tournament/console/reseat.html", context, status=status)
