"""The accessibility tour: axe-core (bundled by ``axe-playwright-python``, injected into the page: no CDN) run on
every kind of page people use, as a visitor, a player, a scorekeeper, a referee and an organizer (the admin pages
too), in the pages' second states (the console's banner offline, sign-up open and closed, the clock running and
stopped, the venue screen's seating and standings), on a 390 px phone in Japanese and in English and on a 1,280 px
desktop in English. A serious or critical finding fails the tour; the moderate and minor ones are printed, each
with its pages (docs/accessibility.md lists them with what was done about each).

The desktop's pages are those of the English phone's tour, in the same states: each is checked again as it stands,
the window widened to the desktop's (the pages' layout is their styles' media queries and the venue screen's
fitting, which follows the window's size), then narrowed back, so that one walk serves both sizes.

The pages are found as the crawl finds them (``tests/e2e/test_crawl.py``'s ``walk_from``), one browser and one
live server for the whole tour."""

from __future__ import annotations

import time
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import timedelta
from urllib.parse import urlsplit

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.contrib.auth.models import Group, User
from django.utils import timezone

from registration.models import Registration
from tests.e2e.conftest import sign_in
from tests.e2e.day import PASSWORD, USERNAME, day_built
from tests.e2e.test_crawl import Walk, walk_from
from tournament.services.roles import REFEREES_GROUP, role_grant

