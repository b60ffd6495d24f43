"""An event's fixed schedule in the admin: read from a file (CSV or JSON) or planned by Taikai, checked,
shown round by round and player by player, printable for an event run on paper."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from taikai.errors import TaikaiError
from tournament import selectors
from tournament.models import Event
from tournament.services.planning import schedule_plan
from tournament.services.schedule import schedule_import

SEATS = (gettext_lazy("East"), gettext_lazy("South"), gettext_lazy("West"), gettext_lazy("North"))


class ScheduleForm(forms.Form):
    file = forms.FileField(
        label=gettext_lazy("Schedule file"),
        help_text=gettext_lazy(
            "CSV with the columns round, table, east, south, west, north (players by their "
            'external id or name), or JSON {"rounds": [[[player, …], …], …]}.'
        ),
    )
    winds = forms.ChoiceField(
        label=gettext_lazy("Winds"),
        initial="keep",
        choices=[
            ("keep", gettext_lazy("Keep the seats as given")),
            ("balance", gettext_lazy("Balance them: each player once in each seat every four rounds")),
        ],
    )


def schedule_view(model_admin, request, event_id: int):
    """Import the event's fixed schedule (its organizers), and show the one it has."""
    event = model_admin.object_to_change(request, Event, event_id)
    planning = request.method == "POST" and "plan" in request.POST
    form = ScheduleForm(None if planning else request.POST or None, request.FILES or None)
    status = 200
    if planning:
        try:
            schedule_plan(event=event, user=request.user)
        except TaikaiError as exc:
            messages.error(request, exc.message)
            status = 400
        else:
            messages.success(
                request,
                _("The whole event is planned: each round is seated from this schedule. Print it for the tables."),
            )
            return redirect("admin:tournament_event_schedule", event.pk)
    elif request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        try:
            schedule_import(
                event=event,
                data=upload.read(),
                file_name=upload.name,
                winds=form.cleaned_data["winds"],
                user=request.user,
            )
        except TaikaiError as exc:
            form.add_error("file" if exc.field == "file" else None, exc.message)
            status = 400
        else:
            messages.success(
                request, _("The fixed schedule of %(event)s is saved: each round is seated from it.") % {"event": event}
            )
            return redirect("admin:tournament_event_schedule", event.pk)
    elif request.method == "POST":
        status = 400
    event.refresh_from_db(fields=["schedule"])
    names = {entry.pk: str(entry.player) for entry in selectors.event_entries_with_players(event)}
    schedule = event.schedule or {}
    rounds = [[[names.get(pk, "?") for pk in table] for table in tables] for tables in schedule.get("rounds", [])]
    title = _("Fixed schedule of %(event)s") % {"event": event}
    context = {
        **model_admin.admin_site.each_context(request),
        "opts": Event._meta,
        "original": event,
        "title": title,
        "form": form,
        "event": event,
        "rounds": rounds,
        "report": schedule.get("report"),
        "planned": schedule.get("source") == "planned",
        "players": _by_player(schedule.get("rounds", []), names),
    }
    return TemplateResponse(request, "admin/tournament/event/schedule.html", context, status=status)


def _by_player(rounds: list, names: dict[int, str]) -> list[tuple[str, list[str]]]:
    """Each player's table and seat in every round (the card a player keeps when the event runs on paper),
    in name order."""
    where: dict[int, list[str]] = {pk: ["–"] * len(rounds) for tables in rounds for table in tables for pk in table}
    for number, tables in enumerate(rounds):
        for table_number, table in enumerate(tables, start=1):
            for seat, pk in enumerate(table):
                where[pk][number] = f"{table_number} {SEATS[seat]}"
    return sorted(((names.get(pk, "?"), cells) for pk, cells in where.items()), key=lambda row: row[0])
