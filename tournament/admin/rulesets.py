"""The rulesets' admin: rulesets are the scoring app's, but one is frozen once an event using it has started
and an organizer changes it only where they organize every event using it (``tournament.access``), so the
screen is here."""

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from scoring.models import Ruleset
from scoring.presets import PRESETS
from tournament import access

PRESET_SLUGS = frozenset(preset["slug"] for preset in PRESETS)
# an event past these has results computed with its ruleset
NOT_STARTED = ("draft", "registration")


@admin.register(Ruleset)
class RulesetAdmin(admin.ModelAdmin):
    list_display = (
        "ruleset_name",
        "slug",
        "scheme",
        "reference_scheme",
        "standard_players",
        "start_points",
        "return_points",
    )
    list_filter = ("scheme", "standard_players")

    @admin.display(description=_("name"), ordering="name")
    def ruleset_name(self, ruleset: Ruleset) -> str:
        return ruleset.translated_name

    def has_change_permission(self, request, obj=None) -> bool:
        return super().has_change_permission(request, obj) and ruleset_may_change(request, obj)

    def has_delete_permission(self, request, obj=None) -> bool:
        return super().has_delete_permission(request, obj) and ruleset_may_change(request, obj)

    search_fields = ("name", "slug", "description")
    prepopulated_fields = {"slug": ("name",)}
    save_as = True  # "Save as new": start a ruleset from a preset
    fieldsets = [
        (None, {"fields": ("name", "slug", "description")}),
        (
            _("Payment scheme (seed 000)"),
            {
                "fields": (
                    "scheme",
                    "reference_scheme",
                    "standard_players",
                    "dealers",
                    "kappa",
                    "epsilon",
                    "theta",
                    "phi",
                    "honba_unit",
                    "min_han",
                    "bazoro",
                )
            },
        ),
        (
            _("Yaku, fu and limits (seeds 001/002)"),
            {
                "fields": (
                    "aka_dora",
                    "open_tanyao",
                    "double_wind_pair_fu",
                    "kiriage_mangan",
                    "kazoe_yakuman",
                    "yakuman_stack",
                    "yaku_han",
                )
            },
        ),
        (
            _("Settlement"),
            {
                "fields": (
                    "multiple_ron",
                    "honba_to_every_winner",
                    "noten_payment_total",
                    "riichi_stick",
                    "deposits_at_end",
                    "abortive_draws",
                    "nagashi_mangan",
                    "pao_yakuman",
                )
            },
        ),
        (_("The game's end"), {"fields": ("time_up_ending", "chombo_points", "chombo_ends_game", "busting")}),
        (
            _("Game result: placement points 順位点 and oka"),
            {"fields": ("start_points", "return_points", "uma_4", "uma_3", "uma_2", "tie_rule")},
        ),
        (_("Substitutes 代走"), {"fields": ("substitute_result", "substitute_fixed_points", "substitute_uma")}),
    ]


def ruleset_may_change(request, ruleset: Ruleset | None) -> bool:
    """A ruleset is shared by the events that use it, so:

    * one used by an event that has started is frozen, for everyone: that event keeps the rules its results
      were computed with ("Save as new" makes a copy to change);
    * a preset is changed by superusers only;
    * otherwise an organizer changes it only when every event using it is one they organize.
    """
    if ruleset is None:
        return True
    if ruleset.events.exclude(status__in=NOT_STARTED).exists():
        return False
    if request.user.is_superuser:
        return True
    if ruleset.slug in PRESET_SLUGS:
        return False
    managed = access.events_where(access.actor_for(request), manage=True)
    return not ruleset.events.exclude(managed).exists()
