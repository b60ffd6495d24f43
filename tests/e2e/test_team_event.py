"""A team event (団体戦) run from the admin in Chromium, in English and in Japanese, as the README's "Team
events 団体戦" says: the event made a team event, its field and its teams read from CSV files, round 1 seated
automatically with no two players of one team at a table, the results confirmed, and the public team
standings read on a phone (totals, no sideways scrolling, the language) and downloaded as CSV; then the team
rule changed in the admin and the standings read again under it.

The totals the page and the CSV must show are read from the service the page uses (``team_standings_for``),
and that service is checked first against the confirmed results in the database, team by team, under the
event's rule: no total is written down by hand here.
"""

from __future__ import annotations

import csv
import io
from collections import defaultdict
from fractions import Fraction
from pathlib import Path

import pytest

from tests.e2e.conftest import sign_in
from tests.e2e.test_japanese_tour import ALLOWED, LATIN_WORD, english_left, proper_nouns
from tests.e2e.waiting import until
from tournament import selectors
from tournament.models import Event, Round, Seat, SeatResult, Team, TeamMember
from tournament.services.results import table_finish
from tournament.services.rounds import round_complete
from tournament.services.teams import team_standings_for
from tournament.templatetags.taikai import points

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
TEAMS, TEAM_SIZE = 4, 4  # 16 players: 4 tables of 4, one player of each team at every table

# The data of each language: the event, its players (the CSV of the players' import) and its teams. The
# first team has a reserve besides its four members: a reserve is not seated unless they come in.
DATA = {
    "en-US": {
        "event": "Team Cup",
        "slug": "team-cup",
        "teams": ["Red Dragons", "White Dragons", "Green Dragons", "East Winds"],
        "player": "Player {:02d}",
    },
    "ja-JP": {
        "event": "春季団体戦",
        "slug": "spring-teams",
        "teams": ["東京", "大阪", "名古屋", "福岡"],
        "player": "選手{:02d}",
    },
}
PLAYERS = TEAMS * TEAM_SIZE + 1  # the last one is the first team's reserve


def players_csv(language: str) -> str:
    name = DATA[language]["player"]
    rows = [f"{name.format(i)},JP,E{i:02d}" for i in range(1, PLAYERS + 1)]
    return "display_name,country,external_id\n" + "\n".join(rows) + "\n"


def teams_csv(language: str) -> str:
    """Players 1–4 in the first team, 5–8 in the second, …: each team a block of the order of registration,
    so that seating in that order would put a whole team at one table. Half the rows name the player by
    external id, half by name, as the README allows."""
    name, teams = DATA[language]["player"], DATA[language]["teams"]
    rows = []
    for i in range(1, TEAMS * TEAM_SIZE + 1):
        player = f"E{i:02d}" if i % 2 else name.format(i)
        rows.append(f"{teams[(i - 1) // TEAM_SIZE]},{player},member")
    rows.append(f"{teams[0]},E{PLAYERS:02d},reserve")
    return "team,player,role\n" + "\n".join(rows) + "\n"


# Final scores of table n (East to North): they add up to 4 × 25000 and differ from table to table, so that
# the teams' totals differ (and some are not whole numbers).
def final_scores(number: int) -> list[int]:
    return [38000 + 1300 * number, 31000 - 500 * number, 19000 - 900 * number, 12000 + 100 * number]


# English: the best two members each round; Japanese: team placement points, then the organizer changes the rule
# to the sum of every member and the same results are read again under it (the event run once for both rules).
CASES = [
    pytest.param("en-US", ("best",), id="english-best-two"),
    pytest.param("ja-JP", ("placement", "sum"), id="japanese-placement-then-sum"),
]


