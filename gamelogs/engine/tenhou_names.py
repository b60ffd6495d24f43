"""Tenhou's yaku ids and their Japanese names, as the tenhou.net/6 form writes them (名前(n飜) / 名前(役満))."""

from __future__ import annotations

TENHOU_YAKU_NAMES = (
    "門前清自摸和",
    "立直",
    "一発",
    "槍槓",
    "嶺上開花",
    "海底摸月",
    "河底撈魚",
    "平和",
    "断幺九",
    "一盃口",
    "自風 東",
    "自風 南",
    "自風 西",
    "自風 北",
    "場風 東",
    "場風 南",
    "場風 西",
    "場風 北",
    "役牌 白",
    "役牌 發",
    "役牌 中",
    "両立直",
    "七対子",
    "混全帯幺九",
    "一気通貫",
    "三色同順",
    "三色同刻",
    "三槓子",
    "対々和",
    "三暗刻",
    "小三元",
    "混老頭",
    "二盃口",
    "純全帯幺九",
    "混一色",
    "清一色",
    "人和",
    "天和",
    "地和",
    "大三元",
    "四暗刻",
    "四暗刻単騎",
    "字一色",
    "緑一色",
    "清老頭",
    "九蓮宝燈",
    "純正九蓮宝燈",
    "国士無双",
    "国士無双１３面",
    "大四喜",
    "小四喜",
    "四槓子",
    "ドラ",
    "裏ドラ",
    "赤ドラ",
)
# Other spellings that converters of other platforms' records write.
ALIASES = {
    "ダブル立直": 21,
    "役牌:白": 18,
    "役牌:發": 19,
    "役牌:中": 20,
    "国士無双１３面待ち": 48,
    "国士無双13面": 48,
    "四暗刻単騎待ち": 41,
}
YAKU_IDS = {name: key for key, name in enumerate(TENHOU_YAKU_NAMES)} | ALIASES


def yaku_id(name: str) -> int | None:
    """Tenhou's id of a yaku named in Japanese, or None for a name it does not know."""
    return YAKU_IDS.get(name.strip())
