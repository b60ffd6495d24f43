"""The example of ``../shared/hand-format.md``, shared by the command and API tests.

Scored by hand: riichi, menzen tsumo and round wind (South triplet in a South round) = 3 han; 20 base +
888p closed simple triplet 4 + South closed honor triplet 8 + tsumo 2 = 34 → 40 fu; dealer tsumo
ceil_100(2 · 40 · 2^5) = 2600 from each of three.
"""

from __future__ import annotations

import copy

EXAMPLE = {
    "id": "any-string",
    "rules": {"aka_dora": False},
    "hand": {
        "tiles": "345m888p11567s222z",
        "melds": [],
        "win_tile": "5s",
        "tsumo": True,
        "riichi": True,
        "double_riichi": False,
        "ippatsu": False,
        "haitei": False,
        "houtei": False,
        "rinshan": False,
        "chankan": False,
        "tenhou": False,
        "chiihou": False,
        "seat_wind": "E",
        "round_wind": "S",
        "dealer": True,
        "dora_indicators": ["8m"],
        "ura_dora_indicators": ["4p"],
        "honba": 0,
        "riichi_sticks": 0,
    },
}


def example(**hand_changes) -> dict:
    """The example with some of its hand's keys changed."""
    request = copy.deepcopy(EXAMPLE)
    request["hand"].update(hand_changes)
    return request
