"""The table sheet: hands (and corrections), the result, absences, the final's decision, each button as
its role allows (``SHEET_ACTIONS``); the tiles drawn for the hand form."""

from __future__ import annotations

import functools

from django.contrib import messages
from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.templatetags.static import static
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from scoring.options import ruleset_uses_raw_fu
from scoring.services import han_fu_pairs, hand_settle_options, win_price_list
from scoring.tiles import TILE_CODES, static_path, tile_name
from scoring.yaku_names import naming_context
from taikai.errors import TaikaiError, VersionConflict
from tournament import access, hand_words, selectors
from tournament.console.common import refused
from tournament.engine.dealer import prevailing_wind
from tournament.engine.game_end import game_over_message
from tournament.engine.overtime import regular_hand_label
from tournament.forms import FinalScoresForm, HandForm, seat_choice_label
from tournament.hand_words import hand_shown
from tournament.localtime import event_time_zone_activate
from tournament.models import Entry, HandVersion, Penalty, Seat, Table
from tournament.outbox import outbox_form_refusal, outbox_refusal, wants_json
from tournament.services.discipline import penalty_cancel, seat_mark_absent, seat_mark_present
from tournament.services.finals import final_apply, final_situation
from tournament.services.hands import hand_price, hand_record, hand_void, table_overtime_close
from tournament.services.late import seat_arrive, table_late_hold
from tournament.services.results import (
    GAME_CUT_SHORT_REASONS,
    game_stop_words,
    one_more_hand_words,
    table_finish,
    table_reopen,
)


def _editing_number(request, hands_recorded: int) -> int:
    raw = request.GET.get("hand") or request.POST.get("hand") or ""
    try:
        number = int(raw) if raw else hands_recorded + 1
    except ValueError:
        raise TaikaiError("invalid_hand", _("the hand is a number"), field="hand") from None
    if not 1 <= number <= hands_recorded + 1:
        raise TaikaiError(
            "invalid_hand",
            _("hands 1 to %(last)s can be recorded here") % {"last": hands_recorded + 1},
            field="hand",
        )
    return number


# What each button on the sheet needs: "score" (the table's referee or scorekeeper) or "referee".
SHEET_ACTIONS = {
    "hand": "score",
    "void": "score",
    "finish": "score",
    "scores": "score",
    "absent_before": "referee",
    "absent_during": "referee",
    "present": "referee",
    "final_apply": "referee",
    "reopen": "referee",
    "cancel_penalty": "referee",
    "close_overtime": "referee",
    "arrived": "referee",
    "late_hold": "referee",
}


