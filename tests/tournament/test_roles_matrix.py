"""Every write path against every role: who may write is allowed, everyone else is refused (403, or sent to
sign in) with nothing written.

The write paths are listed by subject in ``test_roles_matrix_admin.py``, ``test_roles_matrix_tables.py`` and
``test_roles_matrix_apps.py`` (the world they run in is ``roles_matrix_world``'s);
``test_every_write_path_is_in_the_matrix`` derives the write surface from the URL conf and the admin's registry
(custom admin views, admin actions, add, change and delete of each model, the console's and the API's routes)
and fails if one is missing there. Here too: the routes that answer GET only, and who opens each live stream.
"""

from __future__ import annotations

import pytest
from django.contrib import admin
from django.contrib.auth.models import User
from django.urls import get_resolver, reverse

from players.models import PlayerImport
from tests.fixtures.tournament import built_once
from tests.fixtures.writes import writes_recorded
from tests.tournament.roles_matrix_world import (
    ORGANIZERS,
    ROLES,
    SCORERS_AT_1,
    SCORERS_AT_2,
    World,
    build_world,
    client_for,
    event_slug,
    table_pk,
    v1,
)
from tests.tournament.test_roles_matrix_admin import ADMIN_WRITES
from tests.tournament.test_roles_matrix_apps import APP_WRITES
from tests.tournament.test_roles_matrix_tables import TABLE_WRITES
from tournament.models import Event

pytestmark = [pytest.mark.django_db, pytest.mark.once]

WRITES = ADMIN_WRITES + TABLE_WRITES + APP_WRITES


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker) -> World:
    """Built once for the module; each case runs in a savepoint rolled back after it, so every write is
    tried against the world exactly as built."""
    yield from built_once(django_db_blocker, build_world)


# Routes that accept a POST but are not role-protected writes, and why.
NOT_ROLE_WRITES = {
    "action:tournament.entry.personal_links_csv": "a download for organizers (test_roles checks who gets it)",
    "console:table_card": "anyone may try a table card's PIN; five wrong ones lock the card (tested apart)",
    "action:players.player.delete_selected": "players are shared by all events; deleting needs the model permission",
    "add:players.player": "players are shared by all events; adding needs the model permission",
    "change:players.player": "players are shared by all events; changing needs the model permission",
    "delete:players.player": "players are shared by all events; deleting needs the model permission",
    "admin:players_player_import_csv": "players are shared by all events; importing needs the add permission",
    "registration:private": "only the sign-up's own link opens it, whoever holds it (tests/registration)",
    "gamelogs:play_confirmation": "only the player's own link opens it, whoever holds it (tests/gamelogs)",
    "api_v1:team_reserve_in": (
        "a team event's write: every session role and token in tests/tournament/test_api_matrix.py"
    ),
    **{
        f"api_v1:{name}": "the registration API: every session role and token in tests/tournament/test_api_matrix.py"
        for name in (
            "event_sign_ups",
            "sign_up_approve",
            "sign_up_refuse",
            "sign_up_withdraw",
            "sign_up_check_in",
            "sign_up_move",
            "checkin_close",
        )
    },
}


# Routes that answer GET only (test_read_only_routes_refuse_writes checks it).
READ_ONLY_ROUTES = {
    "profiles:search": lambda w: reverse("profiles:search") + "?q=player",
    "profiles:player": lambda w: reverse("profiles:player", args=[w.event.entries.first().player_id]),
    "console:my_tables": lambda w: reverse("console:my_tables"),
    "gamelogs:console_log": lambda w: reverse("gamelogs:console_log", args=[1]),
    "gamelogs:online_round": lambda w: reverse("gamelogs:online_round", args=[w.round.pk]),
    "console:clock": lambda w: reverse("console:clock", args=[w.table_1.pk]),
    "console:clocks": lambda w: reverse("console:clocks") + f"?tables={w.table_1.pk}",
    "console:service_worker": lambda w: reverse("console:service_worker"),
    "api_v1:event_registration": lambda w: reverse("api_v1:event_registration", args=[w.event.slug]),
    "api_v1:archive_schema": lambda w: reverse("api_v1:archive_schema"),
    "console:manifest": lambda w: reverse("console:manifest"),
    "tournament_api:clock": lambda w: reverse("tournament_api:clock", args=[w.table_1.pk]),
    "api_v1:schema": lambda w: reverse("api_v1:schema"),
    "api_v1:docs": lambda w: reverse("api_v1:docs"),
    "live:board": lambda w: reverse("live:board") + f"?event={w.event.slug}",
    "live:board_event": lambda w: reverse("live:board_event", args=[w.event.slug]),
    "live:event_live": lambda w: reverse("live:event_live", args=[w.event.slug]),
    "live:table_live": lambda w: reverse("live:table_live", args=[w.table_1.pk]),
    "admin:tournament_event_full_standings": lambda w: reverse(
        "admin:tournament_event_full_standings", args=[w.event.pk]
    ),
    "admin:tournament_event_export_archive": lambda w: reverse(
        "admin:tournament_event_export_archive", args=[w.event.pk]
    ),
    "api_v1:events": lambda w: reverse("api_v1:events"),
    "api_v1:event": v1("event", event_slug),
    "api_v1:event_rules": v1("event_rules", event_slug),
    "api_v1:round_seating": v1("round_seating", event_slug, lambda w: 1),
    "api_v1:event_standings": v1("event_standings", event_slug),
    "api_v1:event_teams": v1("event_teams", event_slug),
    "api_v1:event_team_standings": v1("event_team_standings", event_slug),
    "api_v1:export_csv": v1("export_csv", event_slug),
    "api_v1:export_json": v1("export_json", event_slug),
    "api_v1:results_ema": v1("results_ema", event_slug),
    "api_v1:players": lambda w: reverse("api_v1:players"),
    "api_v1:table": v1("table", table_pk("table_1")),
    "api_v1:clock": v1("clock", table_pk("table_1")),
    "seasons:standings": lambda w: reverse("seasons:standings", args=["event-series"]),
    "seasons:standings_csv": lambda w: reverse("seasons:standings_csv", args=["event-series"]),
    "seasons:rating": lambda w: reverse("seasons:rating", args=["event-series"]),
    "seasons_api:series": lambda w: reverse("seasons_api:series", args=["event-series"]),
    "seasons_api:series_standings": lambda w: reverse("seasons_api:series_standings", args=["event-series"]),
    "seasons_api:series_ratings": lambda w: reverse("seasons_api:series_ratings", args=["event-series"]),
    "profiles_api:search": lambda w: reverse("profiles_api:search") + "?q=player",
    "profiles_api:profile": lambda w: reverse("profiles_api:profile", args=[w.event.entries.first().player_id]),
    "admin:players_player_import_job": lambda w: reverse(
        "admin:players_player_import_job", args=[PlayerImport.objects.create(data=b"display_name\nA\n").pk]
    ),
}


