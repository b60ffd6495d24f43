"""Automatic seating jobs in the admin: their state, read-only."""

from __future__ import annotations

from django.contrib import admin

from tournament.admin.common import EventScopedAdmin
from tournament.models import SeatingJob


@admin.register(SeatingJob)
class SeatingJobAdmin(EventScopedAdmin):
    list_display = ("event", "round_number", "state", "percent", "message", "updated_at")
    list_filter = ("state", ("event", admin.RelatedOnlyFieldListFilter))
    readonly_fields = [f.name for f in SeatingJob._meta.fields]

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False  # its hands, results and history stay
