"""Entries, penalties and rulings in the admin (seed 004: arts. 35–38, 43, 44)."""

from __future__ import annotations

from django import forms
from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from taikai.errors import TaikaiError
from taikai.spreadsheet import csv_writer
from tournament import access
from tournament.admin.common import EventScopedAdmin, apply_to_each
from tournament.engine.penalties import penalty_effect
from tournament.models import Entry, Penalty, Ruling
from tournament.services.discipline import (
    entry_disqualification_confirm,
    entry_disqualify,
    penalty_cancel,
    penalty_log,
    ruling_record,
)
from tournament.services.entries import entry_status_set
from tournament.stored_text import stored_text_display

EVENT_FILTER = ("event", admin.RelatedOnlyFieldListFilter)


def refereed_table_check(actor, data: dict) -> None:
    """A penalty's or ruling's player and table are in its event, and the user referees that table (or,
    without a table, the whole event)."""
    event, table, entry = data.get("event"), data.get("table"), data.get("entry")
    if event is None:
        return
    if entry and entry.event_id != event.id:
        raise forms.ValidationError(
            {"entry": forms.ValidationError(_("this player is not in the event"), code="not_in_event")}
        )
    if table and table.round.event_id != event.id:
        raise forms.ValidationError(
            {"table": forms.ValidationError(_("this table is not in the event"), code="not_in_event")}
        )
    if not access.may_referee(actor, event.id, table and table.number):
        raise forms.ValidationError(
            {
                "table": forms.ValidationError(
                    _("you do not referee this table; choose one of yours"), code="not_your_table"
                )
            }
        )


