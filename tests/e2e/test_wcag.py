"""WCAG 2.2 AA beyond what axe sees, each criterion a test: target size (2.5.8; the console's 44 px), focus visible
and not hidden under the sticky banner or save bar (2.4.7, 2.4.11), reduced motion (2.3.3: the venue screen's page
turn and the clock), colour never the only signal (1.4.1: a flagged seat says so in words), and the clock's time
said to screen readers at a sensible rate (4.1.3: a live region changed in steps, not every second)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group, User

from tests.e2e.conftest import sign_in
from tests.e2e.day import PASSWORD, USERNAME, day_built
from tournament.services.roles import REFEREES_GROUP, role_grant, staff_groups_install

pytestmark = [pytest.mark.e2e, pytest.mark.once, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}

# Every visible control of the page whose box is smaller than ``min`` px either way, unless it is exempt as WCAG
# 2.5.8 says: a link inside a sentence (inline, with text of its block around it), or a target whose 24 px circle
# meets no other target (spacing). A radio or checkbox drawn as a button is measured by its label.
UNDERSIZED = """(min) => {
  const seen = new Set();
  const controls = [...document.querySelectorAll(
    "a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button], "
    + "[tabindex]:not([tabindex='-1'])")]
    .map((el) => (el.matches("input[type=radio], input[type=checkbox]") && getComputedStyle(el).opacity === "0"
      ? (el.labels && el.labels[0]) || el : el))
    .filter((el) => { if (seen.has(el)) return false; seen.add(el); return true; })
    .filter((el) => { const r = el.getBoundingClientRect(); const s = getComputedStyle(el);
      return r.width > 0 && r.height > 0 && s.visibility !== "hidden" && !el.closest("[hidden], [aria-hidden=true]")
        && !el.closest("details:not([open]) > :not(summary)"); })
    .filter((el) => !el.closest(".scroll"));  // a table's own cells are their rows' height (inline in a table)
  const boxes = controls.map((el) => el.getBoundingClientRect());
  const inSentence = (el) => {
    if (el.tagName !== "A" || getComputedStyle(el).display !== "inline") return false;
    const block = el.parentElement.closest("p, li, td, dd, span, div");
    return block && block.textContent.trim().length > el.textContent.trim().length;
  };
  const circleMeets = (i) => {
    const b = boxes[i], cx = b.x + b.width / 2, cy = b.y + b.height / 2;
    return boxes.some((o, j) => j !== i && Math.hypot(Math.max(o.left - cx, 0, cx - o.right),
      Math.max(o.top - cy, 0, cy - o.bottom)) < 12);
  };
  return controls.map((el, i) => [el, boxes[i], i])
    .filter(([el, b, i]) => (b.width < min || b.height < min) && !inSentence(el) && (min > 24 || circleMeets(i)))
    .map(([el, b]) => `${el.outerHTML.slice(0, 120)} ${Math.round(b.width)}×${Math.round(b.height)}`);
}"""


# The focused element's box (a hidden radio's label, which draws its focus) and whether it shows a focus ring, and
# the boxes of what stays on screen over the page: the console's banner (top) and save bar (bottom).
FOCUSED = """() => {
  let el = document.activeElement;
  if (!el || el === document.body) return null;
  if (el.matches("input[type=radio], input[type=checkbox]") && getComputedStyle(el).opacity === "0")
    el = (el.labels && el.labels[0]) || el;
  const s = getComputedStyle(el), r = el.getBoundingClientRect();
  const ring = (s.outlineStyle !== "none" && parseFloat(s.outlineWidth) > 0) || s.boxShadow !== "none";
  const stuck = [...document.querySelectorAll(".outbox, .savebar")]
    .filter((bar) => !bar.contains(el) && ["sticky", "fixed"].includes(getComputedStyle(bar).position))
    .map((bar) => bar.getBoundingClientRect()).filter((b) => b.height > 0);
  const under = stuck.some((b) => r.top < b.bottom && r.bottom > b.top && r.left < b.right && r.right > b.left);
  return { what: el.outerHTML.slice(0, 100), top: r.top, bottom: r.bottom, ring, under, height: innerHeight };
}"""


def test_every_control_is_at_least_24_px_the_consoles_44_and_the_focus_is_seen_never_under_a_bar(
    chromium_browser, live_server, make_event
):
    """Two criteria on one walk of a phone in English, signed in once: every control is at least 24 px (2.5.8) and
    the console's 44 px; then, tabbing through the console's sheet and the event's page, the focus shows a ring
    and is never off screen or under the sticky banner or save bar (2.4.7, 2.4.11)."""
    day = day_built(make_event)
    slug = day.event.slug
    context = chromium_browser.new_context(base_url=live_server.url, viewport=PHONE, locale="en-US")
    try:
        page = context.new_page()
        page.set_default_timeout(15000)
        undersized = {}
        for url in (
            "/",
            f"/events/{slug}/",
            f"/events/{slug}/standings/",
            f"/events/{slug}/register/",
            "/accessibility/",
            "/accounts/login/",
        ):
            page.goto(url)
            undersized[url] = page.evaluate(UNDERSIZED, 24)
        sign_in(
            page,
            "/accounts/login/?next=/console/",
            USERNAME,
            PASSWORD,
            submit="#login-form button[type=submit]",
            then="#my-tables",
        )
        for url in (
            "/console/",
            f"/console/tables/{day.playing.pk}/",
            f"/console/tables/{day.playing.pk}/clock/",
            f"/console/tables/{day.playing.pk}/penalty/",
        ):
            page.goto(url)
            page.wait_for_selector("#outbox")
            undersized[url] = page.evaluate(UNDERSIZED, 44)
        for url in (f"/console/board/?event={slug}", f"/console/events/{slug}/check-in/"):
            page.goto(url)
            undersized[url] = page.evaluate(UNDERSIZED, 24)
        # the focus, from a fresh load of each page
        problems, seen = [], 0
        for url in (f"/console/tables/{day.playing.pk}/", f"/events/{slug}/"):
            page.goto(url)
            for _ in range(60):
                page.keyboard.press("Tab")
                focused = page.evaluate(FOCUSED)
                if focused is None:
                    continue
                seen += 1
                if not focused["ring"]:
                    problems.append(f"{url}: no focus ring on {focused['what']}")
                if focused["top"] < 0 or focused["bottom"] > focused["height"] or focused["under"]:
                    problems.append(f"{url}: hidden {focused}")
    finally:
        context.close()
    undersized = {url: found for url, found in undersized.items() if found}
    assert not undersized, "\n".join(f"{url}: {found}" for url, found in undersized.items())
    assert seen > 40
    assert not problems, "\n".join(problems)


def test_reduced_motion_stops_the_venue_screens_page_turn_and_anything_moving_on_the_clock(
    chromium_browser, live_server, make_event
):
    day = day_built(make_event)
    context = chromium_browser.new_context(base_url=live_server.url, viewport={"width": 1920, "height": 1080})
    try:
        page = context.new_page()
        page.set_default_timeout(15000)
        moving = (
            "() => [...document.querySelectorAll('*')].filter((el) => { const s = getComputedStyle(el);"
            " return s.animationName !== 'none' || parseFloat(s.transitionDuration) > 0; })"
            ".map((el) => el.id || el.className)"
        )
        page.emulate_media(reduced_motion="no-preference")
        page.goto(f"/events/{day.event.slug}/venue/")
        assert page.evaluate("getComputedStyle(document.getElementById('venue-body')).animationName") != "none"
        page.emulate_media(reduced_motion="reduce")
        page.reload()
        assert page.evaluate(moving) == []
        assert page.evaluate("document.getAnimations().length") == 0
        sign_in(
            page,
            "/accounts/login/?next=/console/",
            USERNAME,
            PASSWORD,
            submit="#login-form button[type=submit]",
            then="#my-tables",
        )
        page.goto(f"/console/tables/{day.playing.pk}/clock/")
        page.click("#start")
        page.wait_for_selector(".zone.on-turn")
        assert page.evaluate(moving) == []
        assert page.evaluate("document.getAnimations().length") == 0
    finally:
        context.close()


@pytest.fixture
def clock_page(chromium_browser, live_server, make_event, seated_round):
    """A referee's clock of a three-player table on a phone, banks of 2 s: a seat flags soon after its turn."""
    event = make_event(3, clock_bank_seconds=2, clock_increment_seconds=0, table_size=3)
    table = seated_round(event, size=3).tables.get()
    staff_groups_install()
    referee = User.objects.create_user("kato", password="table-1-pw")
    referee.groups.add(Group.objects.get(name=REFEREES_GROUP))
    role_grant(event=event, user=referee, kind="referee")
    context = chromium_browser.new_context(base_url=live_server.url, viewport=PHONE, locale="en-US")
    page = context.new_page()
    page.set_default_timeout(15000)
    sign_in(
        page,
        "/accounts/login/?next=/console/",
        "kato",
        "table-1-pw",
        submit="#login-form button[type=submit]",
        then="#my-tables",
    )
    page.goto(f"/console/tables/{table.pk}/clock/")
    yield page
    context.close()


