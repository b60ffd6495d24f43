"""An API token end to end: an organizer issues a referee token for table 1 in the admin (its secret shown
once), a program records a hand at table 1 with it and is refused at table 2, the table sheet names the
token, and once revoked in the admin the token opens nothing."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group, User

from tests.e2e.conftest import sign_in
from tournament.models import ApiToken, HandVersion, Table
from tournament.services.roles import ORGANIZERS_GROUP, staff_groups_install

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

RON = {"number": 1, "outcome": "ron", "dealer_position": 0, "wins": [{"winner": 1, "discarder": 2, "han": 3, "fu": 30}]}


def test_a_token_scoped_to_one_table_records_a_hand_there_and_cannot_touch_another(
    chromium_browser, page, live_server, make_event, seated_round
):
    staff_groups_install()
    organizer = User.objects.create_user("mori", password="organizer-pw", is_staff=True)
    organizer.groups.add(Group.objects.get(name=ORGANIZERS_GROUP))
    event = make_event(8, is_public=False)
    event.owner = organizer
    event.save(update_fields=["owner"])
    table_1, table_2 = Table.objects.filter(round=seated_round(event)).order_by("number")

    sign_in(page, "/admin/login/", "mori", "organizer-pw", submit="input[type=submit]", then="#user-tools")
    page.goto(f"/admin/tournament/event/{event.pk}/change/")
    page.click(".object-tools a:has-text('API tokens')")
    page.fill("#id_name", "tablet at table 1")
    page.check("input[name=scope][value=referee]")
    page.fill("#id_tables", "1")
    page.click("input[type=submit][value='Issue the token']")
    secret = page.inner_text("#token-secret").strip()
    assert secret.startswith("taikai_") and ApiToken.objects.get().digest != secret

    program = chromium_browser.new_context(base_url=live_server.url)  # no cookie: the token alone
    try:
        headers = {"Authorization": f"Bearer {secret}"}
        recorded = program.request.post(f"/api/v1/tables/{table_1.pk}/hands", data=RON, headers=headers)
        assert recorded.status == 201, recorded.text()
        assert recorded.json()["deltas"] == [0, 3900, -3900, 0]
        refused = program.request.post(f"/api/v1/tables/{table_2.pk}/hands", data=RON, headers=headers)
        assert refused.status == 403 and refused.json()["error"]["code"] == "forbidden"
        clock = program.request.post(
            f"/api/v1/tables/{table_2.pk}/clock/start", data={"hand_number": 1, "dealer_position": 0}, headers=headers
        )
        assert clock.status == 403
        assert [v.hand.table_id for v in HandVersion.objects.select_related("hand")] == [table_1.pk]

        page.goto(f"/console/tables/{table_1.pk}/")
        token = ApiToken.objects.get()
        assert f"API token #{token.pk}" in page.inner_text("body")

        page.goto("/admin/tournament/apitoken/")
        page.check(f"input[name=_selected_action][value='{token.pk}']")
        page.select_option("select[name=action]", "revoke")
        page.click("button[name=index]")
        page.wait_for_selector(".messagelist")
        again = program.request.post(f"/api/v1/tables/{table_1.pk}/hands", data={**RON, "number": 2}, headers=headers)
        assert again.status == 401 and again.json()["error"]["code"] == "token_revoked"
        assert HandVersion.objects.count() == 1
    finally:
        program.close()


def test_the_api_docs_page_renders_under_the_content_security_policy(page):
    refused = []
    page.on(
        "console",
        lambda message: refused.append(message.text) if "Content Security Policy" in message.text else None,
    )
    page.goto("/api/v1/docs/")
    page.wait_for_selector(".opblock-summary-path")
    paths = page.locator(".opblock-summary-path").all_inner_texts()
    assert any("/api/v1/tables/{table_id}/hands" in p for p in paths) and len(paths) >= 36
    assert refused == []
