"""Automatic seating jobs in the admin: their state, read-only."""

from __future__ import annotations

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from tournament.admin.common import EventScopedAdmin
from tournament.models import SeatingJob
from tournament.stored_text import stored_text_display


@admin.register(SeatingJob)
class SeatingJobAdmin(EventScopedAdmin):
    list_display = ("event", "round_number", "state", "percent", "message_said", "updated_at")
    list_filter = ("state", ("event", admin.RelatedOnlyFieldListFilter))
    readonly_fields = [f.name if f.name != "message" else "message_said" for f in SeatingJob._meta.fields]
    exclude = ("message",)  # shown in the reader's language (message_said)

    @admin.display(description=_("message"))
    def message_said(self, obj) -> str:
        return stored_text_display(obj.message) if obj is not None else ""

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False  # its hands, results and history stay
