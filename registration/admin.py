"""The organizer's side of registration: an event's sign-up settings, and its sign-ups by state with their
actions (approve, refuse, refuse and block the address, move in the waiting list with a reason, export)."""

from __future__ import annotations

from django import forms
from django.contrib import admin
from django.contrib.admin.helpers import ActionForm
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from registration import selectors, services
from registration.models import BlockedEmail, Registration, SignUp, SignUpChange, SignUpMessage
from taikai.errors import TaikaiError
from taikai.spreadsheet import csv_writer
from tournament.admin.common import EventScopedAdmin, apply_to_each

EXPORT_COLUMNS = ("rank", "state", "name", "reading", "club", "country", "external_id", "email", "language",
                  "created_at", "checked_in_at")  # fmt: skip


@admin.register(Registration)
class RegistrationAdmin(EventScopedAdmin):
    list_display = (
        "event",
        "opens_at",
        "closes_at",
        "cap",
        "approval",
        "checkin_opens_at",
        "checkin_closed_at",
    )
    fields = ("event", "opens_at", "closes_at", "cap", "approval", "asked", "required", "pending_per_email",
              "checkin_opens_at", "checkin_closed_at", "reminder_sent_at", "counts")  # fmt: skip
    readonly_fields = ("checkin_closed_at", "reminder_sent_at", "counts")
    actions = ["send_reminders"]

    def has_delete_permission(self, request, obj=None):
        return False  # its sign-ups are records: a registration is closed by its dates, never deleted

    @admin.display(description=gettext_lazy("sign-ups"))
    def counts(self, obj) -> str:
        if obj.pk is None:
            return "—"
        c = selectors.sign_up_counts(obj.event)
        return _("confirmed %(confirmed)s · waiting %(waiting)s · pending %(pending)s · withdrawn %(withdrawn)s · "
                 "refused %(refused)s · checked in %(checked_in)s") % c.__dict__  # fmt: skip

    def save_model(self, request, obj, form, change):
        """More places fill from the waiting list at once (the service does it under the lock)."""
        if change and "cap" in form.changed_data:
            cap, form.changed_data = obj.cap, [f for f in form.changed_data if f != "cap"]
            super().save_model(request, obj, form, change)
            promoted = services.registration_cap_set(event=obj.event, cap=cap, by=request.user)
            if promoted:
                self.message_user(request, _("Promoted from the waiting list: %(names)s.") % {"names": ", ".join(s.name for s in promoted)})  # fmt: skip
            return None
        return super().save_model(request, obj, form, change)

    @admin.action(description=gettext_lazy("Send the reminder to every confirmed player (once)"))
    def send_reminders(self, request, queryset):
        apply_to_each(self, request, queryset, lambda r: services.reminders_send(event=r.event),
                      lambda r, sent: _("%(object)s: %(count)s reminders sent.") % {"object": r, "count": sent})  # fmt: skip


class ReasonActionForm(ActionForm):
    reason = forms.CharField(label=gettext_lazy("reason"), required=False, max_length=300)


class ChangeInline(admin.TabularInline):
    model = SignUpChange
    fields = readonly_fields = ("at", "what", "state_before", "state_after", "reason", "by")
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


