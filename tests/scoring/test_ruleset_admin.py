"""Ruleset validation (model ``full_clean`` and the admin form) and the admin's "save as new"."""

from __future__ import annotations

import json

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from scoring.models import Ruleset
from tournament.admin.rulesets import RulesetAdmin

pytestmark = [pytest.mark.django_db, pytest.mark.once]

PRESET_SLUGS = {
    "standard",
    "three-player-equal-split",
    "three-player-proportional-split",
    "coefficient-exclusion",
    "simple-doubling",
}


def standard() -> Ruleset:
    return Ruleset.objects.get(slug="standard")


def errors_of(ruleset: Ruleset) -> dict[str, list[str]]:
    with pytest.raises(ValidationError) as raised:
        ruleset.full_clean()
    return raised.value.message_dict


def admin_form_data(ruleset: Ruleset, **changes) -> dict[str, str]:
    """What the change form posts for ``ruleset``: every field of the admin's fieldsets."""
    fields = [name for _, options in RulesetAdmin.fieldsets for name in options["fields"]]
    data = {}
    for name in fields:
        value = changes.get(name, getattr(ruleset, name))
        if isinstance(value, bool):
            if value:
                data[name] = "on"
        elif isinstance(value, list | dict):
            data[name] = json.dumps(value)
        else:
            data[name] = str(value)
    return data


def test_presets_are_installed_and_pass_full_clean():
    presets = list(Ruleset.objects.filter(slug__in=PRESET_SLUGS))
    assert {ruleset.slug for ruleset in presets} == PRESET_SLUGS
    for ruleset in presets:
        ruleset.full_clean()


@pytest.mark.parametrize("field", ["kappa", "epsilon", "theta", "phi"])
@pytest.mark.parametrize(
    "value",
    [
        "0",
        "-1",
        "-4/3",
        "abc",
        "1/0",
        "",
        "1.2.3",
    ],
)
def test_seed000_coefficients_must_be_positive_numbers(field, value):
    ruleset = standard()
    setattr(ruleset, field, value)
    assert field in errors_of(ruleset)


@pytest.mark.parametrize(("field", "value"), [("kappa", "4/3"), ("epsilon", "1.5"), ("theta", "12.5"), ("phi", "50")])
def test_seed000_coefficients_accept_exact_fractions(field, value):
    ruleset = standard()
    setattr(ruleset, field, value)
    ruleset.full_clean()


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("uma_4", [20, 10, -10, -10]),  # sums to 10
        ("uma_4", [15, -15]),  # two values for four places
        ("uma_4", [10, 5, 0, -5, -10]),
        ("uma_3", [15, 0, -15, 0]),
        ("uma_3", [15, 5, -15]),
        ("uma_2", [10]),
        ("uma_2", [10, -9.5]),
        ("uma_4", "15,5,-5,-15"),  # not a list
        ("uma_3", ["a", "b", "c"]),
    ],
)
def test_uma_lists_must_sum_to_zero_with_one_value_per_place(field, value):
    ruleset = standard()
    setattr(ruleset, field, value)
    assert field in errors_of(ruleset)


def test_uma_may_be_fractional_and_exact():
    ruleset = standard()
    ruleset.uma_3 = [12.5, "2.5", "-15"]
    ruleset.full_clean()


@pytest.mark.parametrize("value", [0, 1, 5])
def test_seed000_standard_players_s_must_be_2_to_4(value):
    ruleset = standard()
    ruleset.standard_players = value
    assert "standard_players" in errors_of(ruleset)


@pytest.mark.parametrize("value", [2, 3, 4])
def test_seed000_standard_players_2_to_4_are_valid(value):
    ruleset = standard()
    ruleset.standard_players = value
    ruleset.full_clean()


def test_dealers_omega_is_0_or_1():
    ruleset = standard()
    ruleset.dealers = 2
    assert "dealers" in errors_of(ruleset)


def test_return_points_not_below_start_points():
    ruleset = standard()
    ruleset.return_points = 20000
    assert "return_points" in errors_of(ruleset)


def test_unknown_yaku_override_is_rejected_on_its_field():
    ruleset = standard()
    ruleset.yaku_han = {"no_such_yaku": [1, 1]}
    assert "yaku_han" in errors_of(ruleset)


def test_admin_change_page_of_a_preset_renders(admin_client):
    for ruleset in Ruleset.objects.filter(slug__in=PRESET_SLUGS):
        response = admin_client.get(reverse("admin:scoring_ruleset_change", args=[ruleset.pk]))
        assert response.status_code == 200
        body = response.content.decode()
        assert ruleset.name in body
        assert "_saveasnew" in body  # the "Save as new" button


def test_admin_save_as_new_copies_a_preset(admin_client):
    preset = standard()
    data = admin_form_data(preset, name="Club rules", slug="club-rules", kiriage_mangan=True)
    data["_saveasnew"] = "Save as new"
    response = admin_client.post(reverse("admin:scoring_ruleset_change", args=[preset.pk]), data)
    assert response.status_code == 302
    copy = Ruleset.objects.get(slug="club-rules")
    assert copy.pk != preset.pk
    assert (copy.name, copy.kiriage_mangan, copy.uma_4, copy.scheme) == (
        "Club rules",
        True,
        preset.uma_4,
        preset.scheme,
    )
    preset.refresh_from_db()
    assert (preset.name, preset.kiriage_mangan) == ("Standard four-player (seeds 001/002)", False)


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        ({"kappa": "0"}, "kappa", "must be greater than 0"),
        ({"phi": "ten"}, "phi", "is not a number"),
        ({"uma_4": [20, 10, -10, -10]}, "uma_4", "must sum to 0"),
        ({"standard_players": 5}, "standard_players", "s must be 2, 3 or 4"),
    ],
)
def test_admin_save_as_new_shows_validation_errors_and_saves_nothing(admin_client, changes, field, message):
    preset = standard()
    data = admin_form_data(preset, name="Broken copy", slug="broken-copy", **changes)
    data["_saveasnew"] = "Save as new"
    response = admin_client.post(reverse("admin:scoring_ruleset_change", args=[preset.pk]), data)
    assert response.status_code == 200
    assert message in response.content.decode()
    assert field in response.context["adminform"].form.errors
    assert not Ruleset.objects.filter(slug="broken-copy").exists()
