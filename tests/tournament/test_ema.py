"""The EMA results: the file in the EMA's layout (CSV and .xlsx, read back), the checks that refuse it with
every problem, and the public page with base ranks and the MERS weight preview."""

from __future__ import annotations

import csv
import io
from datetime import date
from fractions import Fraction

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from openpyxl import load_workbook

from players.models import Player
from tests.factories import token_client
from tournament.engine.penalties import PenaltyKind
from tournament.models import Entry, Round, SeatResult, StandingsRow, StandingsSnapshot, Table
from tournament.services.discipline import penalty_log
from tournament.services.standings import standings_recompute

pytestmark = pytest.mark.django_db

RON = {"outcome": "ron", "dealer_position": 0, "wins": [{"winner": 1, "discarder": 2, "han": 3, "fu": 30}]}
COUNTRIES = ["DE", "FR", "NL", "DK", "AT", "PL", "SE", "IE"]


@pytest.fixture
def played(make_event, play_round):
    """A public two-day event of 8, round 1 played and completed, every player with an EMA number and a
    country but the last, a non-member; standings computed."""
    event = make_event(8, starts_on=date(2026, 3, 1), ends_on=date(2026, 3, 2))
    for i, entry in enumerate(event.entries.order_by("id")):
        Player.objects.filter(pk=entry.player_id).update(
            family_name=f"Family{i + 1}",
            given_name="Given",
            country=COUNTRIES[i],
            external_id=f"0{i + 1}090055" if i < 7 else None,
        )
    play_round(event, RON)
    return event


def ema_url(event, kind: str | None = None) -> str:
    url = reverse("api_v1:results_ema", args=[event.slug])
    return f"{url}?format={kind}" if kind else url


def test_the_csv_is_the_ema_layout_points_as_decimals_named_by_the_dates(played):
    # when
    response = Client().get(ema_url(played, "csv"))
    # then
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    assert response["Content-Disposition"] == 'attachment; filename="spring-open_2026-03-01_2026-03-02_ema.csv"'
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0] == ["place", "ema_number", "last_name", "first_name", "country", "points", "score", "games"]
    standings = list(played.standings_rows.order_by("position").select_related("entry__player"))
    assert len(rows) == 1 + len(standings) == 9
    for line, row in zip(rows[1:], standings, strict=True):
        player = row.entry.player
        assert line[1:5] == [player.external_id or "", player.family_name, "Given", player.country]
        assert Fraction(line[5]) == row.total_points and "/" not in line[5]  # exact here: the decimal ends
    assert [line[0] for line in rows[1:]] == [str(row.rank) for row in standings]
    assert sum(Fraction(line[5]) for line in rows[1:]) == 0  # the field balances
    non_member = next(line for line in rows[1:] if line[3] == "Given" and line[2] == "Family8")
    assert non_member[1] == ""


def test_the_workbook_reads_back_with_ema_numbers_as_text(played):
    response = Client().get(ema_url(played, "xlsx"))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    assert response["Content-Disposition"].endswith('_2026-03-01_2026-03-02_ema.xlsx"')
    sheet = load_workbook(io.BytesIO(response.content)).active
    values = list(sheet.iter_rows(values_only=True))
    as_csv = list(csv.reader(io.StringIO(Client().get(ema_url(played, "csv")).content.decode())))
    assert values[0] == tuple(as_csv[0])
    for cells, line in zip(values[1:], as_csv[1:], strict=True):
        place, number, last, first, country, points, score, games = cells
        assert (place, number or "", last, first, country) == (int(line[0]), *line[1:5])
        assert (points, score, games) == (float(line[5]), int(line[6]), int(line[7]))
    assert {cells[1] for cells in values[1:] if cells[1]} >= {"01090055", "07090055"}  # leading zeros kept


def test_the_checks_refuse_with_every_problem_and_no_file(played):
    # given: a bad EMA number, a player without a country, round 2 not played, four substitutes
    first, second, *others = played.entries.order_by("id")
    Player.objects.filter(pk=first.player_id).update(external_id="04-001")
    Player.objects.filter(pk=second.player_id).update(country="")
    Round.objects.create(event=played, number=2)
    Entry.objects.filter(pk__in=[e.pk for e in others[:4]]).update(substitute_for=first)
    standings_recompute(event_id=played.pk)
    # when
    for kind in ("csv", "xlsx"):
        response = Client().get(ema_url(played, kind))
        # then
        assert response.status_code == 400 and response["Content-Type"] == "application/json"
        error = response.json()["error"]
        assert (error["code"], error["field"]) == ("ema_checks_failed", None)
        assert "4 problems" in error["message"]
        assert sorted((p["code"], p["entry"] or 0) for p in error["problems"]) == [
            ("country_missing", second.pk),
            ("ema_number_invalid", first.pk),
            ("rounds_unfinished", 0),
            ("too_many_substitutes", 0),
        ]
        assert any("04-001" in p["message"] for p in error["problems"])


