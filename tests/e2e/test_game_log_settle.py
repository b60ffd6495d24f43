"""A referee settles an imported game's disagreement on a 390 px phone, in Japanese and in English: the log pasted,
the game's hands seen, the disagreeing hand opened with the log's scoring and Taikai's side by side; in Japanese the
hand is corrected at the table (a new version) and marked corrected, in English the log's scoring is accepted.
Either way the table's result is then confirmed. Any JavaScript exception fails the test."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.utils import translation
from django.utils.translation import gettext

from gamelogs.models import Disagreement
from tests.e2e.conftest import sign_in
from tests.gamelogs.engine.conftest import log_bytes
from tests.gamelogs.test_import import log_table, online_event
from tournament.models import HandVersion, Table
from tournament.services.roles import role_grant

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
PASSWORD = "referee-pw-2026"


@pytest.mark.parametrize(("locale", "language", "settled"), [("ja-JP", "ja", "corrected"), ("en-US", "en", "accepted")])
def test_a_referee_opens_a_disagreement_and_settles_it_on_a_phone(
    chromium_browser, live_server, standard_ruleset, locale, language, settled
):
    event, game, _ = online_event(standard_ruleset, "pao.xml", slug=f"settle-{language}")
    referee = User.objects.create_user("referee", password=PASSWORD)
    role_grant(event=event, user=referee, kind="referee")
    context = chromium_browser.new_context(base_url=live_server.url, viewport=PHONE, locale=locale)
    page = context.new_page()
    page.set_default_timeout(15000)
    try:
        sign_in(
            page,
            "/accounts/login/?next=/console/game-logs/",
            "referee",
            PASSWORD,
            submit="#login-form button[type=submit]",
            then="#log-import",
        )
        page.fill("#id_log_text", log_bytes("pao.xml").decode())
        page.click("#log-import button[type=submit]")
        page.wait_for_selector("#log-hands")
        assert page.locator("#log-hands tbody tr").count() == len(game.hands)
        assert page.locator("#log-hands tbody tr.disagrees").count() == 1
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

        page.click("#log-disagreements a.settle-link")
        page.wait_for_selector("#scorings")
        disagreement = Disagreement.objects.get(log_import__event=event)
        with translation.override(language):
            heading = gettext("Hand %(hand)s") % {"hand": disagreement.hand_number}
            columns = [gettext("The log's scoring"), gettext("Taikai's scoring")]
        assert page.inner_text("#disagreement-hand").startswith(heading)
        header = page.inner_text("#scorings thead")
        assert all(column in header for column in columns), header
        assert page.locator("#scorings tbody tr").count() == len(game.players)  # each seat's change
        assert page.get_attribute("#disagreement-state", "data-state") == "open"
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        shown = page.url

        if settled == "corrected":
            page.click("#correct")
            page.wait_for_selector("#hand-form")
            page.click("#save-hand")
            page.wait_for_load_state("load")
            table = log_table(event)
            assert HandVersion.objects.filter(hand__table=table, hand__number=disagreement.hand_number).count() == 2
            page.goto(shown)
            page.click("#mark-corrected")
        else:
            page.click("#accept")
        page.wait_for_selector(f"#disagreement-state[data-state={settled}]")
        disagreement.refresh_from_db()
        assert (disagreement.state, disagreement.resolved_by) == (settled, referee)
        assert log_table(event).status == Table.Status.FINISHED
    finally:
        context.close()
