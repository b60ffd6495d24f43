"""Reads for the scoring app."""

from __future__ import annotations

from scoring.engine.rules import Rules
from scoring.models import Ruleset
from scoring.options import ruleset_engine_rules


def ruleset_get(*, slug: str) -> Ruleset | None:
    return Ruleset.objects.filter(slug=slug).first()


def ruleset_get_engine_rules(*, slug: str, players: int | None = None) -> Rules | None:
    ruleset = ruleset_get(slug=slug)
    return None if ruleset is None else ruleset_engine_rules(ruleset, players=players)