def test_points_that_do_not_balance_are_refused(played):
    entry = played.entries.order_by("id").first()
    # a result changed behind the services' back: the field no longer sums to zero
    result = SeatResult.objects.current().filter(entry=entry).get()
    SeatResult.objects.filter(pk=result.pk).update(game_points=result.game_points + Fraction(3, 2))
    standings_recompute(event_id=played.pk)
    error = Client().get(ema_url(played, "csv")).json()["error"]
    assert [p["code"] for p in error["problems"]] == ["points_unbalanced"]
    assert "1.5" in error["problems"][0]["message"]


def test_a_penalty_taken_off_the_totals_still_balances(played):
    entry = played.entries.order_by("id").first()
    table = Table.objects.filter(round__event=played, seats__entry=entry).get()
    played.tournament_play = False  # the foul's points without a disqualification (art. 43)
    played.save(update_fields=["tournament_play"])
    kind = PenaltyKind.DELIBERATE_FOUL
    penalty_log(event=played, entry=entry, kind=kind.value, reason="test", table=table, hand_number=1)
    standings_recompute(event_id=played.pk)
    row = played.standings_rows.get(entry=entry)
    assert row.penalty_points > 0
    assert Client().get(ema_url(played, "csv")).status_code == 200


def test_the_file_goes_through_the_same_permission_checks(played):
    played.is_public = False
    played.save(update_fields=["is_public"])
    assert Client().get(ema_url(played, "xlsx")).status_code == 401
    reader = token_client(played, "read", name="ranking")
    assert reader.get(ema_url(played, "xlsx")).status_code == 200
    refused = reader.get(ema_url(played, "pdf"))
    assert refused.status_code == 400 and refused.json()["error"]["field"] == "format"


def test_the_page_shows_places_base_ranks_non_members_and_the_mers_weight(played, django_assert_max_num_queries):
    with django_assert_max_num_queries(12):
        response = Client().get(reverse("tournament:ema", args=[played.slug]))
    page = response.content.decode()
    assert response.status_code == 200
    rows = list(played.standings_rows.order_by("position"))
    assert page.count("<tr>") == 1 + len(rows)
    assert "1000" in page and 'id="ema-problems"' not in page and "?format=xlsx" in page
    assert "non-member" in page and 'id="ema-non-members"' in page
    # 2 days, 8 players, 8 countries: 2 + 0 + 0.5 = 2.5; a qualification event 3.5
    assert "Open event: 2.5" in page and "Qualification event: 3.5" in page


def test_the_page_lists_the_problems(played):
    Player.objects.filter(pk=played.entries.order_by("id").first().player_id).update(external_id="12")
    page = Client().get(reverse("tournament:ema", args=[played.slug])).content.decode()
    assert 'id="ema-problems"' in page and "the EMA number 12 is not 8 digits" in page
    assert "?format=csv" not in page


def test_the_page_shows_a_hundred_players_a_page(make_event):
    event = make_event(130, starts_on=date(2026, 3, 1))
    entries = list(event.entries.order_by("id"))
    StandingsSnapshot.objects.create(event=event, computed_at=timezone.now(), row_count=len(entries))
    StandingsRow.objects.bulk_create(
        StandingsRow(
            event=event,
            position=i,
            entry=e,
            rank=i + 1,
            total_points=Fraction(0),
            games=1,
            status="active",
            name=f"Player {i + 1:03d}",
            country="DE",
        )
        for i, e in enumerate(entries)
    )
    first = Client().get(reverse("tournament:ema", args=[event.slug])).content.decode()
    second = Client().get(reverse("tournament:ema", args=[event.slug]) + "?page=2").content.decode()
    assert first.count("<tr>") == 101 and second.count("<tr>") == 31
    assert "Page 2 of 2" in second and ">0<" in second  # the last of 130: base rank 0


def test_the_page_and_the_api_give_one_ema_file_byte_for_byte(played):
    # given: the file the event's EMA page links to, and the API's results.ema
    page = Client().get(reverse("tournament:ema", args=[played.slug])).content.decode()
    assert f'href="{ema_url(played)}?format=csv"' in page
    linked, api = Client().get(ema_url(played, "csv")), Client().get(ema_url(played))
    # then: the same bytes, in the one layout: 8 columns, points as decimals
    assert linked.status_code == api.status_code == 200
    assert linked.content == api.content
    rows = list(csv.reader(io.StringIO(api.content.decode())))
    assert rows[0] == ["place", "ema_number", "last_name", "first_name", "country", "points", "score", "games"]
    standings = list(played.standings_rows.order_by("position"))
    for line, row in zip(rows[1:], standings, strict=True):
        assert Fraction(line[5]) == row.total_points and "/" not in line[5]
        assert line[7] == str(row.games)