@require_http_methods(["GET", "POST"])
def table_sheet(request, table_id: int):
    table = selectors.table_with_event(table_id)
    if table is None:
        raise Http404("no such table")
    event_time_zone_activate(table.round.event)
    actor = access.actor_for(request)
    can_score = access.may_score(actor, table)
    can_referee = access.may_referee(actor, table.round.event_id, table.number)
    if not can_score:
        return refused(request, actor)
    action = request.POST.get("action") if request.method == "POST" else None
    if action is not None:
        needed = SHEET_ACTIONS.get(action)
        if needed is None:
            raise TaikaiError(
                "invalid_action", _("unknown action %(action)s") % {"action": repr(action)}, field="action"
            )
        access.require(can_referee or needed == "score", "do this at this table")
    seats = selectors.table_game_seats(table)
    sheet = selectors.table_hand_sheet(table)
    editing = _editing_number(request, len(sheet.hands))
    current = selectors.table_hand_current_version(table, editing)
    initial = {
        "expected_version": current.version if current else 0,
        **selectors.next_hand_defaults(sheet, players=len(seats)),
    }
    overtime = selectors.table_overtime_status(table)
    if current is not None and current.outcome != HandVersion.Outcome.VOID:
        initial |= HandForm.initial_from(current)
    else:
        initial |= {
            "outcome": "ron",
            "overtime": overtime.playing,
        }  # ron: the most common result, one tap fewer
    ruleset = table.round.event.ruleset
    hand_form = HandForm(
        request.POST if action == "hand" else None,
        seats=seats,
        initial=initial,
        raw_fu=ruleset_uses_raw_fu(ruleset),
        abortive_draws=ruleset.abortive_draws,
        pao_yakuman=tuple(ruleset.pao_yakuman or ()),
    )
    scores_form = FinalScoresForm(request.POST if action == "scores" else None, seats=seats)
    status = 200
    conflict = None
    if action is not None:
        try:
            author = actor.author_at(table)
            done = _sheet_action(request, author, table, action, hand_form, scores_form, seats, editing, current)
        except TaikaiError as exc:
            if exc.status == 403:
                raise
            if action == "hand" and isinstance(exc, VersionConflict):
                conflict = _conflict(request, table, editing, hand_form, seats)
                if conflict is not None:
                    conflict["message"] = exc.message  # which version is current, and which one was edited
            if wants_json(request):
                return outbox_refusal(exc, theirs=conflict and conflict["theirs"], mine=conflict and conflict["mine"])
            if conflict is None:
                messages.error(request, exc.message)  # the code is for programs: the API keeps it
        else:
            if done and wants_json(request):
                return JsonResponse({"ok": True, "message": str(done)})
            if done:
                messages.success(request, done)
                return redirect("console:table", table.pk)
            if wants_json(request):
                return outbox_form_refusal(scores_form if action == "scores" else hand_form)
        status = 400 if conflict is None else 409
    final = None
    if table.round.is_final and table.status == Table.Status.FINISHED:
        try:
            final = final_situation(table=table)
        except TaikaiError as exc:
            messages.warning(request, exc.message)
    deposits = sheet.deposits
    penalties = selectors.table_penalties(table)
    context = {
        "table": table,
        "event": table.round.event,
        "seats": seats,
        "sheet": sheet,
        "hand_form": hand_form,
        "scores_form": scores_form,
        "editing": editing,
        "current": current,
        "final": final,
        "results": selectors.table_results_all_versions(table),
        "history": selectors.table_hand_history(table),
        "can_referee": can_referee,
        "all_seats": selectors.table_seats(table),
        "penalties": penalties,
        "sheet_seats": selectors.table_sheet_seats(table, sheet, seats=seats, penalties=penalties, hand_number=editing),
        "han_fu_pairs": han_fu_pairs(table.round.event.ruleset),
        "deposits": deposits,
        "riichi_sticks": deposits // 1000,
        "confirm": _confirming(request, table),
        "honba": initial.get("honba", 0),
        "tile_images": tile_images(),
        "overtime": overtime,
        "dealer_label": _dealer_label(hand_form, seats),
        "conflict": conflict,
        "game_stop": _game_stop(table, sheet),
        "game_over": _game_over(table, sheet, editing),
        "time_up": _time_up(table, sheet),
        "end_reasons": GAME_CUT_SHORT_REASONS,
        "end_reason": request.POST.get("end_reason", ""),
        "yaku_names": naming_context(request, table.round.event)["yaku_names"],
        "late": selectors.table_late(table, now=timezone.now()),
    }
    if not context["end_reason"] and context["time_up"] and context["time_up"]["over"]:
        context["end_reason"] = "time"  # the round's time ran out and its last hand is recorded
    if table.status == Table.Status.PLAYING:
        context["sheet_rules"] = _sheet_rules(table, sheet, seats, context["sheet_seats"])
    return render(request, "tournament/console/table.html", context, status=status)


def _game_stop(table, sheet) -> dict | None:
    """Where the game stopped when its hands do not play it to its end (the confirmation asks why)."""
    if table.status != Table.Status.PLAYING:
        return None
    stand = selectors.table_game_cut_short(table, sheet)
    return game_stop_words(stand) if stand is not None else None


def _game_over(table, sheet, editing: int) -> dict | None:
    """The game ended before its regular end, as the ruleset says (a chombo, busting): why, and whether the hand
    the form would record (``editing``) comes after its end (no form for it: the result is confirmed)."""
    if table.status != Table.Status.PLAYING:
        return None
    end = selectors.table_game_end(table, sheet)
    if end is None:
        return None
    return {"message": game_over_message(end), "after_end": editing > end.last_hand, "last_hand": end.last_hand}


def _time_up(table, sheet) -> dict | None:
    """The round's time ran out: what the sheet says (one more hand, the hand in play is the last, or the game
    is over), and whether the hands recorded reach the game's last hand (``over``)."""
    if table.status != Table.Status.PLAYING or selectors.table_game_end(table, sheet) is not None:
        return None
    up = selectors.table_time_up(table, sheet)
    if up is None:
        return None
    recorded = len(sheet.hands)
    if recorded >= up.last_hand:
        message = _("The round's time ran out and the game's last hand is recorded: confirm the result.")
    elif up.one_more_hand:
        message = one_more_hand_words(up)
    else:
        # Translators: hand is the hand in play when the round's time ran out.
        message = _("The round's time ran out during hand %(hand)s: the game ends after it.") % {
            "hand": up.hand_in_play
        }
    return {"message": message, "over": recorded >= up.last_hand, "one_more_hand": up.one_more_hand}


