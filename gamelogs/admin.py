"""The imported game logs of the events one organizes, read-only (a log is a record, kept as it was given), and
"Import a game log…": a file or its pasted text, through the same service as the API."""

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect
from django.template.loader import render_to_string
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from gamelogs.confirmations import confirmation_window_close
from gamelogs.forms import GameLogForm
from gamelogs.services import disagreement_settle, game_log_import
from gamelogs.side_by_side import side_by_side
from taikai.errors import TaikaiError
from tournament import access
from tournament.admin.common import EventScopedAdmin, row_id
from tournament.models import Event, Round, Table

from .models import ConfirmationWindow, Disagreement, GameLogImport, OnlineLeague, OnlineTable


class DisagreementInline(admin.TabularInline):
    model = Disagreement
    extra = 0
    can_delete = False
    fields = (
        "hand_number",
        "winner_position",
        "log_scoring",
        "engine_scoring",
        "state",
        "resolved_by",
        "resolved_at",
    )
    readonly_fields = fields

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(GameLogImport)
class GameLogImportAdmin(admin.ModelAdmin):
    list_display = ("__str__", "event", "table", "hands", "created_at", "imported_by")
    list_filter = ("platform",)
    inlines = [DisagreementInline]
    readonly_fields = (
        "event",
        "table",
        "platform",
        "game_id",
        "digest",
        "log_format",
        "players",
        "final_scores",
        "hands",
        "seating_before",
        "imported_by",
        "imported_with",
        "created_at",
        "log",
    )
    fields = readonly_fields

    def get_queryset(self, request):
        actor = access.actor_for(request)
        queryset = super().get_queryset(request).select_related("event", "table__round", "imported_by")
        return (
            queryset
            if actor.is_superuser
            else queryset.filter(access.events_where(actor, manage=True, path="event_id"))
        )

    def has_add_permission(self, request) -> bool:
        return False  # imported by "Import a game log…", the API or import_game_logs

    def get_urls(self):
        view = self.admin_site.admin_view(self.import_view)
        return [path("import/", view, name="gamelogs_gamelogimport_import"), *super().get_urls()]

    def import_view(self, request):
        actor = access.actor_for(request)
        events = Event.objects.filter(access.events_where(actor)).exclude(status=Event.Status.FINISHED)
        if not self.has_view_permission(request) or not (access.manages_any(actor) or access.referees_any(actor)):
            raise PermissionDenied
        posted = request.POST.get("event", "")
        if posted and not (posted.isdigit() and access.holds_role(actor, int(posted))):
            raise PermissionDenied  # an event one holds no role in
        form = GameLogForm(request.POST or None, request.FILES or None, events=events)
        if request.method == "POST" and form.is_valid():
            event = form.cleaned_data["event"]
            try:
                record = game_log_import(
                    event=event,
                    data=form.cleaned_data["data"],
                    user=request.user,
                    may_record=lambda table: access.may_referee(actor, event.pk, table.number),
                )
            except TaikaiError as error:
                form.add_error(None, error.message)
            else:
                messages.success(request, imported_message(record))
                return redirect(reverse("admin:gamelogs_gamelogimport_change", args=[record.pk]))
        context = {
            **self.admin_site.each_context(request),
            "form": form,
            "title": _("Import a game log"),
            "opts": self.model._meta,
        }
        return TemplateResponse(
            request, "admin/gamelogs/gamelogimport/import.html", context, status=400 if form.errors else 200
        )

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


def imported_message(record: GameLogImport) -> str:
    table = record.table
    said = _("Round %(round)s, table %(table)s: %(hands)s hands recorded.") % {
        "round": table.round.number,
        "table": table.number,
        "hands": record.hands,
    }
    open_ = record.disagreements.count()
    if open_:
        return said + " " + _("%(count)s disagreements wait for a referee.") % {"count": open_}
    return said + " " + _("The table's result is confirmed.")


