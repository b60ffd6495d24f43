"""The organizer's side of registration: an event's sign-up settings, and its sign-ups by state with their
actions (approve, refuse, refuse and block the address, move in the waiting list with a reason, export)."""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.contrib import admin, messages
from django.contrib.admin.helpers import ActionForm
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from registration import selectors, services
from registration.forms import RegistrationForm
from registration.models import BlockedEmail, Registration, SignUp, SignUpChange, SignUpMessage
from taikai.errors import TaikaiError
from taikai.spreadsheet import csv_writer
from tournament.admin.common import EventScopedAdmin, apply_to_each
from tournament.stored_text import stored_text_display

EXPORT_COLUMNS = (
    "rank",
    "state",
    "name",
    "reading",
    "club",
    "country",
    "external_id",
    "email",
    "language",
    "created_at",
    "checked_in_at",
)


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
    form = RegistrationForm
    fields = (
        "event",
        "opens_at",
        "closes_at",
        "cap",
        "promote_under_way",
        "approval",
        "asked",
        "required",
        "pending_per_email",
        "checkin_opens_at",
        "checkin_closed_at",
        "reminder_sent_at",
        "counts",
    )
    readonly_fields = ("checkin_closed_at", "reminder_sent_at", "counts")
    actions = ["send_reminders"]

    def has_delete_permission(self, request, obj=None):
        return False  # its sign-ups are records: a registration is closed by its dates, never deleted

    @admin.display(description=gettext_lazy("sign-ups"))
    def counts(self, obj) -> str:
        if obj.pk is None:
            return "—"
        c = selectors.sign_up_counts(obj.event)
        return (
            _(
                "confirmed %(confirmed)s · waiting %(waiting)s · pending %(pending)s · withdrawn %(withdrawn)s · "
                "refused %(refused)s · checked in %(checked_in)s"
            )
            % c.__dict__
        )

    def save_model(self, request, obj, form, change):
        """More places fill from the waiting list at once (the service does it under the lock); once the event
        is under way, only when the organizer asks for it, shown first who would be promoted."""
        promote_under_way = form.cleaned_data.get("promote_under_way", False)
        if change and ("cap" in form.changed_data or promote_under_way):
            cap, form.changed_data = obj.cap, [f for f in form.changed_data if f != "cap"]
            super().save_model(request, obj, form, change)
            promoted = services.registration_cap_set(
                event=obj.event, cap=cap, by=request.user, promote_under_way=promote_under_way
            )
            if promoted:
                self.message_user(
                    request,
                    _("Promoted from the waiting list: %(names)s.") % {"names": ", ".join(s.name for s in promoted)},
                )
            self._say_who_waits(request, obj)
            return None
        return super().save_model(request, obj, form, change)

    def _say_who_waits(self, request, obj) -> None:
        """Places left while the event is under way: who they would go to, and how to give them."""
        waiting = selectors.waiting_first(obj)
        if waiting and selectors.registration_under_way(obj):
            message = _(
                "The event is under way: nobody was promoted. The free places would go to %(names)s. To "
                "give them the places now (they are told to come to the desk), tick “%(tick)s” and save "
                "again; or give a free place at the desk to a waiting player who comes."
            )
            tick = RegistrationForm.base_fields["promote_under_way"].label
            names = ", ".join(s.name for s in waiting)
            self.message_user(request, message % {"names": names, "tick": tick}, level=messages.WARNING)

    @admin.action(description=gettext_lazy("Send the reminder to every confirmed player (once)"))
    def send_reminders(self, request, queryset):
        apply_to_each(
            self,
            request,
            queryset,
            lambda r: services.reminders_send(event=r.event),
            lambda r, sent: _("%(object)s: %(count)s reminders sent.") % {"object": r, "count": sent},
        )


# what a change of a sign-up was (``SignUpChange.what``, a code the services write), as people read it
CHANGE_WORDS = {
    "signed_up": gettext_lazy("signed up"),
    "approved": gettext_lazy("approved"),
    "promoted": gettext_lazy("promoted from the waiting list"),
    "seated_at_venue": gettext_lazy("given a place at the venue"),
    "refused": gettext_lazy("refused"),
    "withdrew": gettext_lazy("withdrew"),
    "reordered": gettext_lazy("moved in the waiting list"),
    "edited": gettext_lazy("details changed"),
    "checked_in": gettext_lazy("checked in"),
    "absent": gettext_lazy("absent at check-in"),
    "arrived_late": gettext_lazy("arrived late"),
    "id_confirmed": gettext_lazy("EMA number confirmed"),
    "merged": gettext_lazy("merged with a stored player"),
    "link_renewed": gettext_lazy("private link renewed"),
}
# what a message to the player was (``SignUpMessage.kind``)
MESSAGE_WORDS = {
    "confirmed": gettext_lazy("place confirmed"),
    "promoted": gettext_lazy("promoted from the waiting list"),
    "waiting": gettext_lazy("on the waiting list"),
    "pending": gettext_lazy("awaiting approval"),
    "refused": gettext_lazy("refused"),
    "link": gettext_lazy("new private link"),
    "withdrawn": gettext_lazy("withdrawal"),
    "reminder": gettext_lazy("reminder"),
}


