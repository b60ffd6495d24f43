"""A hand in words, for people: its name in the reader's language (``East 1, 1 honba`` reads ``東1局 1本場``)
and the whole hand as a referee checks it (the name, the result, who won from whom with han/fu, riichi,
tenpai and each seat's points), for the sheet's conflict panel and the device's queue (``outbox.js``)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from tournament.hand_names import hand_label_read


def seat_named(seats, position) -> str:
    """A seat of the game by its wind at the start and its player (東 山口)."""
    try:
        seat = seats[int(position)]
    except (TypeError, ValueError, IndexError):
        return "?"
    return f"{seat.get_position_display()} {seat.entry.player}"


def win_score_words(win: dict) -> str:
    """3 han 40 fu, 6 han, yakuman, double yakuman."""
    yakuman = win.get("yakuman") or 0
    if yakuman >= 2:
        return _("double yakuman")
    if yakuman:
        return _("yakuman")
    if win.get("fu") and (win.get("han") or 0) < 5:
        return _("%(han)s han %(fu)s fu") % {"han": win["han"], "fu": win["fu"]}
    return _("%(han)s han") % {"han": win.get("han")}


def points_signed(delta) -> str:
    return f"{delta:+d}" if delta else "0"


def hand_shown(
    seats, *, number: int, label: str, outcome: str, outcome_label: str, wins, riichi, tenpai, deltas
) -> dict:
    """Hand ``number`` in full, in words: what both sides of a conflict show, each the same way."""
    lines = []
    for win in wins:
        winner = seat_named(seats, win.get("winner"))
        if outcome == "ron" and win.get("discarder") is not None:
            # Translators: a ron: the winner, then the seat they won from (放銃者)
            who = _("%(winner)s from %(discarder)s") % {
                "winner": winner,
                "discarder": seat_named(seats, win["discarder"]),
            }
        else:
            who = winner
        lines.append(f"{who} · {win_score_words(win)}")
    shown = {
        "number": number,
        "label": hand_label_read(label) if label else _("Hand %(number)s") % {"number": number},
        "result": " · ".join([str(outcome_label), *lines]),
        "riichi": f"{_('riichi 立直')}: {', '.join(seat_named(seats, p) for p in riichi)}" if riichi else "",
        "tenpai": f"{_('tenpai 聴牌')}: {', '.join(seat_named(seats, p) for p in tenpai)}" if tenpai else "",
        "deltas": [f"{seat_named(seats, i)} {points_signed(d)}" for i, d in enumerate(deltas)] if deltas else [],
    }
    return shown
