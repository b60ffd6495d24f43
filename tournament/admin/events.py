"""Events in the admin: settings, entries, typed and automatic seating, CSV registration (the archive's
download and upload are added by the ``archive`` app, built on this one)."""

from __future__ import annotations

import json

from django import forms
from django.conf import settings
from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.db import transaction
from django.db.models import Count
from django.http import Http404, HttpResponseNotAllowed
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe
from django.utils.timezone import localtime
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from core.selectors import queued_task_waiting_for
from players.csv_import import (
    CsvImportError,
    csv_line_count,
    players_find_or_create_csv,
    players_import_request,
)
from scoring.calculator import DEFAULT_RULESET as STANDARD_RULESET
from scoring.models import Ruleset
from scoring.yaku_names import BILINGUAL
from taikai.errors import TaikaiError
from tournament import access, selectors
from tournament.admin.common import (
    EventScopedAdmin,
    EventScopedInline,
    apply_to_each,
    formset_save_changed_fields,
)
from tournament.admin.players import PlayerCsvForm
from tournament.admin.schedule import schedule_view
from tournament.admin.teams import teams_csv_view
from tournament.engine.standings import DEFAULT_PRECEDENCE
from tournament.forms import ApiTokenForm, ManualSeatingForm, entry_by_name_or_id
from tournament.models import Entry, Event, EventRole, SeatingJob
from tournament.models.events import draw_seed_new
from tournament.services.entries import entries_register, registered_message
from tournament.services.events import event_finish
from tournament.services.guards import OVERRIDABLE
from tournament.services.roles import role_grant, role_revoke
from tournament.services.rounds import round_create, round_publish
from tournament.services.rule_changes import REASON_FIELD, rule_changes_record, rule_changes_require_reason
from tournament.services.seating import (
    SEAT_NEXT_ROUND,
    round_draft_reroll,
    round_draft_swap,
    seating_job_request,
    seating_job_stale,
)
from tournament.services.standings import standings_rows, standings_schedule_recompute
from tournament.services.tokens import api_token_issue
from tournament.stored_text import stored_text_display
from tournament.templatetags.taikai import rule_change_note


class EntryInline(EventScopedInline, admin.TabularInline):
    model = Entry
    fk_name = "event"
    extra = 0
    autocomplete_fields = ("player",)
    fields = ("player", "status", "status_reason_said", "substitute_for")
    readonly_fields = (
        "status",
        "status_reason_said",
    )  # Entries → select → Mark away / Withdraw / Mark active
    raw_id_fields = ("substitute_for",)

    @admin.display(description=_("status reason"))
    def status_reason_said(self, obj) -> str:
        return stored_text_display(obj.status_reason) if obj is not None else ""


def may_open_accounts(admin_site, request) -> bool:
    """Whether the viewer may open the accounts' pages in the admin (a link to one is shown only then)."""
    accounts = get_user_model()
    if not admin_site.is_registered(accounts):
        return False
    return admin_site.get_model_admin(accounts).has_view_permission(request)


class EventRoleForm(forms.ModelForm):
    """A role given by user name (organizers do not browse the list of accounts); a role held is shown
    as it is and can only be revoked (delete) or granted again with other tables."""

    username = forms.CharField(label=_("User name"), max_length=150)

    class Meta:
        model = EventRole
        fields = ("kind", "tables", "head")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.instance.pk:
            self.initial["username"] = self.instance.user.get_username()
            for field in self.fields.values():
                field.disabled = True

    def clean_username(self):
        name = self.cleaned_data["username"].strip()
        user = get_user_model()._default_manager.filter(username=name, is_active=True).first()
        if user is None:
            raise forms.ValidationError(
                _("no active account is named %(name)s"), code="unknown_user", params={"name": repr(name)}
            )
        self.instance.user = user
        return name


