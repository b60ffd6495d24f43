"""When a log's game was played, as far as the log says it: Tenhou's log id starts with the hour
(``2023010112gm-…``), a Mahjong Soul record's id with the day (``230101-…``), and the tenhou.net/6 form's
``title`` writes the date (``2023/01/01 12:34``). The platform's own clock: no time zone is known."""

from __future__ import annotations

import re
from datetime import datetime, timedelta

TENHOU_ID = re.compile(r"^(\d{10})gm-")
MAHJONG_SOUL_ID = re.compile(r"^(\d{6})-")
TITLE_DATE = re.compile(r"(\d{4})[/-](\d{1,2})[/-](\d{1,2})(?:\D+(\d{1,2}):(\d{2}))?")


def played_at(game_id: str = "", title: str = "") -> datetime | None:
    """The latest time the game can have started, from its id or its title (the end of the hour or the day the
    log names), or None when neither says it."""
    try:
        if match := TENHOU_ID.match(game_id):
            return datetime.strptime(match.group(1), "%Y%m%d%H") + timedelta(minutes=59)
        if match := MAHJONG_SOUL_ID.match(game_id):
            return datetime.strptime(match.group(1), "%y%m%d") + timedelta(hours=23, minutes=59)
        if match := TITLE_DATE.search(title):
            year, month, day, hour, minute = (int(part) if part else None for part in match.groups())
            if hour is None:
                return datetime(year, month, day, 23, 59)
            return datetime(year, month, day, hour, minute)
    except ValueError:
        return None
    return None