@admin.register(Disagreement)
class DisagreementAdmin(admin.ModelAdmin):
    """The hands where a log's scoring and Taikai's differ, for the event's organizers and the table's referees
    to settle: the hand as recorded stands, or it was corrected at the table first."""

    list_display = ("log_import", "hand_number", "winner_position", "state", "resolved_by", "resolved_at")
    list_filter = ("state",)
    readonly_fields = (
        "log_import",
        "hand_number",
        "winner_position",
        "scorings",
        "state",
        "resolved_by",
        "resolved_at",
    )
    fields = readonly_fields
    actions = ["accept", "mark_corrected"]

    def get_queryset(self, request):
        actor = access.actor_for(request)
        queryset = super().get_queryset(request).select_related("log_import__table__round", "resolved_by")
        if actor.is_superuser:
            return queryset
        return queryset.filter(access.events_where(actor, path="log_import__event_id"))

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False

    @admin.display(description=gettext_lazy("The two scorings"))
    def scorings(self, obj: Disagreement) -> str:
        """The log's scoring and Taikai's side by side (han, fu, yaku, points), and where to correct the hand."""
        table = obj.log_import.table
        return render_to_string(
            "admin/gamelogs/disagreement/scorings.html",
            {
                "rows": side_by_side(obj, list(obj.log_import.players)),
                "correct": reverse("console:table", args=[table.pk]) + f"?hand={obj.hand_number}",
            },
        )

    def changelist_view(self, request, extra_context=None):
        """Settling a selection of hands one may not settle (another event's, another table's) is refused with
        403 before anything is written."""
        if request.method == "POST" and request.POST.get("action") in ("accept", "mark_corrected"):
            actor = access.actor_for(request)
            chosen = set(request.POST.getlist(ACTION_CHECKBOX_NAME))
            rows = self.get_queryset(request).filter(pk__in=chosen)
            if len(rows) != len(chosen) or not all(
                access.may_referee(actor, row.log_import.table.round.event_id, row.log_import.table.number)
                for row in rows
            ):
                raise PermissionDenied
        return super().changelist_view(request, extra_context)

    def has_settle_permission(self, request) -> bool:
        return self.has_view_permission(request)

    @admin.action(description=gettext_lazy("Accept the selected hands as recorded"), permissions=["settle"])
    def accept(self, request, queryset):
        self._settle(request, queryset, Disagreement.State.ACCEPTED)

    @admin.action(
        description=gettext_lazy("Mark the selected hands corrected (corrected at the table)"),
        permissions=["settle"],
    )
    def mark_corrected(self, request, queryset):
        self._settle(request, queryset, Disagreement.State.CORRECTED)

    def _settle(self, request, queryset, state: str) -> None:
        actor = access.actor_for(request)
        for disagreement in queryset:
            table = disagreement.log_import.table
            if not access.may_referee(actor, table.round.event_id, table.number):
                messages.error(request, _("You may not settle the hands of table %(table)s.") % {"table": table.number})
                continue
            try:
                disagreement_settle(disagreement=disagreement, state=state, user=request.user)
            except TaikaiError as error:
                messages.error(request, f"{disagreement}: {error.message}")
            else:
                messages.success(request, _("%(hand)s: settled.") % {"hand": disagreement})


@admin.register(OnlineLeague)
class OnlineLeagueAdmin(EventScopedAdmin):
    """How an event one organizes takes online games: a free league, players from the logs, its lobby, the oldest
    log it takes."""

    list_display = ("event", "free_tables", "creates_players", "lobby", "max_log_age_days", "accepts_log_scoring")
    fields = (
        "event",
        "free_tables",
        "creates_players",
        "lobby",
        "max_log_age_days",
        "platform",
        "table_start",
        "lobby_adapter",
        "accepts_log_scoring",
        "unconfirmed",
    )

    def get_readonly_fields(self, request, obj=None):
        return ("event",) if obj is not None else ()

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


class ConfirmationWindowForm(forms.ModelForm):
    """A window is for a round not seated yet, and is opened (or moved) to close in the future."""

    class Meta:
        model = ConfirmationWindow
        fields = ("event", "round_number", "closes_at")

    def clean(self):
        cleaned = super().clean()
        event, number, closes_at = cleaned.get("event"), cleaned.get("round_number"), cleaned.get("closes_at")
        if event is not None and number and Round.objects.filter(event=event, number=number).exists():
            raise forms.ValidationError(_("round %(round)s is seated already") % {"round": number})
        if closes_at is not None and closes_at <= timezone.now() and self.instance.closed_at is None:
            raise forms.ValidationError(_("the window must close in the future"))
        return cleaned


@admin.register(ConfirmationWindow)
class ConfirmationWindowAdmin(EventScopedAdmin):
    form = ConfirmationWindowForm
    """An online round's confirmation window, set by the event's organizers; the players' answers below it.
    "Close now" marks the unconfirmed absent once the window's time has come."""

    list_display = ("event", "round_number", "closes_at", "closed_at")
    fields = ("event", "round_number", "closes_at", "closed_at", "answers")
    readonly_fields = ("closed_at", "answers")
    actions = ["close_now"]

    @admin.display(description=gettext_lazy("The players' answers"))
    def answers(self, obj: ConfirmationWindow) -> str:
        rows = obj.answers.select_related("entry__player").order_by("state", "entry__player__display_name")
        return "; ".join(f"{row.entry.player}: {row.get_state_display()}" for row in rows) or "—"

    @admin.action(description=gettext_lazy("Close the selected windows (their time has come)"), permissions=["change"])
    def close_now(self, request, queryset):
        for window in queryset:
            try:
                absent = confirmation_window_close(window=window)
            except TaikaiError as error:
                messages.error(request, f"{window}: {error.message}")
            else:
                messages.success(
                    request, _("%(window)s: %(count)s marked absent.") % {"window": window, "count": len(absent)}
                )


@admin.register(OnlineTable)
class OnlineTableAdmin(EventScopedAdmin):
    """The tables of a hybrid round that play online (their game from a log); the round's others play at the
    console."""

    event_path = "table__round__event"
    list_display = ("table", "created_at")
    fields = ("table",)

    def add_view(self, request, form_url="", extra_context=None):
        """A table of an event one does not organize: 403 before the form is read."""
        if request.method == "POST":
            table = Table.objects.filter(pk=row_id(request.POST.get("table"))).select_related("round").first()
            if table is not None and not access.may_manage(access.actor_for(request), table.round.event_id):
                raise PermissionDenied
        return super().add_view(request, form_url, extra_context)
