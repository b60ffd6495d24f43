"""Pure-Python scoring engine: hand evaluation (seeds 001-003), payment schemes and settlement."""

from .evaluate import HandResult, evaluate, evaluate_hand
from .hand import Hand, Meld, hand_from_dict
from .rules import STANDARD_RULES, Rules

__all__ = [
    "STANDARD_RULES",
    "Hand",
    "HandResult",
    "Meld",
    "Rules",
    "evaluate",
    "evaluate_hand",
    "hand_from_dict",
]
