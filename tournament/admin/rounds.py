"""Rounds in the admin: their tables, publishing drafts, completing rounds."""

from __future__ import annotations

from django.contrib import admin
from django.urls import reverse
from django.utils.html import format_html

from tournament.admin.common import apply_to_each
from tournament.models import Round, Table
from tournament.services.rounds import round_complete, round_publish


class TableInline(admin.TabularInline):
    model = Table
    extra = 0
    fields = ("number", "status", "players", "open_link")
    readonly_fields = ("number", "status", "players", "open_link")
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request, obj=None):
        return False

    @admin.display(description="players (E, S, W, N)")
    def players(self, obj):
        return ", ".join(str(s.entry.player) for s in obj.seats.all())

    @admin.display(description="")
    def open_link(self, obj):
        return format_html(
            '<a href="{}">record hands / result</a>', reverse("admin:tournament_table_hands", args=[obj.pk])
        )

    def get_queryset(self, request):
        return super().get_queryset(request).prefetch_related("seats__entry__player")


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ("__str__", "event", "number", "status")
    list_filter = ("status", "event")
    readonly_fields = ("event", "number", "seating_report")
    fields = ("event", "number", "status", "is_final", "seating_report")
    inlines = [TableInline]
    actions = ["publish_rounds", "complete_rounds"]

    @admin.action(description="Publish the selected seating drafts")
    def publish_rounds(self, request, queryset):
        apply_to_each(self, request, queryset, lambda round_: round_publish(round_=round_), "published.")

    def has_add_permission(self, request):
        return False  # rounds are created by seating (event page → "Seat the next round")

    @admin.action(description="Complete the selected rounds (every table confirmed)")
    def complete_rounds(self, request, queryset):
        done = "completed; standings are being updated."
        apply_to_each(self, request, queryset, lambda round_: round_complete(round_=round_), done)
