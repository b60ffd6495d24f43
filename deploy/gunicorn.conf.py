"""gunicorn's settings for Taikai's web and stream nodes (deploy/systemd/taikai-web@.service,
taikai-stream@.service; bin/cluster starts them the same way).

Each node's processes write their metrics into the node's PROMETHEUS_MULTIPROC_DIR, emptied when the node
starts (the unit's ExecStartPre); a worker process that exits is marked dead there, so that its open live
streams stop counting."""

import os

graceful_timeout = 10
timeout = 60
# Each request writes one JSON line of its own (LOG_FORMAT=json); nginx keeps the access log.
accesslog = None


def child_exit(server, worker):
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(worker.pid)


def post_worker_init(worker):
    if type(worker).__module__.startswith("uvicorn"):  # a stream node's worker: thousands of open streams
        from live.asgi import collect_for_streams

        collect_for_streams()
