"""The organizer's and referee's screens in the admin: events, manual seating, hands, results."""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.db import transaction
from django.db.models import Count
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html

from players.admin import PlayerCsvForm
from players.csv_import import CsvImportError, players_find_or_create_csv
from tournament.errors import ServiceError
from tournament.finals_services import final_apply, final_situation
from tournament.forms import FinalScoresForm, HandForm, ManualSeatingForm
from tournament.models import (
    Entry,
    Event,
    Hand,
    HandVersion,
    Penalty,
    Round,
    Ruling,
    Seat,
    SeatingJob,
    SeatResult,
    Table,
)
from tournament.rules_services import (
    entry_disqualify,
    penalty_cancel,
    penalty_log,
    ruling_record,
    seat_mark_absent,
)
from tournament.seating import seating_job_request
from tournament.selectors import next_hand_defaults, table_hand_sheet
from tournament.services import (
    entries_register,
    event_finish,
    hand_record,
    round_complete,
    round_create,
    round_publish,
    table_finish,
    table_reopen,
)


def apply_to_each(model_admin, request, queryset, service, done: str) -> None:
    """Run a service on each selected row; each success or refusal is reported on its own."""
    for obj in queryset:
        try:
            service(obj)
        except ServiceError as exc:
            model_admin.message_user(request, f"{obj}: {exc.message}", messages.ERROR)
        else:
            model_admin.message_user(request, f"{obj}: {done}")


class EntryInline(admin.TabularInline):
    model = Entry
    fk_name = "event"
    extra = 0
    autocomplete_fields = ("player",)
    fields = ("player", "status", "status_reason", "substitute_for")
    raw_id_fields = ("substitute_for",)


PRECEDENCE_CHOICES = {
    "advances,total_points": ["advances", "total_points"],
    "total_points": ["total_points"],
}