@pytest.fixture
def organizer(chromium_browser, live_server, task_worker, admin_user):
    """The admin, signed in, in a browser that asks for the case's language (the admin follows it)."""
    contexts = []

    def open_admin(locale: str):
        context = chromium_browser.new_context(base_url=live_server.url, locale=locale, viewport=DESKTOP)
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(20000)
        sign_in(page, "/admin/login/", "admin", "password", submit="input[type=submit]", then="#user-tools")
        return page

    yield open_admin
    for context in contexts:
        context.close()


def success_message(page) -> str:
    page.wait_for_selector("ul.messagelist li.success")
    return page.inner_text("ul.messagelist")


def upload(page, tmp_path, name: str, text: str) -> None:
    csv_file = tmp_path / name
    csv_file.write_text(text, encoding="utf-8")
    page.set_input_files("#id_csv_file", str(csv_file))
    page.click("form[enctype='multipart/form-data'] input[type=submit]")


def expected_from_results(event: Event) -> dict[str, Fraction]:
    """Each team's score under the event's rule, from the confirmed results in the database (the members'
    game points of each round; no penalties were given): the service's answer is checked against it."""
    results = SeatResult.objects.filter(table__round__event=event, is_current=True)
    points_of = defaultdict(dict)  # entry -> round -> game points
    for entry_id, number, game_points in results.values_list("entry_id", "table__round__number", "game_points"):
        points_of[entry_id][number] = Fraction(game_points)
    members = defaultdict(list)
    for name, entry_id in TeamMember.objects.filter(team__event=event).values_list("team__name", "entry_id"):
        members[name].append(entry_id)
    rounds = sorted({number for by_round in points_of.values() for number in by_round})

    def played(team: str, number: int) -> list[Fraction]:
        return [points_of[e][number] for e in members[team] if number in points_of[e]]

    if event.team_rule == "sum":
        return {
            team: sum((sum(points_of[e].values(), Fraction(0)) for e in ids), Fraction(0))
            for team, ids in members.items()
        }
    if event.team_rule == "best":
        return {
            team: sum(
                (sum(sorted(played(team, r), reverse=True)[: event.team_best], Fraction(0)) for r in rounds),
                Fraction(0),
            )
            for team in members
        }
    scores = {team: Fraction(0) for team in members}
    for r in rounds:  # placement: n − 1 for the round's best team down to 0, tied teams share theirs
        sums = {team: sum(played(team, r), Fraction(0)) for team in members}
        for team, own in sums.items():
            above = sum(1 for other in sums.values() if other > own)
            tied = sum(1 for other in sums.values() if other == own)
            places = range(above, above + tied)
            scores[team] += Fraction(sum(len(sums) - 1 - p for p in places), tied)
    return scores


# The CSV's column names and roles stay as they are in the file, in every language (the form's help says so).
CSV_CODES = {"team", "player", "role", "member", "reserve", "UTF"}


class EnglishLeft:
    """In Japanese, the Latin words of each page looked at that are neither data (names of players, events,
    teams, accounts) nor codes (test_japanese_tour's ALLOWED, the CSV's columns): all reported at the end."""

    def __init__(self, language: str):
        self.japanese = language == "ja-JP"
        self.found: dict[str, list[str]] = {}

    def look(self, page, codes=()) -> None:
        if not self.japanese:
            return
        assert page.locator("html").get_attribute("lang") == "ja", page.url
        allowed = {w.casefold() for w in (*ALLOWED, *codes)} | proper_nouns()
        allowed |= {
            w.casefold() for name in Team.objects.values_list("name", flat=True) for w in LATIN_WORD.findall(name)
        }
        words = english_left(page, allowed)
        if words:
            self.found[page.url] = words


