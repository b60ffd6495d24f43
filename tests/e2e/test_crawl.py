"""The site walked as people walk it, in Japanese and in English, online: a visitor from the home page and the
event's page, a referee through the console (My tables, a sheet in play and a finished one, their penalty
pages, the clock, the board), an organizer through the admin. Every page is followed by its links, a few
dozen a walk; it counts the JavaScript exceptions, the errors the pages write to the console and the answers
5xx, and wants none."""

from __future__ import annotations

import re
import time
from collections import deque
from dataclasses import dataclass, field
from urllib.parse import urljoin, urlsplit

import pytest

from tests.e2e.conftest import sign_in
from tests.e2e.day import PASSWORD, USERNAME, day_built

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

LOCALES = ["ja-JP", "en-US"]
# Not pages to walk: files to download, streams, the service worker, the language switch, sign-out, deletions.
NOT_A_PAGE = re.compile(
    r"\.(csv|json|ema|xlsx|ics|svg|png|js|webmanifest)$|/export|/download|/live$|/sw\.js$|/jsi18n/|/static/"
    r"|/i18n/|/logout/|/delete/|/api/|/healthz|/print"
)


@dataclass
class Walk:
    """What one walk saw: the pages opened and every problem, each with its page."""

    opened: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)  # pages answered 4xx: listed, not counted


def console_error(page, walk: Walk, message) -> None:
    """An error the page wrote to the console; a page answered 4xx (a link to a page this person may not
    open) is listed apart, as its answer, not as an error of its scripts."""
    if message.type != "error":
        return
    if message.text.startswith("Failed to load resource") and message.location.get("url") == page.url:
        walk.refused.append(f"{page.url}: {message.text}")
        return
    walk.problems.append(f"console error on {page.url}: {message.text}")


class Watch:
    """The problems of a page, each put down to the walk it is on now (one page serves a person's walks)."""

    def __init__(self, page, walk: Walk) -> None:
        self.walk = walk
        page.on("pageerror", lambda error: self.walk.problems.append(f"exception on {page.url}: {error}"))
        page.on("console", lambda message: console_error(page, self.walk, message))
        page.on(
            "response",
            lambda response: (
                response.status >= 500
                and self.walk.problems.append(f"HTTP {response.status} for {response.url} (on {page.url})")
            ),
        )


def walk_from(page, walk: Walk, starts: list[str], *, inside: str, pages: int, on_page=None) -> None:
    """Open ``starts``, then the links they show (breadth first), within the paths starting ``inside``, each
    path once, at most ``pages`` pages; ``on_page(page)`` is called on each HTML page opened (the accessibility
    tour checks it there)."""
    queue, seen = deque(starts), {urlsplit(start).path for start in starts}
    while queue and len(walk.opened) < pages:
        url = queue.popleft()
        response = page.goto(url, wait_until="load")
        walk.opened.append(url)
        if response is None or "text/html" not in (response.headers.get("content-type") or ""):
            continue
        if on_page is not None:
            on_page(page)
        for href in page.eval_on_selector_all("a[href]", "(links) => links.map((a) => a.getAttribute('href'))"):
            target = urlsplit(urljoin(page.url, href))
            if target.netloc != urlsplit(page.url).netloc or not target.path.startswith(inside):
                continue
            if NOT_A_PAGE.search(target.path) or target.path in seen:
                continue
            seen.add(target.path)
            queue.append(target.path + (f"?{target.query}" if target.query else ""))


def test_the_walk_through_the_site_finds_no_javascript_error_and_no_server_error(
    chromium_browser, live_server, make_event
):
    day = day_built(make_event)
    for locale in LOCALES:
        walk_the_site(chromium_browser, live_server, day, locale)


def walk_the_site(chromium_browser, live_server, day, locale: str) -> None:
    started = time.monotonic()
    slug = day.event.slug
    walks = {"visitor": Walk(), "referee": Walk(), "organizer": Walk()}

    # one browser context and page: the visitor's walk on a phone, then the same browser, signed in on a desktop,
    # the referee's walk through the console and the organizer's through the admin
    context = chromium_browser.new_context(
        base_url=live_server.url, viewport={"width": 390, "height": 844}, locale=locale
    )
    try:
        page = context.new_page()
        page.set_default_timeout(15000)
        watching = Watch(page, walks["visitor"])
        walk_from(page, walks["visitor"], ["/", f"/events/{slug}/"], inside="/", pages=14)

        page.set_viewport_size({"width": 1280, "height": 800})
        watching.walk = walks["referee"]
        sign_in(
            page,
            "/accounts/login/?next=/console/",
            USERNAME,
            PASSWORD,
            submit="#login-form button[type=submit]",
            then="#my-tables",
        )
        walk_from(page, walks["referee"], ["/console/", f"/console/board/?event={slug}"], inside="/console/", pages=14)

        watching.walk = walks["organizer"]  # the same person, in the admin
        walk_from(page, walks["organizer"], ["/admin/"], inside="/admin/", pages=14)
    finally:
        context.close()

    seconds = time.monotonic() - started
    opened = sum(len(walk.opened) for walk in walks.values())
    counts = ", ".join(f"{who} {len(walk.opened)}" for who, walk in walks.items())
    refused = [line for walk in walks.values() for line in walk.refused]
    print(f"\n[{locale}] {opened} pages in {seconds:.1f} s: {counts}; answered 4xx: {refused or 'none'}")
    referee_paths = {urlsplit(url).path for url in walks["referee"].opened}
    for table in (
        day.finished,
        day.playing,
    ):  # the finished sheet and the sheet in play, with their penalty pages
        assert {f"/console/tables/{table.pk}/", f"/console/tables/{table.pk}/penalty/"} <= referee_paths, referee_paths
    assert f"/events/{slug}/" in {urlsplit(url).path for url in walks["visitor"].opened}
    assert len(walks["organizer"].opened) >= 10
    problems = [problem for walk in walks.values() for problem in walk.problems]
    assert not problems, f"[{locale}]\n" + "\n".join(problems)
