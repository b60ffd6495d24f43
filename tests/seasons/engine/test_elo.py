"""The Elo rating by placement: worked by hand, and its invariants (hypothesis)."""

from decimal import Decimal

from hypothesis import given
from hypothesis import strategies as st

from seasons.engine.elo import START, Game, elo_ratings, game_changes, rating_text


def test_four_equals_in_order():
    # every pair expects ½; K/(n − 1) = 32/3; a pair won is 32/3 · ½ = 5.3333 (rounded to 0.0001)
    changes = game_changes({}, Game(((1, 1), (2, 2), (3, 3), (4, 4))))
    assert changes == {
        1: Decimal("15.9999"),
        2: Decimal("5.3333"),
        3: Decimal("-5.3333"),
        4: Decimal("-15.9999"),
    }
    assert sum(changes.values()) == 0


def test_two_players_is_plain_elo():
    # 1600 beats 1400: E = 1/(1 + 10^(−200/400)) = 0.7597469…; Δ = 32 · (1 − E) = 7.6881
    changes = game_changes({1: Decimal(1600), 2: Decimal(1400)}, Game(((1, 1), (2, 2))))
    assert changes == {1: Decimal("7.6881"), 2: Decimal("-7.6881")}


def test_a_tie_between_equals_changes_nothing():
    assert game_changes({}, Game(((1, 1), (2, 1)))) == {1: 0, 2: 0}


def test_ratings_after_games_best_first():
    ratings = elo_ratings([Game(((1, 1), (2, 2), (3, 3), (4, 4)))])
    assert [(r.player_id, r.rating, r.games) for r in ratings] == [
        (1, START + Decimal("15.9999"), 1),
        (2, START + Decimal("5.3333"), 1),
        (3, START - Decimal("5.3333"), 1),
        (4, START - Decimal("15.9999"), 1),
    ]
    assert rating_text(ratings[0].rating) == "1516.0"


ratings = st.decimals(min_value=800, max_value=2400, places=4, allow_nan=False, allow_infinity=False)


@st.composite
def tables(draw):
    size = draw(st.sampled_from([3, 4]))
    players = draw(st.lists(st.integers(1, 50), min_size=size, max_size=size, unique=True))
    places = draw(st.lists(st.integers(1, size), min_size=size, max_size=size))
    before = {p: draw(ratings) for p in players}
    return before, list(zip(players, places, strict=True))


@given(tables())
def test_the_changes_of_a_game_sum_to_zero(table):
    before, places = table
    assert sum(game_changes(before, Game(tuple(places))).values()) == 0


@given(tables(), st.randoms(use_true_random=False))
def test_the_order_of_the_seats_changes_nothing(table, random):
    before, places = table
    shuffled = list(places)
    random.shuffle(shuffled)
    assert game_changes(before, Game(tuple(places))) == game_changes(before, Game(tuple(shuffled)))


@given(tables())
def test_the_better_placed_of_equals_never_loses_more(table):
    _, places = table
    changes = game_changes({}, Game(tuple(places)))
    for a, place_a in places:
        for b, place_b in places:
            if place_a < place_b:
                assert changes[a] > changes[b]
