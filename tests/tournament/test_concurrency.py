"""Two referees saving the same hand at the same moment, in two real PostgreSQL transactions."""

import threading

import pytest
from django.db import connection

from taikai.errors import VersionConflict
from tournament.models import HandVersion, Table
from tournament.services.hands import hand_record

RON = {"outcome": "ron", "dealer_position": 0, "wins": [{"winner": 1, "discarder": 2, "han": 2, "fu": 40}]}
TSUMO = {"outcome": "tsumo", "dealer_position": 0, "wins": [{"winner": 3, "han": 1, "fu": 30}]}


def run_concurrently(*calls):
    barrier = threading.Barrier(len(calls))
    outcomes = [None] * len(calls)

    def worker(index, call):
        try:
            barrier.wait(timeout=10)
            outcomes[index] = call()
        except Exception as exc:  # the test inspects which one failed and how
            outcomes[index] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=worker, args=(i, c)) for i, c in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    return outcomes


@pytest.mark.services("postgres")
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("expected_version", [0, 1])
def test_two_referees_save_the_same_hand_one_wins_the_other_gets_a_conflict(make_event, seated_round, expected_version):
    # given a table (and, for a correction, a first version of hand 1)
    event = make_event(4)
    seated_round(event)
    table = Table.objects.get(round__event=event)
    if expected_version:
        hand_record(table=table, number=1, expected_version=0, data=RON)
    # when two referees save hand 1 at once, both having seen the same version
    outcomes = run_concurrently(
        lambda: hand_record(table=table, number=1, expected_version=expected_version, data=RON),
        lambda: hand_record(table=table, number=1, expected_version=expected_version, data=TSUMO),
    )
    # then exactly one is saved, and the other is told which version is now current
    saved = [o for o in outcomes if isinstance(o, HandVersion)]
    conflicts = [o for o in outcomes if isinstance(o, VersionConflict)]
    assert len(saved) == 1 and len(conflicts) == 1, outcomes
    assert conflicts[0].current_version == expected_version + 1
    assert f"current version is {expected_version + 1}" in conflicts[0].message
    versions = list(HandVersion.objects.filter(hand__table=table).order_by("version"))
    assert [v.version for v in versions] == list(range(1, expected_version + 2))
    assert versions[-1].outcome == saved[0].outcome
