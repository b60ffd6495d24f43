"""Rules frozen at the start: once round 1 has a result, changing the standings order and tie-breaks or the
seating's settings in the event's form needs a reason (refused without one, nothing saved), is recorded (who,
when, which setting, before, after) and is shown on the public standings, in English and Japanese."""

import pytest
from django.test import Client
from django.urls import reverse

from tournament.models import Event, RuleChange
from tournament.services.results import table_finish

from .test_admin import EVENT_FORM

pytestmark = pytest.mark.django_db

CHANGES = [  # (form field, new value in the form, value stored, before, English note, Japanese note)
    (
        "standings_precedence",
        "total_points",
        ["total_points"],
        ["advances", "total_points"],
        "Standings order and tie-breaks changed after round 1 by admin: a typo",
        "第1回戦の後にadminが順位の決め方と同点の扱いを変更しました：a typo",
    ),
    (
        "seating_method",
        "random",
        "random",
        "swiss",
        "Seating method changed after round 1 by admin: a typo",
        "第1回戦の後にadminが席決めの方式を変更しました：a typo",
    ),
    (
        "seating_remainder",
        "bye",
        "bye",
        "three",
        "Seating remainder changed after round 1 by admin: a typo",
        "第1回戦の後にadminが端数の扱い（席決め）を変更しました：a typo",
    ),
    (
        "draw_seed",
        "77",
        77,
        None,
        "Draw seed changed after round 1 by admin: a typo",
        "第1回戦の後にadminが抽選シードを変更しました：a typo",
    ),
]


@pytest.fixture
def started(make_event, seated_round):
    """A public event whose round 1 has a result."""
    event = make_event(4, is_public=True)
    table_finish(table=seated_round(event).tables.get(), final_points=[40000, 30000, 20000, 10000])
    return event


def form(event, **changed) -> dict:
    return EVENT_FORM | {"ruleset": event.ruleset_id, "name": event.name, "status": event.status} | changed


def stored(event, field):
    event.refresh_from_db()
    return list(event.precedence) if field == "standings_precedence" else getattr(event, field)


@pytest.mark.parametrize(("field", "value", "after", "before", "english", "japanese"), CHANGES)
def test_a_frozen_setting_changed_without_a_reason_is_refused_and_nothing_is_saved(
    admin_client, started, field, value, after, before, english, japanese
):
    # given an event whose round 1 has a result
    was = stored(started, field)
    # when its form changes the setting without a reason
    response = admin_client.post(
        reverse("admin:tournament_event_change", args=[started.pk]), form(started, **{field: value})
    )
    # then the form says why on the reason's field, and nothing is saved nor recorded
    assert response.status_code == 200
    assert "rule_change_reason" in response.context["adminform"].form.errors
    assert stored(started, field) == was and not RuleChange.objects.exists()


@pytest.mark.parametrize(("field", "value", "after", "before", "english", "japanese"), CHANGES)
def test_a_frozen_setting_changed_with_a_reason_is_recorded_and_noted_on_the_public_standings(
    admin_client, admin_user, started, field, value, after, before, english, japanese
):
    before = started.draw_seed if before is None else before
    # when the form changes the setting with a reason
    data = form(started, **{field: value}, rule_change_reason=" a typo ")
    response = admin_client.post(reverse("admin:tournament_event_change", args=[started.pk]), data)
    # then it is saved, and recorded with who, which setting, before, after and why
    assert response.status_code == 302
    assert stored(started, field) == after
    change = RuleChange.objects.get()
    assert (change.setting, change.before, change.after, change.reason) == (field, before, after, "a typo")
    assert (change.by, change.by_name, change.after_round) == (admin_user, "admin", 1) and change.at
    # and the event's admin page lists it
    page = admin_client.get(reverse("admin:tournament_event_change", args=[started.pk]), HTTP_ACCEPT_LANGUAGE="en")
    assert english in page.content.decode()
    # and the public standings note it, in English and Japanese
    url = reverse("tournament:standings", args=[started.slug])
    assert japanese in Client().get(url, HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert english in Client().get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()  # English last: none leaks


@pytest.mark.parametrize(("field", "value", "after"), [(c[0], c[1], c[2]) for c in CHANGES])
def test_before_round_one_has_a_result_the_settings_change_without_a_reason(
    admin_client, make_event, seated_round, field, value, after
):
    # given an event seated but without a result yet
    event = make_event(4, is_public=True)
    seated_round(event)
    # when its form changes a setting without a reason
    response = admin_client.post(
        reverse("admin:tournament_event_change", args=[event.pk]), form(event, **{field: value})
    )
    # then it is saved, and nothing is recorded
    assert response.status_code == 302 and stored(event, field) == after
    assert not RuleChange.objects.exists()


def test_a_save_that_changes_no_frozen_setting_needs_no_reason(admin_client, started):
    response = admin_client.post(
        reverse("admin:tournament_event_change", args=[started.pk]), form(started, venue="Hall B")
    )
    assert response.status_code == 302 and Event.objects.get(pk=started.pk).venue == "Hall B"
    assert not RuleChange.objects.exists()