@admin.register(Entry)
class EntryAdmin(EventScopedAdmin):
    list_display = ("player", "event", "status", "status_reason_said")
    list_filter = ("status", EVENT_FILTER)
    search_fields = ("player__display_name", "player__reading", "event__name")
    autocomplete_fields = ("event", "player")
    raw_id_fields = ("substitute_for",)
    # moved by the actions, through services; who confirmed a disqualification, as an imported archive named them
    readonly_fields = ("status", "status_reason_said", "personal_link", "disqualification_confirmed_by_name")
    exclude = ("status_reason",)  # shown in the reader's language (status_reason_said), as stored otherwise
    actions = ["mark_away", "withdraw", "mark_active", "disqualify", "confirm_disqualification", "personal_links_csv"]

    def _status_set(self, request, queryset, status: str, done: str) -> None:
        reason = _("%(status)s: set by %(user)s") % {
            "status": Entry.Status(status).label,
            "user": request.user,
        }
        apply_to_each(
            self, request, queryset, lambda entry: entry_status_set(entry=entry, status=status, reason=reason), done
        )

    @admin.action(description=_("Mark away (not seated until back)"), permissions=["change"])
    def mark_away(self, request, queryset):
        self._status_set(request, queryset, Entry.Status.AWAY, _("%(object)s: away, not seated until back."))

    @admin.action(description=_("Withdraw from the event"), permissions=["change"])
    def withdraw(self, request, queryset):
        self._status_set(request, queryset, Entry.Status.WITHDRAWN, _("%(object)s: withdrawn."))

    @admin.action(description=_("Mark active again (seated from the next round)"), permissions=["change"])
    def mark_active(self, request, queryset):
        self._status_set(request, queryset, Entry.Status.ACTIVE, _("%(object)s: active."))

    @admin.display(description=_("status reason"))
    def status_reason_said(self, obj) -> str:
        return stored_text_display(obj.status_reason) if obj is not None else ""

    @admin.display(description=_("personal link (the player's own page)"))
    def personal_link(self, obj):
        if not obj.pk:
            return "—"
        return format_html('<a href="{0}">{0}</a>', reverse("tournament:player_link", args=[obj.link_token]))

    @admin.action(description=_("Download the personal links of the selected players (CSV)"), permissions=["change"])
    def personal_links_csv(self, request, queryset):
        """For mail merge or printing: each player's link to their own page. Organizers only."""
        rows = list(queryset.select_related("player", "event"))
        if not all(self.may_write(request, entry) for entry in rows):
            raise PermissionDenied
        response = HttpResponse(content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = 'attachment; filename="personal-links.csv"'
        writer = csv_writer(response)
        writer.writerow(["event", "player", "external_id", "link"])
        for entry in rows:
            link = request.build_absolute_uri(reverse("tournament:player_link", args=[entry.link_token]))
            writer.writerow([entry.event.slug, entry.player.display_name, entry.player.external_id or "", link])
        return response

    @admin.action(
        description=_("Disqualify (art. 43: loses award eligibility, stays in the records)"), permissions=["change"]
    )
    def disqualify(self, request, queryset):
        # Translators: stored as the entry's status reason, in the language of the organizer who acts
        reason = _("art. 43: decision by %(user)s") % {"user": request.user}
        # Translators: object is a player's entry in an event
        done = _("%(object)s: disqualified.")
        apply_to_each(self, request, queryset, lambda entry: entry_disqualify(entry=entry, reason=reason), done)

    @admin.action(
        description=_("Confirm the disqualification (art. 43: stays even if its penalty is cancelled)"),
        permissions=["change"],
    )
    def confirm_disqualification(self, request, queryset):
        confirm = lambda entry: entry_disqualification_confirm(entry=entry, user=request.user)  # noqa: E731
        # Translators: object is a player's entry in an event
        apply_to_each(self, request, queryset, confirm, _("%(object)s: disqualification confirmed."))


class PenaltyForm(forms.ModelForm):
    class Meta:
        model = Penalty
        fields = ("event", "table", "hand_number", "entry", "kind", "reason")


@admin.register(Penalty)
class PenaltyAdmin(EventScopedAdmin):
    """Penalties are logged through the rules (points, rights, disqualification) and never deleted.
    Referees log and cancel them at the tables they cover."""

    write_role = "referee"
    form = PenaltyForm
    list_display = (
        "entry",
        "kind",
        "points",
        "table",
        "hand_number",
        "logged_by_author",
        "logged_by_token",
        "logged_at",
        "cancelled_at",
    )
    list_select_related = ("entry", "table", "logged_by", "logged_by_token")  # as for the fields listed
    list_filter = ("kind", EVENT_FILTER, "cancelled_at")
    search_fields = ("entry__player__display_name", "reason")
    raw_id_fields = ("table", "entry")
    autocomplete_fields = ("event",)
    actions = ["cancel_penalties"]

    def get_readonly_fields(self, request, obj=None):
        if obj is None:
            return ()
        return [f.name for f in Penalty._meta.fields]

    def has_delete_permission(self, request, obj=None):
        return False

    @admin.display(description=_("logged by"), ordering="logged_by")
    def logged_by_author(self, obj):
        """The account, else the name an imported archive gave."""
        return obj.logged_by or obj.logged_by_name or None

    def save_model(self, request, obj, form, change):
        if change:
            return
        try:
            created = penalty_log(
                event=obj.event,
                entry=obj.entry,
                kind=obj.kind,
                reason=obj.reason,
                table=obj.table,
                hand_number=obj.hand_number,
                user=request.user,
            )
        except TaikaiError as exc:
            raise forms.ValidationError(exc.message) from exc
        obj.pk = created.pk

    def get_form(self, request, obj=None, **kwargs):
        form_class = super().get_form(request, obj, **kwargs)
        if obj is not None:
            return form_class

        actor = access.actor_for(request)

        class ValidatedPenaltyForm(form_class):
            def clean(self):
                data = super().clean()
                refereed_table_check(actor, data)
                kind = data.get("kind")
                needs_hand = bool(kind) and penalty_effect(kind).applies_to_hand
                if needs_hand and (not data.get("table") or not data.get("hand_number")):
                    raise forms.ValidationError(
                        {
                            "hand_number": forms.ValidationError(
                                _("this article applies to a hand: give table and hand"), code="hand_required"
                            )
                        }
                    )
                return data

        return ValidatedPenaltyForm

    @admin.action(description=_("Cancel the selected penalties (kept in the records)"), permissions=["change"])
    def cancel_penalties(self, request, queryset):
        # Translators: stored as the penalty's cancel reason, in the language of the referee who acts
        reason = _("cancelled by %(user)s from the penalty list") % {"user": request.user}
        cancel = lambda penalty: penalty_cancel(penalty=penalty, reason=reason, user=request.user)  # noqa: E731
        # Translators: object is a penalty
        done = _("%(object)s: cancelled; it stays listed with who cancelled it.")
        apply_to_each(self, request, queryset.filter(cancelled_at__isnull=True), cancel, done)


@admin.register(Ruling)
class RulingAdmin(EventScopedAdmin):
    """Directors' decisions (art. 44): recorded, never edited."""

    write_role = "referee"
    list_display = ("event", "table", "entry", "decided_by_author", "decided_by_token", "decided_at")
    list_select_related = (
        "event",
        "table",
        "entry",
        "decided_by",
        "decided_by_token",
    )  # as for the fields listed
    list_filter = (EVENT_FILTER,)
    raw_id_fields = ("table", "entry")
    autocomplete_fields = ("event",)
    fields = ("event", "table", "entry", "decision")

    def get_readonly_fields(self, request, obj=None):
        return () if obj is None else ("event", "table", "entry", "decision")

    def get_form(self, request, obj=None, **kwargs):
        form_class = super().get_form(request, obj, **kwargs)
        actor = access.actor_for(request)

        class ScopedRulingForm(form_class):
            def clean(self):
                data = super().clean()
                refereed_table_check(actor, data)
                return data

        return form_class if obj is not None else ScopedRulingForm

    def has_delete_permission(self, request, obj=None):
        return False

    @admin.display(description=_("decided by"), ordering="decided_by")
    def decided_by_author(self, obj):
        """The account, else the name an imported archive gave."""
        return obj.decided_by or obj.decided_by_name or None

    def save_model(self, request, obj, form, change):
        if not change:
            created = ruling_record(
                event=obj.event, table=obj.table, entry=obj.entry, decision=obj.decision, user=request.user
            )
            obj.pk, obj.decided_at, obj.decided_by = created.pk, created.decided_at, created.decided_by