def test_a_flagged_seat_says_so_in_words_not_by_colour_alone(clock_page):
    page = clock_page
    page.click("#start")
    page.wait_for_selector(".zone.flagged[data-seat='0']", timeout=10000)
    flag = page.locator(".zone[data-seat='0'] .flag")
    assert flag.is_visible() and "Time is up" in flag.inner_text()
    # and a screen reader hears it too
    page.wait_for_function("() => document.getElementById('clock-said').textContent.includes('time is up')")


def test_the_clocks_time_is_said_in_steps_of_ten_seconds_not_every_second(
    chromium_browser, live_server, make_event, seated_round
):
    event = make_event(3, clock_bank_seconds=60, clock_increment_seconds=0, table_size=3)
    table = seated_round(event, size=3).tables.get()
    staff_groups_install()
    referee = User.objects.create_user("kato", password="table-1-pw")
    referee.groups.add(Group.objects.get(name=REFEREES_GROUP))
    role_grant(event=event, user=referee, kind="referee")
    context = chromium_browser.new_context(base_url=live_server.url, viewport=PHONE, locale="en-US")
    try:
        page = context.new_page()
        page.set_default_timeout(15000)
        sign_in(
            page,
            "/accounts/login/?next=/console/",
            "kato",
            "table-1-pw",
            submit="#login-form button[type=submit]",
            then="#my-tables",
        )
        page.goto(f"/console/tables/{table.pk}/clock/")
        page.click("#start")
        page.wait_for_selector(".zone.on-turn[data-seat='0']")
        page.wait_for_function("() => document.getElementById('clock-said').textContent !== ''")
        # the seat on turn and its time, said by a polite live region; the digits are hidden from it
        said = page.locator("#clock-said")
        assert said.get_attribute("aria-live") == "polite"
        assert "60 s left" in said.inner_text() or "50 s left" in said.inner_text(), said.inner_text()
        assert page.locator(".zone .time[aria-hidden=true]").count() == 3
        # over 4 s the digits change many times, the live region at most once
        counts = page.evaluate("""() => new Promise((resolve) => {
          let said = 0, digits = 0;
          new MutationObserver(() => { said += 1; }).observe(document.getElementById("clock-said"),
            { childList: true, characterData: true, subtree: true });
          new MutationObserver(() => { digits += 1; }).observe(document.querySelector(".zone[data-seat='0'] .time"),
            { childList: true, characterData: true, subtree: true });
          setTimeout(() => resolve({ said, digits }), 4000);
        })""")
        assert counts["digits"] >= 10 and counts["said"] <= 1, counts
    finally:
        context.close()


