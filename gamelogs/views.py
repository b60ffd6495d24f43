"""The console's game logs: a referee or an organizer uploads a log (a file, or its text pasted), then sees the
game as recorded: its table, the final scores and where the log's scoring and Taikai's disagree.

Thin: the role is asked of :mod:`tournament.access`, :func:`gamelogs.services.game_log_import` does the rest.
"""

from __future__ import annotations

from django.contrib.auth.views import redirect_to_login
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path, reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_safe

from gamelogs.confirmations import play_confirm, window_is_open
from gamelogs.forms import GameLogForm
from gamelogs.lobby import round_online_plans
from gamelogs.models import ConfirmationWindow, Disagreement, GameLogImport, OnlineLeague, PlayConfirmation
from gamelogs.services import disagreement_settle, game_log_import
from gamelogs.side_by_side import side_by_side
from players.models import OnlineAccount
from taikai.errors import Forbidden, TaikaiError
from tournament import access, selectors
from tournament.models import Event, HandVersion, Round

YAKUMAN_HAN = 13


def _actor_or_login(request):
    actor = access.actor_for(request)
    if actor.anonymous:
        return actor, redirect_to_login(request.get_full_path())
    if not access.referees_any(actor):
        raise Forbidden("forbidden", _("your role in this event does not allow this"))
    return actor, None


@require_http_methods(["GET", "POST"])
def log_import(request):
    actor, login = _actor_or_login(request)
    if login is not None:
        return login
    events = Event.objects.filter(access.events_where(actor)).exclude(status=Event.Status.FINISHED)
    posted = request.POST.get("event", "")
    if posted and not (posted.isdigit() and access.holds_role(actor, int(posted))):
        raise Forbidden("forbidden", _("your role in this event does not allow this"))
    form = GameLogForm(request.POST or None, request.FILES or None, events=events)
    if len(events) == 1 and not form.is_bound:
        form.fields["event"].initial = events[0].pk
    refusal = None
    if request.method == "POST" and form.is_valid():
        event = form.cleaned_data["event"]
        try:
            record = game_log_import(
                event=event,
                data=form.cleaned_data["data"],
                user=request.user,
                may_record=lambda table: access.may_referee(actor, event.pk, table.number),
            )
        except TaikaiError as error:
            refusal = error
        else:
            return redirect(reverse("gamelogs:console_log", args=[record.pk]))
    status = refusal.status if refusal is not None else 400 if request.method == "POST" else 200
    return render(request, "gamelogs/console_import.html", {"form": form, "refusal": refusal}, status=status)


@require_http_methods(["GET"])
def log_shown(request, log_id: int):
    actor, login = _actor_or_login(request)
    if login is not None:
        return login
    record = get_object_or_404(
        GameLogImport.objects.select_related("event", "table__round").prefetch_related(
            "disagreements", "table__seats__entry__player"
        ),
        pk=log_id,
    )
    table = record.table
    if not access.may_referee(actor, record.event_id, table.number):
        raise Http404
    seats = sorted(table.seats.all(), key=lambda seat: seat.position)
    rows = [
        {"name": name, "player": seat.entry.player, "score": score}
        for name, seat, score in zip(record.players, seats, record.final_scores, strict=False)
    ]
    disagreements = [
        {
            "pk": d.pk,
            "hand": d.hand_number,
            "winner": _seat_name(record, d.winner_position),
            "state": d.get_state_display(),
            "log": _scoring_words(d.log_scoring),
            "taikai": _scoring_words(d.engine_scoring),
        }
        for d in record.disagreements.all()
    ]
    disagreeing = {d["hand"]: d["pk"] for d in disagreements}
    hands = [
        {
            "number": version.hand.number,
            "outcome": version.get_outcome_display(),
            "honba": version.honba,
            "deltas": [f"{delta:+d}" for delta in version.deltas],
            "disagreement": disagreeing.get(version.hand.number),
        }
        for version in HandVersion.objects.filter(hand__table=table, is_current=True)
        .select_related("hand")
        .order_by("hand__number")
    ]
    return render(
        request,
        "gamelogs/console_log.html",
        {"record": record, "table": table, "rows": rows, "disagreements": disagreements, "hands": hands},
    )


def _seat_name(record: GameLogImport, position: int | None) -> str:
    return record.players[position] if position is not None and position < len(record.players) else ""


def _scoring_words(scoring: dict) -> str:
    """One scoring of a disagreement in words: han and fu (or yakuman), points, or each seat's change."""
    if "deltas" in scoring:
        return " / ".join(f"{delta:+d}" for delta in scoring["deltas"])
    if "error" in scoring:
        return scoring.get("message") or scoring["error"]
    parts = []
    if scoring.get("yakuman"):
        parts.append(_("yakuman ×%(count)s") % {"count": scoring["yakuman"]})
    elif "han" in scoring:
        parts.append(_("%(han)s han %(fu)s fu") % {"han": scoring["han"], "fu": scoring.get("fu", 0)})
    if scoring.get("points"):
        parts.append(_("%(points)s points") % {"points": scoring["points"]})
    return ", ".join(parts)


