"""Every write of the admin against every role (the shared objects, the admin's custom views, its actions, its add,
change and delete forms, the API tokens; a player's page): who may write is allowed, everyone else is refused
(403, or sent to sign in) with nothing written. The world and the check are ``roles_matrix_world``'s;
``test_roles_matrix.py`` checks that every write path is in one of these lists.
"""

from __future__ import annotations

import json

import pytest
from django.apps import apps
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from archive.export import archive_build
from players.models import Player
from scoring.models import Ruleset
from tests.fixtures.tournament import built_once
from tests.tournament.roles_matrix_world import (
    EVENT_CREATORS,
    EVENT_FORM,
    ORGANIZERS,
    REFEREES_AT_1,
    REFEREES_AT_2,
    ROLES,
    W,
    World,
    add,
    admin_action,
    build_world,
    change,
    csv_upload,
    delete,
    event_url,
    post,
    write_checks_the_role,
)
from tournament.models import ApiToken, Entry, Event, EventRole, Penalty, Round, ScorekeeperKey, Table

pytestmark = [pytest.mark.django_db, pytest.mark.once]

ADMIN_WRITES = [
    # shared objects: an organizer reaches no other event through them
    W(
        "change the ruleset of the started event (the standard preset)",
        change(Ruleset, lambda w: w.event.ruleset, lambda w: {"name": "Changed"}),
        set(),
    ),
    W(
        "change the other event's own ruleset",
        change(Ruleset, lambda w: w.house_rules, lambda w: {"name": "Changed"}),
        {"superuser", "organizer_elsewhere"},
    ),
    W(
        "change a player entered only in the event",
        change(Player, lambda w: w.newcomer_entry.player, lambda w: {"display_name": "Renamed"}),
        ORGANIZERS,
    ),
    W(
        "change a player entered only in the other event",
        change(Player, lambda w: w.other.entries.first().player, lambda w: {"display_name": "Renamed"}),
        {"superuser", "organizer_elsewhere"},
    ),
    # a player's page: linking the player to an account is the player's own act (signed in, with their link;
    # tests/tournament/test_player_account_link.py), never any role's here
    W(
        "link a player to one's own account",
        post(lambda w: reverse("tournament:player_account_link", args=[w.event.slug, w.event.entries.first().pk])),
        set(),
        "tournament:player_account_link",
    ),
    # the admin's custom views
    W(
        "seat the next round (typed)",
        post(event_url("seat_round"), lambda w: {"tables": "Player 01, Player 02"}),
        ORGANIZERS,
        "admin:tournament_event_seat_round",
    ),
    W(
        "seat the next round automatically",
        post(event_url("seat_auto")),
        ORGANIZERS,
        "admin:tournament_event_seat_auto",
    ),
    W(
        "publish a seating job's round",
        post(event_url("seating_job", lambda w: w.job.pk)),
        ORGANIZERS,
        "admin:tournament_event_seating_job",
    ),
    W(
        "register players from CSV",
        post(event_url("register_csv"), csv_upload),
        ORGANIZERS,
        "admin:tournament_event_register_csv",
    ),
    W(
        "import an event archive as a new event",
        post(
            lambda w: reverse("admin:tournament_event_import_archive"),
            lambda w: {
                "archive": SimpleUploadedFile(
                    "export.json",
                    json.dumps(archive_build(w.other, staff=True)).encode(),
                    content_type="application/json",
                )
            },
        ),
        EVENT_CREATORS,
        "admin:tournament_event_import_archive",
    ),
    W(
        "issue scorekeepers' table cards",
        post(lambda w: reverse("admin:tournament_round_table_cards", args=[w.round.pk]), lambda w: {"tables": ""}),
        ORGANIZERS,
        "admin:tournament_round_table_cards",
    ),
    # admin actions
    W(
        "finish the event",
        admin_action(Event, "finish_events", lambda w: [w.event.pk]),
        ORGANIZERS,
        "action:tournament.event.finish_events",
    ),
    W(
        "disqualify a player",
        admin_action(Entry, "disqualify", lambda w: [w.event.entries.first().pk]),
        ORGANIZERS,
        "action:tournament.entry.disqualify",
    ),
    W(
        "confirm a disqualification",
        admin_action(Entry, "confirm_disqualification", lambda w: [w.disqualified.pk]),
        ORGANIZERS,
        "action:tournament.entry.confirm_disqualification",
    ),
    W(
        "mark a player away",
        admin_action(Entry, "mark_away", lambda w: [w.event.entries.first().pk]),
        ORGANIZERS,
        "action:tournament.entry.mark_away",
    ),
    W(
        "withdraw a player",
        admin_action(Entry, "withdraw", lambda w: [w.newcomer_entry.pk]),
        ORGANIZERS,
        "action:tournament.entry.withdraw",
    ),
    W(
        "mark a player active again",
        admin_action(Entry, "mark_active", lambda w: [w.newcomer_entry.pk]),
        ORGANIZERS,
        "action:tournament.entry.mark_active",
    ),
    W(
        "publish a round",
        admin_action(Round, "publish_rounds", lambda w: [w.round.pk]),
        ORGANIZERS,
        "action:tournament.round.publish_rounds",
    ),
    W(
        "start a round's timer",
        admin_action(Round, "start_timers", lambda w: [w.round.pk]),
        ORGANIZERS,
        "action:tournament.round.start_timers",
    ),
    W(
        "complete a round",
        admin_action(Round, "complete_rounds", lambda w: [w.round.pk]),
        ORGANIZERS,
        "action:tournament.round.complete_rounds",
    ),
    W(
        "cancel a penalty at table 1",
        admin_action(Penalty, "cancel_penalties", lambda w: [w.penalty.pk]),
        REFEREES_AT_1,
        "action:tournament.penalty.cancel_penalties",
    ),
    W(
        "revoke a role",
        admin_action(EventRole, "revoke", lambda w: [w.role.pk]),
        ORGANIZERS,
        "action:tournament.eventrole.revoke",
    ),
    W(
        "give a one-time sign-in code",
        admin_action(EventRole, "signin_code", lambda w: [w.role.pk]),
        ORGANIZERS,
        "action:tournament.eventrole.signin_code",
    ),
    W(
        "revoke a table card",
        admin_action(ScorekeeperKey, "revoke", lambda w: [w.key.pk]),
        ORGANIZERS,
        "action:tournament.scorekeeperkey.revoke",
    ),
    W(
        "register players in the event from the player list",
        admin_action(Player, "register_in_event", lambda w: [w.newcomer.pk]),
        ORGANIZERS,
        "action:players.player.register_in_event",
    ),
    # the admin's add, change and delete forms
    W(
        "change the event",
        change(Event, lambda w: w.event, lambda w: EVENT_FORM),
        ORGANIZERS,
        "change:tournament.event",
    ),
    W(
        "create an event",
        add(Event, lambda w: {**EVENT_FORM, "slug": "new-one", "ruleset": w.event.ruleset_id}),
        EVENT_CREATORS,
        "add:tournament.event",
    ),
    W("delete the event", delete(Event, lambda w: w.event), {"superuser"}, "delete:tournament.event"),
    W(
        "add an entry",
        add(Entry, lambda w: {"event": w.event.pk, "player": w.newcomer.pk, "status": "active"}),
        ORGANIZERS,
        "add:tournament.entry",
    ),
    W(
        "change an entry",
        change(
            Entry,
            lambda w: w.event.entries.first(),
            lambda w: {
                "player": w.event.entries.first().player_id,
                "event": w.event.pk,
                "status": "away",
                "status_reason": "late",
            },
        ),
        ORGANIZERS,
        "change:tournament.entry",
    ),
    W("delete an entry", delete(Entry, lambda w: w.newcomer_entry), ORGANIZERS, "delete:tournament.entry"),
    W(
        "delete entries from the list",
        admin_action(Entry, "delete_selected", lambda w: [w.newcomer_entry.pk]),
        ORGANIZERS,
        "action:tournament.entry.delete_selected",
    ),
    W(
        "delete events from the list",
        admin_action(Event, "delete_selected", lambda w: [w.event.pk]),
        {"superuser"},
        "action:tournament.event.delete_selected",
    ),
    W(
        "change a round",
        change(
            Round,
            lambda w: w.round,
            lambda w: {"status": "completed", "TOTAL": 0, "tables-TOTAL_FORMS": 0, "tables-INITIAL_FORMS": 0},
        ),
        ORGANIZERS,
        "change:tournament.round",
    ),
    W(
        "change a table",
        change(
            Table, lambda w: w.table_1, lambda w: {"overtime_year": 2, "seats-TOTAL_FORMS": 0, "seats-INITIAL_FORMS": 0}
        ),
        ORGANIZERS,
        "change:tournament.table",
    ),
    W(
        "log a penalty at table 1",
        add(
            Penalty,
            lambda w: {
                "event": w.event.pk,
                "table": w.table_1.pk,
                "hand_number": 2,
                "entry": w.table_1.seats.get(position=1).entry_id,
                "kind": "art35_revealed_hand",
                "reason": "shown",
            },
        ),
        REFEREES_AT_1,
        "add:tournament.penalty",
    ),
    W(
        "log a penalty at table 2",
        add(
            Penalty,
            lambda w: {
                "event": w.event.pk,
                "table": w.table_2.pk,
                "hand_number": 2,
                "entry": w.table_2.seats.get(position=1).entry_id,
                "kind": "art35_revealed_hand",
                "reason": "shown",
            },
        ),
        REFEREES_AT_2,
        "add:tournament.penalty",
    ),
    W(
        "record a ruling at table 1",
        add(
            Ruling := apps.get_model("tournament", "Ruling"),
            lambda w: {"event": w.event.pk, "table": w.table_1.pk, "decision": "play on"},
        ),
        REFEREES_AT_1,
        "add:tournament.ruling",
    ),
    W(
        "record a ruling for the whole event",
        add(Ruling, lambda w: {"event": w.event.pk, "decision": "lunch at noon"}),
        REFEREES_AT_2,
        "add:tournament.ruling",
    ),
    # API tokens in the admin
    W(
        "issue an API token",
        post(event_url("api_tokens"), lambda w: {"name": "overlay", "scope": "read"}),
        ORGANIZERS,
        "admin:tournament_event_api_tokens",
    ),
    W(
        "revoke an API token",
        admin_action(ApiToken, "revoke", lambda w: [w.token.pk]),
        ORGANIZERS,
        "action:tournament.apitoken.revoke",
    ),
]

CASES = [(write, role) for write in ADMIN_WRITES for role in ROLES]


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker) -> World:
    """Built once for the module; each case runs in a savepoint rolled back after it, so every write is
    tried against the world exactly as built."""
    yield from built_once(django_db_blocker, build_world)


@pytest.mark.parametrize(("write", "role"), CASES, ids=[f"{w.name} as {r}" for w, r in CASES])
def test_write_path_checks_the_role(world, write, role):
    write_checks_the_role(world, write, role)
