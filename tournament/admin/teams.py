"""Team events (団体戦) in the admin: an event's teams with their members and reserves, a reserve in for a
member for one round (recorded), and teams read from a CSV file on the event's page."""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from taikai.errors import TaikaiError
from tournament.admin.common import EventScopedAdmin
from tournament.models import Entry, Event, Team, TeamMember, TeamSwap
from tournament.services.teams import TEAM_COLUMNS, team_reserve_in, teams_import_csv


class TeamMembersOfItsEvent(forms.BaseInlineFormSet):
    """A member is a player entered in the team's own event, never in another."""

    def clean(self):
        super().clean()
        event_id = self.instance.event_id
        for member_form in self.forms:
            entry = getattr(member_form, "cleaned_data", {}).get("entry")
            if entry is not None and entry.event_id != event_id:
                member_form.add_error("entry", _("a member is a player of the team's event"))


class TeamMemberInline(admin.TabularInline):
    model = TeamMember
    formset = TeamMembersOfItsEvent
    fields = ("entry", "role")
    raw_id_fields = ("entry",)
    extra = 0


class TeamForm(forms.ModelForm):
    def clean(self):
        data = super().clean()
        captain, event = data.get("captain"), data.get("event")
        if captain is not None and event is not None and captain.event_id != event.pk:
            self.add_error("captain", _("the captain is a player of the team's event"))
        return data


class TeamSwapInline(admin.TabularInline):
    """The reserves who came in, as recorded: read only (a reserve comes in through "Reserve in…")."""

    model = TeamSwap
    fields = ("round_number", "reserve", "member", "by", "at")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


class ReserveInForm(forms.Form):
    round_number = forms.IntegerField(min_value=1, label=gettext_lazy("round"))
    member = forms.ModelChoiceField(queryset=Entry.objects.none(), label=gettext_lazy("member replaced"))
    reserve = forms.ModelChoiceField(queryset=Entry.objects.none(), label=gettext_lazy("reserve"))

    def __init__(self, *args, team: Team, **kwargs):
        super().__init__(*args, **kwargs)
        people = Entry.objects.filter(team_member__team=team).select_related("player").order_by("player__display_name")
        self.fields["member"].queryset = people.filter(team_member__role=TeamMember.Role.MEMBER)
        self.fields["reserve"].queryset = people.filter(team_member__role=TeamMember.Role.RESERVE)


@admin.register(Team)
class TeamAdmin(EventScopedAdmin):
    list_display = ("name", "event", "captain", "member_count", "reserve_in_link")
    list_filter = (("event", admin.RelatedOnlyFieldListFilter),)
    search_fields = ("name",)
    fields = ("event", "name", "captain")
    raw_id_fields = ("captain",)
    inlines = [TeamMemberInline, TeamSwapInline]
    form = TeamForm

    @admin.display(description=gettext_lazy("members"))
    def member_count(self, obj) -> int:
        return obj.members.count()

    @admin.display(description=gettext_lazy("reserves"))
    def reserve_in_link(self, obj):
        return format_html(
            '<a href="{}">{}</a>', reverse("admin:tournament_team_reserve_in", args=[obj.pk]), _("Reserve in…")
        )

    def get_urls(self):
        view = self.admin_site.admin_view(self.reserve_in_view)
        return [
            path("<int:team_id>/reserve-in/", view, name="tournament_team_reserve_in"),
            *super().get_urls(),
        ]

    def reserve_in_view(self, request, team_id: int):
        """A reserve plays a round in place of a member of their team, before that round is seated (the
        event's organizers); recorded with who and when."""
        team = self.object_to_change(request, Team, team_id)
        form = ReserveInForm(request.POST or None, team=team)
        status = 200
        if request.method == "POST" and form.is_valid():
            data = form.cleaned_data
            try:
                team_reserve_in(
                    team=team,
                    reserve=data["reserve"],
                    member=data["member"],
                    round_number=data["round_number"],
                    by=request.user,
                )
            except TaikaiError as exc:
                field = {"round": "round_number"}.get(exc.field, exc.field)
                form.add_error(field if field in form.fields else None, exc.message)
                status = 400
            else:
                messages.success(
                    request,
                    _("%(reserve)s plays round %(round)s for %(team)s in place of %(member)s.")
                    % {
                        "reserve": data["reserve"].player,
                        "round": data["round_number"],
                        "team": team,
                        "member": data["member"].player,
                    },
                )
                return redirect("admin:tournament_team_change", team.pk)
        elif request.method == "POST":
            status = 400
        context = {
            **self.admin_site.each_context(request),
            "opts": Team._meta,
            "original": team,
            "form": form,
            "title": _("A reserve of %(team)s in for one round") % {"team": team},
        }
        return TemplateResponse(request, "admin/tournament/team/reserve_in.html", context, status=status)


class TeamsCsvForm(forms.Form):
    csv_file = forms.FileField(label=gettext_lazy("CSV file"))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # Translators: columns is the list of the CSV's column names (they stay in English)
        self.fields["csv_file"].help_text = _(
            "UTF-8, header row with: %(columns)s (player: the external id, such as an EMA number, or the name "
            "of a player entered in the event; role: member or reserve)."
        ) % {"columns": ", ".join(TEAM_COLUMNS)}


def teams_csv_view(model_admin, request, event_id: int):
    """The event's teams from a CSV file (the event's organizers): all the file, or nothing."""
    event = model_admin.object_to_change(request, Event, event_id)
    form = TeamsCsvForm(request.POST or None, request.FILES or None)
    status = 200
    if request.method == "POST" and form.is_valid():
        try:
            written = teams_import_csv(event=event, data=form.cleaned_data["csv_file"].read())
        except TaikaiError as exc:
            form.add_error("csv_file", exc.message)
            status = 400
        else:
            messages.success(
                request, _("%(count)s team members read into %(event)s.") % {"count": written, "event": event}
            )
            return redirect("admin:tournament_event_change", event.pk)
    elif request.method == "POST":
        status = 400
    title = _("Teams of %(event)s from CSV") % {"event": event}
    context = {
        **model_admin.admin_site.each_context(request),
        "opts": Event._meta,
        "original": event,
        "title": title,
        "form": form,
        "event": event,
    }
    return TemplateResponse(request, "admin/tournament/event/file_form.html", context, status=status)
