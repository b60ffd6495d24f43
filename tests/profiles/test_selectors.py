"""The reads of a profile: hands counted from the hands in force (wins, tsumo, ron, deal-ins 放銃, yaku), the
search over players shown publicly (name, kana, romaji, club, country, EMA number)."""

from __future__ import annotations

from datetime import date

import pytest

from players.models import Player
from profiles import selectors, services
from profiles.models import ProfileSetting
from tournament.models import Entry, Event

pytestmark = pytest.mark.django_db

RON = {
    "outcome": "ron",
    "dealer_position": 0,
    "wins": [{"winner": 1, "discarder": 2, "han": 3, "fu": 30, "yaku": [["riichi", 1], ["tanyao", 1], ["pinfu", 1]]}],
}
TSUMO = {
    "outcome": "tsumo",
    "dealer_position": 0,
    "wins": [{"winner": 1, "han": 1, "fu": 30, "yaku": [["menzen_tsumo", 1]]}],
}


def _entry(event, name) -> Entry:
    return Entry.objects.select_related("event").get(event=event, player__display_name=name)


def test_hand_counts_give_wins_by_tsumo_and_ron_deal_ins_and_yaku(make_event, play_round):
    event = make_event(8)
    play_round(event, RON)  # table 1: Player 02 wins by ron from Player 03
    play_round(event, TSUMO)
    winner, discarder, other = (_entry(event, n) for n in ("Player 02", "Player 03", "Player 04"))
    counts = selectors.entries_hand_counts([winner, discarder, other])
    assert (counts[winner.pk].wins, counts[winner.pk].ron, counts[winner.pk].tsumo) == (2, 1, 1)
    assert counts[winner.pk].yaku == {"riichi": 1, "tanyao": 1, "pinfu": 1, "menzen_tsumo": 1}
    assert counts[discarder.pk].deal_ins == 1 and counts[discarder.pk].wins == 0
    assert counts[other.pk].wins == counts[other.pk].deal_ins == 0


def test_hand_counts_read_the_same_two_queries_for_any_number_of_entries(
    make_event, play_round, django_assert_num_queries
):
    event = make_event(8)
    play_round(event, RON)
    entries = list(Entry.objects.select_related("event").filter(event=event))
    with django_assert_num_queries(2):
        selectors.entries_hand_counts(entries)


def test_a_final_scores_event_counts_no_hands_and_reads_nothing(make_event, django_assert_num_queries):
    event = make_event(4, entry_mode=Event.EntryMode.FINAL_SCORES)
    entries = list(Entry.objects.select_related("event").filter(event=event))
    with django_assert_num_queries(0):
        counts = selectors.entries_hand_counts(entries)
    assert all(c.wins == 0 for c in counts.values())


@pytest.mark.parametrize(
    "typed",
    ["山田", "ヤマダ", "やまだ", "yamada taro", "Yamada Tarou", "tokyo riichi", "04130042", "Japan", "JPN", "日本"],
)
def test_search_finds_a_player_by_name_kana_romaji_club_country_or_ema_number(yamada, typed):
    assert list(selectors.players_search(typed)) == [yamada]


def test_search_leaves_out_merged_away_opted_out_and_private_only_players(yamada, make_event):
    private = make_event(0, name="Closed", slug="closed", is_public=False)
    hidden = Player.objects.create(display_name="山田 花子", reading="やまだ はなこ")
    Entry.objects.create(event=private, player=hidden)
    duplicate = Player.objects.create(display_name="山田 太郎 (2)", reading="やまだ たろう")
    Entry.objects.create(event=make_event(0, name="Other", slug="other"), player=duplicate)
    assert set(selectors.players_search("yamada")) == {yamada, duplicate}
    services.player_merge(kept=yamada, merged=duplicate)
    ProfileSetting.objects.create(player=yamada, listed=False)
    assert list(selectors.players_search("yamada")) == []


def test_an_empty_search_finds_nobody(yamada):
    assert list(selectors.players_search("   ")) == []


def test_the_public_history_names_the_newest_public_event_and_counts_the_public_ones(yamada, make_event):
    # given Yamada in the fixture's event (no date), two dated public events and a newer private one
    older = make_event(0, name="Older", slug="older", starts_on=date(2025, 3, 1))
    newer = make_event(0, name="Newer", slug="newer", starts_on=date(2026, 3, 1))
    private = make_event(0, name="Closed", slug="closed", starts_on=date(2026, 9, 1), is_public=False)
    for event in (older, newer, private):
        Entry.objects.create(event=event, player=yamada)
    # when the search reads their history
    found = selectors.with_public_history(selectors.players_search("yamada")).get()
    # then the newest dated public event is named, and the three public events counted (never the private one)
    assert (found.latest_event_name, found.latest_event_starts_on) == ("Newer", date(2026, 3, 1))
    assert found.public_events == 3


def test_the_public_history_of_a_player_in_undated_events_names_the_last_entered(make_event):
    first = make_event(1, name="First", slug="first")
    player = first.entries.get().player
    Entry.objects.create(event=make_event(0, name="Second", slug="second"), player=player)
    found = selectors.with_public_history(Player.objects.filter(pk=player.pk)).get()
    assert (found.latest_event_name, found.latest_event_starts_on, found.public_events) == ("Second", None, 2)
