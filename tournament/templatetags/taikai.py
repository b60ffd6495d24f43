import uuid
from fractions import Fraction

from django import template
from django.utils.html import conditional_escape, format_html
from django.utils.translation import get_language, gettext_lazy, ngettext
from django.utils.translation import gettext as _

from players.reading import name_language
from tournament.hand_words import hand_label_read
from tournament.models import Entry
from tournament.stored_text import stored_text_display

register = template.Library()


@register.filter
def points(value) -> str:
    """Show exact game points as a decimal: exact when it terminates within 3 places, else ≈ 2 places."""
    if value in (None, ""):
        return ""
    number = Fraction(str(value))
    for places in range(4):
        scaled = number * 10**places
        if scaled.denominator == 1:
            whole = abs(scaled.numerator)
            text = str(whole) if places == 0 else f"{whole // 10**places}.{whole % 10**places:0{places}d}"
            return ("−" if number < 0 else "") + text
    rounded = round(number * 100)
    sign = "−" if rounded < 0 else ""
    return f"≈{sign}{abs(rounded) // 100}.{abs(rounded) % 100:02d}"


@register.filter
def in_game_points(raw) -> Fraction:
    """Penalty points 反則点 (raw points, art. 37) in the unit of the points column: ÷ 1000."""
    return Fraction(int(raw or 0), 1000)


SEATING_MODES = {
    "swiss": gettext_lazy("Swiss: players of similar standing sit together."),
    "random": gettext_lazy("Random, avoiding repeats."),
    "interval": gettext_lazy("Interval: a fixed step through the list."),
    "schedule": gettext_lazy("From the event's fixed schedule."),
}


_TRADED_FOR = {
    "repeats": gettext_lazy(
        "every regrouping the search found that kept them even would have seated two players "
        "together again (repeated meetings come first, then winds, then the standings)"
    ),
    "interval": gettext_lazy("the interval step fixes who sits together; only the seat order was chosen"),
}


def _seat_trade_words(report: dict) -> list[str]:
    """What this round's seats traded against an even count of winds by the end of the event."""
    said = []
    above = report.get("seat_above_ideal")
    if above:
        said.append(
            ngettext(
                "%(count)s player now has one wind more than once ahead of another.",
                "%(count)s players now have one wind more than once ahead of another.",
                above,
            )
            % {"count": above}
        )
    trade = report.get("seat_trade") or {}
    crossed = trade.get("crossed", 0)
    if crossed:
        if trade.get("traded_for") == "standings":
            why = _(
                "keeping them even would have moved players further apart in the standings than it was worth "
                "(one player's winds weigh as much as %(ranks)s places of rank spread at a table)"
            ) % {"ranks": trade.get("cross_ranks")}
        else:
            why = str(_TRADED_FOR.get(trade.get("traded_for"), _("no better seating was found in time")))
        said.append(
            ngettext(
                "%(count)s player takes a wind this round that leaves their winds uneven at the end of the "
                "event although another seat at their table would not: %(why)s.",
                "%(count)s players take a wind this round that leaves their winds uneven at the end of the "
                "event although another seat at their table would not: %(why)s.",
                crossed,
            )
            % {"count": crossed, "why": why}
        )
    short = trade.get("short_table", 0)
    if short:
        said.append(
            ngettext(
                "%(count)s player needed North but sits at a three-player table, which has none.",
                "%(count)s players needed North but sit at a three-player table, which has none.",
                short,
            )
            % {"count": short}
        )
    lost = trade.get("out_of_reach", 0)
    if lost:
        said.append(
            ngettext(
                "%(count)s player can no longer reach even winds by the end (rounds missed, three-player "
                "tables or earlier rounds).",
                "%(count)s players can no longer reach even winds by the end (rounds missed, three-player "
                "tables or earlier rounds).",
                lost,
            )
            % {"count": lost}
        )
    detoured = trade.get("detoured", 0)
    if detoured:
        said.append(
            ngettext(
                "%(count)s player sits a wind for the second time before another for now; the rounds left even it out.",
                "%(count)s players sit a wind for the second time before another for now; the rounds left even it out.",
                detoured,
            )
            % {"count": detoured}
        )
    return said


def _draw_words(report: dict) -> list[str]:
    """Which part of the seating was drawn by lot 抽選, and with what seed (``manage.py seat_round --replay``)."""
    seed = report.get("seed")
    if seed is None:
        return []
    if report.get("mode") == "random":
        return [_("The seating was drawn by lot with the seed %(seed)s.") % {"seed": seed}]
    return [_("Choices between equally good seatings were drawn by lot with the seed %(seed)s.") % {"seed": seed}]