def state_words(code: str) -> str:
    """A sign-up's state code as people read it ("" before the first state)."""
    try:
        return str(SignUp.State(code).label)
    except ValueError:
        return code


class ReasonActionForm(ActionForm):
    reason = forms.CharField(label=gettext_lazy("reason"), required=False, max_length=300)


class ChangeInline(admin.TabularInline):
    model = SignUpChange
    fields = readonly_fields = (
        "at",
        "what_said",
        "state_before_said",
        "state_after_said",
        "reason_said",
        "by",
    )
    extra = 0
    can_delete = False

    @admin.display(description=gettext_lazy("what"))
    def what_said(self, obj) -> str:
        return str(CHANGE_WORDS.get(obj.what, obj.what))

    @admin.display(description=gettext_lazy("state before"))
    def state_before_said(self, obj) -> str:
        return state_words(obj.state_before) or "—"

    @admin.display(description=gettext_lazy("state after"))
    def state_after_said(self, obj) -> str:
        return state_words(obj.state_after)

    @admin.display(description=gettext_lazy("reason"))
    def reason_said(self, obj) -> str:
        return stored_text_display(obj.reason)

    def has_add_permission(self, request, obj=None):
        return False


class MessageInline(admin.TabularInline):
    model = SignUpMessage
    fields = readonly_fields = ("created_at", "kind_said", "subject", "body", "sent_at")
    extra = 0
    can_delete = False

    @admin.display(description=gettext_lazy("kind"))
    def kind_said(self, obj) -> str:
        return str(MESSAGE_WORDS.get(obj.kind, obj.kind))

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(SignUp)
class SignUpAdmin(EventScopedAdmin):
    list_display = ("name", "reading", "club", "state", "rank", "email", "checked_in_at", "event")
    list_filter = ("state", ("event", admin.RelatedOnlyFieldListFilter))
    search_fields = ("name", "reading", "club", "email", "external_id")
    ordering = ("event", "rank")
    fields = readonly_fields = (
        "event",
        "state",
        "rank",
        "name",
        "reading",
        "club",
        "country",
        "external_id",
        "email",
        "language_said",
        "entry",
        "made_player",
        "checked_in_at",
        "created_at",
        "likely_players",
    )
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

    @admin.display(description=gettext_lazy("language"))
    def language_said(self, obj) -> str:
        return dict(settings.LANGUAGES).get(obj.language, obj.language)

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
        apply_to_each(
            self,
            request,
            queryset,
            lambda s: services.sign_up_approve(sign_up=s, by=request.user),
            lambda s, done: _("%(object)s: %(state)s.") % {"object": s, "state": done.get_state_display()},
        )

    @admin.action(description=gettext_lazy("Refuse the selected sign-ups (with the reason)"))
    def refuse(self, request, queryset):
        reason = self._reason(request)
        apply_to_each(
            self,
            request,
            queryset,
            lambda s: services.sign_up_refuse(sign_up=s, by=request.user, reason=reason),
            _("%(object)s: refused."),
        )

    @admin.action(description=gettext_lazy("Refuse and block their e-mail addresses (with the reason)"))
    def refuse_and_block(self, request, queryset):
        reason = self._reason(request)
        apply_to_each(
            self,
            request,
            queryset,
            lambda s: services.sign_up_refuse(sign_up=s, by=request.user, reason=reason, block=True),
            _("%(object)s: refused, address blocked."),
        )

    @admin.action(description=gettext_lazy("Move to the top of the waiting list (the reason is required)"))
    def move_to_top(self, request, queryset):
        reason = self._reason(request)

        def to_top(sign_up):
            first = (
                SignUp.objects.filter(event_id=sign_up.event_id, state=SignUp.State.WAITING).order_by("rank").first()
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
        apply_to_each(
            self,
            request,
            queryset,
            lambda s: services.sign_up_external_id_confirm(sign_up=s, by=request.user),
            _("%(object)s: the EMA number is confirmed."),
        )

    @admin.action(
        description=gettext_lazy("Renew the private links (the old ones stop working; the new ones are e-mailed)")
    )
    def renew_link(self, request, queryset):
        apply_to_each(
            self,
            request,
            queryset,
            lambda s: services.sign_up_link_renew(sign_up=s, by=request.user),
            _("%(object)s: a new link was sent; the old one no longer works."),
        )

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
