"""Rounds in the admin: their tables, publishing drafts, completing rounds, the scorekeepers' table cards."""

from __future__ import annotations

import segno
from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponseNotAllowed, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe
from django.utils.timezone import localtime
from django.utils.translation import gettext_lazy as _

from taikai.errors import TaikaiError
from tournament import access, selectors
from tournament.admin.common import EventScopedAdmin, apply_to_each, event_time_zone_activate_by_id
from tournament.models import Round, Table
from tournament.options import table_numbers_parse
from tournament.services.checks import round_check, round_unlock
from tournament.services.roles import scorekeeper_keys_issue
from tournament.services.rounds import round_complete, round_publish, round_start_set, round_timer_start
from tournament.templatetags.taikai import seating_report_words


class TableInline(admin.TabularInline):
    model = Table
    extra = 0
    fields = ("number", "status", "players", "open_link")
    readonly_fields = ("number", "status", "players", "open_link")
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request, obj=None):
        return False

    @admin.display(description=_("players (E, S, W, N)"))
    def players(self, obj):
        return ", ".join(str(s.entry.player) for s in obj.seats.all())

    @admin.display(description="")
    def open_link(self, obj):
        return format_html('<a href="{}">{}</a>', reverse("console:table", args=[obj.pk]), _("table sheet"))

    def get_queryset(self, request):
        return super().get_queryset(request).prefetch_related("seats__entry__player")


class UnlockForm(forms.Form):
    reason = forms.CharField(
        label=_("Reason"),
        max_length=500,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("Why the round is unlocked: kept with who and when."),
    )


class RoundStartForm(forms.Form):
    starts_at = forms.DateTimeField(
        label=_("Announced start"),
        help_text=_("In the event's time zone (YYYY-MM-DD HH:MM). Late players are marked absent from it (art. 42)."),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%d %H:%M:%S"],
    )


class TableCardsForm(forms.Form):
    tables = forms.CharField(
        required=False,
        label=_("Tables"),
        help_text=_("Table numbers such as 1-8, 12. Empty: every table still playing in this round."),
    )

    def clean_tables(self) -> frozenset[int]:
        try:
            return table_numbers_parse(self.cleaned_data["tables"])
        except ValueError as exc:
            raise forms.ValidationError(str(exc)) from exc


def qr_svg(url: str) -> str:
    """A QR code of ``url`` as inline SVG, for printing."""
    return segno.make(url, error="m").svg_inline(scale=3)


