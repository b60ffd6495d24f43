"""Entries, penalties and rulings in the admin (seed 004: arts. 35–38, 43, 44)."""

from __future__ import annotations

from django import forms
from django.contrib import admin

from taikai.errors import TaikaiError
from tournament.engine.penalties import penalty_effect
from tournament.models import Entry, Penalty, Ruling
from tournament.services.discipline import entry_disqualify, penalty_cancel, penalty_log, ruling_record


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
        except TaikaiError as exc:
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
                kind = data.get("kind")
                needs_hand = bool(kind) and penalty_effect(kind).applies_to_hand
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
