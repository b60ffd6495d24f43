"""The players' admin: players are the players app's, but who may change one, import a file of them or
register them in an event is asked of the events' roles (``tournament.access``), so the screens are here."""

from django import forms
from django.conf import settings
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponseNotAllowed
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import path
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from players.csv_import import (
    KNOWN_COLUMNS,
    CsvImportError,
    csv_line_count,
    players_import_csv,
    players_import_request,
)
from players.models import OnlineAccount, Player, PlayerImport
from taikai.errors import TaikaiError
from tournament import access, selectors
from tournament.services.entries import entries_register, registered_message


class NamedValuesListFilter(admin.AllValuesFieldListFilter):
    """A text field's values to filter by, the empty one named: a link with no words cannot be read out."""

    def choices(self, changelist):
        for choice in super().choices(changelist):
            yield {**choice, "display": _("(empty)")} if choice["display"] == "" else choice


def imported_message(count: int) -> str:
    return ngettext("Imported %(count)s player.", "Imported %(count)s players.", count) % {"count": count}


class PlayerCsvForm(forms.Form):
    csv_file = forms.FileField(label=_("CSV file"))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # Translators: columns is the list of the CSV's column names (they stay in English)
        help_text = _("UTF-8, header row with: %(columns)s (display_name required).")
        self.fields["csv_file"].help_text = help_text % {"columns": ", ".join(KNOWN_COLUMNS)}


class OnlineAccountInline(admin.TabularInline):
    """The player's accounts on online platforms: a game log's seats are matched to players by them."""

    model = OnlineAccount
    extra = 0
    fields = ("platform", "name", "account_id", "server")


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    inlines = [OnlineAccountInline]
    list_display = ("display_name", "family_name", "given_name", "club", "country", "external_id")
    search_fields = ("display_name", "family_name", "given_name", "reading", "club", "external_id")
    list_filter = (("country", NamedValuesListFilter), ("club", NamedValuesListFilter))
    raw_id_fields = ("user",)
    change_list_template = "admin/players/player/change_list.html"
    actions = ["register_in_event"]

    def get_readonly_fields(self, request, obj=None):
        """Linking a player to an account is the player's own doing, or a superuser's."""
        readonly = tuple(super().get_readonly_fields(request, obj))
        return readonly if request.user.is_superuser else (*readonly, "user")

    def has_change_permission(self, request, obj=None) -> bool:
        return super().has_change_permission(request, obj) and self._owned(request, obj)

    def has_delete_permission(self, request, obj=None) -> bool:
        return super().has_delete_permission(request, obj) and self._owned(request, obj)

    @staticmethod
    def _owned(request, player) -> bool:
        """Players are shared by every event: one entered in an event the user does not organize is that
        event's too, and only a superuser changes it."""
        if player is None or request.user.is_superuser:
            return True
        managed = access.events_where(access.actor_for(request), manage=True, path="event_id")
        return not player.entries.exclude(managed).exists()

    def has_register_permission(self, request) -> bool:
        """Registering writes entries: the entry permission, in an event the user organizes."""
        return request.user.has_perm("tournament.add_entry") and access.manages_any(access.actor_for(request))

    @admin.action(description=_("Register the selected players in an event"), permissions=["register"])
    def register_in_event(self, request, queryset):
        events = selectors.events_open_for_entries().filter(access.events_where(access.actor_for(request), manage=True))
        event_id = request.POST.get("event")
        if event_id:
            event = events.filter(pk=event_id).first()
            if event is None:
                if selectors.events_open_for_entries().filter(pk=event_id).exists():
                    raise PermissionDenied
                self.message_user(request, _("Choose an event that is not finished."), messages.ERROR)
                return None
            try:
                entries = entries_register(event=event, players=list(queryset))
            except TaikaiError as exc:
                self.message_user(request, exc.message, messages.ERROR)
                return None
            self.message_user(request, registered_message(len(entries), event))
            return None
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "players": queryset,
            "events": events,
            "title": _("Register players in an event"),
            "action_checkbox_name": admin.helpers.ACTION_CHECKBOX_NAME,
        }
        return TemplateResponse(request, "admin/players/player/register_in_event.html", context)

    def get_urls(self):
        return [
            path(
                "import-csv/",
                self.admin_site.admin_view(self.import_csv_view),
                name="players_player_import_csv",
            ),
            path(
                "import-csv/<int:job_id>/",
                self.admin_site.admin_view(self.import_job_view),
                name="players_player_import_job",
            ),
            *super().get_urls(),
        ]

    def changelist_view(self, request, extra_context=None):
        action = request.POST.get("action") if request.method == "POST" else None
        if action and action not in self.get_actions(request):
            raise PermissionDenied
        return super().changelist_view(request, extra_context)

    def import_csv_view(self, request):
        if not self.has_add_permission(request):
            raise PermissionDenied
        problems = []
        form = PlayerCsvForm(request.POST or None, request.FILES or None)
        if request.method == "POST" and form.is_valid():
            upload = form.cleaned_data["csv_file"]
            data = upload.read()
            if csv_line_count(data) > settings.PLAYER_IMPORT_INLINE_ROWS:
                job = players_import_request(data=data, file_name=upload.name, user=request.user)
                return redirect("admin:players_player_import_job", job.pk)
            try:
                created = players_import_csv(data=data)
            except CsvImportError as exc:
                problems = exc.problems
            else:
                messages.success(request, imported_message(len(created)))
                return redirect("admin:players_player_changelist")
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "title": _("Import players from CSV"),
            "form": form,
            "problems": problems,
        }
        return TemplateResponse(
            request, "admin/players/player/import_csv.html", context, status=400 if problems else 200
        )

    def import_job_view(self, request, job_id):
        """A large import run by a worker: its progress, then what was imported or every problem."""
        if request.method not in ("GET", "HEAD"):
            return HttpResponseNotAllowed(["GET", "HEAD"])
        if not self.has_add_permission(request):
            raise PermissionDenied
        job = PlayerImport.objects.defer("data").filter(pk=job_id).first()
        if job is None:
            raise Http404("no such import")
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "job": job,
            "title": f"Import of {job.file_name or 'a CSV file'}",
            "running": job.state in (PlayerImport.State.QUEUED, PlayerImport.State.RUNNING),
        }
        return TemplateResponse(request, "admin/players/player/import_job.html", context)
