"""The load of the chaos benchmark (``cluster_chaos.py``): the hands each table records, the devices that
record them (the console's JSON path or the REST API, each write with a key, sent again until answered), the
readers of the public pages and the live streams that follow the event through nginx, and the tally of their
requests by phase and status."""

from __future__ import annotations

import asyncio
import http.client
import json
import random
import threading
import time
import uuid
from collections import Counter, defaultdict, deque
from http.cookies import SimpleCookie
from urllib.parse import urlencode

SLUG = "chaos-bench"
REFEREE = "chaos-referee"
PASSWORD = "chaos-" + uuid.uuid4().hex


def hands_for(count: int, start: int) -> list[dict]:
    from tournament.engine.dealer import next_dealer_position

    hands, dealer, honba = [], 0, 0
    for n in range(count):
        kind = (start + n) % 3
        winner, tenpai = (dealer + 1 + kind) % 4, (dealer, (dealer + 3) % 4)
        if kind == 0:
            hand = {"outcome": "ron", "winner": winner, "discarder": (winner + 1) % 4, "han": 2, "fu": 30}
        elif kind == 1:
            hand = {"outcome": "tsumo", "winner": winner, "han": 3, "fu": 40}
        else:
            hand = {"outcome": "exhaustive_draw", "tenpai": list(tenpai)}
        hands.append({"dealer": dealer, "honba": honba, **hand})
        deal = next_dealer_position(
            playing=range(4),
            dealer=dealer,
            honba=honba,
            outcome=hand["outcome"],
            winners=(winner,) if kind < 2 else (),
            tenpai=tenpai if kind == 2 else (),
        )
        dealer, honba = deal.position, deal.honba
    return hands


def as_form(hand: dict) -> dict:
    form = {"outcome": hand["outcome"], "dealer_position": hand["dealer"], "honba": hand["honba"]}
    if hand["outcome"] == "ron":
        form |= {"winner_1": hand["winner"], "discarder": hand["discarder"], "han_1": hand["han"], "fu_1": hand["fu"]}
    elif hand["outcome"] == "tsumo":
        form |= {"winner_1": hand["winner"], "han_1": hand["han"], "fu_1": hand["fu"]}
    else:
        form |= {"tenpai_positions": hand["tenpai"]}
    return form


def as_api(hand: dict) -> dict:
    body = {"outcome": hand["outcome"], "dealer_position": hand["dealer"], "honba": hand["honba"]}
    if hand["outcome"] == "ron":
        body["wins"] = [
            {"winner": hand["winner"], "discarder": hand["discarder"], "han": hand["han"], "fu": hand["fu"]}
        ]
    elif hand["outcome"] == "tsumo":
        body["wins"] = [{"winner": hand["winner"], "han": hand["han"], "fu": hand["fu"]}]
    else:
        body["tenpai_positions"] = hand["tenpai"]
    return body


# --- the load -------------------------------------------------------------------------------------------------


class Tally:
    """Requests by phase and status, and when each client last failed."""

    def __init__(self) -> None:
        self.phase = "warm-up"
        self.by_phase: dict[str, Counter] = defaultdict(Counter)
        self.last_failure = 0.0
        self.lock = threading.Lock()

    def count(self, status: int | str) -> None:
        with self.lock:
            self.by_phase[self.phase][str(status)] += 1
            if not (isinstance(status, int) and status < 500 and status != 0):
                self.last_failure = time.monotonic()


class Writer:
    """One table's device: records its hands in order, each with a key, sent again until answered."""

    def __init__(self, port: int, table: int, hands: list[dict], *, console: bool, secret: str, tally: Tally):
        self.port, self.table, self.hands, self.console = port, table, hands, console
        self.secret, self.tally = secret, tally
        self.cookies: dict[str, str] = {}
        self.connection = None
        self.recorded = 0
        self.refused: list[str] = []
        self.stop = threading.Event()

    def _connection(self):
        if self.connection is None:
            self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        return self.connection

    def request(self, method: str, path: str, body: bytes | None = None, headers: dict | None = None):
        headers = dict(headers or {})
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        try:
            connection = self._connection()
            connection.request(method, path, body=body, headers=headers)
            response = connection.getresponse()
            content = response.read()
        except (OSError, http.client.HTTPException):
            if self.connection is not None:
                self.connection.close()
            self.connection = None
            self.tally.count(0)
            return None, b""
        self.tally.count(response.status)
        for header in response.headers.get_all("Set-Cookie") or []:
            for name, morsel in SimpleCookie(header).items():
                self.cookies[name] = morsel.value
        return response, content

    def sign_in(self) -> None:
        for _ in range(30):
            self.request("GET", "/accounts/login/")
            if "csrftoken" in self.cookies:
                body = urlencode(
                    {"username": REFEREE, "password": PASSWORD, "csrfmiddlewaretoken": self.cookies["csrftoken"]}
                )
                response, _ = self.request(
                    "POST", "/accounts/login/", body.encode(), {"Content-Type": "application/x-www-form-urlencoded"}
                )
                if response is not None and response.status == 302 and "sessionid" in self.cookies:
                    return
            time.sleep(0.5)
        raise RuntimeError("the referee could not sign in")

    def send(self, number: int, hand: dict, key: str) -> str:
        """ "recorded", "refused: …" or "retry"."""
        if self.console:
            form = {"action": "hand", "hand": number, "expected_version": 0, **as_form(hand)}
            form["csrfmiddlewaretoken"] = self.cookies.get("csrftoken", "")
            headers = {
                "Content-Type": "application/x-www-form-urlencoded",
                "X-CSRFToken": self.cookies.get("csrftoken", ""),
                "Idempotency-Key": key,
                "Accept": "application/json",
            }
            response, content = self.request(
                "POST", f"/console/tables/{self.table}/", urlencode(form, doseq=True).encode(), headers
            )
        else:
            headers = {
                "Content-Type": "application/json",
                "Authorization": f"Bearer {self.secret}",
                "Idempotency-Key": key,
            }
            body = json.dumps({"number": number, **as_api(hand)}).encode()
            response, content = self.request("POST", f"/api/v1/tables/{self.table}/hands", body, headers)
        if response is None or response.status >= 500 or response.status == 429:
            return "retry"
        if response.status in (200, 201):
            if self.console:
                try:
                    if not json.loads(content).get("ok"):
                        return f"refused: {content[:200]!r}"
                except ValueError:
                    return "retry"
            return "recorded"
        return f"refused: {response.status} {content[:200]!r}"

    def run(self, every: float) -> None:
        if self.console:
            self.sign_in()
        for number, hand in enumerate(self.hands, start=1):
            key = str(uuid.uuid4())
            while True:
                answer = self.send(number, hand, key)
                if answer != "retry":
                    break
                time.sleep(0.2)
            if answer == "recorded":
                self.recorded += 1
            else:
                self.refused.append(answer)
            time.sleep(every * random.uniform(0.5, 1.5))


