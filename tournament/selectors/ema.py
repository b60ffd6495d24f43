"""The event's results for the EMA (MERS): the file's rows, its problems and the weights previewed."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from django.db.models import Count, Sum
from django.utils.translation import gettext

from tournament.engine.ema import EmaLine, EmaProblem, EmaReport, MersWeight, ema_report, mers_weight
from tournament.engine.substitutes import substitute_credit_shift
from tournament.models import (
    Entry,
    Event,
    SeatResult,
    StandingsRow,
)
from tournament.selectors.rounds import event_unfinished_round_numbers
from tournament.selectors.standings import event_standings


@dataclass(frozen=True)
class EventEma:
    """An event's results for the EMA: the file's rows with their base ranks (``report``), every problem that
    forbids sending it (``problems``: the report's and the event's own), the MERS weight previewed for an
    open and for a qualification event (None while the dates are unknown), and the files' name stem
    (``<slug>_<starts on>_<ends on>_ema``)."""

    report: EmaReport
    problems: tuple[EmaProblem, ...]
    mers: MersWeight | None
    mers_qualification: MersWeight | None
    filename_stem: str


def event_ema(event: Event) -> EventEma:
    """The event's EMA results from its published standings: the players with at least one game, in
    standings order (their place recounted among them), seven queries whatever the size of the field.

    The points balance when the standings' totals, their penalties added back (art. 37), sum to what the
    tables' own sums allow: zero, but for forfeits (art. 42) and riichi deposits lost at the end."""
    snapshot = event_standings(event)
    rows = list(
        StandingsRow.objects.filter(event=event).select_related("entry__player").order_by("position")
        if snapshot
        else []
    )
    lines = []
    for row in rows:
        if row.games == 0:
            continue
        player = row.entry.player
        last, first = (
            (player.family_name, player.given_name) if player.family_name or player.given_name else (row.name, "")
        )
        lines.append(
            EmaLine(
                entry_id=row.entry_id,
                rank=row.rank,
                name=row.name,
                last_name=last,
                first_name=first,
                ema_number=player.external_id or "",
                country=player.country or row.country,
                points=row.total_points,
            )
        )
    results = SeatResult.objects.current().filter(table__round__event=event)
    played = results.filter(final_points__isnull=False).aggregate(games=Count("id"), points=Sum("final_points"))
    # a table's game points sum to its forfeits' placement points (art. 42) minus the riichi deposits lost
    # at the end (the start total less the final points); the penalties taken off the totals are added back
    lost = event.ruleset.start_points * played["games"] - (played["points"] or 0)
    imbalance = (
        sum((row.total_points for row in rows), Fraction(0))
        + Fraction(sum(row.penalty_points for row in rows), 1000)
        - sum(results.filter(forfeit=True).values_list("placement_points", flat=True), Fraction(0))
        + Fraction(lost, 1000)
    )
    ruleset = event.ruleset  # 代走: the substitutes' games count as the ruleset says, not as played
    played_by_substitutes = results.filter(entry__substitute_for__isnull=False).values_list("game_points", flat=True)
    imbalance -= substitute_credit_shift(
        list(played_by_substitutes),
        ruleset.substitute_result,
        ruleset.substitute_fixed_points,
        ruleset.substitute_uma,
    )
    substitutes = Entry.objects.filter(event=event, substitute_for__isnull=False).count()
    report = ema_report(lines, imbalance=imbalance, substitutes=substitutes)
    problems = []
    if not event.starts_on:
        problems.append(EmaProblem("dates_missing", gettext("the event has no start date")))
    unfinished = event_unfinished_round_numbers(event)
    if unfinished:
        problems.append(
            EmaProblem(
                "rounds_unfinished",
                gettext("rounds not completed: %(rounds)s") % {"rounds": ", ".join(map(str, sorted(unfinished)))},
            )
        )
    if snapshot and snapshot.hidden_from_round:
        problems.append(
            EmaProblem(
                "standings_hidden",
                gettext("the published standings stop before round %(round)s: show every round first")
                % {"round": snapshot.hidden_from_round},
            )
        )
    mers = mers_qualification = None
    stem = f"{event.slug}_ema"
    if event.starts_on:
        ends_on = event.ends_on or event.starts_on
        days = (ends_on - event.starts_on).days + 1
        shape = {"days": days, "players": len(report.rows), "countries": report.countries}
        mers = mers_weight(**shape, qualification=False)
        mers_qualification = mers_weight(**shape, qualification=True)
        stem = f"{event.slug}_{event.starts_on.isoformat()}_{ends_on.isoformat()}_ema"
    return EventEma(
        report=report,
        problems=(*problems, *report.problems),
        mers=mers,
        mers_qualification=mers_qualification,
        filename_stem=stem,
    )
