"""Tables in the admin: their seats and status. Hands and results are kept on the table sheet of the
console (``console:table``), where referees and scorekeepers work."""

from __future__ import annotations

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from taikai.errors import TaikaiError
from tournament import access, selectors
from tournament.admin.common import EventScopedAdmin
from tournament.forms import SubstituteForm
from tournament.models import Seat, Table
from tournament.services.substitutes import substitute_seat


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
    list_display = ("__str__", "status", "result_version", "sheet_link", "substitute_link", "reseat_link")
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

    def get_urls(self):
        view = self.admin_site.admin_view(self.substitute_view)
        return [
            path("<int:table_id>/substitute/", view, name="tournament_table_substitute"),
            *super().get_urls(),
        ]

    @admin.display(description=_("substitute"))
    def substitute_link(self, obj):
        return format_html(
            '<a href="{}">{}</a>', reverse("admin:tournament_table_substitute", args=[obj.pk]), _("Seat a substitute…")
        )

    @admin.display(description=_("re-seat"))
    def reseat_link(self, obj):
        """The console's re-seat page (its referees and the organizers): the same service as the API's."""
        return format_html('<a href="{}">{}</a>', reverse("console:reseat", args=[obj.pk]), _("Re-seat…"))

    def substitute_view(self, request, table_id: int):
        """Seat a substitute 代走 in an absent player's place, before the table's first hand (its organizers)."""
        table = self.object_to_change(request, Table, table_id)
        if not access.may_manage(access.actor_for(request), table.round.event_id):
            raise PermissionDenied
        query = request.GET.get("q", "")
        candidates = selectors.substitute_candidates(table.round.event, query)
        form = SubstituteForm(request.POST or None, table=table, candidates=candidates)
        status = 200
        if request.method == "POST" and form.is_valid():
            try:
                data = form.cleaned_data
                substitute_seat(
                    seat=form.chosen_seat,
                    player=data["player"],
                    name=data["name"],
                    reason=data["reason"],
                    user=request.user,
                )
            except TaikaiError as exc:
                form.add_error(exc.field if exc.field in form.fields else None, exc.message)
                status = 400
            else:
                messages.success(request, gettext("The substitute is seated."))
                return redirect("admin:tournament_table_change", table.pk)
        elif request.method == "POST":
            status = 400
        context = {
            **self.admin_site.each_context(request),
            "opts": Table._meta,
            "original": table,
            "form": form,
            "query": query,
            "candidates": candidates,
            "title": gettext("Seat a substitute at %(table)s") % {"table": table},
        }
        return TemplateResponse(request, "admin/tournament/table/substitute.html", context, status=status)
