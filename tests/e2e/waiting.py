"""Waiting on conditions, never for a fixed time.

What a page shows is waited for by Playwright (``expect(locator)``, ``page.wait_for_selector``,
``page.wait_for_function``, ``page.expect_response``). What only the server knows (a row written by a worker, a
message sent after a commit, a server of the test's own answering) is waited for by ``until``: the condition is
asked again and again until it holds, and the test fails, saying what it waited for, when it does not in time."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

# How often ``until`` asks again: often enough that a test waits no longer than it must.
ASKED_EVERY_S = 0.05


def until(condition: Callable[[], T], what: str, timeout_s: float = 15.0, every_s: float = ASKED_EVERY_S) -> T:
    """``condition()``'s first truthy answer, asked until ``timeout_s`` have passed (then an AssertionError
    naming ``what``)."""
    deadline = time.monotonic() + timeout_s
    while True:
        answer = condition()
        if answer:
            return answer
        if time.monotonic() > deadline:
            raise AssertionError(f"not in {timeout_s:g} s: {what}")
        time.sleep(every_s)


def until_handled(page, condition: Callable[[], T], what: str, timeout_s: float = 15.0) -> T:
    """``condition()``'s first truthy answer, for a condition that a Playwright handler of the test makes true (a
    route's, a dialog's): the handlers run only while Playwright is waited on, so between two asks the test waits
    for the page's next frame, not for a time."""
    deadline = time.monotonic() + timeout_s
    while True:
        answer = condition()
        if answer:
            return answer
        if time.monotonic() > deadline:
            raise AssertionError(f"not in {timeout_s:g} s: {what}")
        page.evaluate(NEXT_FRAME)


NEXT_FRAME = "() => new Promise((resolve) => requestAnimationFrame(() => resolve()))"

# The console's service worker keeps its pages in this cache. The check runs in the page: the predicate starts a
# lookup and answers what the previous lookup found (``wait_for_function`` does not wait for a promise).
KEPT_ON_DEVICE = """(path) => {
  const found = (window.keptOnDevice ||= {});
  caches.open('taikai-console-pages')
    .then((c) => c.match(location.origin + path))
    .then((r) => { found[path] = Boolean(r); });
  return found[path] === true;
}"""


def kept_on_device(page, path: str, timeout_ms: float = 10000) -> None:
    """Wait until the console's service worker has the page ``path`` on the device."""
    page.wait_for_function(KEPT_ON_DEVICE, arg=path, polling=100, timeout=timeout_ms)