@register.filter
def seating_report_words(report: dict) -> list[str]:
    """A seating's quality report (``../shared/seating-protocol.md``) said in plain words."""
    if not report:
        return []
    said = []
    mode = SEATING_MODES.get(report.get("mode"))
    if mode:
        said.append(str(mode))
    said.extend(_draw_words(report))
    repeats, most = report.get("repeat_pairs", 0), report.get("max_meetings", 0)
    if repeats:
        said.append(
            ngettext(
                "%(repeats)s repeated meeting so far, counting this round; "
                "no two players have met more than %(most)s times.",
                "%(repeats)s repeated meetings so far, counting this round; "
                "no two players have met more than %(most)s times.",
                repeats,
            )
            % {"repeats": repeats, "most": most}
        )
    else:
        said.append(_("No two players have met more than once."))
    balance = report.get("seat_imbalance_max")
    if balance is not None:
        if balance <= 1:
            sentence = _(
                "Seat winds: each player's count of East, South, West and North differs by at most "
                "%(balance)s (as even as it can be)."
            )
        else:
            sentence = _(
                "Seat winds: each player's count of East, South, West and North differs by at most %(balance)s."
            )
        said.append(sentence % {"balance": balance})
    said.extend(_seat_trade_words(report))
    said.extend(_team_words(report))
    same = report.get("same_table_as_last_round")
    if same:
        said.append(
            ngettext(
                "%(count)s player sits at the same table number as last round.",
                "%(count)s players sit at the same table number as last round.",
                same,
            )
            % {"count": same}
        )
    spread = report.get("rank_spread_mean")
    if spread is not None:
        said.append(
            _("At a table, players are on average %(spread)s places apart in the standings.") % {"spread": spread}
        )
    byes = report.get("byes") or []
    if byes:
        said.append(
            ngettext(
                "%(count)s player sits out this round (bye).",
                "%(count)s players sit out this round (bye).",
                len(byes),
            )
            % {"count": len(byes)}
        )
    if report.get("swapped"):
        said.append(
            ngettext(
                "Changed by hand: %(count)s swap after the seating was computed.",
                "Changed by hand: %(count)s swaps after the seating was computed.",
                len(report["swapped"]),
            )
            % {"count": len(report["swapped"])}
        )
    if report.get("seconds") is not None:
        said.append(_("Computed in %(seconds)s s.") % {"seconds": report["seconds"]})
    return said


def _team_words(report: dict) -> list[str]:
    """Whether the seating kept teammates apart (a team event: the report's ``groups`` of kind ``team``),
    and when it could not, how many pairs of teammates share a table against the fewest the tables allow."""
    team = ((report.get("groups") or {}).get("kinds") or {}).get("team")
    if not team:
        return []
    pairs, fewest = team.get("pairs", 0), team.get("lower_bound", 0)
    if not pairs:
        return [_("Teammates are kept apart: no two players of one team share a table.")]
    sentence = ngettext(
        "Teammates could not all be kept apart: %(pairs)s pair of teammates shares a table "
        "(the fewest these tables allow: %(fewest)s).",
        "Teammates could not all be kept apart: %(pairs)s pairs of teammates share a table "
        "(the fewest these tables allow: %(fewest)s).",
        pairs,
    )
    return [sentence % {"pairs": pairs, "fewest": fewest}]


@register.filter
def hand_label(stored: str) -> str:
    """A hand's recorded name in the reader's language (``tournament.hand_words``)."""
    return hand_label_read(stored)


@register.filter
def stored_text(text: str) -> str:
    """A message a service stored (a status reason, a seating job's message) in the reader's language."""
    return stored_text_display(text)


@register.filter
def entry_status(code: str) -> str:
    """An entry's status code (``withdrawn``, ``disqualified`` …) as people read it, in their language."""
    try:
        return str(Entry.Status(code).label)
    except ValueError:
        return code


@register.filter
def seat_names(positions, seats) -> str:
    """Seat positions of a hand (tenpai, riichi) as people read them: wind and name (東 山口, 南 佐藤)."""
    named = []
    for position in positions or ():
        try:
            seat = seats[position]
        except (IndexError, TypeError):
            continue
        named.append(f"{seat.wind} {seat.entry.player}")
    return ", ".join(named)


@register.filter
def lang_name(name) -> str:
    """A person's name, marked with its language when the page is in another (a Japanese name on an English
    page: ``<span lang="ja">山田 太郎</span>``), so that a screen reader reads it in its own voice (WCAG 3.1.2)."""
    text = str(name)
    language = name_language(text)
    if language is None or (get_language() or "").split("-")[0] == language:
        return conditional_escape(text)
    return format_html('<span lang="{}">{}</span>', language, text)


@register.simple_tag
def write_key() -> str:
    """A form's hidden write key (``idempotency/``): the form sent twice (a double tap, a resend after the
    network came back) is recorded once. A new key each time the form is drawn."""
    return format_html('<input type="hidden" name="idempotency_key" value="{}">', uuid.uuid4().hex)


RULE_CHANGE_NOTES = {
    "standings_precedence": gettext_lazy(
        "Standings order and tie-breaks changed after round %(round)s by %(name)s: %(reason)s"
    ),
    "seating_method": gettext_lazy("Seating method changed after round %(round)s by %(name)s: %(reason)s"),
    "seating_remainder": gettext_lazy("Seating remainder changed after round %(round)s by %(name)s: %(reason)s"),
    "draw_seed": gettext_lazy("Draw seed changed after round %(round)s by %(name)s: %(reason)s"),
}


@register.filter
def rule_change_note(change) -> str:
    """A rule changed once the event started, as the public standings note it (who, after which round, why)."""
    # Translators: who changed a rule when the account is gone
    name = change.by_name or _("an organizer")
    note = RULE_CHANGE_NOTES.get(change.setting)
    if note is None:
        return ""
    return note % {"round": change.after_round, "name": name, "reason": change.reason}
