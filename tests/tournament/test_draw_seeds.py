"""Reproducible draws: the event keeps its draw seed, each round the seed its seating was drawn with; the round's
page and the seating report name it, ``manage.py seat_round --replay`` draws the round again and compares, and
ties broken by lot follow the event's seed."""

import io
import zlib

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from django.urls import reverse
from django.utils import translation

from tournament.audit import event_audit
from tournament.models import Entry, Event, Round, StandingsRow
from tournament.options import round_draw_seed, standings_lots
from tournament.services.seating import round_draft_reroll, round_draft_swap, round_seat_next, round_seating_replay
from tournament.templatetags.taikai import seating_report_words

pytestmark = pytest.mark.django_db
RON = {"outcome": "ron", "dealer_position": 0, "wins": [{"winner": 1, "discarder": 2, "han": 2, "fu": 40}]}


def replay_command(event, number: int) -> tuple[str, int]:
    out, status = io.StringIO(), 0
    try:
        call_command("seat_round", replay=number, event=event.slug, stdout=out)
    except CommandError as error:
        status = error.returncode
    return out.getvalue(), status


def test_a_new_event_is_given_a_draw_seed_of_its_own(standard_ruleset):
    first = Event.objects.create(name="A", slug="a", ruleset=standard_ruleset)
    second = Event.objects.create(name="B", slug="b", ruleset=standard_ruleset)
    assert first.draw_seed is not None and second.draw_seed is not None
    first.refresh_from_db()
    assert isinstance(first.draw_seed, int) and 0 <= first.draw_seed < 2**31


def test_a_seated_round_keeps_the_seed_derived_from_the_events(make_event):
    # given an event with its draw seed
    event = make_event(16, draw_seed=1234)
    # when its first round is seated
    round_ = round_seat_next(event=event, round_number=1)
    # then the round keeps the seed derived from the event's seed and its number, and the request it was drawn from
    assert round_.draw_seed == round_draw_seed(event, 1) == zlib.crc32(b"1234:1")
    assert round_.seating_report["seed"] == round_.draw_seed
    assert round_.seating_request["seed"] == round_.draw_seed and len(round_.seating_request["players"]) == 16


def test_the_same_event_seed_seats_a_round_the_same_way(make_event):
    event = make_event(16, draw_seed=99)
    first = round_seat_next(event=event, round_number=1)
    tables = round_seating_replay(round_=first)["stored"]
    Round.objects.filter(pk=first.pk).delete()
    again = round_seat_next(event=event, round_number=1)
    assert round_seating_replay(round_=again)["stored"] == tables


def test_the_replay_equals_the_stored_seating_of_a_played_and_a_swiss_round(make_event, play_round):
    # given an event whose round 1 was played and whose round 2 was seated on the standings (Swiss)
    event = make_event(16, is_public=True)
    first = round_seat_next(event=event, round_number=1)
    Round.objects.filter(pk=first.pk).delete()  # the fixture seats the next round itself
    play_round(event, RON)
    second = round_seat_next(event=event, round_number=2)
    assert second.seating_report["mode"] == "swiss"
    # when the round is replayed from the command line
    printed, status = replay_command(event, 2)
    # then it prints the tables drawn, says they equal the stored ones, and writes nothing
    assert status == 0
    assert f"seed {second.draw_seed}" in printed and "The replay equals the stored seating." in printed
    assert "table 4:" in printed and "Player " in printed
    assert Round.objects.filter(event=event).count() == 2


def test_a_draft_changed_by_hand_no_longer_equals_its_replay(make_event):
    event = make_event(8)
    round_ = round_seat_next(event=event, round_number=1)
    tables = round_seating_replay(round_=round_)["stored"]
    first, second = Entry.objects.filter(pk__in=[tables[0][0], tables[1][0]])
    round_draft_swap(round_=round_, first=first, second=second)
    printed, status = replay_command(event, 1)
    assert status == 1 and "The replay differs from the stored seating (tables 1, 2)." in printed


def test_a_draft_seated_again_keeps_its_new_seed_and_replays(make_event):
    event = make_event(12)
    round_seat_next(event=event, round_number=1)
    again = round_draft_reroll(round_=Round.objects.get(event=event), seed=555)
    assert again.draw_seed == 555 and again.seating_report["seed"] == 555
    assert round_seating_replay(round_=again)["equal"]


def test_a_round_seated_by_hand_has_no_draw_to_replay(make_event, seated_round):
    event = make_event(8)
    round_ = seated_round(event)
    assert round_.draw_seed is None
    printed, status = replay_command(event, 1)
    assert status == 1 and printed == ""
    with pytest.raises(CommandError, match="round_not_drawn"):
        call_command("seat_round", replay=1, event=event.slug, stdout=io.StringIO())


def test_the_round_page_and_the_seating_report_name_the_seed(make_event):
    event = make_event(8, is_public=True)
    round_ = round_seat_next(event=event, round_number=1)
    Round.objects.filter(pk=round_.pk).update(status=Round.Status.PUBLISHED)
    url = reverse("tournament:round", args=[event.slug, 1])
    for language, words in (("ja", f"シード {round_.draw_seed}"), ("en", f"the seed {round_.draw_seed}")):
        page = Client().get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
        assert 'id="round-draw-seed"' in page and words in page
        with translation.override(language):
            said = " ".join(seating_report_words(round_.seating_report))
        assert str(round_.draw_seed) in said


def test_ties_broken_by_lot_follow_the_events_seed(make_event, play_round):
    # given an event that breaks ties by lot, whose two tables play the same hand: the players of one seat tie
    event = make_event(8, is_public=True, standings_precedence=["total_points", "lot"])
    play_round(event, RON)
    # when the standings are computed
    rows = list(StandingsRow.objects.filter(event=event).order_by("position"))
    # then each player has a rank of their own, and each tied pair is in the order of the lots the event's seed drew
    assert [row.rank for row in rows] == list(range(1, 9))
    lots = standings_lots(event, [row.entry_id for row in rows])
    for better, worse in zip(rows[::2], rows[1::2], strict=True):
        assert better.total_points == worse.total_points
        assert lots[better.entry_id] < lots[worse.entry_id]
    assert not [v for v in event_audit(event) if v.code.startswith("standings")]
    page = Client().get(reverse("tournament:standings", args=[event.slug])).content.decode()
    assert f"by lot (seed {event.draw_seed})" in page