class EventForm(forms.ModelForm):
    standings_precedence = forms.ChoiceField(
        label="standings order",
        choices=[
            ("advances,total_points", "Advances, then total points (art. 41)"),
            ("total_points", "Total points only"),
        ],
    )

    class Meta:
        model = Event
        fields = ("standings_precedence",)  # the admin adds the fields of its fieldsets

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        current = ",".join(self.instance.precedence) if self.instance.pk else "advances,total_points"
        self.initial["standings_precedence"] = current

    def clean_standings_precedence(self):
        return PRECEDENCE_CHOICES[self.cleaned_data["standings_precedence"]]


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    form = EventForm
    list_display = (
        "name",
        "starts_on",
        "status",
        "table_size",
        "planned_rounds",
        "entry_count",
        "public_link",
    )
    list_filter = ("status", "table_size", "is_public")
    search_fields = ("name", "slug", "venue")
    prepopulated_fields = {"slug": ("name",)}
    filter_horizontal = ("organizers", "referees")
    inlines = [EntryInline]
    actions = ["finish_events"]

    @admin.action(description="Finish the selected events (every round completed)")
    def finish_events(self, request, queryset):
        apply_to_each(self, request, queryset, lambda event: event_finish(event=event), "finished.")

    change_form_template = "admin/tournament/event/change_form.html"
    fieldsets = [
        (None, {"fields": ("name", "slug", "starts_on", "ends_on", "venue", "status", "is_public")}),
        ("Rules", {"fields": ("ruleset", "table_size", "planned_rounds", "entry_mode", "advancing_places",
                              "standings_precedence", "tournament_play", "penalty_unit", "overtime_enabled",
                              "clock_bank_seconds", "clock_increment_seconds")}),
        ("Seating", {"fields": ("seating_method", "seating_remainder")}),
        ("Staff", {"fields": ("organizers", "referees")}),
    ]  # fmt: skip

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(_entries=Count("entries"))

    @admin.display(description="entries", ordering="_entries")
    def entry_count(self, obj):
        return obj._entries

    @admin.display(description="public page")
    def public_link(self, obj):
        return format_html('<a href="{}">view</a>', obj.get_absolute_url())

    def get_urls(self):
        seat_round = self.admin_site.admin_view(self.seat_round_view)
        seat_auto = self.admin_site.admin_view(self.seat_auto_view)
        job = self.admin_site.admin_view(self.seating_job_view)
        return [
            path("<int:event_id>/seat-round/", seat_round, name="tournament_event_seat_round"),
            path(
                "<int:event_id>/register-csv/",
                self.admin_site.admin_view(self.register_csv_view),
                name="tournament_event_register_csv",
            ),
            path("<int:event_id>/seat-auto/", seat_auto, name="tournament_event_seat_auto"),
            path("<int:event_id>/seating-job/<int:job_id>/", job, name="tournament_event_seating_job"),
            *super().get_urls(),
        ]

    def register_csv_view(self, request, event_id):
        """Register a field from CSV: known external ids name stored players, other rows create them."""
        event = get_object_or_404(Event, pk=event_id)
        form = PlayerCsvForm(request.POST or None, request.FILES or None)
        problems = []
        if request.method == "POST" and form.is_valid():
            try:
                with transaction.atomic():
                    players = players_find_or_create_csv(data=form.cleaned_data["csv_file"].read())
                    entries = entries_register(event=event, players=players)
            except CsvImportError as exc:
                problems = exc.problems
            except ServiceError as exc:
                messages.error(request, exc.message)
            else:
                messages.success(request, f"{len(entries)} player(s) registered in {event}.")
                return redirect("admin:tournament_event_change", event.pk)
        context = {**self.admin_site.each_context(request), "opts": self.model._meta, "original": event,
                   "title": f"Register players in {event} from CSV", "form": form, "problems": problems}  # fmt: skip
        return TemplateResponse(
            request, "admin/players/player/import_csv.html", context, status=400 if problems else 200
        )

    def seat_auto_view(self, request, event_id):
        """Queue the next round's automatic seating (Celery) and show its progress."""
        event = get_object_or_404(Event, pk=event_id)
        if request.method != "POST":
            return redirect("admin:tournament_event_change", event.pk)
        try:
            job = seating_job_request(event=event, user=request.user)
        except ServiceError as exc:
            messages.error(request, f"{exc.message} ({exc.code})")
            return redirect("admin:tournament_event_change", event.pk)
        return redirect("admin:tournament_event_seating_job", event.pk, job.pk)

    def seating_job_view(self, request, event_id, job_id):
        job = get_object_or_404(SeatingJob.objects.select_related("event"), pk=job_id, event_id=event_id)
        round_ = Round.objects.filter(event=job.event, number=job.round_number).first()
        if request.method == "POST" and round_ is not None:
            try:
                round_publish(round_=round_)
            except ServiceError as exc:
                messages.error(request, exc.message)
            else:
                messages.success(request, f"Round {round_.number} is published.")
                return redirect("admin:tournament_round_change", round_.pk)
        tables = []
        if round_ is not None:
            tables = list(round_.tables.prefetch_related("seats__entry__player").order_by("number"))
        context = {**self.admin_site.each_context(request), "opts": self.model._meta, "original": job.event,
                   "title": f"Seating of round {job.round_number}", "job": job, "round": round_, "tables": tables,
                   "running": job.state in (SeatingJob.State.QUEUED, SeatingJob.State.RUNNING)}  # fmt: skip
        return TemplateResponse(request, "admin/tournament/event/seating_job.html", context)

    def seat_round_view(self, request, event_id):
        event = get_object_or_404(Event, pk=event_id)
        form = ManualSeatingForm(request.POST or None, event=event)
        if request.method == "POST" and form.is_valid():
            try:
                round_ = round_create(event=event, tables=form.cleaned_data["tables"])
            except ServiceError as exc:
                form.add_error("tables", exc.message)
            else:
                messages.success(request, f"Round {round_.number} is seated: {round_.tables.count()} tables.")
                return redirect("admin:tournament_round_change", round_.pk)
        context = {**self.admin_site.each_context(request), "opts": self.model._meta, "original": event,
                   "title": f"Seat the next round of {event}", "form": form}  # fmt: skip
        return TemplateResponse(request, "admin/tournament/event/seat_round.html", context)


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
        table = get_object_or_404(Table.objects.select_related("round__event__ruleset"), pk=table_id)
        seats = [s for s in table.seats.select_related("entry__player").order_by("position")
                 if s.absence != Seat.Absence.ABSENT_BEFORE]  # fmt: skip
        sheet = table_hand_sheet(table)
        editing = int(request.GET.get("hand") or request.POST.get("hand") or len(sheet.hands) + 1)
        current = next((h for h in sheet.hands if h.number == editing), None)
        initial = {"expected_version": current.version if current else 0,
                   **next_hand_defaults(sheet, players=len(seats))}  # fmt: skip
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
            except ServiceError as exc:
                messages.error(request, f"{exc.message} ({exc.code})")
            status = 400
        final = None
        if table.round.is_final and table.status == Table.Status.FINISHED:
            try:
                final = final_situation(table=table)
            except ServiceError as exc:
                messages.warning(request, exc.message)
        context = {
            **self.admin_site.each_context(request), "opts": self.model._meta, "original": table, "final": final,
            "title": f"{table}", "table": table, "seats": seats, "sheet": sheet, "hand_form": hand_form,
            "scores_form": scores_form, "editing": editing, "current": current,
            "results": SeatResult.objects.filter(table=table).select_related("entry__player").order_by("-version", "seat__position"),
        }  # fmt: skip
        return TemplateResponse(request, "admin/tournament/table/hands.html", context, status=status)


