import pytest

from tournament.engine.dealer import NextDeal, next_deal
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
    assert (
        next_deal(players=4, dealer=0, honba=2, outcome=outcome, winners=winners, tenpai=tenpai) == expected
    )


def test_deal_passing_from_the_last_seat_advances_the_wind():
    assert next_deal(players=3, dealer=2, honba=0, outcome="tsumo", winners=(1,)) == NextDeal(0, 0, True)


def test_unknown_outcome_and_dealer_are_refused():
    with pytest.raises(TournamentError):
        next_deal(players=4, dealer=0, honba=0, outcome="win")
    with pytest.raises(TournamentError):
        next_deal(players=3, dealer=3, honba=0, outcome="tsumo", winners=(1,))
