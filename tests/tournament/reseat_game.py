"""The game of the re-seat tests (``test_reseat.py``, ``tests/e2e/test_reseat.py``), told by people, and how a sheet
records it for people seated one way or another."""

from __future__ import annotations

A, B, C, D = range(4)  # the four people of the game, as the seating placed them: East, South, West, North
REAL = [C, A, D, B]  # where they really sat, East first

# A hanchan 半荘 told by people, not seats: who dealt 親, the honba 本場, riichi 立直, the wins (winner, discarder
# or None for a tsumo 自摸, han, fu) and who was tenpai 聴牌 at an exhaustive draw 荒牌流局.
GAME = [
    {"outcome": "ron", "dealer": A, "honba": 0, "riichi": [B], "wins": [(B, C, 3, 30)]},
    {"outcome": "exhaustive_draw", "dealer": B, "honba": 0, "riichi": [D], "tenpai": [B, D]},
    # a double ron 二家和 with two riichi sticks on the table: the sticks go to the winner first after the
    # discarder in turn order, which the real seats change
    {"outcome": "ron", "dealer": B, "honba": 1, "riichi": [C], "wins": [(C, A, 2, 40), (D, A, 1, 30)]},
    {"outcome": "tsumo", "dealer": C, "honba": 0, "wins": [(C, None, 4, 30)]},
    {"outcome": "exhaustive_draw", "dealer": C, "honba": 1, "tenpai": []},
    {"outcome": "ron", "dealer": D, "honba": 2, "riichi": [A, B], "wins": [(A, D, 5, 0)]},
    {"outcome": "tsumo", "dealer": A, "honba": 0, "wins": [(B, None, 2, 30)]},
    {"outcome": "exhaustive_draw", "dealer": B, "honba": 0, "riichi": [A], "tenpai": [A, C]},
    {"outcome": "ron", "dealer": C, "honba": 1, "wins": [(D, B, 3, 40)]},
    {"outcome": "ron", "dealer": D, "honba": 0, "riichi": [C], "wins": [(C, A, 1, 30)]},
]


def hand_at(hand: dict, seating: list[int]) -> dict:
    """``hand`` as the sheet records it for people seated ``seating`` (people, East first)."""
    seat = {person: position for position, person in enumerate(seating)}
    return {
        "outcome": hand["outcome"],
        "dealer_position": seat[hand["dealer"]],
        "honba": hand["honba"],
        "riichi_positions": [seat[p] for p in hand.get("riichi", [])],
        "tenpai_positions": [seat[p] for p in hand.get("tenpai", [])],
        "wins": [
            {"winner": seat[w], "discarder": None if d is None else seat[d], "han": han, "fu": fu}
            for w, d, han, fu in hand.get("wins", [])
        ],
    }