def _hand_now(table, number: int, seats) -> dict | None:
    """Hand ``number`` as the server has it now, in full, for a referee whose version of it was refused (both
    are shown side by side)."""
    version = selectors.table_hand_current_version(table, number)
    if version is None:
        return None
    shown = hand_shown(
        seats,
        number=number,
        label=version.label,
        outcome=version.outcome,
        outcome_label=version.get_outcome_display(),
        wins=version.wins,
        riichi=version.riichi_positions,
        tenpai=version.tenpai_positions,
        deltas=version.deltas,
    )
    wins = [{"winner": w.get("winner"), "han": w.get("han"), "fu": w.get("fu")} for w in version.wins]
    return shown | {
        "version": version.version,
        "wins": wins,
        "author": version.author,
        "recorded_at": version.recorded_at.isoformat(),
        "time": timezone.localtime(version.recorded_at).strftime("%H:%M:%S"),
    }


def _hand_typed(table, number: int, hand_form, seats) -> dict:
    """Hand ``number`` as the referee typed it (a valid form the server refused), priced as it would be
    recorded now, in full; without points when it could not be priced."""
    data = hand_form.hand_data()
    try:
        priced = hand_price(table=table, number=number, data=data)
    except TaikaiError:
        label, deltas = "", []
    else:
        label, deltas = priced.label, priced.deltas
    return hand_shown(
        seats,
        number=number,
        label=label,
        outcome=data["outcome"],
        outcome_label=HandVersion.Outcome(data["outcome"]).label,
        wins=data["wins"],
        riichi=data["riichi_positions"],
        tenpai=data["tenpai_positions"],
        deltas=deltas,
    )


# What a refused hand's form sent that the page sends again as it was (a fresh key, the version it is made on).
_NOT_RESENT = ("csrfmiddlewaretoken", "idempotency_key", "expected_version", "outbox_label", "outbox_author")


def _conflict(request, table, number: int, hand_form, seats) -> dict | None:
    """Another device recorded hand ``number`` first: theirs and the referee's own entry, in full, and the
    fields that record the entry as a correction on top of theirs without typing it again."""
    theirs = _hand_now(table, number, seats)
    if theirs is None:
        return None
    fields = [(name, value) for name, values in request.POST.lists() if name not in _NOT_RESENT for value in values]
    return {"theirs": theirs, "mine": _hand_typed(table, number, hand_form, seats), "fields": fields}


def _sheet_rules(table, sheet, seats, sheet_seats) -> dict:
    """What the device needs to settle the hands it keeps while the network is down, as the server will
    (``outbox.js``, ``settle.js``): the points and deposits now, each win priced for every number of players
    the game may have left (art. 42), the settlement's options, and the words and hand names it shows."""
    ruleset = table.round.event.ruleset
    dealers = [hand.dealer_position for hand in sheet.hands]
    return {
        "settle_module": static("tournament/js/settle.js"),
        "points": [s.points for s in sheet_seats],
        "deposits": sheet.deposits,
        "recorded": len(sheet.hands),
        "last": {"dealer": dealers[-1], "wind": prevailing_wind(dealers)} if dealers else None,
        "seats": [hand_words.seat_named(seats, i) for i in range(len(seats))],
        "hand_names": [
            [hand_words.hand_label_read(regular_hand_label(wind, number)) for number in range(1, 5)]
            for wind in range(4)
        ],
        "outcomes": {value: str(label) for value, label in HandVersion.Outcome.choices},
        "words": {"riichi": _("riichi 立直"), "tenpai": _("tenpai 聴牌")},
        "prices": {str(players): win_price_list(ruleset, seats=players) for players in range(2, len(seats) + 1)},
        "settle": hand_settle_options(ruleset),
    }


def _dealer_label(hand_form, seats) -> str:
    """The dealer the form is set to, by wind and name (東 山口), never by a seat number."""
    try:
        return seat_choice_label(seats[int(hand_form["dealer_position"].value())])
    except (TypeError, ValueError, IndexError):
        return ""


def _confirming(request, table):
    """A "left during the game" tap first asks to confirm: the seat it is about."""
    if request.GET.get("confirm") != "absent_during":
        return None
    try:
        return selectors.table_seats(table)[int(request.GET.get("seat", ""))]
    except (ValueError, IndexError):
        return None


def _repeats_previous(request, table, hand_form, editing: int, current) -> bool:
    """A new hand equal to the previous one in every field (a form the browser brought back after Back, say)
    is saved only once the referee taps Save a second time; True while that confirmation is awaited."""
    if current is not None or editing == 1 or request.POST.get("same_as_previous"):
        return False
    previous = selectors.table_hand_current_version(table, editing - 1)
    if previous is None or previous.outcome == HandVersion.Outcome.VOID:
        return False
    if not hand_form.same_hand_as(previous, with_deal=False):
        return False
    hand_form.repeats_previous = True
    hand_form.add_error(
        None,
        _("Hand %(number)s is the same as hand %(previous)s in every field. If it really is, tap Save again.")
        % {"number": editing, "previous": editing - 1},
    )
    return True


