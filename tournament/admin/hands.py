"""Hands and their versions in the admin: read-only, the audit trail of corrections."""

from __future__ import annotations

from django.contrib import admin

from tournament.admin.common import EventScopedAdmin
from tournament.models import Hand, HandVersion


@admin.register(HandVersion)
class HandVersionAdmin(EventScopedAdmin):
    """Every version ever saved, read-only: the audit trail of corrections."""

    event_path = "hand__table__round__event"
    list_display = ("hand", "version", "label", "outcome", "deltas", "author", "recorded_at")
    list_filter = ("outcome", ("hand__table__round__event", admin.RelatedOnlyFieldListFilter))
    readonly_fields = [f.name for f in HandVersion._meta.fields]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Hand)
class HandAdmin(EventScopedAdmin):
    """Hands are recorded from the table sheet; this list is for looking up their versions."""

    event_path = "table__round__event"
    list_display = ("__str__", "current_version")
    list_filter = (("table__round__event", admin.RelatedOnlyFieldListFilter),)
    readonly_fields = ("table", "number", "current_version")

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