pytestmark = [pytest.mark.e2e, pytest.mark.once, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
# Every page at phone size in both languages (the admin's pages, Django's own and the same in both, all of them in
# Japanese, the first four in English); at desktop size, in English (within the English phone's tour), the pages
# whose layout changes with the width (the tables of the public pages, the sheet, the board, the venue screen, the
# admin's lists and forms).
SCREENS = [
    ("phone", PHONE, "ja-JP", None, False),
    ("phone", PHONE, "en-US", 4, True),
]
BLOCKING = {"serious", "critical"}
REFEREE_ONLY = ("kato", "referee-pw")
# axe-core's script (570 kB) is given to each browser context once, to run in every page it opens: sent into each
# page again before each check, it cost the tour more than a third of a check's time.
AXE_SCRIPT = Axe().axe_script
AXE_RUN = "() => axe.run({resultTypes: ['violations']})"  # what axe-playwright-python's Axe.run asks
# Animations (the venue screen's page turn) end before axe reads the colours.
ANIMATIONS_ENDED = "() => Promise.all(document.getAnimations().map((animation) => animation.finished))"
# The window resized: two frames later its resize handlers have run and the page is laid out at the new size.
FRAMES = "() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))"


@dataclass
class Findings:
    """What axe found across the tour: the pages checked, each blocking finding in words, and the others by
    rule (its impact, its help text and the pages it was seen on)."""

    checked: list[str] = field(default_factory=list)
    blocking: list[str] = field(default_factory=list)
    others: dict[str, dict] = field(default_factory=lambda: defaultdict(lambda: {"pages": set()}))

    def check(self, page, label: str) -> None:
        """Run axe on the page as it stands now."""
        where = f"{label} {urlsplit(page.url).path}"
        self.checked.append(where)
        page.evaluate(ANIMATIONS_ENDED)
        for violation in page.evaluate(AXE_RUN)["violations"]:
            if violation["impact"] in BLOCKING:
                nodes = "; ".join(node["html"][:160] for node in violation["nodes"][:3])
                self.blocking.append(
                    f"{where}: {violation['id']} ({violation['impact']}): {violation['help']}: {nodes}"
                )
            else:
                other = self.others[violation["id"]]
                other.update(impact=violation["impact"], help=violation["help"])
                other["pages"].add(urlsplit(page.url).path)


@pytest.mark.parametrize(
    ("size", "viewport", "locale", "admin", "desktop"),
    SCREENS,
    ids=["phone-ja", "phone-and-desktop-en"],
)
def test_no_page_has_a_serious_or_critical_accessibility_finding(
    chromium_browser, live_server, make_event, size, viewport, locale, admin, desktop
):
    """One language a test, so that the parallel processes share the tour."""
    day = day_built(make_event)
    referee = User.objects.create_user(REFEREE_ONLY[0], password=REFEREE_ONLY[1], is_staff=True)
    referee.groups.add(Group.objects.get(name=REFEREES_GROUP))
    role_grant(event=day.event, user=referee, kind="referee")
    findings = Findings()
    started = time.monotonic()
    browsing = Browsing(chromium_browser, live_server, viewport, locale, findings, f"[{size} {locale}]")
    if desktop:
        browsing.wide = desktop_pages(day, admin)
    try:
        tour(browsing, day, admin=admin)
    finally:
        browsing.close()
    # every page of the desktop's tour was checked at its size too
    wide = {(who, path) for who, paths in browsing.wide.items() for path in paths}
    assert sorted(wide - set(browsing.widened)) == [], browsing.widened
    seconds = time.monotonic() - started
    print(f"\n{len(findings.checked)} pages checked by axe in {seconds:.1f} s; not serious (listed, not failed):")
    for rule, other in sorted(findings.others.items()):
        print(f"  {other['impact']}: {rule} ({other['help']}) on {len(other['pages'])} pages: {sorted(other['pages'])}")
    assert not findings.blocking, "\n".join(findings.blocking)


class Browsing:
    """The tour at one screen size and language: a browser context per person, each page checked by axe; the
    pages of ``wide`` (paths, with their query) checked again at desktop size."""

    def __init__(self, browser, live_server, viewport, locale: str, findings: Findings, label: str) -> None:
        self.browser, self.live_server, self.viewport, self.locale = browser, live_server, viewport, locale
        self.findings, self.label = findings, label
        self.contexts = []
        self.wide: dict[str, list[str]] = {}
        self.widened: list[tuple[str, str]] = []  # the pages of ``wide`` checked at desktop size

    def person(self):
        context = self.browser.new_context(base_url=self.live_server.url, viewport=self.viewport, locale=self.locale)
        context.add_init_script(AXE_SCRIPT)  # axe in every page of the context, before the page's own scripts
        self.contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(15000)
        return page

    def checker(self, who: str):
        return lambda page: self.check(page, who)

    def check(self, page, who: str) -> None:
        """Check the page as it stands; a page of ``wide`` (by person) again at desktop size, the same page
        widened, then narrowed back."""
        self.findings.check(page, f"{self.label} {who}")
        url = urlsplit(page.url)
        path = url.path + (f"?{url.query}" if url.query else "")
        if path not in self.wide.get(who, ()) or (who, path) in self.widened:
            return
        self.widened.append((who, path))
        page.set_viewport_size(DESKTOP)
        page.evaluate(FRAMES)
        assert page.evaluate("innerWidth") == DESKTOP["width"]
        self.findings.check(page, f"[desktop {self.locale}] {who}")
        page.set_viewport_size(self.viewport)
        page.evaluate(FRAMES)

    def visit(self, page, who: str, urls) -> None:
        for url in urls:
            page.goto(url)
            self.check(page, who)

    def close(self) -> None:
        for context in self.contexts:
            context.close()


def tour(browsing: Browsing, day, *, admin: int | None) -> None:
    slug, event, playing = day.event.slug, day.event, day.playing
    # a visitor: the public pages (found as the crawl finds them), sign-up closed then open, the venue screen's two
    # views, the statement
    page = browsing.person()
    starts = ["/", f"/events/{slug}/", f"/events/{slug}/register/", "/accessibility/", "/accounts/login/"]
    walk_from(page, Walk(), starts, inside="/", pages=10, on_page=browsing.checker("visitor"))
    sign_up_open(event, True)
    browsing.visit(page, "visitor, sign-up open", [f"/events/{slug}/register/"])
    sign_up_open(event, False)
    browsing.visit(page, "visitor", [f"/events/{slug}/venue/?view=seating", f"/events/{slug}/venue/?view=standings"])

    # a player through their personal link: their own page
    page = browsing.person()
    browsing.visit(page, "player", [f"/me/{playing.seats.order_by('position').first().entry.link_token}/"])

    # a scorekeeper with the table card: the PIN page, then the sheet
    page = browsing.person()
    browsing.visit(page, "scorekeeper", [f"/k/{day.card_token}/"])
    page.fill("#id_pin", day.card_pin)
    page.click("#pin-form button[type=submit]")
    page.wait_for_selector("#hand-sheet")
    browsing.check(page, "scorekeeper")

    # a referee (not an organizer): the console as the crawl walks it, the sheet offline, the clock both ways
    page = browsing.person()
    sign_in(page, "/accounts/login/?next=/console/", *REFEREE_ONLY, submit=SUBMIT, then="#my-tables")
    walk_from(page, Walk(), ["/console/"], inside="/console/", pages=7, on_page=browsing.checker("referee"))
    sheet_offline_checked(page, playing.pk, browsing.checker("referee, offline"))
    clock_checked(
        page, playing.pk, browsing.checker("referee, clock stopped"), browsing.checker("referee, clock running")
    )

    # the organizer: the directors' board, the check-in desk, the admin pages of the day
    page = browsing.person()
    sign_in(page, "/accounts/login/?next=/console/", USERNAME, PASSWORD, submit=SUBMIT, then="#my-tables")
    browsing.visit(page, "organizer", [f"/console/board/?event={slug}", f"/console/events/{slug}/check-in/"])
    browsing.visit(page, "organizer", admin_pages(day)[:admin])


SUBMIT = "#login-form button[type=submit]"


def desktop_pages(day, admin: int | None) -> dict[str, list[str]]:
    """The pages checked at desktop size too, by person, as ``Browsing.check`` finds them: the public pages with
    tables, the player's own page (where their personal link leads), the sheet, the clock running, the board, the
    check-in desk and the admin's first pages."""
    slug, playing = day.event.slug, day.playing
    entry = playing.seats.order_by("position").first().entry
    return {
        "visitor": [
            "/",
            f"/events/{slug}/",
            f"/events/{slug}/standings/",
            f"/events/{slug}/venue/?view=seating",
            f"/events/{slug}/venue/?view=standings",
        ],
        "player": [f"/events/{slug}/players/{entry.pk}/"],
        "referee": [f"/console/tables/{playing.pk}/"],
        "referee, clock running": [f"/console/tables/{playing.pk}/clock/"],
        # the board as its address ends (``?event=`` leads there)
        "organizer": [f"/console/board/{slug}/", f"/console/events/{slug}/check-in/", *admin_pages(day)[:admin]],
    }


def admin_pages(day) -> list[str]:
    """The admin pages an organizer uses on the day (those of ``test_japanese_tour.py``'s second tour)."""
    event = day.event
    round_ = day.playing.round
    registration = Registration.objects.get(event=event)
    return [
        f"/admin/tournament/event/{event.pk}/change/",
        f"/admin/tournament/round/{round_.pk}/change/",
        f"/admin/tournament/entry/?event__id__exact={event.pk}",
        "/admin/players/player/",
        "/admin/",
        f"/admin/tournament/round/?event__id__exact={event.pk}",
        f"/admin/registration/registration/{registration.pk}/change/",
        "/admin/registration/signup/",
        f"/admin/tournament/event/{event.pk}/api-tokens/",
        "/admin/tournament/handversion/",
        "/admin/players/player/add/",
        "/admin/tournament/penalty/",
    ]


def sign_up_open(event, is_open: bool) -> None:
    now = timezone.now()
    closes_at = now + timedelta(days=1) if is_open else now - timedelta(minutes=1)
    Registration.objects.filter(event=event).update(closes_at=closes_at)


def sheet_offline_checked(page, table_id: int, check) -> None:
    """The sheet with its banner offline (the network gone), then online again."""
    page.goto(f"/console/tables/{table_id}/")
    page.wait_for_selector("#outbox[data-state='online'][data-waiting='0']")
    page.context.set_offline(True)
    try:
        page.wait_for_selector("#outbox[data-state='offline']")
        check(page)
    finally:
        page.context.set_offline(False)
    page.wait_for_selector("#outbox[data-state='online'][data-waiting='0']", timeout=30000)


def clock_checked(page, table_id: int, stopped, running) -> None:
    """The clock stopped (not started or paused), then running, then paused again."""
    page.goto(f"/console/tables/{table_id}/clock/")
    page.wait_for_selector("#settings:not(:empty)")
    stopped(page)
    button = "#start" if page.is_visible("#start") and "on-turn" not in page.inner_html("#zones") else "#resume"
    page.click(button)
    page.wait_for_selector(".zone.on-turn")
    running(page)
    with page.expect_response(lambda response: response.url.endswith("/pause")):
        page.click("#pause")


# The languages besides Japanese and English: what a language changes for axe (the page's ``lang``, the names of
# controls and regions, words that may overflow their box) is seen on the pages each person meets first.
MORE_LANGUAGES = ["zh-CN", "ko-KR", "de-DE", "fr-FR"]


def test_the_pages_people_meet_first_have_no_serious_finding_in_the_other_languages(
    chromium_browser, live_server, make_event
):
    day = day_built(make_event)
    slug, playing = day.event.slug, day.playing
    entry = playing.seats.order_by("position").first().entry
    findings = Findings()
    for locale in MORE_LANGUAGES:
        browsing = Browsing(chromium_browser, live_server, PHONE, locale, findings, f"[phone {locale}]")
        try:
            page = browsing.person()
            browsing.visit(
                page, "visitor", ["/", f"/events/{slug}/", f"/events/{slug}/standings/", f"/me/{entry.link_token}/"]
            )
            sign_in(
                page,
                "/accounts/login/?next=/console/",
                USERNAME,
                PASSWORD,
                submit="#login-form button[type=submit]",
                then="#my-tables",
            )
            browsing.visit(page, "referee", ["/console/", f"/console/tables/{playing.pk}/", "/admin/"])
        finally:
            browsing.close()
    assert len(findings.checked) == 7 * len(MORE_LANGUAGES)
    assert not findings.blocking, "\n".join(findings.blocking)
