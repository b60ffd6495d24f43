"""Tables in the admin, and the referee's hand sheet: hands, corrections, absences, the result."""

from __future__ import annotations

from django.contrib import admin, messages
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html

from taikai.errors import TaikaiError
from tournament import selectors
from tournament.forms import FinalScoresForm, HandForm
from tournament.models import Seat, Table
from tournament.services.discipline import seat_mark_absent
from tournament.services.finals import final_apply, final_situation
from tournament.services.hands import hand_record
from tournament.services.results import table_finish, table_reopen


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("position", "entry", "absence", "left_after_hand")
    readonly_fields = (
        "position",
        "entry",
        "absence",
        "left_after_hand",
    )  # changed through the table's screen
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ("__str__", "status", "result_version", "hands_link")
    list_filter = ("status", "round__event")
    readonly_fields = ("round", "number", "status", "result_version")
    fields = ("round", "number", "status", "overtime_year", "result_version")
    inlines = [SeatInline]

    def has_add_permission(self, request):
        return False

    @admin.display(description="")
    def hands_link(self, obj):
        return format_html(
            '<a href="{}">record hands / result</a>', reverse("admin:tournament_table_hands", args=[obj.pk])
        )

    def get_urls(self):
        return [
            path(
                "<int:table_id>/hands/",
                self.admin_site.admin_view(self.hands_view),
                name="tournament_table_hands",
            ),
            *super().get_urls(),
        ]

    def hands_view(self, request, table_id):
        table = selectors.table_with_event(table_id)
        if table is None:
            raise Http404("no such table")
        seats = selectors.table_game_seats(table)
        sheet = selectors.table_hand_sheet(table)
        editing = int(request.GET.get("hand") or request.POST.get("hand") or len(sheet.hands) + 1)
        current = next((h for h in sheet.hands if h.number == editing), None)
        initial = {"expected_version": current.version if current else 0,
                   **selectors.next_hand_defaults(sheet, players=len(seats))}  # fmt: skip
        if current:
            initial |= {"outcome": current.outcome, "dealer_position": current.dealer_position,
                        "honba": current.honba, "riichi_positions": current.riichi_positions,
                        "tenpai_positions": current.tenpai_positions}  # fmt: skip
        hand_form = HandForm(
            request.POST if request.POST.get("action") == "hand" else None, seats=seats, initial=initial
        )
        scores_form = FinalScoresForm(
            request.POST if request.POST.get("action") == "scores" else None, seats=seats
        )
        status = 200
        if request.method == "POST":
            action = request.POST.get("action")
            try:
                if action == "hand" and hand_form.is_valid():
                    hand_record(table=table, number=editing, expected_version=hand_form.cleaned_data["expected_version"],
                                data=hand_form.hand_data(), user=request.user)  # fmt: skip
                    messages.success(request, f"Hand {editing} saved.")
                    return redirect("admin:tournament_table_hands", table.pk)
                if action == "finish":
                    table_finish(table=table, user=request.user)
                    messages.success(request, "The table's result is confirmed.")
                    return redirect("admin:tournament_table_hands", table.pk)
                if action == "scores" and scores_form.is_valid():
                    table_finish(table=table, final_points=scores_form.final_points(seats), user=request.user)
                    messages.success(request, "The table's result is confirmed.")
                    return redirect("admin:tournament_table_hands", table.pk)
                if action in ("absent_before", "absent_during"):
                    seat = get_object_or_404(Seat, pk=request.POST.get("seat"), table=table)
                    seat_mark_absent(seat=seat, during=action == "absent_during", user=request.user)
                    messages.success(request, f"{seat.entry.player} is marked absent (art. 42).")
                    return redirect("admin:tournament_table_hands", table.pk)
                if action == "final_apply":
                    messages.success(request, final_apply(table=table, user=request.user))
                    return redirect("admin:tournament_table_hands", table.pk)
                if action == "reopen":
                    table_reopen(table=table)
                    messages.success(request, "The table is open for corrections.")
                    return redirect("admin:tournament_table_hands", table.pk)
            except TaikaiError as exc:
                messages.error(request, f"{exc.message} ({exc.code})")
            status = 400
        final = None
        if table.round.is_final and table.status == Table.Status.FINISHED:
            try:
                final = final_situation(table=table)
            except TaikaiError as exc:
                messages.warning(request, exc.message)
        context = {
            **self.admin_site.each_context(request), "opts": self.model._meta, "original": table, "final": final,
            "title": f"{table}", "table": table, "seats": seats, "sheet": sheet, "hand_form": hand_form,
            "scores_form": scores_form, "editing": editing, "current": current,
            "results": selectors.table_results_all_versions(table),
        }  # fmt: skip
        return TemplateResponse(request, "admin/tournament/table/hands.html", context, status=status)
