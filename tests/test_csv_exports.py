"""Every CSV file Taikai writes goes through the one neutral writer (``taikai.spreadsheet``): the source holds
no other CSV writer, and every CSV endpoint, fetched with a player, a club, a team and a sign-up named like
formulas, gives back no cell a spreadsheet would read as a formula."""

from __future__ import annotations

import csv
import io
from datetime import date
from pathlib import Path

import pytest
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.urls import reverse
from django.utils import timezone

from players.models import Player
from registration.models import Registration, SignUp
from seasons.models import Series, SeriesEvent
from taikai.spreadsheet import FORMULA_STARTS, NUMBER, csv_text
from tournament.services.events import event_finish
from tournament.services.teams import teams_import_csv

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parent.parent
APPS = (
    "accounts",
    "archive",
    "config",
    "idempotency",
    "live",
    "players",
    "profiles",
    "registration",
    "scoring",
    "seasons",
    "taikai",
    "tournament",
)
# the modules that answer a CSV file, each walked below
CSV_MODULES = {
    "registration/admin.py",
    "seasons/views.py",
    "tournament/admin/discipline.py",
    "tournament/api_v1/exports.py",
    "tournament/views.py",
}
FORMULA = '=HYPERLINK("http://x")'
RON = {"outcome": "ron", "dealer_position": 0, "wins": [{"winner": 1, "discarder": 2, "han": 3, "fu": 30}]}


def sources():
    for app in APPS:
        for path in (ROOT / app).rglob("*.py"):
            if "migrations" not in path.parts:
                yield path.relative_to(ROOT).as_posix(), path.read_text(encoding="utf-8")


def test_the_neutral_writer_is_the_only_csv_writer_and_every_csv_answer_is_walked():
    writers = {name for name, text in sources() if "csv.writer(" in text or "csv.DictWriter(" in text}
    assert writers == {"taikai/spreadsheet.py"}
    answering = {name for name, text in sources() if "text/csv" in text}
    assert answering == CSV_MODULES, "a new CSV answer: walk it in test_every_csv_export_neutralises_formulas"


def test_a_cell_is_neutralised_unless_it_is_a_number():
    assert [csv_text(v) for v in (FORMULA, "@SUM(1)", "+1+1", "-2-3", "\tx", "Sato")] == [
        "'" + FORMULA,
        "'@SUM(1)",
        "'+1+1",
        "'-2-3",
        "'\tx",
        "Sato",
    ]
    assert [csv_text(v) for v in (-3900, "-3900", "-91/2", "-12.5", None)] == [
        "-3900",
        "-3900",
        "-91/2",
        "-12.5",
        "",
    ]


def cells(response) -> set[str]:
    body = b"".join(response.streaming_content) if response.streaming else response.content
    return {cell for row in csv.reader(io.StringIO(body.decode())) for cell in row}


def formula_cells(found: set[str]) -> set[str]:
    """The cells a spreadsheet would read as formulas."""
    return {cell for cell in found if cell.startswith(FORMULA_STARTS) and not NUMBER.fullmatch(cell)}


@pytest.fixture
def world(make_event, play_round, django_capture_on_commit_callbacks):
    """A public team event of 8, one round played: a player, their club and a team named like formulas, every
    player with an EMA number; its registration has a sign-up named like a formula; a series holds it."""
    event = make_event(8, starts_on=date(2026, 3, 1), ends_on=date(2026, 3, 2), team_rule="sum")
    for i, entry in enumerate(event.entries.order_by("id")):
        Player.objects.filter(pk=entry.player_id).update(
            family_name=f"Family{i + 1}", given_name="Given", country="DE", external_id=f"0{i + 1}090055"
        )
    Player.objects.filter(display_name="Player 01").update(display_name=FORMULA, family_name=FORMULA, club="@SUM(1)")
    names = list(event.entries.order_by("id").values_list("player__display_name", flat=True))
    rows = [
        f'"{team}","{name.replace(chr(34), chr(34) * 2)}",member'
        for team, name in zip(["-2+3"] * 4 + ["Red"] * 4, names, strict=True)
    ]
    teams_import_csv(event=event, data=("team,player,role\n" + "\n".join(rows) + "\n").encode())
    play_round(event, RON)
    series = Series.objects.create(name="Season", slug="season", rule="sum")
    SeriesEvent.objects.create(series=series, event=event)
    with django_capture_on_commit_callbacks(execute=True):
        event_finish(event=event)
    now = timezone.now()
    Registration.objects.create(event=event, opens_at=now, closes_at=now, cap=8)
    SignUp.objects.create(
        event=event, state="waiting", rank=1, name=FORMULA, club="+1+1", email="x@example.org", nonce="n"
    )
    return event, series


def test_every_csv_export_neutralises_formulas(world, admin_client):
    event, series = world
    entries = [str(pk) for pk in event.entries.values_list("pk", flat=True)]
    answers = {
        "standings": admin_client.get(reverse("tournament:standings_csv", args=[event.slug])),
        "teams": admin_client.get(reverse("tournament:teams_csv", args=[event.slug])),
        "hands": admin_client.get(reverse("tournament:hands_csv", args=[event.slug])),
        "api standings": admin_client.get(reverse("api_v1:export_csv", args=[event.slug])),
        "api results": admin_client.get(reverse("api_v1:results_ema", args=[event.slug])),
        "api EMA file": admin_client.get(reverse("api_v1:results_ema", args=[event.slug]) + "?format=csv"),
        "series": admin_client.get(reverse("seasons:standings_csv", args=[series.slug])),
        "personal links": admin_client.post(
            reverse("admin:tournament_entry_changelist"),
            {"action": "personal_links_csv", ACTION_CHECKBOX_NAME: entries},
        ),
        "sign-ups": admin_client.post(
            reverse("admin:registration_signup_changelist"),
            {"action": "export_csv", ACTION_CHECKBOX_NAME: list(SignUp.objects.values_list("pk", flat=True))},
        ),
    }
    for what, response in answers.items():
        assert response.status_code == 200 and response["Content-Type"].startswith("text/csv"), what
        found = cells(response)
        assert formula_cells(found) == set(), what
        assert any(cell.startswith("'" + FORMULA) for cell in found) or what == "hands", (
            what
        )  # the name is there, neutralised
    assert "'-2+3" in cells(answers["teams"]) and "'@SUM(1)" in cells(answers["standings"])
    assert "'+1+1" in cells(answers["sign-ups"])
