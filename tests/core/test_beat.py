"""Beat in-process (the embedded default): each entry named in ``IN_PROCESS_BEAT_ENTRIES`` runs when its interval
has passed since it last ran, and not before."""

from __future__ import annotations

import pytest

from core.beat import beat_entries, beat_tick

pytestmark = pytest.mark.django_db


def test_the_late_players_entry_is_run_in_process(settings):
    settings.IN_PROCESS_BEAT_ENTRIES = ["late-players"]
    assert beat_entries() == [("tournament.late_players_mark", settings.LATE_PLAYERS_EVERY_SECONDS)]


def test_a_task_runs_once_its_interval_has_passed():
    entries = [("tournament.late_players_mark", 15.0)]
    last = {"tournament.late_players_mark": 100.0}
    assert beat_tick(entries, last, 110.0) == []
    assert beat_tick(entries, last, 115.0) == ["tournament.late_players_mark"]
    assert last["tournament.late_players_mark"] == 115.0
    assert beat_tick(entries, last, 120.0) == []
