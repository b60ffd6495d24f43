import pytest

from tournament.engine.dealer import NextDeal, NextDealer, next_deal, next_dealer_position, regular_game_stand
from tournament.engine.errors import TournamentError


@pytest.mark.parametrize(
    ("outcome", "winners", "tenpai", "expected"),
    [
        ("ron", (0,), (), NextDeal(0, 3, False)),  # 和了連荘: the dealer wins and keeps the deal
        ("tsumo", (2,), (), NextDeal(1, 0, False)),  # a non-dealer wins: honba back to 0
        ("ron", (2, 0), (), NextDeal(0, 3, False)),  # double ron including the dealer
        ("exhaustive_draw", (), (0, 3), NextDeal(0, 3, False)),  # 聴牌連荘
        ("exhaustive_draw", (), (3,), NextDeal(1, 3, False)),  # dealer noten: the deal passes, honba +1
        ("abortive_draw", (), (), NextDeal(0, 3, False)),
        ("replayed", (), (), NextDeal(0, 2, False)),  # art. 36 ③: same dealer and honba
    ],
)
def test_next_dealer_and_honba(outcome, winners, tenpai, expected):
    assert next_deal(players=4, dealer=0, honba=2, outcome=outcome, winners=winners, tenpai=tenpai) == expected


def test_deal_passing_from_the_last_seat_advances_the_wind():
    assert next_deal(players=3, dealer=2, honba=0, outcome="tsumo", winners=(1,)) == NextDeal(0, 0, True)


def test_unknown_outcome_and_dealer_are_refused():
    with pytest.raises(TournamentError):
        next_deal(players=4, dealer=0, honba=0, outcome="win")
    with pytest.raises(TournamentError):
        next_deal(players=3, dealer=3, honba=0, outcome="tsumo", winners=(1,))


# --- Art. 42: the deal goes round the seats still playing ------------------------------------------


def test_art42_the_deal_skips_a_seat_that_left():
    # West (2) left after hand 5; South (1) dealt it and a non-dealer won: North deals next
    deal = next_dealer_position(
        playing=[0, 1, 2, 3], playing_next=[0, 1, 3], dealer=1, honba=0, outcome="ron", winners=(0,)
    )
    assert deal == NextDealer(3, 0, False)


def test_art42_a_three_player_game_deals_round_three_seats():
    deal = next_dealer_position(playing=[0, 1, 3], dealer=3, honba=1, outcome="tsumo", winners=(1,))
    assert deal == NextDealer(0, 0, True)  # from North back to East: the next wind round


def test_art42_when_the_dealer_leaves_the_next_seat_deals_with_the_same_honba():
    deal = next_dealer_position(
        playing=[0, 1, 2, 3], playing_next=[0, 1, 3], dealer=2, honba=2, outcome="exhaustive_draw", tenpai=(2,)
    )
    assert deal == NextDealer(3, 3, False)


def test_art42_when_the_last_seat_leaves_on_its_deal_the_next_wind_round_starts():
    deal = next_dealer_position(
        playing=[0, 1, 2, 3], playing_next=[0, 1, 2], dealer=3, honba=0, outcome="abortive_draw"
    )
    assert deal == NextDealer(0, 1, True)


def test_art42_seats_that_did_not_play_are_refused():
    with pytest.raises(TournamentError):
        next_dealer_position(playing=[0, 1, 3], dealer=2, honba=0, outcome="ron", winners=(0,))
    with pytest.raises(TournamentError):
        next_dealer_position(playing=[0, 1, 3], dealer=0, honba=0, outcome="ron", winners=(2,))
    with pytest.raises(TournamentError):
        next_dealer_position(playing=[0, 1], playing_next=[0], dealer=0, honba=0, outcome="replayed")


# --- The end of a regular game (a hanchan: East then South) ----------------------------------------------


def play(outcomes, *, players=4, playing_next=None):
    """The stand after hands played with these ``(outcome, winners, tenpai)``, the deal following the rules."""
    seats, dealer, honba, dealers = list(range(players)), 0, 0, []
    for i, (outcome, winners, tenpai) in enumerate(outcomes):
        dealers.append(dealer)
        following = playing_next if playing_next is not None and i == len(outcomes) - 1 else seats
        deal = next_dealer_position(
            playing=seats,
            dealer=dealer,
            honba=honba,
            outcome=outcome,
            winners=winners,
            tenpai=tenpai,
            playing_next=following,
        )
        last_honba, dealer, honba = honba, deal.position, deal.honba
    return regular_game_stand(dealers=dealers, playing=seats, honba=last_honba, next_deal=deal, playing_next=following)


def passes(dealer):
    """A non-dealer wins off the dealer: the deal passes on."""
    return ("ron", ((dealer + 1) % 4,), ())


def test_a_hanchan_is_over_after_south_4_when_the_deal_passes_on():
    stand = play([passes(i % 4) for i in range(8)])
    assert stand.over
    assert stand.last_hand_label("ja") == "南4局"


def test_a_game_stopped_at_south_2_is_not_over_and_says_where_it_ends():
    stand = play([passes(i % 4) for i in range(6)])
    assert not stand.over
    assert (stand.last_hand_label("ja"), stand.end_label("ja")) == ("南2局", "南4局")
    assert (stand.last_hand_label("en"), stand.end_label("en")) == ("South 2", "South 4")


@pytest.mark.parametrize(
    "last",
    [("ron", (3,), ()), ("exhaustive_draw", (), (3,)), ("abortive_draw", (), ()), ("replayed", (), ())],
    ids=["dealer-wins", "dealer-tenpai", "abortive-draw", "replayed"],
)
def test_south_4_goes_on_when_the_dealer_keeps_the_deal(last):
    stand = play([passes(i % 4) for i in range(7)] + [last])
    assert not stand.over
    assert stand.last_hand_label("en") == "South 4"


def test_after_a_player_left_the_three_player_game_ends_after_south_3():
    stand = play([passes(i % 4) for i in range(2)], playing_next=[0, 1, 2])
    assert not stand.over
    assert (stand.last_hand_label("ja"), stand.end_label("ja")) == ("東2局", "南3局")
