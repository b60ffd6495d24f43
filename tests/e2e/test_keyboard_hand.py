"""Hands entered on the console's sheet by keyboard alone, as a referee without a pointer (or with a screen reader)
does: Tab to a group, the arrow keys (or Space) to choose, Enter to save. A ron, a tsumo, an exhaustive draw with
tenpai, a triple ron with three winners, a penalty and a correction; every control of the sheet has a name in
Chromium's accessibility tree, and the focus goes through the sheet in its order."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group, User

from tests.e2e.conftest import sign_in
from tests.e2e.waiting import until
from tournament.models import HandVersion
from tournament.services.roles import REFEREES_GROUP, role_grant, staff_groups_install

pytestmark = [pytest.mark.e2e, pytest.mark.once, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
ACTIVE = "() => { const el = document.activeElement; return [el.name || el.id || '', el.value || '', el.type || ''];}"
# The roles of controls; each must have a name a screen reader says.
CONTROL_ROLES = {"button", "radio", "checkbox", "textbox", "link", "spinbutton", "combobox", "DisclosureTriangle"}


class Keyboard:
    """A referee's keyboard on a page: each Tab's focus is kept, in order."""

    def __init__(self, page) -> None:
        self.page = page
        self.focused: list[str] = []

    def tab_to(self, name: str, value: str | None = None, *, tabs: int = 150) -> None:
        """Tab until the control named ``name`` (a field's name, or an element's id), of ``value`` if given, has the
        focus (a radio group is one stop)."""
        for _ in range(tabs):
            self.page.keyboard.press("Tab")
            field, current, kind = self.page.evaluate(ACTIVE)
            self.focused.append(field)
            if field == name and (value is None or current == value or kind == "radio"):
                return
        raise AssertionError(f"{name} never took the focus; the focus went through {self.focused[-40:]}")

    def choose(self, name: str, value) -> None:
        """A radio group: Tab to it, then the arrow keys to ``value`` (Space when the focus is on it already)."""
        self.tab_to(name)
        for _ in range(20):
            current = self.page.evaluate(ACTIVE)[1]
            if current == str(value):
                self.page.keyboard.press("Space")
                break
            self.page.keyboard.press("ArrowRight")
        assert self.page.is_checked(f"input[name='{name}'][value='{value}']"), (name, value)

    def tick(self, name: str, value) -> None:
        """A checkbox of a group (each its own stop): Tab to it, Space."""
        self.tab_to(name, str(value))
        self.page.keyboard.press("Space")
        assert self.page.is_checked(f"input[name='{name}'][value='{value}']"), (name, value)

    def save(self, number: int) -> None:
        self.tab_to("save-hand")
        self.page.keyboard.press("Enter")
        self.page.wait_for_selector(f"text=Hand {number} saved.")


def unnamed_controls(page) -> list[str]:
    """The controls of the page that Chromium's accessibility tree gives no name (CDP ``Accessibility``)."""
    session = page.context.new_cdp_session(page)
    try:
        nodes = session.send("Accessibility.getFullAXTree")["nodes"]
    finally:
        session.detach()
    unnamed = []
    for node in nodes:
        role = node.get("role", {}).get("value")
        if node.get("ignored") or role not in CONTROL_ROLES:
            continue
        if not str(node.get("name", {}).get("value", "")).strip():
            unnamed.append(f"{role} {node.get('backendDOMNodeId')}")
    return unnamed


@pytest.fixture
def sheet(chromium_browser, live_server, make_event, seated_round):
    table = seated_round(make_event(4)).tables.get()
    staff_groups_install()
    referee = User.objects.create_user("kato", password="table-1-pw")
    referee.groups.add(Group.objects.get(name=REFEREES_GROUP))
    role_grant(event=table.round.event, user=referee, kind="referee")
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
    page.goto(f"/console/tables/{table.pk}/")
    page.wait_for_selector("#hand-form")
    yield page, table
    context.close()


def test_a_referee_enters_every_kind_of_hand_a_penalty_and_a_correction_by_keyboard_alone(sheet):
    page, table = sheet
    assert unnamed_controls(page) == []

    # hand 1, a ron: South wins 3 han 30 fu off West; the focus goes through the sheet in its order
    keys = Keyboard(page)
    keys.choose("outcome", "ron")
    keys.choose("winner_1", 1)
    keys.choose("discarder", 2)
    keys.choose("han_1", 3)
    keys.choose("fu_1", 30)
    keys.save(1)
    order = [name for name in dict.fromkeys(keys.focused) if name]
    expected = ["outcome", "winner_1", "discarder", "han_1", "fu_1", "save-hand"]
    assert [name for name in order if name in expected] == expected, order

    # hand 2, a tsumo: the dealer (South now) wins 2 han 40 fu
    keys = Keyboard(page)
    keys.choose("outcome", "tsumo")
    keys.choose("winner_1", 1)
    keys.choose("han_1", 2)
    keys.choose("fu_1", 40)
    keys.save(2)

    # hand 3, an exhaustive draw: East and West tenpai
    keys = Keyboard(page)
    keys.choose("outcome", "exhaustive_draw")
    keys.tick("tenpai_positions", 0)
    keys.tick("tenpai_positions", 2)
    keys.save(3)

    # hand 4, a triple ron off North: a second and a third winner added by the keyboard, whose focus goes to them
    keys = Keyboard(page)
    keys.choose("outcome", "ron")
    keys.choose("winner_1", 0)
    keys.choose("discarder", 3)
    keys.choose("han_1", 1)
    keys.choose("fu_1", 30)
    for n, seat in ((2, 1), (3, 2)):
        keys.tab_to("add-winner")
        page.keyboard.press("Enter")
        assert page.evaluate(ACTIVE)[0] == f"winner_{n}"
        page.keyboard.press("Shift+Tab")  # back before the group, so that choose() tabs into it
        keys.choose(f"winner_{n}", seat)
        keys.choose(f"han_{n}", 2)
        keys.choose(f"fu_{n}", 30)
    keys.save(4)
    assert len(HandVersion.objects.in_force().get(hand__table=table, hand__number=4).wins) == 3

    # a penalty, from the players' table: its link, then the form
    page.goto(f"/console/tables/{table.pk}/penalty/")
    assert unnamed_controls(page) == []
    keys = Keyboard(page)
    keys.choose("seat", page.get_attribute("input[name='seat']", "value"))
    keys.choose("kind", "art36_out_of_turn")
    keys.tab_to("reason")
    page.keyboard.type("took a tile out of turn")
    page.keyboard.press("Enter")
    until(lambda: table.round.event.penalties.filter(kind="art36_out_of_turn").exists(), "the penalty logged")

    # a correction of hand 1: its "correct" link, then 4 han instead of 3
    page.goto(f"/console/tables/{table.pk}/")
    for _ in range(300):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.matches('a.correct[href=\"?hand=1\"]')"):
            break
    page.keyboard.press("Enter")
    page.wait_for_selector("text=Correct hand 1")
    assert unnamed_controls(page) == []
    keys = Keyboard(page)
    keys.choose("han_1", 4)
    keys.choose("fu_1", 30)
    keys.tab_to("save-hand")
    page.keyboard.press("Enter")
    page.wait_for_selector("#hand-sheet")
    current = HandVersion.objects.in_force().get(hand__table=table, hand__number=1)
    assert current.version == 2 and current.wins[0]["han"] == 4