@admin.register(HandVersion)
class HandVersionAdmin(admin.ModelAdmin):
    """Every version ever saved, read-only: the audit trail of corrections."""

    list_display = ("hand", "version", "label", "outcome", "deltas", "recorded_by", "recorded_at")
    list_filter = ("outcome", "hand__table__round__event")
    readonly_fields = [f.name for f in HandVersion._meta.fields]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Hand)
class HandAdmin(admin.ModelAdmin):
    """Hands are recorded from the table's screen; this list is for looking up their versions."""

    list_display = ("__str__", "current_version")
    list_filter = ("table__round__event",)
    readonly_fields = ("table", "number", "current_version")

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Entry)
class EntryAdmin(admin.ModelAdmin):
    list_display = ("player", "event", "status", "status_reason")
    list_filter = ("status", "event")
    search_fields = ("player__display_name", "player__reading", "event__name")
    autocomplete_fields = ("player",)
    raw_id_fields = ("substitute_for",)
    actions = ["disqualify"]

    @admin.action(description="Disqualify (art. 43: loses award eligibility, stays in the records)")
    def disqualify(self, request, queryset):
        for entry in queryset:
            entry_disqualify(entry=entry, reason=f"art. 43: decision by {request.user}")
        self.message_user(request, f"{queryset.count()} player(s) disqualified.")


class PenaltyForm(forms.ModelForm):
    class Meta:
        model = Penalty
        fields = ("event", "table", "hand_number", "entry", "kind", "reason")


@admin.register(Penalty)
class PenaltyAdmin(admin.ModelAdmin):
    """Penalties are logged through the rules (points, rights, disqualification) and never deleted."""

    form = PenaltyForm
    list_display = (
        "entry",
        "kind",
        "points",
        "table",
        "hand_number",
        "logged_by",
        "logged_at",
        "cancelled_at",
    )
    list_filter = ("kind", "event", "cancelled_at")
    search_fields = ("entry__player__display_name", "reason")
    raw_id_fields = ("table", "entry")
    actions = ["cancel_penalties"]

    def get_readonly_fields(self, request, obj=None):
        if obj is None:
            return ()
        return [f.name for f in Penalty._meta.fields]

    def has_delete_permission(self, request, obj=None):
        return False

    def save_model(self, request, obj, form, change):
        if change:
            return
        try:
            created = penalty_log(event=obj.event, entry=obj.entry, kind=obj.kind, reason=obj.reason, table=obj.table,
                                  hand_number=obj.hand_number, user=request.user)  # fmt: skip
        except ServiceError as exc:
            raise forms.ValidationError(exc.message) from exc
        obj.pk = created.pk

    def get_form(self, request, obj=None, **kwargs):
        form_class = super().get_form(request, obj, **kwargs)
        if obj is not None:
            return form_class

        class ValidatedPenaltyForm(form_class):
            def clean(self):
                data = super().clean()
                if data.get("entry") and data.get("event") and data["entry"].event_id != data["event"].id:
                    raise forms.ValidationError({"entry": "this player is not in the event"})
                kind = data.get("kind", "")
                needs_hand = kind not in ("art37_deliberate_foul", "art43_egregious_conduct")
                if needs_hand and (not data.get("table") or not data.get("hand_number")):
                    raise forms.ValidationError(
                        {"hand_number": "this article applies to a hand: give table and hand"}
                    )
                return data

        return ValidatedPenaltyForm

    @admin.action(description="Cancel the selected penalties (kept in the records)")
    def cancel_penalties(self, request, queryset):
        reason = f"cancelled by {request.user} from the penalty list"
        for penalty in queryset.filter(cancelled_at__isnull=True):
            penalty_cancel(penalty=penalty, reason=reason, user=request.user)
        self.message_user(request, "Cancelled; the penalties stay listed with who cancelled them.")


@admin.register(Ruling)
class RulingAdmin(admin.ModelAdmin):
    """Directors' decisions (art. 44): recorded, never edited."""

    list_display = ("event", "table", "entry", "decided_by", "decided_at")
    list_filter = ("event",)
    raw_id_fields = ("table", "entry")
    fields = ("event", "table", "entry", "decision")

    def get_readonly_fields(self, request, obj=None):
        return () if obj is None else ("event", "table", "entry", "decision")

    def has_delete_permission(self, request, obj=None):
        return False

    def save_model(self, request, obj, form, change):
        if not change:
            created = ruling_record(event=obj.event, table=obj.table, entry=obj.entry, decision=obj.decision,
                                    user=request.user)  # fmt: skip
            obj.pk = created.pk


@admin.register(SeatingJob)
class SeatingJobAdmin(admin.ModelAdmin):
    list_display = ("event", "round_number", "state", "percent", "message", "updated_at")
    list_filter = ("state", "event")
    readonly_fields = [f.name for f in SeatingJob._meta.fields]

    def has_add_permission(self, request):
        return False