class MessageInline(admin.TabularInline):
    model = SignUpMessage
    fields = readonly_fields = ("created_at", "kind", "subject", "body", "sent_at")
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(SignUp)
class SignUpAdmin(EventScopedAdmin):
    list_display = ("name", "reading", "club", "state", "rank", "email", "checked_in_at", "event")
    list_filter = ("state", ("event", admin.RelatedOnlyFieldListFilter))
    search_fields = ("name", "reading", "club", "email", "external_id")
    ordering = ("event", "rank")
    fields = readonly_fields = ("event", "state", "rank", "name", "reading", "club", "country", "external_id",
                                "email", "language", "entry", "made_player", "checked_in_at", "created_at",
                                "likely_players")  # fmt: skip
    inlines = [ChangeInline, MessageInline]
    action_form = ReasonActionForm
    actions = [
        "approve",
        "refuse",
        "refuse_and_block",
        "move_to_top",
        "merge_with_likely",
        "confirm_external_id",
        "renew_link",
        "export_csv",
    ]

    def has_add_permission(self, request, *args):
        return False  # people sign up on the event's sign-up page

    def has_delete_permission(self, request, obj=None):
        return False  # a sign-up is refused or withdrawn, never deleted: its history stays

    @admin.display(description=gettext_lazy("likely the same as"))
    def likely_players(self, obj) -> str:
        found = selectors.likely_matches(obj)
        return "; ".join(self._likely_line(obj, p) for p in found) or "—"

    @staticmethod
    def _likely_line(sign_up, player) -> str:
        """A likely player as the organizer tells them apart: name, id, club, country, and why offered."""
        known = ", ".join(part for part in (f"#{player.pk}", player.club, player.country) if part)
        return f"{player} ({known}): {selectors.likely_reason(sign_up, player)}"

    def _reason(self, request) -> str:
        return (request.POST.get("reason") or "").strip()

    @admin.action(description=gettext_lazy("Approve the selected sign-ups"))
    def approve(self, request, queryset):
        apply_to_each(self, request, queryset, lambda s: services.sign_up_approve(sign_up=s, by=request.user),
                      lambda s, done: _("%(object)s: %(state)s.") % {"object": s, "state": done.get_state_display()})  # fmt: skip

    @admin.action(description=gettext_lazy("Refuse the selected sign-ups (with the reason)"))
    def refuse(self, request, queryset):
        reason = self._reason(request)
        apply_to_each(self, request, queryset, lambda s: services.sign_up_refuse(sign_up=s, by=request.user, reason=reason),
                      _("%(object)s: refused."))  # fmt: skip

    @admin.action(description=gettext_lazy("Refuse and block their e-mail addresses (with the reason)"))
    def refuse_and_block(self, request, queryset):
        reason = self._reason(request)
        apply_to_each(self, request, queryset,
                      lambda s: services.sign_up_refuse(sign_up=s, by=request.user, reason=reason, block=True),
                      _("%(object)s: refused, address blocked."))  # fmt: skip

    @admin.action(description=gettext_lazy("Move to the top of the waiting list (the reason is required)"))
    def move_to_top(self, request, queryset):
        reason = self._reason(request)

        def to_top(sign_up):
            first = (
                SignUp.objects.filter(event_id=sign_up.event_id, state=SignUp.State.WAITING)
                .order_by("rank")
                .first()
            )
            return services.waiting_move(sign_up=sign_up, before=first, reason=reason, by=request.user)

        apply_to_each(self, request, queryset, to_top, _("%(object)s: moved to the top of the waiting list."))

    @admin.action(description=gettext_lazy("Merge with the likely stored player (the first one shown)"))
    def merge_with_likely(self, request, queryset):
        def merge(sign_up):
            found = selectors.likely_matches(sign_up, limit=1)
            if not found:
                raise TaikaiError("no_likely_player", _("no stored player looks like this one"))
            return services.sign_up_player_merge(sign_up=sign_up, player=found[0], by=request.user)

        apply_to_each(self, request, queryset, merge, _("%(object)s: merged with the stored player."))

    @admin.action(description=gettext_lazy("Confirm the EMA number given (when no stored player holds it)"))
    def confirm_external_id(self, request, queryset):
        apply_to_each(self, request, queryset,
                      lambda s: services.sign_up_external_id_confirm(sign_up=s, by=request.user),
                      _("%(object)s: the EMA number is confirmed."))  # fmt: skip

    @admin.action(
        description=gettext_lazy(
            "Renew the private links (the old ones stop working; the new ones are e-mailed)"
        )
    )
    def renew_link(self, request, queryset):
        apply_to_each(self, request, queryset, lambda s: services.sign_up_link_renew(sign_up=s, by=request.user),
                      _("%(object)s: a new link was sent; the old one no longer works."))  # fmt: skip

    @admin.action(description=gettext_lazy("Export the selected sign-ups (CSV)"))
    def export_csv(self, request, queryset):
        rows = list(queryset.order_by("event", "rank"))
        if not all(self.has_view_permission(request, row) for row in rows):
            raise PermissionDenied
        response = HttpResponse(content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = 'attachment; filename="sign-ups.csv"'
        writer = csv_writer(response)
        writer.writerow(EXPORT_COLUMNS)
        for row in rows:
            writer.writerow([getattr(row, column) or "" for column in EXPORT_COLUMNS])
        return response


@admin.register(BlockedEmail)
class BlockedEmailAdmin(EventScopedAdmin):
    list_display = ("email", "event", "reason", "by", "at")
    fields = ("event", "email", "reason")
    list_filter = (("event", admin.RelatedOnlyFieldListFilter),)
