"""``bin/cluster`` brings the whole site up on this machine from the files in deploy/, and down again, and its
short chaos run kills a web node and the worker in the middle of a seating under load and loses nothing
(``benchmarks/cluster_chaos.py --short``). Needs PostgreSQL, Redis and nginx: the services pass only."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from ops.cluster import nginx_binary

pytestmark = [pytest.mark.services("postgres", "redis")]
ROOT = Path(__file__).resolve().parents[2]
STREAM_FIELDS = (
    "streams_missing_hands",
    "missed_by_hand",
    "missed_hands_not_on_bus",
    "streams_missing_and_behind_newest_id",
    "streams_missing_connected",
    "streams_connected_silent_30s",
    "catch_up_seconds",
    "faults",
    "missed_trace",
)


def free_base_port() -> int:
    """A CLUSTER_PORT whose node ports are free too, different in each test process."""
    import socket

    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    start = 8680 + 100 * int(worker.removeprefix("gw") or 0)
    for base in range(start, start + 100, 50):
        try:
            for offset in (0, 21, 22, 31, 32, 41, 42):
                with socket.socket() as probe:
                    probe.bind(("127.0.0.1", base + offset))
        except OSError:
            continue
        return base
    pytest.skip("no free ports for a cluster")


def redis_base() -> str:
    from django.conf import settings

    return settings.CELERY_BROKER_URL.rsplit("/", 1)[0]


@pytest.fixture
def needs_nginx():
    if nginx_binary() is None:
        if os.environ.get("CI") == "true":
            pytest.fail("nginx is not installed (.ci/run installs it)")
        pytest.skip("nginx is not installed")


def test_the_short_chaos_run_loses_nothing(needs_nginx, tmp_path):
    """CI's form of the chaos benchmark: a web node and the seating's worker killed under load; 0 lost, 0
    duplicated, 0 missed by the live streams, the seating written once, a backup made meanwhile restores and
    audits clean."""
    port = free_base_port()
    env = dict(os.environ, CLUSTER_REDIS_URL=redis_base(), CLUSTER_REDIS_DB="2")
    for name in ("DATABASE_URL", "CACHE_URL", "CELERY_BROKER_URL", "CELERY_RESULT_BACKEND", "DJANGO_SETTINGS_MODULE"):
        env.pop(name, None)
    command = [sys.executable, str(ROOT / "benchmarks" / "cluster_chaos.py"), "--short", "--port", str(port)]
    command += ["--tables", "6", "--hands", "6", "--streams", "60", "--readers", "3", "--players", "200"]
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["hands_acknowledged"] == report["hands_in_database"] == 36
    # what a failure says of the streams that missed, in full (a text, which pytest does not shorten in CI)
    streams = json.dumps({key: report.get(key) for key in STREAM_FIELDS})
    assert (report["lost"], report["duplicates"], report["hands_missed"], report["stream_resets"]) == (0, 0, 0, 0), (
        streams
    )
    assert report["streams"] == 60 and report["streams_reconnected"] >= 1  # through nginx, with Last-Event-ID
    assert report["seating_rounds_written"] == 1 and report["seating_players_seated_once"] is True
    assert report["seating"]["state_at_kill"] in ("running", "done")
    assert set(report["faults"]) == {"web", "worker"}
    assert report["restore_check_ok"] is True and "0 violations" in report["restore_check"]
    assert report["load_seconds"] < 90
    # bin/cluster brought every node up from the units in deploy/, each a process group, and down again
    checks = report["cluster_checks"]
    assert sorted(checks["nodes"]) == ["beat", "nginx", "stream1", "stream2", "web1", "web2", "worker1", "worker2"]
    assert all(node["alive"] and node["pid"] > 0 for node in checks["nodes"].values())
    assert checks["nodes"]["web2"] == {
        **checks["nodes"]["web2"],
        "kind": "web",
        "address": f"http://127.0.0.1:{port + 22}",
    }
    assert checks["process_groups"] == 8 and checks["status_printed_same"] is True
    assert checks["livez"] == 200 and checks["healthz"] == {"status": "ok", "database": "postgresql"}
    assert checks["request_id_length"] == 32  # nginx's $request_id, through Django
    assert checks["metrics_through_nginx"] is True and checks["worker_metrics"] is True
    assert report["worker_tasks_counted"] is True
    assert report["down_clean"] is True
