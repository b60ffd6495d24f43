"""The six real Tenhou logs (MIT, LICENSE beside them) and the rules Tenhou prices hands under."""

from __future__ import annotations

from pathlib import Path

import pytest

from scoring.engine.params import LimitOptions
from scoring.engine.rules import Rules

LOGS = Path(__file__).resolve().parent.parent / "logs" / "tenhou"
LOG_NAMES = sorted(path.name for path in LOGS.glob("*.xml"))
# Tenhou's public lobbies: red fives, open tanyao, no kiriage mangan, counted yakuman (数え役満), yakuman add up.
TENHOU_RULES = Rules(
    aka_dora=True,
    open_tanyao=True,
    limits=LimitOptions(kiriage_mangan=False, kazoe_yakuman=True, yakuman_stack=True),
)


def log_bytes(name: str) -> bytes:
    return (LOGS / name).read_bytes()


@pytest.fixture(params=LOG_NAMES)
def log_name(request) -> str:
    return request.param
