"""``manage.py build_bench_event``: a finished event in bulk whose records hold together, never over one
that exists unless asked to replace it."""

import io

import pytest
from django.core.management import CommandError, call_command
from django.db.models import Count

from players.models import Player
from tournament.audit import event_audit
from tournament.models import Event, Round, SeatResult, StandingsRow, Table

pytestmark = pytest.mark.django_db


def build(*args) -> str:
    out = io.StringIO()
    call_command("build_bench_event", *args, stdout=out)
    return out.getvalue()


def test_a_small_bench_event_is_finished_with_its_standings_and_passes_the_audit(standard_ruleset):
    said = build("--players", "18", "--rounds", "3", "--slug", "bench")
    event = Event.objects.get(slug="bench")
    assert "bench: 18 players, 3 rounds" in said
    assert event.status == Event.Status.FINISHED and event.is_public
    assert list(event.rounds.values_list("status", flat=True)) == ["completed"] * 3
    # 18 players: three tables of four and two of three (art. 42's short tables) each round
    sizes = Table.objects.filter(round__event=event, round__number=1).annotate(n=Count("seats")).values_list("n")
    assert sorted(n for (n,) in sizes) == [3, 3, 4, 4, 4]
    assert SeatResult.objects.filter(table__round__event=event, is_current=True).count() == 18 * 3
    assert StandingsRow.objects.filter(event=event).count() == 18
    assert event_audit(event) == []


def test_the_next_round_is_seated_and_published_and_the_event_still_runs(standard_ruleset):
    build("--players", "12", "--rounds", "2", "--slug", "bench", "--next-round")
    event = Event.objects.get(slug="bench")
    assert event.status == Event.Status.RUNNING
    next_round = event.rounds.get(number=3)
    assert next_round.status == Round.Status.PUBLISHED
    assert next_round.seats.count() == 12 and not SeatResult.objects.filter(table__round=next_round).exists()
    assert event_audit(event) == []


def test_an_existing_slug_is_refused_without_replace_and_rebuilt_with_it(standard_ruleset):
    build("--players", "8", "--rounds", "1", "--slug", "bench")
    first = Event.objects.get(slug="bench")
    with pytest.raises(CommandError, match=r"^event_exists: an event with the slug 'bench' already exists"):
        build("--players", "12", "--rounds", "1", "--slug", "bench")
    assert Event.objects.get(slug="bench").pk == first.pk and first.entries.count() == 8
    build("--players", "12", "--rounds", "2", "--slug", "bench", "--replace")
    rebuilt = Event.objects.get(slug="bench")
    assert rebuilt.pk != first.pk and rebuilt.entries.count() == 12
    assert Player.objects.count() == 12  # the first build's players went with their event
    assert event_audit(rebuilt) == []


def test_too_few_players_or_rounds_is_a_coded_error(standard_ruleset):
    with pytest.raises(CommandError, match=r"^invalid_arguments"):
        build("--players", "1", "--rounds", "1", "--slug", "bench")
    assert not Event.objects.filter(slug="bench").exists()