@admin.register(Round)
class RoundAdmin(EventScopedAdmin):
    list_display = ("__str__", "event", "number", "status")
    list_filter = ("status", ("event", admin.RelatedOnlyFieldListFilter))
    # every field is moved by the services (seating, publishing, completing, the final): read-only here
    fields = (
        "event",
        "number",
        "status",
        "is_final",
        "starts_at",
        "timer_started_at",
        "checked_at",
        "checked_by",
        "guard_overrides",
        "draw_seed",
        "seating_report_in_words",
    )
    readonly_fields = fields
    inlines = [TableInline]
    actions = ["publish_rounds", "start_timers", "complete_rounds"]
    change_form_template = "admin/tournament/round/change_form.html"

    @admin.action(description=_("Publish the selected seating drafts"), permissions=["change"])
    def publish_rounds(self, request, queryset):
        # Translators: object is a round
        done = _("%(object)s: published.")
        apply_to_each(self, request, queryset, lambda round_: round_publish(round_=round_), done)

    @admin.action(description=_("Start the round timer now (venue screen)"), permissions=["change"])
    def start_timers(self, request, queryset):
        # Translators: object is a round
        done = _("%(object)s: timer started.")
        apply_to_each(self, request, queryset, lambda round_: round_timer_start(round_=round_), done)

    @admin.display(description=_("seating report"))
    def seating_report_in_words(self, round_: Round) -> str:
        """The seating's quality report said in sentences, as on the seating page."""
        sentences = seating_report_words(round_.seating_report or {})
        return format_html_join(mark_safe("<br>"), "{}", ((sentence,) for sentence in sentences)) or "—"

    @admin.display(description=_("guards overridden when seated"))
    def guard_overrides(self, round_: Round) -> str:
        """Each guard an organizer overrode to seat this round: which, what it said, why, who and when."""
        rows = selectors.round_guard_overrides_of(round_)
        return (
            format_html_join(
                mark_safe("<br>"),
                '<span class="guard-override">{} — {} ({}, {}): {}</span>',
                (
                    (
                        row.get_guard_display(),
                        row.reason,
                        row.by or row.by_token or row.by_name or "—",
                        f"{localtime(row.at):%Y-%m-%d %H:%M}",
                        row.refusal,
                    )
                    for row in rows
                ),
            )
            or "—"
        )

    def has_add_permission(self, request):
        return False  # rounds are created by seating (event page → "Seat the next round")

    def has_delete_permission(self, request, obj=None):
        return False  # its hands, results and history stay

    @admin.action(description=_("Complete the selected rounds (every table confirmed)"), permissions=["change"])
    def complete_rounds(self, request, queryset):
        # Translators: object is a round
        done = _("%(object)s: completed; standings are being updated.")
        rounds = list(queryset)
        apply_to_each(self, request, queryset, lambda round_: round_complete(round_=round_), done)
        if len(rounds) != 1:
            return None
        round_ = Round.objects.select_related("event").get(pk=rounds[0].pk)
        if round_.status != Round.Status.COMPLETED or round_.is_final:
            return None
        # the organizer's next step, at once: seat the next round (or go back to the event)
        context = {
            **self.admin_site.each_context(request),
            "round": round_,
            "event": round_.event,
            "next_number": round_.number + 1,
            "title": _("Round %(number)s completed") % {"number": round_.number},
        }
        return TemplateResponse(request, "admin/tournament/round/completed.html", context)

    def get_urls(self):
        cards = self.admin_site.admin_view(self.table_cards_view)
        check = self.admin_site.admin_view(self.check_view)
        unlock = self.admin_site.admin_view(self.unlock_view)
        start = self.admin_site.admin_view(self.start_view)
        return [
            path("<int:round_id>/start/", start, name="tournament_round_start"),
            path("<int:round_id>/table-cards/", cards, name="tournament_round_table_cards"),
            path("<int:round_id>/check/", check, name="tournament_round_check"),
            path("<int:round_id>/unlock/", unlock, name="tournament_round_unlock"),
            *super().get_urls(),
        ]

    def table_cards_view(self, request, round_id):
        """Issue the scorekeepers' table cards: a link (QR code) and a PIN per table, shown this once."""
        round_ = self.object_to_change(request, Round, round_id)
        form = TableCardsForm(request.POST or None)
        cards, status = [], 200
        if request.method == "POST" and form.is_valid():
            wanted = form.cleaned_data["tables"]
            tables = [t for t in selectors.round_playing_tables(round_) if not wanted or t.number in wanted]
            try:
                issued = scorekeeper_keys_issue(tables=tables, by=request.user)
            except TaikaiError as exc:
                form.add_error("tables", exc.message)
                status = 400
            else:
                for key in issued:
                    url = request.build_absolute_uri(reverse("console:table_card", args=[key.token]))
                    cards.append({"table": key.table, "pin": key.pin, "url": url, "qr": mark_safe(qr_svg(url))})
        elif request.method == "POST":
            status = 400
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "original": round_,
            "title": _("Scorekeepers' table cards — %(round)s") % {"round": round_},
            "form": form,
            "cards": cards,
        }
        return TemplateResponse(request, "admin/tournament/round/table_cards.html", context, status=status)

    def change_view(self, request, object_id, form_url="", extra_context=None):
        """The round's page offers "Check this round" or "Unlock" to those who may."""
        round_ = self.get_object(request, object_id)
        if round_ is not None:
            actor = access.actor_for(request)
            extra_context = {
                **(extra_context or {}),
                "may_check": round_.checked_at is None and access.may_check_round(actor, round_.event_id),
                "may_unlock": round_.checked_at is not None and access.may_unlock_round(actor, round_.event),
                "may_set_start": round_.status != Round.Status.COMPLETED and access.may_manage(actor, round_.event_id),
            }
        return super().change_view(request, object_id, form_url, extra_context)

    def _round_for(self, request, round_id: int, allowed) -> Round:
        """The round a check or an unlocking is about: 403 without the role in its event and the permission."""
        round_ = Round.objects.select_related("event").filter(pk=round_id).first()
        if round_ is None:
            raise Http404(_("no such round"))
        if not (self.has_view_permission(request, round_) and allowed(access.actor_for(request), round_)):
            raise PermissionDenied
        event_time_zone_activate_by_id(round_.event_id)
        return round_

    def check_view(self, request, round_id):
        """Mark the round's results checked: the round is locked (organizers and referees)."""
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        round_ = self._round_for(request, round_id, lambda actor, r: access.may_check_round(actor, r.event_id))
        try:
            round_check(round_=round_, user=request.user)
        except TaikaiError as exc:
            messages.error(request, exc.message)
        else:
            # Translators: object is a round
            messages.success(request, _("%(object)s: checked and locked.") % {"object": round_})
        return HttpResponseRedirect(reverse("admin:tournament_round_change", args=[round_.pk]))

    def unlock_view(self, request, round_id):
        """Unlock a checked round, saying why (the event's owner or its head referees)."""
        round_ = self._round_for(request, round_id, lambda actor, r: access.may_unlock_round(actor, r.event))
        form = UnlockForm(request.POST or None)
        status = 200
        if request.method == "POST" and form.is_valid():
            try:
                round_unlock(round_=round_, reason=form.cleaned_data["reason"], user=request.user)
            except TaikaiError as exc:
                form.add_error("reason" if exc.field == "reason" else None, exc.message)
                status = 400 if exc.field == "reason" else 409
            else:
                # Translators: object is a round
                messages.success(request, _("%(object)s: unlocked.") % {"object": round_})
                return HttpResponseRedirect(reverse("admin:tournament_round_change", args=[round_.pk]))
        elif request.method == "POST":
            status = 400
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "original": round_,
            "title": _("Unlock %(round)s") % {"round": round_},
            "form": form,
        }
        return TemplateResponse(request, "admin/tournament/round/unlock.html", context, status=status)

    def start_view(self, request, round_id):
        """Set the round's announced start by hand (organizers); late players count from it."""
        round_ = self._round_for(request, round_id, lambda actor, r: access.may_manage(actor, r.event_id))
        form = RoundStartForm(
            request.POST or None,
            initial={"starts_at": localtime(round_.starts_at) if round_.starts_at else None},
        )
        status = 200
        if request.method == "POST" and form.is_valid():
            try:
                round_start_set(round_=round_, starts_at=form.cleaned_data["starts_at"])
            except TaikaiError as exc:
                form.add_error(None, exc.message)
                status = 409 if exc.status == 409 else 400
            else:
                # Translators: object is a round
                messages.success(request, _("%(object)s: the announced start is set.") % {"object": round_})
                return HttpResponseRedirect(reverse("admin:tournament_round_change", args=[round_.pk]))
        elif request.method == "POST":
            status = 400
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "original": round_,
            "title": _("Announced start of %(round)s") % {"round": round_},
            "form": form,
        }
        return TemplateResponse(request, "admin/tournament/round/start.html", context, status=status)
