from fractions import Fraction

from django import template

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


def _players(count: int) -> str:
    return f"{count} player{'s' if count != 1 else ''}"


_TRADED_FOR = {
    "repeats": "every regrouping the search found that kept them even would have seated two players "
    "together again (repeated meetings come first, then winds, then the standings)",
    "interval": "the interval step fixes who sits together; only the seat order was chosen",
}


def _seat_trade_words(report: dict) -> list[str]:
    """What this round's seats traded against an even count of winds by the end of the event."""
    said = []
    above = report.get("seat_above_ideal")
    if above:
        said.append(f"{_players(above)} now have one wind more than once ahead of another.")
    trade = report.get("seat_trade") or {}
    crossed = trade.get("crossed", 0)
    if crossed:
        if trade.get("traded_for") == "standings":
            why = (
                "keeping them even would have moved players further apart in the standings than it was worth "
                f"(one player's winds weigh as much as {trade.get('cross_ranks')} places of rank spread at a table)"
            )
        else:
            why = _TRADED_FOR.get(trade.get("traded_for"), "no better seating was found in time")
        verb = "takes" if crossed == 1 else "take"
        said.append(
            f"{_players(crossed)} {verb} a wind this round that leaves their winds uneven at the end of the "
            f"event although another seat at their table would not: {why}."
        )
    short = trade.get("short_table", 0)
    if short:
        said.append(f"{_players(short)} needed North but sit at a three-player table, which has none.")
    lost = trade.get("out_of_reach", 0)
    if lost:
        said.append(
            f"{_players(lost)} can no longer reach even winds by the end (rounds missed, three-player "
            "tables or earlier rounds)."
        )
    detoured = trade.get("detoured", 0)
    if detoured:
        said.append(
            f"{_players(detoured)} sit a wind for the second time before another for now; the rounds left "
            "even it out."
        )
    return said


@register.filter
def seating_report_words(report: dict) -> list[str]:
    """A seating's quality report (``../shared/seating-protocol.md``) said in plain words."""
    if not report:
        return []
    said = []
    mode = {"swiss": "Swiss: players of similar standing sit together", "random": "Random, avoiding repeats",
            "interval": "Interval: a fixed step through the list"}.get(report.get("mode"), "")  # fmt: skip
    if mode:
        said.append(mode + ".")
    repeats, most = report.get("repeat_pairs", 0), report.get("max_meetings", 0)
    if repeats:
        said.append(f"{repeats} repeated meeting{'s' if repeats != 1 else ''} so far, counting this round; "
                    f"no two players have met more than {most} times.")  # fmt: skip
    else:
        said.append("No two players have met more than once.")
    balance = report.get("seat_imbalance_max")
    if balance is not None:
        said.append(f"Seat winds: each player's count of East, South, West and North differs by at most {balance}"
                    + (" (as even as it can be)." if balance <= 1 else "."))  # fmt: skip
    said.extend(_seat_trade_words(report))
    same = report.get("same_table_as_last_round")
    if same:
        said.append(f"{same} player{'s' if same != 1 else ''} sit at the same table number as last round.")
    spread = report.get("rank_spread_mean")
    if spread is not None:
        said.append(f"At a table, players are on average {spread} places apart in the standings.")
    byes = report.get("byes") or []
    if byes:
        said.append(f"{len(byes)} player{'s' if len(byes) != 1 else ''} sit out this round (bye).")
    if report.get("swapped"):
        said.append(f"Changed by hand: {len(report['swapped'])} swap(s) after the seating was computed.")
    if report.get("seconds") is not None:
        said.append(f"Computed in {report['seconds']} s.")
    return said
