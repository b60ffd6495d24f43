from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from .models import Ruleset


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

    search_fields = ("name", "slug", "description")
    prepopulated_fields = {"slug": ("name",)}
    save_as = True  # "Save as new": start a ruleset from a preset
    fieldsets = [
        (None, {"fields": ("name", "slug", "description")}),
        (_("Payment scheme (seed 000)"), {"fields": (
            "scheme", "reference_scheme", "standard_players", "dealers", "kappa", "epsilon", "theta", "phi",
            "honba_unit", "min_han", "bazoro")}),
        (_("Yaku, fu and limits (seeds 001/002)"), {"fields": (
            "aka_dora", "open_tanyao", "double_wind_pair_fu", "kiriage_mangan", "kazoe_yakuman", "yakuman_stack",
            "yaku_han")}),
        (_("Settlement"), {"fields": (
            "multiple_ron", "honba_to_every_winner", "noten_payment_total", "riichi_stick", "deposits_at_end")}),
        (_("Game result: placement points 順位点 and oka"), {"fields": (
            "start_points", "return_points", "uma_4", "uma_3", "uma_2", "tie_rule")}),
    ]  # fmt: skip