class EventRoleInline(EventScopedInline, admin.TabularInline):
    """Who holds which role in the event. Deleting a row revokes the role; the record stays (Roles list)."""

    model = EventRole
    form = EventRoleForm
    extra = 0
    fields = ("username", "kind", "tables", "head", "granted_by", "granted_at")
    readonly_fields = ("granted_by", "granted_by_name", "granted_at")
    verbose_name = _("role")
    verbose_name_plural = _("roles: co-organizers and referees (delete a row to revoke it; it stays in the Roles list)")

    def get_queryset(self, request):
        return super().get_queryset(request).filter(revoked_at__isnull=True).select_related("user", "granted_by")

    def get_fields(self, request, obj=None):
        """Who granted a role is named without a link for a viewer who may not open the accounts' pages."""
        fields = super().get_fields(request, obj)
        if may_open_accounts(self.admin_site, request):
            return fields
        return ["granted_by_name" if name == "granted_by" else name for name in fields]

    @admin.display(description=_("granted by"))
    def granted_by_name(self, obj) -> str:
        return str(obj.granted_by) if obj is not None and obj.granted_by_id else "—"


STARTING_STATUSES = (Event.Status.DRAFT, Event.Status.REGISTRATION)

PRECEDENCE_CHOICES = [  # art. 41: the order of the overall standings, keys of the standings engine
    (DEFAULT_PRECEDENCE, _("Advances, then total points (art. 41)")),
    (("total_points",), _("Total points only")),
    ((*DEFAULT_PRECEDENCE, "lot"), _("Advances, then total points, then by lot 抽選 (the event's draw seed)")),
    (("total_points", "lot"), _("Total points, then by lot 抽選 (the event's draw seed)")),
]


class EventForm(forms.ModelForm):
    standings_precedence = forms.ChoiceField(
        label=_("Standings order"),
        choices=[(",".join(keys), label) for keys, label in PRECEDENCE_CHOICES],
    )

    class Meta:
        model = Event
        fields = ("standings_precedence",)  # the admin adds the fields of its fieldsets

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.initial["standings_precedence"] = ",".join(self.instance.precedence)
        if "draw_seed" in self.fields:
            self.fields["draw_seed"].required = False
        if "yaku_names" in self.fields:
            self.fields["yaku_names"].required = False

    rule_change_reason = forms.CharField(
        label=_("Reason for changing the rules"),
        required=False,
        max_length=500,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text=_(
            "Once round 1 has a result, changing the standings order, its tie-breaks or the seating's settings "
            "needs a reason: the change is recorded and shown on the public standings."
        ),
    )

    def clean_standings_precedence(self):
        return self.cleaned_data["standings_precedence"].split(",")

    def clean_yaku_names(self):
        """Not sent (a form from before the setting): the event keeps its naming."""
        return self.cleaned_data.get("yaku_names") or self.instance.yaku_names or BILINGUAL

    def clean_draw_seed(self):
        """Left empty: the seed stays (a new event keeps the one drawn for it)."""
        seed = self.cleaned_data.get("draw_seed")
        if seed is None:
            return self.instance.draw_seed if self.instance.draw_seed is not None else draw_seed_new()
        if not 0 <= seed < 2**63:
            raise forms.ValidationError(_("a whole number from 0 up"), code="invalid")
        return seed

    def clean(self):
        """A frozen setting changed without a reason: refused on the reason's field, nothing saved."""
        cleaned = super().clean()
        if self.instance.pk is None:
            return cleaned
        settings = {
            name: cleaned[name] for name in ("seating_method", "seating_remainder", "draw_seed") if name in cleaned
        }
        if "standings_precedence" in cleaned:
            settings["standings_precedence"] = list(cleaned["standings_precedence"])
        try:
            rule_changes_require_reason(
                event=Event.objects.get(pk=self.instance.pk), settings=settings, reason=cleaned.get(REASON_FIELD, "")
            )
        except TaikaiError as exc:
            self.add_error(REASON_FIELD, exc.message)
        return cleaned


# the event's fields its standings are computed from: a change computes them again
# a change of these computes the standings again, and their announcement tells the apps built on the event
# (a series counts a public event, and drops it once private)
STANDINGS_FIELDS = frozenset(
    {"standings_precedence", "standings_hidden_from_round", "results_after_check", "is_public"}
)


