"""The imported game logs of the events one organizes, read-only: a log is a record, kept as it was given."""

from django.contrib import admin

from tournament import access

from .models import Disagreement, GameLogImport


class DisagreementInline(admin.TabularInline):
    model = Disagreement
    extra = 0
    can_delete = False
    fields = (
        "hand_number",
        "winner_position",
        "log_scoring",
        "engine_scoring",
        "state",
        "resolved_by",
        "resolved_at",
    )
    readonly_fields = fields

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(GameLogImport)
class GameLogImportAdmin(admin.ModelAdmin):
    list_display = ("__str__", "event", "table", "hands", "created_at", "imported_by")
    list_filter = ("platform",)
    inlines = [DisagreementInline]
    readonly_fields = (
        "event", "table", "platform", "game_id", "digest", "log_format", "players", "final_scores", "hands",
        "seating_before", "imported_by", "imported_with", "created_at", "log",
    )  # fmt: skip
    fields = readonly_fields

    def get_queryset(self, request):
        actor = access.actor_for(request)
        queryset = super().get_queryset(request).select_related("event", "table__round", "imported_by")
        return (
            queryset
            if actor.is_superuser
            else queryset.filter(access.events_where(actor, manage=True, path="event_id"))
        )

    def has_add_permission(self, request) -> bool:
        return False  # imported through the API or import_game_logs

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False