def _sheet_action(request, user, table, action, hand_form, scores_form, seats, editing, current) -> str | None:
    """Run one button of the sheet as ``user`` (an account or a table card); the message to show, or
    None when the form has errors."""
    if action == "hand":
        if not hand_form.is_valid() or _repeats_previous(request, table, hand_form, editing, current):
            return None
        try:
            hand_record(
                table=table,
                number=editing,
                expected_version=hand_form.cleaned_data["expected_version"],
                data=hand_form.hand_data(),
                user=user,
            )
        except VersionConflict:
            saved = selectors.table_hand_current_version(table, editing)
            if saved is None or not hand_form.same_hand_as(saved):
                raise
            # the same hand sent twice (a double tap, a resend): the first one saved it, and that is all
        return _("Hand %(number)s saved.") % {"number": editing}
    if action == "void":
        hand_void(table=table, number=editing, expected_version=_int_field(request, "expected_version"), user=user)
        return _("Hand %(number)s is void: it stays in the history, and the next hand takes its number.") % {
            "number": editing
        }
    if action == "finish":
        table_finish(
            table=table,
            user=user,
            end_reason=request.POST.get("end_reason") or None,
            end_note=request.POST.get("end_note", ""),
        )
        return _("The table's result is confirmed. The standings will follow.")
    if action == "scores":
        if not scores_form.is_valid():
            return None
        table_finish(table=table, final_points=scores_form.final_points(seats), user=user)
        return _("The table's result is confirmed. The standings will follow.")
    if action in ("absent_before", "absent_during", "present"):
        seat = get_object_or_404(Seat, pk=_int_field(request, "seat"), table=table)
        if action == "present":
            seat_mark_present(seat=seat, user=user)
            return _("%(player)s is back at the table: the absence is undone.") % {"player": seat.entry.player}
        seat_mark_absent(seat=seat, during=action == "absent_during", user=user)
        return _("%(player)s is marked absent (art. 42).") % {"player": seat.entry.player}
    if action == "arrived":
        seat = get_object_or_404(Seat, pk=_int_field(request, "seat"), table=table)
        seat_arrive(seat=seat, how=Seat.Arrival.REFEREE, user=user)
        return _("%(player)s is checked in at the table.") % {"player": seat.entry.player}
    if action == "late_hold":
        table_late_hold(table=table, user=user)
        return _("The late players' clock is held for this table: nobody is marked absent by it here.")
    if action == "cancel_penalty":
        penalty = get_object_or_404(Penalty, pk=_int_field(request, "penalty"), table=table)
        reason = (request.POST.get("reason") or "").strip() or _("cancelled by %(user)s") % {"user": user}
        penalty = penalty_cancel(penalty=penalty, reason=reason, user=user)
        entry = penalty.entry
        entry.refresh_from_db()
        if entry.status == Entry.Status.DISQUALIFIED:
            return _("The penalty of %(player)s is cancelled (kept in the records). They stay disqualified.") % {
                "player": entry.player
            }
        return _("The penalty of %(player)s is cancelled (kept in the records).") % {"player": entry.player}
    if action == "final_apply":
        return final_apply(table=table, user=user)
    if action == "close_overtime":
        reason = (request.POST.get("reason") or "").strip() or _("closed by the directors")
        table_overtime_close(table=table, reason=reason, user=user)
        return _("The overtime is closed (art. 44); the game ends with the year it reached.")
    table_reopen(table=table)
    return _("The table is open for corrections.")


# The numbers a sheet's button posts, and the refusal when one is missing.
INT_FIELD_ERRORS = {
    "expected_version": gettext_lazy("the expected version is missing or not a number"),
    "seat": gettext_lazy("the seat is missing or not a number"),
    "penalty": gettext_lazy("the penalty is missing or not a number"),
}


def _int_field(request, name: str) -> int:
    try:
        return int(request.POST.get(name, ""))
    except ValueError:
        raise TaikaiError(f"invalid_{name}", str(INT_FIELD_ERRORS[name]), field=name) from None


@functools.cache
def _tile_sources() -> dict[str, str]:
    """Code → image URL of every tile (read once per process)."""
    return {code: static(static_path(code)) for code in TILE_CODES}


def _tile_name(code: str) -> str:
    """A tile's name in the active language: ``"5 pin 五筒"`` in English, the kanji alone in Japanese."""
    english, kanji = tile_name(code).rsplit(" ", 1)
    # Translators: a tile's name, its English name then its kanji ("5 pin 五筒", "East 東"); in Japanese
    # the kanji alone, "%(kanji)s" (this is why the check of python-format is off).
    # xgettext:no-python-format
    return _("%(english)s %(kanji)s") % {"english": english, "kanji": kanji}


def tile_images() -> dict[str, dict]:
    """Code → image URL and name of every tile, for the sheet's tile entry."""
    return {code: {"src": src, "name": _tile_name(code)} for code, src in _tile_sources().items()}