# What a page loses when its text is twice as large (1.4.4 Resize text): the page itself wider than the window
# (a sideways scroll of the whole page; a wide table scrolls in its own box, ``.scroll``, by design), and any
# element that cuts its own text off (overflow hidden or clipped, its text wider or taller than its box).
TEXT_LOST = """() => {
  const lost = [];
  const root = document.documentElement;
  if (root.scrollWidth > window.innerWidth + 1) {
    // the page is wider than the window: name the innermost elements that reach past its right edge
    const past = [...document.body.querySelectorAll("*")].filter((el) => !el.closest(".scroll, .visually-hidden")
      && el.getBoundingClientRect().right > window.innerWidth + 1);
    const innermost = past.filter((el) => !past.some((other) => other !== el && el.contains(other)));
    lost.push(`page ${root.scrollWidth}px wide in ${window.innerWidth}: `
      + innermost.slice(0, 4).map((el) => el.outerHTML.slice(0, 90)).join(" | "));
  }
  for (const el of document.body.querySelectorAll("*")) {
    const s = getComputedStyle(el);
    // a table scrolls in its own box (.scroll); text only for screen readers is clipped on purpose (.visually-hidden)
    const skipped = ".scroll, .visually-hidden, [hidden], [aria-hidden=true], script, style, svg, canvas, select";
    if (el.closest(skipped)) continue;
    const cuts = (v) => v === "hidden" || v === "clip";
    if (!(cuts(s.overflowX) || cuts(s.overflowY)) || !el.textContent.trim()) continue;
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    if ((cuts(s.overflowX) && el.scrollWidth > el.clientWidth + 1)
        || (cuts(s.overflowY) && el.scrollHeight > el.clientHeight + 1)) {
      lost.push(`${el.outerHTML.slice(0, 100)} ${el.scrollWidth}×${el.scrollHeight}`
        + ` in ${el.clientWidth}×${el.clientHeight}`);
    }
  }
  return lost;
}"""
DESKTOP = {"width": 1280, "height": 900}


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_text_twice_as_large_loses_nothing_on_a_phone_or_a_desktop(chromium_browser, live_server, make_event, viewport):
    # given the day's event, its public pages and the console, text at 200 % (a phone's or a browser's text size
    # setting: the root font size doubled, which every size of the site's styles follows)
    day = day_built(make_event)
    slug = day.event.slug
    context = chromium_browser.new_context(base_url=live_server.url, viewport=viewport, locale="en-US")
    context.add_init_script(
        "document.addEventListener('DOMContentLoaded', () => { document.documentElement.style.fontSize = '200%'; });"
    )
    lost: dict[str, list[str]] = {}
    try:
        page = context.new_page()
        page.set_default_timeout(15000)

        def read(url):
            page.goto(url)
            page.wait_for_load_state("load")
            assert page.evaluate("getComputedStyle(document.documentElement).fontSize") == "32px", url
            found = page.evaluate(TEXT_LOST)
            if found:
                lost[url] = found

        for url in (
            "/",
            f"/events/{slug}/",
            f"/events/{slug}/standings/",
            f"/events/{slug}/register/",
            "/accessibility/",
        ):
            read(url)
        sign_in(
            page,
            "/accounts/login/?next=/console/",
            USERNAME,
            PASSWORD,
            submit="#login-form button[type=submit]",
            then="#my-tables",
        )
        for url in ("/console/", f"/console/tables/{day.playing.pk}/", f"/console/tables/{day.playing.pk}/clock/"):
            read(url)
    finally:
        context.close()
    # then no page scrolls sideways and no text is cut off
    assert lost == {}, "\n".join(f"{url}: {found}" for url, found in lost.items())