class Reader:
    def __init__(self, port: int, tally: Tally, stop: threading.Event):
        self.port, self.tally, self.stop = port, tally, stop

    def run(self) -> None:
        paths = [f"/events/{SLUG}/", f"/events/{SLUG}/standings/", f"/api/v1/events/{SLUG}/standings", "/"]
        connection = None
        while not self.stop.is_set():
            for path in paths:
                if connection is None:
                    connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
                try:
                    connection.request("GET", path)
                    response = connection.getresponse()
                    response.read()
                    self.tally.count(response.status)
                except (OSError, http.client.HTTPException):
                    connection.close()
                    connection = None
                    self.tally.count(0)
                time.sleep(0.2)


STREAM_ERRORS = (OSError, TimeoutError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ValueError, KeyError)


class Stream:
    """One phone on the event's live page: what it saw, how often it reconnected."""

    def __init__(self) -> None:
        self.seen: set[tuple[int, int]] = set()
        self.last_id = ""
        self.reconnects = 0
        self.resets = 0
        self.opened = False
        self.connected = False
        self.refusals: Counter = Counter()
        self.heard_at = time.monotonic()  # the last bytes from the server (a message or a heartbeat)
        # what the stream did, the newest last: ("open", Last-Event-ID sent), ("id", id, event), ("end", why)
        self.trace: deque = deque(maxlen=300)


async def follow(port: int, stream: Stream, stop: asyncio.Event, opening: asyncio.Semaphore) -> None:
    first = True
    while not stop.is_set():
        writer = None
        try:
            async with opening:
                reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), 10)
                extra = f"Last-Event-ID: {stream.last_id}\r\n" if stream.last_id else ""
                request = f"GET /events/{SLUG}/live HTTP/1.0\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n"
                writer.write(f"{request}{extra}\r\n".encode())
                await writer.drain()
                head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
            status = head.split(b" ", 2)[1].decode()
            stream.trace.append((round(time.monotonic(), 2), "open", stream.last_id, status))
            if status != "200":
                stream.refusals[status] += 1
                await asyncio.sleep(1)
                continue
            if not first:
                stream.reconnects += 1
            first, stream.opened, stream.connected = False, True, True
            block: list[bytes] = []
            while not stop.is_set():
                line = await reader.readline()
                if not line:
                    stream.trace.append((round(time.monotonic(), 2), "eof"))
                    break
                stream.heard_at = time.monotonic()
                line = line.rstrip(b"\r\n")
                if line:
                    block.append(line)
                    continue
                fields = dict(part.split(b": ", 1) for part in block if b": " in part and not part.startswith(b":"))
                block = []
                kind = fields.get(b"event")
                if b"id" in fields:
                    stream.last_id = fields[b"id"].decode()
                    stream.trace.append((round(time.monotonic(), 2), "id", stream.last_id, (kind or b"").decode()))
                if kind == b"hand":
                    data = json.loads(fields[b"data"])
                    stream.seen.add((data["table_number"], data["number"]))
                    stream.trace[-1] += (f"{data['table_number']}-{data['number']}",)
                elif kind == b"reset":
                    stream.resets += 1
        except STREAM_ERRORS as exc:
            stream.trace.append((round(time.monotonic(), 2), "end", type(exc).__name__, str(exc)[:80]))
            await asyncio.sleep(0.5)
        finally:
            stream.connected = False
            if writer is not None:
                writer.close()


def streams_run(port: int, streams: list[Stream], stop_flag: threading.Event) -> None:
    async def main() -> None:
        stop = asyncio.Event()
        opening = asyncio.Semaphore(100)
        tasks = [asyncio.create_task(follow(port, one, stop, opening)) for one in streams]
        while not stop_flag.is_set():
            await asyncio.sleep(0.2)
        stop.set()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    asyncio.run(main())


# --- the run --------------------------------------------------------------------------------------------------
