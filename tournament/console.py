"""The console: where referees and scorekeepers work at the tables, outside the admin.

* "My tables": the tables of running rounds the person may act on;
* the table sheet: hands (and corrections), the result, absences, the final's decision;
* a scorekeeper's table card: the link from the card's QR code, then its PIN.

Every write asks :mod:`tournament.access` first: recording and confirming need the table (referee or its
scorekeeper), absences, reopening and the final's decision need a referee of the table.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.paginator import Paginator
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods

from taikai.errors import Forbidden, TaikaiError
from tournament import access, selectors
from tournament.forms import FinalScoresForm, HandForm, ScorekeeperPinForm
from tournament.models import Seat, Table
from tournament.services.discipline import seat_mark_absent
from tournament.services.finals import final_apply, final_situation
from tournament.services.hands import hand_record
from tournament.services.results import table_finish, table_reopen
from tournament.services.roles import scorekeeper_key_unlock

TABLES_PER_PAGE = 50


def _refused(request, actor: access.Actor):
    """Nobody at all is sent to sign in; someone without the role gets 403."""
    if actor.anonymous:
        return redirect_to_login(request.get_full_path())
    raise Forbidden("forbidden", "your role in this event does not allow this")


@require_http_methods(["GET"])
def my_tables(request):
    actor = access.actor_for(request)
    if actor.anonymous:
        return redirect_to_login(request.get_full_path())
    scopes = access.console_scopes(actor)
    tables = selectors.tables_playing_in(scopes, table_ids=actor.scorekeeper_tables)
    status = request.GET.get("status", "")
    if status in Table.Status.values:
        tables = tables.filter(status=status)
    page = Paginator(tables, TABLES_PER_PAGE).get_page(request.GET.get("page"))
    return render(request, "tournament/console/tables.html", {"page": page, "status": status,
                                                              "statuses": Table.Status.choices})  # fmt: skip


def _editing_number(request, hands_recorded: int) -> int:
    raw = request.GET.get("hand") or request.POST.get("hand") or ""
    try:
        number = int(raw) if raw else hands_recorded + 1
    except ValueError:
        raise TaikaiError("invalid_hand", "the hand is a number", field="hand") from None
    if not 1 <= number <= hands_recorded + 1:
        raise TaikaiError(
            "invalid_hand", f"hands 1 to {hands_recorded + 1} can be recorded here", field="hand"
        )
    return number


# What each button on the sheet needs: "score" (the table's referee or scorekeeper) or "referee".
SHEET_ACTIONS = {
    "hand": "score",
    "finish": "score",
    "scores": "score",
    "absent_before": "referee",
    "absent_during": "referee",
    "final_apply": "referee",
    "reopen": "referee",
}


@require_http_methods(["GET", "POST"])
def table_sheet(request, table_id: int):
    table = selectors.table_with_event(table_id)
    if table is None:
        raise Http404("no such table")
    actor = access.actor_for(request)
    can_score = access.may_score(actor, table)
    can_referee = access.may_referee(actor, table.round.event_id, table.number)
    if not can_score:
        return _refused(request, actor)
    action = request.POST.get("action") if request.method == "POST" else None
    if action is not None:
        needed = SHEET_ACTIONS.get(action)
        if needed is None:
            raise TaikaiError("invalid_action", f"unknown action {action!r}", field="action")
        access.require(can_referee or needed == "score", "do this at this table")
    seats = selectors.table_game_seats(table)
    sheet = selectors.table_hand_sheet(table)
    editing = _editing_number(request, len(sheet.hands))
    current = next((h for h in sheet.hands if h.number == editing), None)
    initial = {"expected_version": current.version if current else 0,
               **selectors.next_hand_defaults(sheet, players=len(seats))}  # fmt: skip
    if current:
        initial |= {"outcome": current.outcome, "dealer_position": current.dealer_position,
                    "honba": current.honba, "riichi_positions": current.riichi_positions,
                    "tenpai_positions": current.tenpai_positions}  # fmt: skip
    hand_form = HandForm(request.POST if action == "hand" else None, seats=seats, initial=initial)
    scores_form = FinalScoresForm(request.POST if action == "scores" else None, seats=seats)
    status = 200
    if action is not None:
        try:
            author = actor.author_at(table)
            done = _sheet_action(request, author, table, action, hand_form, scores_form, seats, editing)
        except TaikaiError as exc:
            if exc.status == 403:
                raise
            messages.error(request, f"{exc.message} ({exc.code})")
        else:
            if done:
                messages.success(request, done)
                return redirect("console:table", table.pk)
        status = 400
    final = None
    if table.round.is_final and table.status == Table.Status.FINISHED:
        try:
            final = final_situation(table=table)
        except TaikaiError as exc:
            messages.warning(request, exc.message)
    context = {
        "table": table, "event": table.round.event, "seats": seats, "sheet": sheet, "hand_form": hand_form,
        "scores_form": scores_form, "editing": editing, "current": current, "final": final,
        "results": selectors.table_results_all_versions(table), "can_referee": can_referee,
        "all_seats": selectors.table_seats(table),
    }  # fmt: skip
    return render(request, "tournament/console/table.html", context, status=status)


def _sheet_action(request, user, table, action, hand_form, scores_form, seats, editing) -> str | None:
    """Run one button of the sheet as ``user`` (an account or a table card); the message to show, or
    None when the form has errors."""
    if action == "hand":
        if not hand_form.is_valid():
            return None
        hand_record(table=table, number=editing, expected_version=hand_form.cleaned_data["expected_version"],
                    data=hand_form.hand_data(), user=user)  # fmt: skip
        return f"Hand {editing} saved."
    if action == "finish":
        table_finish(table=table, user=user)
        return "The table's result is confirmed."
    if action == "scores":
        if not scores_form.is_valid():
            return None
        table_finish(table=table, final_points=scores_form.final_points(seats), user=user)
        return "The table's result is confirmed."
    if action in ("absent_before", "absent_during"):
        seat = get_object_or_404(Seat, pk=_seat_id(request), table=table)
        seat_mark_absent(seat=seat, during=action == "absent_during", user=user)
        return f"{seat.entry.player} is marked absent (art. 42)."
    if action == "final_apply":
        return final_apply(table=table, user=user)
    table_reopen(table=table)
    return "The table is open for corrections."


def _seat_id(request) -> int:
    try:
        return int(request.POST.get("seat", ""))
    except ValueError:
        raise TaikaiError("invalid_seat", "choose a seat at this table", field="seat") from None


@require_http_methods(["GET", "POST"])
def table_card(request, token: str):
    """A scorekeeper's table card: the link opens this page, the PIN opens the table for this session."""
    form = ScorekeeperPinForm(request.POST or None)
    status = 200
    if request.method == "POST" and form.is_valid():
        try:
            key = scorekeeper_key_unlock(token=token, pin=form.cleaned_data["pin"])
        except TaikaiError as exc:
            form.add_error("pin" if exc.field == "pin" else None, exc.message)
            status = 403 if exc.code in ("key_invalid", "key_locked") else 400
        else:
            opened = set(request.session.get(access.SESSION_SCOREKEEPER_KEYS, []))
            request.session[access.SESSION_SCOREKEEPER_KEYS] = sorted(opened | {key.pk})
            request.session.cycle_key()
            return redirect("console:table", key.table_id)
    elif request.method == "POST":
        status = 400
    return render(request, "tournament/console/card.html", {"form": form}, status=status)