@admin.register(Event)
class EventAdmin(EventScopedAdmin):
    event_path = ""
    form = EventForm
    list_display = (
        "name",
        "starts_on",
        "status",
        "is_public",
        "imported",
        "table_size",
        "planned_rounds",
        "entry_count",
        "public_link",
    )
    list_filter = ("status", "table_size", "is_public", "imported")
    search_fields = ("name", "slug", "venue")
    prepopulated_fields = {"slug": ("name",)}

    inlines = [EventRoleInline, EntryInline]
    actions = ["finish_events"]

    @admin.action(description=_("Finish the selected events (every round completed)"), permissions=["change"])
    def finish_events(self, request, queryset):
        # Translators: object is an event
        done = _("%(object)s: finished.")
        apply_to_each(self, request, queryset, lambda event: event_finish(event=event), done)

    change_form_template = "admin/tournament/event/change_form.html"
    fieldsets = [
        (
            None,
            {
                "fields": (
                    "name",
                    "slug",
                    "starts_on",
                    "ends_on",
                    "venue",
                    "time_zone",
                    "status",
                    "is_public",
                    "imported",
                )
            },
        ),
        (
            _("Rules"),
            {
                "fields": (
                    "ruleset",
                    "table_size",
                    "planned_rounds",
                    "entry_mode",
                    "advancing_places",
                    "standings_precedence",
                    "tournament_play",
                    "penalty_unit",
                    "overtime_enabled",
                    "clock_bank_seconds",
                    "clock_increment_seconds",
                    "final_games",
                    "round_minutes",
                    "late_absent_minutes",
                    "standings_hidden_from_round",
                    "results_after_check",
                    "yaku_names",
                )
            },
        ),
        (_("Seating"), {"fields": ("seating_method", "seating_remainder", "draw_seed")}),
        (_("Changing the rules after the start"), {"fields": (REASON_FIELD, "rule_changes_recorded")}),
        (_("Teams 団体戦"), {"fields": ("team_rule", "team_best")}),
        (_("Staff"), {"fields": ("owner",)}),
    ]

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(_entries=Count("entries")).order_by(*Event._meta.ordering)

    def has_add_permission(self, request):
        """Anyone with the model permission may create an event; they become its owner."""
        return admin.ModelAdmin.has_add_permission(self, request)

    def get_fieldsets(self, request, obj=None):
        """The owner is named without a link for a viewer who may not open the accounts' pages (the link
        would answer 403)."""
        fieldsets = super().get_fieldsets(request, obj)
        if may_open_accounts(self.admin_site, request):
            return fieldsets
        return [
            (name, {**options, "fields": tuple("owner_name" if f == "owner" else f for f in options["fields"])})
            for name, options in fieldsets
        ]

    @admin.display(description=_("rule changes"))
    def rule_changes_recorded(self, obj) -> str:
        """The rules changed once round 1 had a result: when, who, which setting, before, after and why."""
        changes = selectors.event_rule_changes(obj) if obj is not None and obj.pk else []
        rows = (
            (
                date_format(localtime(change.at), "SHORT_DATETIME_FORMAT"),
                rule_change_note(change),
                json.dumps(change.before, ensure_ascii=False),
                json.dumps(change.after, ensure_ascii=False),
            )
            for change in changes
        )
        return format_html_join(mark_safe("<br>"), "{} · {} ({} → {})", rows) or "—"

    @admin.display(description=_("owner"))
    def owner_name(self, obj) -> str:
        return str(obj.owner) if obj is not None and obj.owner_id else "—"

    def get_readonly_fields(self, request, obj=None):
        """The status moves with the event (its first round, Finish the selected events); a new event
        starts as a draft or open for registration. An event that has started keeps its ruleset: its results
        were computed with it."""
        fields = ("imported", "rule_changes_recorded")
        if not request.user.is_superuser:
            fields = (*fields, "owner", "owner_name")
        if obj is None:
            return fields
        started = obj.status not in STARTING_STATUSES
        return (*fields, "status", *(("ruleset",) if started else ()))

    def get_form(self, request, obj=None, **kwargs):
        form_class = super().get_form(request, obj, **kwargs)
        if obj is None and "status" in form_class.base_fields:
            form_class.base_fields["status"].choices = [
                (value, label) for value, label in Event.Status.choices if value in STARTING_STATUSES
            ]
        return form_class

    def get_changeform_initial_data(self, request):
        """A new event starts on the standard preset (資料001/002), the rules most events play."""
        initial = super().get_changeform_initial_data(request)
        if "ruleset" not in initial:
            standard = Ruleset.objects.filter(slug=STANDARD_RULESET).values_list("pk", flat=True).first()
            if standard is not None:
                initial["ruleset"] = standard
        return initial

    def save_model(self, request, obj, form, change):
        if not change and (obj.owner_id is None or not request.user.is_superuser):
            obj.owner = request.user
        recorded = []
        if change:  # a frozen setting changed once round 1 has a result: recorded (the form checked the reason)
            recorded = rule_changes_record(event=obj, reason=form.cleaned_data.get(REASON_FIELD, ""), user=request.user)
        super().save_model(request, obj, form, change)
        if change and (recorded or STANDINGS_FIELDS.intersection(form.changed_data)):  # the standings note the change
            standings_schedule_recompute(event_id=obj.pk)  # after commit: the pages show the new order

    def save_formset(self, request, form, formset, change):
        """Roles go through the services: a new row grants, a deleted row revokes, nothing is deleted.
        Entries save the fields their rows changed (their status moves through the services)."""
        if formset.model is Entry:
            return formset_save_changed_fields(formset)
        if formset.model is not EventRole:
            return super().save_formset(request, form, formset, change)
        formset.new_objects, formset.changed_objects, formset.deleted_objects = [], [], []
        for row in formset.deleted_forms:
            if row.instance.pk:
                formset.deleted_objects.append(role_revoke(role=row.instance, by=request.user))
        for row in formset.extra_forms:
            if row.has_changed() and not formset._should_delete_form(row):
                data = row.cleaned_data
                try:
                    role = role_grant(
                        event=form.instance,
                        user=row.instance.user,
                        kind=data["kind"],
                        tables=data.get("tables", ""),
                        head=bool(data.get("head")),
                        by=request.user,
                    )
                except TaikaiError as exc:
                    messages.error(
                        request, _("%(user)s: %(error)s") % {"user": row.instance.user, "error": exc.message}
                    )
                else:
                    formset.new_objects.append(role)
        return None

    @admin.display(description=_("entries"), ordering="_entries")
    def entry_count(self, obj):
        return obj._entries

    @admin.display(description=_("public page"))
    def public_link(self, obj):
        # Translators: a link to the event's public page
        return format_html('<a href="{}">{}</a>', obj.get_absolute_url(), _("view"))

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
            path(
                "<int:event_id>/schedule/",
                self.admin_site.admin_view(lambda request, event_id: schedule_view(self, request, event_id)),
                name="tournament_event_schedule",
            ),
            path(
                "<int:event_id>/teams-csv/",
                self.admin_site.admin_view(lambda request, event_id: teams_csv_view(self, request, event_id)),
                name="tournament_event_teams_csv",
            ),
            path(
                "<int:event_id>/api-tokens/",
                self.admin_site.admin_view(self.api_tokens_view),
                name="tournament_event_api_tokens",
            ),
            path("<int:event_id>/seating-job/<int:job_id>/", job, name="tournament_event_seating_job"),
            path(
                "<int:event_id>/full-standings/",
                self.admin_site.admin_view(self.full_standings_view),
                name="tournament_event_full_standings",
            ),
            *super().get_urls(),
        ]

    def register_csv_view(self, request, event_id):
        """Register a field from CSV: known external ids name stored players, other rows create them."""
        event = self.object_to_change(request, Event, event_id)
        if not request.user.has_perms(["players.add_player", "tournament.add_entry"]):
            raise PermissionDenied
        form = PlayerCsvForm(request.POST or None, request.FILES or None)
        problems = []
        if request.method == "POST" and form.is_valid():
            upload = form.cleaned_data["csv_file"]
            data = upload.read()
            if csv_line_count(data) > settings.PLAYER_IMPORT_INLINE_ROWS:  # longer than a request may take
                job = players_import_request(data=data, file_name=upload.name, user=request.user, event_id=event.pk)
                return redirect("admin:players_player_import_job", job.pk)
            try:
                with transaction.atomic():
                    players = players_find_or_create_csv(data=data)
                    entries = entries_register(event=event, players=players)
            except CsvImportError as exc:
                problems = exc.problems
            except TaikaiError as exc:
                messages.error(request, exc.message)
            else:
                messages.success(request, registered_message(len(entries), event))
                return redirect("admin:tournament_event_change", event.pk)
        title = _("Register players in %(event)s from CSV") % {"event": event}
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "original": event,
            "title": title,
            "form": form,
            "problems": problems,
            "event": event,
        }
        return TemplateResponse(
            request, "admin/players/player/import_csv.html", context, status=400 if problems else 200
        )

    FULL_STANDINGS_PER_PAGE = 100

    def full_standings_view(self, request, event_id):
        """The standings with every round, computed now: for the organizers of an event that hides its last
        rounds from the public (they see the public ones on the event's page)."""
        if request.method != "GET":
            return HttpResponseNotAllowed(["GET"])
        event = self.object_to_change(request, Event, event_id)
        page = Paginator(standings_rows(event), self.FULL_STANDINGS_PER_PAGE).get_page(request.GET.get("page"))
        title = _("Full standings of %(event)s") % {"event": event}
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "original": event,
            "title": title,
            "page": page,
        }
        return TemplateResponse(request, "admin/tournament/event/full_standings.html", context)

    def api_tokens_view(self, request, event_id):
        """The event's API tokens, and a new one issued: its secret is shown this once."""
        event = self.object_to_change(request, Event, event_id)
        if not access.may_issue_tokens(access.actor_for(request), event.pk):
            raise PermissionDenied
        form = ApiTokenForm(request.POST or None)
        issued, status = None, 200
        if request.method == "POST" and form.is_valid():
            try:
                issued = api_token_issue(event=event, by=request.user, **form.cleaned_data)
            except TaikaiError as exc:
                form.add_error(exc.field if exc.field in form.fields else None, exc.message)
                status = 400
        elif request.method == "POST":
            status = 400
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "original": event,
            "title": _("API tokens — %(event)s") % {"event": event},
            "form": form,
            "issued": issued,
            "time_zone": timezone.get_current_timezone_name(),
            "tokens": selectors.event_api_tokens(event),
        }
        return TemplateResponse(request, "admin/tournament/event/api_tokens.html", context, status=status)

    def seat_auto_view(self, request, event_id):
        """Queue the next round's automatic seating (Celery) and show its progress."""
        event = self.object_to_change(request, Event, event_id)
        if request.method != "POST":
            return redirect("admin:tournament_event_change", event.pk)
        override, reason = _override_asked(request)
        try:
            job = seating_job_request(event=event, user=request.user, override=override, override_reason=reason)
        except TaikaiError as exc:
            if exc.code in OVERRIDABLE or (override and exc.field in ("override", "reason")):
                return self._seat_override(request, event, exc, override, "admin:tournament_event_seat_auto")
            messages.error(request, exc.message)
            return redirect("admin:tournament_event_change", event.pk)
        return redirect("admin:tournament_event_seating_job", event.pk, job.pk)

    def _seat_override(self, request, event, exc, override, url_name, tables: str = ""):
        """A guard before the round refused: say what it said and what to do, and offer the organizer to seat the
        round anyway with a reason, recorded (400)."""
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "original": event,
            "title": _("Seat the next round of %(event)s") % {"event": event},
            "refusal": exc,
            "override": [*override, exc.code] if exc.code in OVERRIDABLE else override,
            "action": reverse(url_name, args=[event.pk]),
            "tables": tables,
            "reason": request.POST.get("override_reason", ""),
        }
        return TemplateResponse(request, "admin/tournament/event/seat_override.html", context, status=400)

    def seating_job_view(self, request, event_id, job_id):
        event = self.object_to_change(request, Event, event_id)
        job = selectors.seating_job_for(event.pk, job_id)
        if job is None:
            raise Http404(_("no such seating job"))
        round_ = selectors.event_round(job.event, job.round_number)
        if request.method == "POST" and round_ is not None:
            try:
                done = self._draft_action(request, round_)
            except TaikaiError as exc:
                messages.error(request, exc.message)
            else:
                messages.success(request, done)
                if request.POST.get("action", "publish") == "publish":
                    return redirect("admin:tournament_round_change", round_.pk)
                return redirect("admin:tournament_event_seating_job", event.pk, job.pk)
        tables = []
        if round_ is not None:
            tables = selectors.round_tables_with_seats(round_)
        stale = seating_job_stale(job)
        title = _("Seating of round %(number)s") % {"number": job.round_number}
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "original": job.event,
            "title": title,
            "job": job,
            "round": round_,
            "tables": tables,
            "running": job.state in (SeatingJob.State.QUEUED, SeatingJob.State.RUNNING) and not stale,
            "stale": stale,
            "stale_seconds": round(settings.SEATING_STALE_SECONDS),
            "waiting": queued_task_waiting_for(SEAT_NEXT_ROUND, job.pk),
        }
        return TemplateResponse(request, "admin/tournament/event/seating_job.html", context)

    def _draft_action(self, request, round_) -> str:
        """Publish the draft, seat it again with another draw, or swap two of its players."""
        action = request.POST.get("action", "publish")
        if action == "reroll":
            round_draft_reroll(round_=round_)
            return _("Round %(number)s is seated again; check the report, then publish.") % {"number": round_.number}
        if action == "swap":
            first, second = (
                entry_by_name_or_id(round_.event, request.POST.get(k, ""), partial=True) for k in ("first", "second")
            )
            round_draft_swap(round_=round_, first=first, second=second)
            return _("%(first)s and %(second)s swapped seats.") % {
                "first": first.player,
                "second": second.player,
            }
        round_publish(round_=round_)
        return _("Round %(number)s is published.") % {"number": round_.number}

    def seat_round_view(self, request, event_id):
        event = self.object_to_change(request, Event, event_id)
        form = ManualSeatingForm(request.POST or None, event=event)
        if request.method == "POST" and form.is_valid():
            override, reason = _override_asked(request)
            try:
                round_ = round_create(
                    event=event,
                    tables=form.cleaned_data["tables"],
                    override=override,
                    override_reason=reason,
                    user=request.user,
                )
            except TaikaiError as exc:
                if exc.code in OVERRIDABLE or (override and exc.field in ("override", "reason")):
                    tables = request.POST.get("tables", "")
                    return self._seat_override(
                        request, event, exc, override, "admin:tournament_event_seat_round", tables
                    )
                form.add_error("tables", exc.message)
            else:
                tables = round_.tables.count()
                messages.success(
                    request,
                    ngettext(
                        "Round %(number)s is seated: %(count)s tables.",
                        "Round %(number)s is seated: %(count)s tables.",
                        tables,
                    )
                    % {"number": round_.number, "count": tables},
                )
                return redirect("admin:tournament_round_change", round_.pk)
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "original": event,
            "title": _("Seat the next round of %(event)s") % {"event": event},
            "form": form,
            "active": [e for e in selectors.event_entries_with_players(event) if e.status == Entry.Status.ACTIVE],
        }
        return TemplateResponse(request, "admin/tournament/event/seat_round.html", context)


def _override_asked(request) -> tuple[list[str], str]:
    """The guards an organizer overrides on the seating forms, and why."""
    return request.POST.getlist("override"), request.POST.get("override_reason", "")
