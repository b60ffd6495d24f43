"""A referee imports a whole online game from the console on a 390 px phone, in Japanese and in English: the log
pasted (Japanese) or its file chosen (English); the page then shows the game's table, the scores at the end in the
log's seat order and the hand where Tenhou's scoring and Taikai's disagree (pao 責任払い, which Taikai's rules lack).
Every text expected is read from the catalog in the case's language; any JavaScript exception fails the test."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.utils import translation
from django.utils.translation import gettext, pgettext

from gamelogs.models import GameLogImport
from tests.e2e.conftest import sign_in
from tests.gamelogs.engine.conftest import LOGS, log_bytes
from tests.gamelogs.test_import import online_event
from tournament.services.roles import role_grant

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
PASSWORD = "referee-pw-2026"


@pytest.mark.parametrize(("locale", "language", "pasted"), [("ja-JP", "ja", True), ("en-US", "en", False)])
def test_a_referee_imports_a_log_on_a_phone_and_sees_the_table_scores_and_disagreement(
    chromium_browser, live_server, standard_ruleset, locale, language, pasted
):
    event, game, _ = online_event(standard_ruleset, "pao.xml", slug=f"online-{language}")
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
        if pasted:
            page.fill("#id_log_text", log_bytes("pao.xml").decode())
        else:
            page.set_input_files("#id_log_file", str(LOGS / "pao.xml"))
        page.click("#log-import button[type=submit]")
        page.wait_for_selector("#log-table")

        with translation.override(language):
            heading = gettext("Round %(round)s, table %(table)s") % {"round": 1, "table": 2}
            words = {
                "scores": gettext("Scores at the end"),
                "disagreements": gettext("Disagreements"),
                "hand": pgettext("a hand of the game", "Hand"),
            }
        assert page.inner_text("#log-table").strip() == heading
        body = page.inner_text("main")
        assert all(word in body for word in words.values()), body
        rows = page.locator("#log-scores tbody tr")
        assert rows.count() == len(game.players)
        for index, (name, score) in enumerate(zip(game.players, game.final_scores, strict=True)):
            cells = rows.nth(index).locator("td")
            assert cells.nth(1).inner_text() == name and cells.nth(3).inner_text() == str(score)
        disagreement = page.locator("#log-disagreements tbody tr")
        assert disagreement.count() == 1
        assert disagreement.locator("td").first.inner_text() == str(len(game.hands))
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        assert GameLogImport.objects.filter(event=event).count() == 1
    finally:
        context.close()
