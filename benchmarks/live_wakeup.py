"""The Python work a live message costs per open stream, in one process: the CPU time to wake every stream of a
channel and hand each its bytes, divided by the number of streams.

Starts a Redis of its own on a free port (never the machine's), opens ``--streams`` public streams of one
event's channel in this process, each driven as uvicorn drives it (``live.asgi._pump``, with a ``send`` that
only counts what it is given). It first counts the keep-alive comments sent over five short heartbeats
(``--heartbeat``) and the process's CPU time meanwhile, then, with no more comments, publishes ``--messages``
messages one at a time and measures, for each, the process's CPU time from the publication until every
stream was handed it. CPU time, not the clock: a machine busy with other work slows the clock, not the work
done here.

    python benchmarks/live_wakeup.py --streams 5000 --messages 20

What it leaves out, as it is the same whatever the streams do: uvicorn's own writing to each socket (the
production figure per stream is this plus uvicorn's send and the system call).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from benchmarks.outage import start_redis  # noqa: E402
from benchmarks.public_pages import free_port  # noqa: E402

MAX_STREAMS = 20_000


class Counted:
    """What the streams were handed: bodies in all, and a wake-up once ``target`` of them came."""

    def __init__(self) -> None:
        self.bodies = 0
        self.target = 0
        self.reached = asyncio.Event()

    def expect(self, more: int) -> None:
        self.target = self.bodies + more
        self.reached = asyncio.Event()

    async def send(self, message: dict) -> None:
        if message.get("more_body"):
            self.bodies += 1
            if self.bodies == self.target:
                self.reached.set()


async def measure(args) -> None:
    from django.conf import settings

    from live import asgi as live_asgi
    from live.bus import the_bus
    from live.publish import event_channel
    from live.streams import Listening

    bus = the_bus()
    channel = event_channel(1)
    start = bus.last_id(channel)
    listening = Listening(channel, staff=False)
    counted = Counted()
    leave = asyncio.get_running_loop().create_future()

    async def receive() -> dict:
        await leave
        return {"type": "http.disconnect"}

    scope = {"type": "http", "method": "GET"}
    counted.expect(args.streams)
    began = time.monotonic()
    streams = [
        asyncio.ensure_future(live_asgi._pump(counted.send, receive, scope, listening, start))
        for _ in range(args.streams)
    ]
    await asyncio.wait_for(counted.reached.wait(), 120)
    print(f"{args.streams} streams open in {time.monotonic() - began:.1f} s")
    await asyncio.sleep(args.heartbeat * 2)  # every stream waiting on the bus
    gc.collect()

    # The keep-alive comment, every ``--heartbeat`` seconds for the while: the comments counted over a few.
    bodies, cpu = counted.bodies, time.process_time()
    await asyncio.sleep(args.heartbeat * 5 + 0.01)
    comments = counted.bodies - bodies
    per_comment = (time.process_time() - cpu) / max(comments, 1) * 1e6
    settings.LIVE_HEARTBEAT_SECONDS = 3600  # then no comment while the messages are timed
    await asyncio.sleep(args.heartbeat * 2)
    gc.collect()

    per_message, walls = [], []
    for number in range(1, args.messages + 1):
        counted.expect(args.streams)
        cpu, wall = time.process_time(), time.perf_counter()
        bus.publish(channel, "hand", {"table_number": 1, "number": number, "version": 1, "label": "East 1"})
        await asyncio.wait_for(counted.reached.wait(), 60)
        per_message.append((time.process_time() - cpu) / args.streams * 1e6)
        walls.append(time.perf_counter() - wall)
        await asyncio.sleep(0.1)

    print(
        f"a message to {args.streams} streams: CPU {statistics.median(per_message):.1f} µs a stream (median of "
        f"{args.messages}; min {min(per_message):.1f}, max {max(per_message):.1f}, mean with the garbage "
        f"collector's pauses {statistics.mean(per_message):.1f}); all handed it in "
        f"{statistics.median(walls) * 1000:.0f} ms (median wall clock)"
    )
    print(f"the keep-alive comment: {comments} sent in {args.heartbeat * 5:.1f} s, CPU {per_comment:.1f} µs each")
    leave.set_result(None)
    await asyncio.gather(*streams, return_exceptions=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--streams", type=int, default=5000, help="streams to open (default 5000)")
    parser.add_argument("--messages", type=int, default=20, help="messages to time (default 20)")
    parser.add_argument("--heartbeat", type=float, default=1.0, help="the short heartbeat, seconds (default 1)")
    args = parser.parse_args()
    if not 1 <= args.streams <= MAX_STREAMS:
        sys.exit(f"--streams must be between 1 and {MAX_STREAMS}")
    port = free_port()
    with tempfile.TemporaryDirectory(prefix="live_wakeup-") as directory:
        redis = start_redis(port, directory)
        try:
            os.environ["LIVE_BUS_URL"] = f"redis://127.0.0.1:{port}/0"
            os.environ["LIVE_STREAM_SECONDS"] = "3600"
            os.environ["LIVE_HEARTBEAT_SECONDS"] = str(args.heartbeat)
            os.environ["LIVE_BUS_CONNECTIONS"] = "4"
            import uvloop  # the loop the stream workers run

            import config.asgi  # noqa: F401  (the stream workers' process as it starts)
            from live.asgi import collect_for_streams

            collect_for_streams()  # as deploy/gunicorn.conf.py sets a stream worker's collector

            uvloop.run(measure(args))
        finally:
            redis.terminate()
            redis.wait(timeout=10)


if __name__ == "__main__":
    main()
