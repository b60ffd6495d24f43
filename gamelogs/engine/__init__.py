"""Pure Python: a platform's game log read into one record of the game, and each win of it written as a
hand-format request (``../shared/hand-format.md``) for the scoring engine to re-score. No Django here."""

from .record import Draw, GameLog, GameLogError, Hand, LogRules, Meld, Win
from .tenhou_json import read_tenhou_json
from .tenhou_xml import read_tenhou_xml
from .wins import log_base_points, win_request

__all__ = [
    "Draw",
    "GameLog",
    "GameLogError",
    "Hand",
    "LogRules",
    "Meld",
    "Win",
    "log_base_points",
    "read_tenhou_json",
    "read_tenhou_xml",
    "win_request",
]