@require_http_methods(["GET", "POST"])
def disagreement_shown(request, log_id: int, disagreement_id: int):
    """One disagreement: the log's scoring and Taikai's side by side; the table's referee accepts the log's, or
    corrects the hand at the table (a new version) and marks it corrected."""
    actor, login = _actor_or_login(request)
    if login is not None:
        return login
    disagreement = get_object_or_404(
        Disagreement.objects.select_related("log_import__event", "log_import__table__round", "resolved_by"),
        pk=disagreement_id,
        log_import_id=log_id,
    )
    record = disagreement.log_import
    table = record.table
    if not access.may_referee(actor, record.event_id, table.number):
        if request.method == "POST":
            raise Forbidden("forbidden", _("you may not record play at table %(table)s") % {"table": table.number})
        raise Http404
    refusal = None
    if request.method == "POST":
        try:
            disagreement_settle(disagreement=disagreement, state=request.POST.get("state", ""), user=request.user)
        except TaikaiError as error:
            refusal = error
        else:
            return redirect(reverse("gamelogs:console_disagreement", args=[record.pk, disagreement.pk]))
    context = {
        "record": record,
        "table": table,
        "disagreement": disagreement,
        "winner": _seat_name(record, disagreement.winner_position),
        "rows": side_by_side(disagreement, list(record.players)),
        "refusal": refusal,
        "open": disagreement.state == Disagreement.State.OPEN,
    }
    status = refusal.status if refusal is not None else 200
    return render(request, "gamelogs/console_disagreement.html", context, status=status)


@require_safe
def online_round(request, round_id: int):
    """An online round's seating for its referees and organizers: each table from East with every player's name on
    the platform, and what to do to start it (the event's lobby adapter; the manual steps always work)."""
    actor, login = _actor_or_login(request)
    if login is not None:
        return login
    round_ = get_object_or_404(Round.objects.select_related("event"), pk=round_id)
    if not access.holds_role(actor, round_.event_id):
        raise Http404
    league = OnlineLeague.objects.filter(event_id=round_.event_id).first() or OnlineLeague(event=round_.event)
    context = {
        "round": round_,
        "event": round_.event,
        "plans": round_online_plans(round_),
        "platform": OnlineAccount.Platform(league.platform).label,
        "how": league.get_table_start_display(),
    }
    return render(request, "gamelogs/online_round.html", context)


@require_http_methods(["GET", "POST"])
def play_confirmation(request, token: str):
    """A player's private page of the event's online rounds that ask for a confirmation: each round's window,
    when it closes, and whether they confirmed; they confirm with one tap while the window is open."""
    entry = selectors.entry_by_link(token)
    if entry is None:
        raise Http404
    windows = list(ConfirmationWindow.objects.filter(event_id=entry.event_id).order_by("round_number"))
    refusal = None
    if request.method == "POST":
        window = next((w for w in windows if str(w.pk) == request.POST.get("window", "")), None)
        if window is None:
            refusal = TaikaiError("no_such_window", _("no such confirmation window"), field="window")
        else:
            try:
                play_confirm(window=window, entry=entry)
            except TaikaiError as error:
                refusal = error
            else:
                return redirect(reverse("gamelogs:play_confirmation", args=[token]))
    answers = dict(PlayConfirmation.objects.filter(entry=entry).values_list("window_id", "state"))
    rows = [
        {"window": w, "open": window_is_open(w), "answer": answers.get(w.pk, ""), "label": _answer_words(answers, w)}
        for w in windows
    ]
    context = {"entry": entry, "event": entry.event, "rows": rows, "refusal": refusal}
    return render(request, "gamelogs/play_confirmation.html", context, status=refusal.status if refusal else 200)


def _answer_words(answers: dict, window: ConfirmationWindow) -> str:
    state = answers.get(window.pk)
    if state:
        return PlayConfirmation.State(state).label
    return _("not confirmed yet") if window_is_open(window) else _("not confirmed")


app_name = "gamelogs"
urlpatterns = [
    path("console/game-logs/", log_import, name="console_import"),
    path("console/game-logs/<int:log_id>/", log_shown, name="console_log"),
    path("me/<str:token>/online-rounds/", play_confirmation, name="play_confirmation"),
    path("console/online-rounds/<int:round_id>/", online_round, name="online_round"),
    path(
        "console/game-logs/<int:log_id>/disagreements/<int:disagreement_id>/",
        disagreement_shown,
        name="console_disagreement",
    ),
]