@pytest.mark.parametrize(("language", "rules"), CASES)
def test_an_organizer_runs_a_team_event_and_players_read_the_team_standings(
    organizer, screen, tmp_path, standard_ruleset, language, rules
):
    rule, *later_rules = rules
    data = DATA[language]
    admin = organizer(language)
    english = EnglishLeft(language)
    assert admin.locator("html").get_attribute("lang") == language[:2]

    # 1. the organizer creates the event as a team event (the "Teams 団体戦" fieldset) ...
    admin.goto("/admin/tournament/event/add/")
    admin.fill("#id_name", data["event"])
    admin.press("#id_name", "Tab")  # the admin fills the slug from the name (nothing, from a Japanese one)
    admin.fill("#id_slug", data["slug"])
    assert admin.input_value("#id_slug") == data["slug"]
    admin.select_option("#id_ruleset", str(standard_ruleset.pk))
    admin.fill("#id_planned_rounds", "1")
    admin.select_option("#id_entry_mode", "final_scores")
    admin.select_option("#id_team_rule", rule)
    admin.fill("#id_team_best", "2")
    admin.click("input[name=_continue]")
    success_message(admin)
    event = Event.objects.get(slug=data["slug"])
    assert (event.team_rule, event.team_best) == (rule, 2)
    # ... registers its field from CSV ...
    admin.click(f"a[href='/admin/tournament/event/{event.pk}/register-csv/']")
    upload(admin, tmp_path, "field.csv", players_csv(language))
    assert str(PLAYERS) in success_message(admin)
    assert event.entries.count() == PLAYERS
    # ... and its teams from CSV (all the file or nothing), then sees them listed in the admin's Teams
    admin.click(f"a[href='/admin/tournament/event/{event.pk}/teams-csv/']")
    admin.wait_for_selector("#id_csv_file")
    english.look(admin, CSV_CODES)
    upload(admin, tmp_path, "teams.csv", teams_csv(language))
    assert f"{PLAYERS}" in success_message(admin)
    assert admin.url.endswith(f"/admin/tournament/event/{event.pk}/change/")
    admin.goto(f"/admin/tournament/team/?event__id__exact={event.pk}")
    english.look(admin)
    listed = {}
    for row in admin.locator("#result_list tbody tr").all():
        cells = row.locator("th, td")
        listed[cells.nth(1).inner_text().strip()] = int(cells.nth(4).inner_text())  # name, members
    assert listed == {
        team: TeamMember.objects.filter(team__event=event, team__name=team).count() for team in data["teams"]
    }
    assert sorted(listed.values()) == [TEAM_SIZE] * (TEAMS - 1) + [TEAM_SIZE + 1]

    # 2. round 1 seated automatically from the event's page, then published
    admin.goto(f"/admin/tournament/event/{event.pk}/change/")
    with admin.expect_navigation():  # the form's answer is in before the page is reloaded
        admin.click(f"form[action='/admin/tournament/event/{event.pk}/seat-auto/'] button[type=submit]")
    until(lambda: Round.objects.filter(event=event, number=1).exists(), "round 1 seated", timeout_s=30)
    admin.reload()
    admin.wait_for_selector("#draft-tables")
    english.look(admin)
    admin.click("form:has(input[name=action][value=publish]) input[type=submit]")
    success_message(admin)
    round_1 = Round.objects.get(event=event, number=1)
    assert round_1.status == Round.Status.PUBLISHED
    # no two players of one team share a table (16 players, 4 teams of 4: 4 tables, one of each team each);
    # the reserve, who did not come in, is not seated
    team_of = dict(TeamMember.objects.filter(team__event=event).values_list("entry_id", "team_id"))
    tables = defaultdict(list)
    for table_number, entry_id in Seat.objects.filter(table__round=round_1).values_list("table__number", "entry_id"):
        tables[table_number].append(entry_id)
    assert len(tables) == TEAMS and all(len(seated) == TEAM_SIZE for seated in tables.values()), tables
    reserve = TeamMember.objects.get(team__event=event, role=TeamMember.Role.RESERVE).entry_id
    assert reserve not in {e for seated in tables.values() for e in seated}
    for number, seated in tables.items():
        assert len({team_of[e] for e in seated}) == len(seated), f"table {number}: two of one team"

    # 3. the tables' results (the services, for speed), and the round completed
    for table in round_1.tables.order_by("number"):
        table_finish(table=table, final_points=final_scores(table.number))
    round_complete(round_=round_1)
    until(
        lambda: (
            sum(1 for _e, _t, history, _n in selectors.event_standings_points(event) if history) == TEAMS * TEAM_SIZE
        ),
        "the standings computed after the round",
        timeout_s=30,
    )
    phone = screen(PHONE, language)
    team_standings_read(phone, event, language, english)
    for later in later_rules:
        # the organizer changes the event's team rule: the same results, read again under it
        admin.goto(f"/admin/tournament/event/{event.pk}/change/")
        admin.select_option("#id_team_rule", later)
        admin.click("input[name=_continue]")
        success_message(admin)
        assert Event.objects.get(pk=event.pk).team_rule == later
        team_standings_read(phone, event, language, english)
    # in Japanese, no English word was left on the pages looked at
    assert english.found == {}, "English left:\n" + "\n".join(
        f"{url}: {' '.join(w)}" for url, w in english.found.items()
    )


