"""Headless Chromium (Debian's package) driven by Playwright against the live test server."""

from __future__ import annotations

import contextlib
import os
import shutil
import threading

import pytest

# The browser people install (Debian's ``chromium``): the offline console's browser restart runs in it.
CHROMIUM_FULL = shutil.which("chromium") or "/usr/bin/chromium"
# Every other test drives the same engine's headless shell (Debian's ``chromium-headless-shell``, built from the
# same source and version): the same Blink and V8 without the browser's windows and services around them, at about
# half the CPU a page (README, "Tests"). Without it the tests take the full browser.
CHROMIUM = shutil.which("chromium-headless-shell") or CHROMIUM_FULL
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


class JavaScriptExceptions:
    """The JavaScript exceptions (``pageerror``: an uncaught error or an unhandled rejection) of every page of
    every browser context a test opens, kept by page address so that the test can say which page threw."""

    def __init__(self) -> None:
        self.seen: list[str] = []

    def watch_context(self, context) -> None:
        for page in context.pages:
            self.watch_page(page)
        context.on("page", self.watch_page)

    def watch_page(self, page) -> None:
        page.on("pageerror", lambda error: self.seen.append(f"{page.url}: {error}"))


class GuardedBrowser:
    """The session's browser: every context (and page) it opens is watched for JavaScript exceptions by the
    test running (``javascript_exceptions_fail_the_test``); everything else is the browser's own."""

    def __init__(self, browser) -> None:
        self._browser = browser
        self.exceptions = JavaScriptExceptions()

    def new_context(self, **options):
        context = self._browser.new_context(**options)
        self.exceptions.watch_context(context)
        return context

    def new_page(self, **options):
        page = self._browser.new_page(**options)
        self.exceptions.watch_page(page)
        return page

    def __getattr__(self, name):
        return getattr(self._browser, name)


BROWSERS: list[GuardedBrowser] = []  # the session's browser, once launched


@pytest.fixture(autouse=True)
def javascript_exceptions_fail_the_test(request):
    """Any JavaScript exception on any page the test opened fails it, listed with its page. A test that
    expects one on purpose says so with ``@pytest.mark.javascript_exceptions_expected``."""
    for browser in BROWSERS:
        browser.exceptions.seen = []
    yield
    seen = [line for browser in BROWSERS for line in browser.exceptions.seen]
    if seen and not request.node.get_closest_marker("javascript_exceptions_expected"):
        pytest.fail("JavaScript exceptions on the pages of this test:\n" + "\n".join(seen), pytrace=False)


def require_browser(executable: str) -> None:
    """Skips the test when the browser is not installed; in CI a missing browser is a failure."""
    if not os.path.exists(executable):
        message = f"{executable} is not installed (apt-get install chromium chromium-headless-shell)"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(message)
        pytest.skip(message)


@pytest.fixture(scope="session")
def chromium_browser():
    require_browser(CHROMIUM)
    # Playwright's sync API runs an event loop in this thread; the test's ORM calls are still synchronous.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = GuardedBrowser(playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS))
        BROWSERS.append(browser)
        yield browser
        BROWSERS.remove(browser)
        browser.close()
    del os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"]


@pytest.fixture
def task_worker(request):
    """Queued work runs in-process on the embedded default, on a real worker when a broker is set."""
    from django.conf import settings

    if not settings.CELERY_TASK_ALWAYS_EAGER:
        return request.getfixturevalue("celery_worker_process")
    return None


@pytest.fixture
def page(chromium_browser, live_server, task_worker):
    context = chromium_browser.new_context(base_url=live_server.url, locale="en-US")
    page = context.new_page()
    page.set_default_timeout(15000)
    yield page
    context.close()


@pytest.fixture(autouse=True)
def live_streams_end_with_the_test(settings):
    """A page's live stream holds a thread of the test server (WSGI) until a heartbeat finds the browser gone:
    heartbeats come often here, and the test ends once its streams have, so that no thread of the server
    outlives the test that opened it (and the database it read)."""
    from live.streams import open_sync_streams
    from tests.e2e.waiting import until

    settings.LIVE_HEARTBEAT_SECONDS = min(settings.LIVE_HEARTBEAT_SECONDS, 0.3)
    yield
    with contextlib.suppress(AssertionError):  # a stream still open is the next test's to wait on, not a failure
        until(lambda: not open_sync_streams(), "the live streams ended", timeout_s=5)
        # the server closes the response after the stream's last part: then its thread ends
        until(lambda: not requests_served(), "the test server's requests ended", timeout_s=1)


def requests_served() -> list[threading.Thread]:
    """The live test server's threads still serving a request (``ThreadedWSGIServer``: one thread each)."""
    return [t for t in threading.enumerate() if t.name.endswith("(process_request_thread)")]


@pytest.fixture
def screen(chromium_browser, live_server):
    """Opens pages in browser contexts of a viewport and a language each; all closed after the test."""
    contexts = []

    def open_screen(viewport, locale):
        context = chromium_browser.new_context(base_url=live_server.url, viewport=viewport, locale=locale)
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(15000)
        return page

    yield open_screen
    for context in contexts:
        context.close()


def sign_in(page, url: str, username: str, password: str, *, submit: str, then: str) -> None:
    """Sign in through a login page as a person would, and wait for ``then`` on the page it leads to."""
    page.goto(url)
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.click(submit)
    page.wait_for_selector(then)


@pytest.fixture
def admin_page(page, admin_user):
    sign_in(page, "/admin/login/", "admin", "password", submit="input[type=submit]", then="#user-tools")
    return page


def tap(page, name: str, value) -> None:
    """Tap the button of a picker (a radio or checkbox drawn as a button): its label, as a finger would."""
    input_id = page.locator(f"input[name='{name}'][value='{value}']").get_attribute("id")
    page.click(f"label[for='{input_id}']")
