"""Importing online game logs: N copies of the six real Tenhou logs of the tests, each copy a distinct game
(its players renamed) and so a table of its own, through the service the API, the admin, the console and
``import_game_logs`` share. Prints logs per second, hands per second and the time per log (mean, median, p95),
and the same per log. Each log is imported into a free online league of its own rules (the three-player game
and the 2023 tournament lobby's custom rules need theirs). Uses the configured database (DATABASE_URL, else
the embedded SQLite file); everything runs in a transaction rolled back at the end, so the database is left as
it was.

Run: ``python benchmarks/game_logs.py [copies]`` (default 20: 120 logs).
"""

from __future__ import annotations

import os
import re
import statistics
import sys
import time
from pathlib import Path
from urllib.parse import quote

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django

django.setup()

from django.db import connection, transaction  # noqa: E402

from gamelogs.engine import read_tenhou_xml  # noqa: E402
from gamelogs.services import game_log_import, online_league_create  # noqa: E402
from scoring.models import Ruleset  # noqa: E402

LOGS = Path(__file__).resolve().parent.parent / "tests" / "gamelogs" / "logs" / "tenhou"
NAME = re.compile(r'(<UN[^>]*?\bn(\d)=")([^"]*)(")')


class Rollback(Exception):
    pass


def renamed(text: str, copy: int) -> str:
    """The same game with its players renamed for this copy: another game, other players, another table."""

    def rename(match: re.Match) -> str:
        if not match.group(3):  # the empty fourth seat of a three-player game
            return match.group(0)
        return f"{match.group(1)}{quote(f'bench{copy}-seat{match.group(2)}')}{match.group(4)}"

    return NAME.sub(rename, text, count=4)


def league_for(name: str, text: str):
    """A free online league under a copy of the Tenhou preset with the log's own rules (players, start points,
    red fives, open tanyao)."""
    rules = read_tenhou_xml(text).rules
    preset = Ruleset.objects.get(slug="tenhou")
    fields = {f.name: getattr(preset, f.name) for f in Ruleset._meta.concrete_fields if f.name != "id"}
    slug = f"bench-{name.removesuffix('.xml')}"
    ruleset = Ruleset.objects.create(
        **{
            **fields,
            "name": slug,
            "slug": slug,
            "standard_players": rules.players,
            "start_points": rules.start_points or preset.start_points,
            "aka_dora": rules.aka_dora,
            "open_tanyao": rules.open_tanyao,
        }
    )
    return online_league_create(slug=slug, ruleset_slug=ruleset.slug)


def main(copies: int) -> None:
    logs = {path.name: path.read_text() for path in sorted(LOGS.glob("*.xml"))}
    times: dict[str, list[float]] = {name: [] for name in logs}
    hands = 0
    try:
        with transaction.atomic():
            leagues = {name: league_for(name, text) for name, text in logs.items()}
            started = time.perf_counter()
            for copy in range(copies):
                for name, text in logs.items():
                    data = renamed(text, copy).encode()
                    one = time.perf_counter()
                    with transaction.atomic():
                        record = game_log_import(event=leagues[name], data=data)
                    times[name].append(time.perf_counter() - one)
                    hands += record.hands
            total = time.perf_counter() - started
            raise Rollback
    except Rollback:
        pass
    every = sorted(t for per_log in times.values() for t in per_log)
    count = len(every)
    print(f"{count} logs ({copies} copies of {len(logs)}), {hands} hands, database {connection.vendor}")
    print(f"  {count / total:7.1f} logs/s   {hands / total:8.1f} hands/s   {total:6.2f} s in all")
    print(
        f"  per log: mean {1000 * statistics.fmean(every):6.1f} ms   median {1000 * statistics.median(every):6.1f} ms"
        f"   p95 {1000 * every[int(0.95 * (count - 1))]:6.1f} ms"
    )
    for name, per_log in times.items():
        game = read_tenhou_xml(logs[name])
        print(
            f"  {name:16s} {len(game.hands):3d} hands   mean {1000 * statistics.fmean(per_log):6.1f} ms"
            f"   max {1000 * max(per_log):6.1f} ms"
        )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 20)