# Who opens which live stream: the event's, public or private (its staff only), and each table's (its
# scorekeeper, its referees, the organizers). Everyone else is answered 404, as for the pages.
STREAMS = {
    "the public event's stream": (lambda w: reverse("live:event_live", args=[w.event.slug]), set(ROLES)),
    "the private event's stream": (
        lambda w: reverse("live:event_live", args=[w.event.slug]),
        ORGANIZERS | {"referee", "referee_table_1"},
    ),
    "table 1's stream": (lambda w: reverse("live:table_live", args=[w.table_1.pk]), SCORERS_AT_1),
    "table 2's stream": (lambda w: reverse("live:table_live", args=[w.table_2.pk]), SCORERS_AT_2),
}


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("stream", sorted(STREAMS))
def test_a_live_stream_opens_for_those_who_may_read_it_only(world, role, stream, settings):
    settings.LIVE_HEARTBEAT_SECONDS, settings.LIVE_STREAM_SECONDS = 0.01, 0.02  # the response ends at once
    if stream.startswith("the private"):
        Event.objects.filter(pk=world.event.pk).update(is_public=False)
    address, readers = STREAMS[stream]
    client = client_for(world, role)
    with writes_recorded() as written:
        response = client.get(address(world))
    assert response.status_code == (200 if role in readers else 404), (stream, role)
    if response.status_code == 200:
        assert response["Content-Type"].startswith("text/event-stream")
        b"".join(response.streaming_content)
    assert written == []  # opening a stream writes nothing


@pytest.mark.parametrize("name", sorted(READ_ONLY_ROUTES))
def test_read_only_routes_refuse_writes(world, name):
    client = client_for(world, "superuser")
    assert client.post(READ_ONLY_ROUTES[name](world), {}).status_code == 405


def _standard_admin_surface() -> set[str]:
    surface = set()
    for model, model_admin in admin.site._registry.items():
        label = f"{model._meta.app_label}.{model._meta.model_name}"
        if model._meta.app_label not in ("tournament", "players", "registration", "seasons", "profiles"):
            continue
        superuser = User(is_superuser=True, is_active=True, is_staff=True)
        request = type("R", (), {"user": superuser, "session": {}, "GET": {}, "POST": {}})()
        for verb, allowed in (
            ("add", model_admin.has_add_permission(request)),
            ("change", model_admin.has_change_permission(request)),
            ("delete", model_admin.has_delete_permission(request)),
        ):
            if allowed and not (verb == "change" and model_admin.get_readonly_fields(request) == "__all__"):
                surface.add(f"{verb}:{label}")
        for action in model_admin.actions or ():
            surface.add(f"action:{label}.{action}")
        if model_admin.has_delete_permission(request):
            surface.add(f"action:{label}.delete_selected")
    return surface


def _custom_routes() -> set[str]:
    names = set()
    for model, model_admin in admin.site._registry.items():
        if model._meta.app_label not in ("tournament", "players", "registration", "seasons", "profiles"):
            continue
        standard = {
            f"{model._meta.app_label}_{model._meta.model_name}_{v}"
            for v in ("changelist", "add", "change", "delete", "history")
        }
        for pattern in model_admin.get_urls():
            if getattr(pattern, "name", None) and pattern.name not in standard:
                names.add(f"admin:{pattern.name}")
    resolver = get_resolver()
    apps_built_on = ("registration", "seasons", "seasons_api", "profiles", "profiles_api")
    for namespace in ("console", "tournament_api", "api_v1", "live", "gamelogs", *apps_built_on):
        for name in resolver.namespace_dict[namespace][1].reverse_dict:
            if isinstance(name, str):
                names.add(f"{namespace}:{name}")
    for read_only in READ_ONLY_ROUTES:
        names.discard(read_only)
    return names


def test_every_write_path_is_in_the_matrix():
    covered = {s for write in WRITES for s in write.surface} | set(NOT_ROLE_WRITES)
    surface = _standard_admin_surface() | _custom_routes()
    # read-only records: their change form saves nothing (every field read-only)
    surface -= {
        "change:tournament.hand",
        "change:tournament.handversion",
        "change:tournament.seatingjob",
        "change:tournament.eventrole",
        "change:tournament.scorekeeperkey",
        "change:tournament.penalty",
        "change:tournament.ruling",
        "change:tournament.apitoken",
        "change:registration.signup",
    }
    assert surface - covered == set()