def team_standings_read(phone, event: Event, language: str, english: EnglishLeft) -> None:
    """The team standings under the event's rule now: the service against the confirmed results, then the public
    page on a phone (reached from the event's page) and its CSV, each against the service."""
    event.refresh_from_db()
    standings = team_standings_for(event)
    assert {row.team.name: row.score for row in standings} == expected_from_results(event)
    assert len({row.score for row in standings}) > 1, "the results should tell the teams apart"

    # the public team standings on a phone, in the language of the browser, reached from the event's page
    phone.goto(f"/events/{event.slug}/")
    phone.click(f"nav.event a[href='/events/{event.slug}/teams/']")
    phone.wait_for_selector("#teams")
    assert phone.locator("html").get_attribute("lang") == language[:2]
    shown = [  # the team's cell names its members on a second line, on a phone
        [cell.inner_text().strip().split("\n")[0] for cell in row.locator("td").all()[:3]]
        for row in phone.locator("#teams tbody tr").all()
    ]
    assert shown == [[str(row.rank), row.team.name, points(row.score)] for row in standings]
    # the round's column (hidden on a phone, in the page all the same) is the round's score
    round_cells = [
        row.locator("td.wide").first.text_content().strip() for row in phone.locator("#teams tbody tr").all()
    ]
    assert round_cells == [points(dict(row.rounds)[1]) for row in standings]
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page scrolls sideways: {width} px"
    english.look(phone)
    if language == "ja-JP":
        assert "チーム順位" in phone.inner_text("h2")
    else:
        assert phone.inner_text("h2") == "Team standings"

    # 4. the team standings as CSV, from the page's link: the same rows as the service's
    with phone.expect_download() as download_info:
        phone.click(f"#team-rule a[href='/events/{event.slug}/teams.csv']")
    download = download_info.value
    assert download.suggested_filename == f"{event.slug}-teams.csv"
    rows = list(csv.reader(io.StringIO(Path(download.path()).read_text(encoding="utf-8"))))
    assert rows[0] == ["rank", "team", "score", "members"]
    assert [[int(r[0]), r[1], Fraction(r[2]), r[3]] for r in rows[1:]] == [
        [row.rank, row.team.name, row.score, " / ".join(row.members)] for row in standings
    ]


def test_a_teams_file_with_a_player_not_in_the_event_reads_nothing(organizer, tmp_path, make_event):
    """All the file or nothing: one unknown player refuses the file, with its line, and no team is read."""
    event = make_event(8, team_rule="sum")
    admin = organizer("en-US")
    admin.goto(f"/admin/tournament/event/{event.pk}/teams-csv/")
    upload(admin, tmp_path, "teams.csv", "team,player,role\nNorth,Player 01,member\nNorth,Nobody,member\n")
    admin.wait_for_selector(".errorlist")
    assert "line 3" in admin.inner_text(".errorlist")
    assert not Team.objects.filter(event=event).exists()
