"""Tables in the admin: their seats and status. Hands and results are kept on the table sheet of the
console (``console:table``), where referees and scorekeepers work."""

from __future__ import annotations

from django.contrib import admin
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from tournament.admin.common import EventScopedAdmin
from tournament.models import Seat, Table


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("position", "entry", "absence", "left_after_hand")
    readonly_fields = ("position", "entry", "absence", "left_after_hand")  # changed on the table sheet
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Table)
class TableAdmin(EventScopedAdmin):
    event_path = "round__event"
    list_display = ("__str__", "status", "result_version", "sheet_link")
    list_filter = ("status", ("round__event", admin.RelatedOnlyFieldListFilter))
    # results and overtime are recorded on the table sheet, through the services: read-only here
    fields = ("round", "number", "status", "overtime_year", "overtime_state", "result_version")
    readonly_fields = fields
    inlines = [SeatInline]

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False  # its hands, results and history stay

    @admin.display(description="")
    def sheet_link(self, obj):
        return format_html('<a href="{}">{}</a>', reverse("console:table", args=[obj.pk]), _("table sheet"))
