"""Every write path against every role: who may write is allowed, everyone else is refused (403, or sent to
sign in) with nothing written.

The write paths are listed once in ``WRITES``; ``test_every_write_path_is_in_the_matrix`` derives the
write surface from the URL conf and the admin's registry (custom admin views, admin actions, add, change
and delete of each model, the console's and the API's routes) and fails if one is missing here.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta

import pytest
from django.apps import apps
from django.contrib import admin
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.contrib.auth.models import Group, Permission, User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import get_resolver, reverse
from django.utils import timezone

from live.models import RefereeCall
from live.services.calls import referee_call
from players.models import Player, PlayerImport
from profiles.models import PlayerMerge
from profiles.services import player_merge
from registration.models import BlockedEmail, Registration, SignUp
from scoring.models import Ruleset
from seasons.models import Series, SeriesEvent
from tests.fixtures.tournament import built_once, event_with_players, round_seated, standard_ruleset_installed
from tests.fixtures.writes import writes_recorded
from tournament.archive.export import archive_build
from tournament.models import (
    ApiToken,
    Entry,
    Event,
    EventRole,
    Penalty,
    Round,
    ScorekeeperKey,
    SeatingJob,
    Table,
    Team,
)
from tournament.services.discipline import penalty_log, seat_mark_absent
from tournament.services.hands import hand_record
from tournament.services.roles import (
    ORGANIZERS_GROUP,
    REFEREES_GROUP,
    role_grant,
    scorekeeper_keys_issue,
    staff_groups_install,
)
from tournament.services.tokens import api_token_issue

pytestmark = [pytest.mark.django_db, pytest.mark.once]

ROLES = (
    "anonymous",  # nobody signed in
    "plain_user",  # an account, not staff, no role
    "staff_no_perms",  # staff, no permission, no role
    "staff_players",  # staff with only the players app's permissions
    "view_only",  # staff with every view permission, no role
    "organizer_elsewhere",  # the owner of another event (Organizers group)
    "referee_table_1",  # a referee of the event limited to table 1
    "referee",  # a head referee of the whole event (unlocks checked rounds too)
    "scorekeeper_table_2",  # no account: opened table 2's card with its PIN
    "player",  # a player of the event, through their personal link
    "co_organizer",
    "owner",
    "superuser",
)
ORGANIZERS = {"owner", "co_organizer", "superuser"}
REFEREES_AT_1 = ORGANIZERS | {"referee", "referee_table_1"}
REFEREES_AT_2 = ORGANIZERS | {"referee"}
SCORERS_AT_1 = REFEREES_AT_1
SCORERS_AT_2 = REFEREES_AT_2 | {"scorekeeper_table_2"}
EVENT_CREATORS = ORGANIZERS | {"organizer_elsewhere"}


@dataclass
class World:
    event: Event
    other: Event
    round: Round
    table_1: Table
    table_2: Table
    penalty: Penalty
    job: SeatingJob
    role: EventRole
    key: ScorekeeperKey
    newcomer: Player
    newcomer_entry: Entry
    absent_seat: object
    disqualified: Entry
    token: ApiToken
    users: dict
    house_rules: Ruleset  # a ruleset of the other event's own, not yet used by a started event


def _user(name: str, *, staff=False, superuser=False, groups=(), perms=()) -> User:
    user = User.objects.create_user(
        name, is_staff=staff or superuser, is_superuser=superuser
    )  # signed in by force_login
    user.groups.set(Group.objects.filter(name__in=groups))
    user.user_permissions.set(perms)
    return user


def build_world() -> World:
    staff_groups_install()  # a rolled-back test database may lack the groups post_migrate made
    standard = standard_ruleset_installed()
    event = event_with_players(standard, 8, clock_bank_seconds=20)
    other = event_with_players(standard, 4, name="Other Cup", slug="other-cup")
    round_ = round_seated(event)
    table_1, table_2 = round_.tables.order_by("number")
    users = {
        "plain_user": _user("plain"),
        "staff_no_perms": _user("staffer", staff=True),
        "staff_players": _user("clerk", staff=True, perms=Permission.objects.filter(content_type__app_label="players")),
        "view_only": _user("viewer", staff=True, perms=Permission.objects.filter(codename__startswith="view_")),
        "organizer_elsewhere": _user("elsewhere", staff=True, groups=[ORGANIZERS_GROUP]),
        "referee_table_1": _user("ref1", staff=True, groups=[REFEREES_GROUP]),
        "referee": _user("ref", staff=True, groups=[REFEREES_GROUP]),
        "co_organizer": _user("coorg", staff=True, groups=[ORGANIZERS_GROUP]),
        "owner": _user("owner", staff=True, groups=[ORGANIZERS_GROUP]),
        "superuser": _user("root", superuser=True),
    }
    Event.objects.filter(pk=event.pk).update(owner=users["owner"])
    house_rules = Ruleset.objects.get(pk=standard.pk)
    house_rules.pk, house_rules.name, house_rules.slug = None, "Other Cup rules", "other-cup-rules"
    house_rules.save()
    Event.objects.filter(pk=other.pk).update(owner=users["organizer_elsewhere"], ruleset=house_rules)
    event.refresh_from_db()
    role_grant(event=event, user=users["referee_table_1"], kind="referee", tables="1")
    role_grant(event=event, user=users["referee"], kind="referee", head=True)  # a head referee: unlocks rounds
    role = role_grant(event=event, user=users["co_organizer"], kind="organizer")
    [issued] = scorekeeper_keys_issue(tables=[table_2])
    users["_card"] = issued
    seat = table_1.seats.get(position=0)
    penalty = penalty_log(
        event=event, entry=seat.entry, kind="art35_revealed_hand", reason="shown", table=table_1, hand_number=1
    )
    job = SeatingJob.objects.create(event=event, round_number=1, state=SeatingJob.State.DONE, percent=100)
    hand_record(table=table_2, number=1, expected_version=0, data={"outcome": "exhaustive_draw", "dealer_position": 0})
    absent = table_2.seats.get(position=3)
    seat_mark_absent(seat=absent, during=True)
    newcomer = Player.objects.create(display_name="Newcomer")
    late = Entry.objects.create(event=event, player=Player.objects.create(display_name="Late registration"))
    disqualified = Entry.objects.create(
        event=event, player=Player.objects.create(display_name="Disqualified"), status=Entry.Status.DISQUALIFIED
    )
    token = api_token_issue(event=event, name="scoreboard", scope="read").token
    referee_call(table=table_1, reason="dispute")  # an open call, to take and to close
    registration_world(event, other)
    profiles_world(event)
    seasons_world(event, other, users)
    Team.objects.create(event=event, name="Red")
    return World(
        event=event,
        other=other,
        round=round_,
        table_1=table_1,
        table_2=table_2,
        penalty=penalty,
        job=job,
        role=role,
        key=ScorekeeperKey.objects.get(table=table_2),
        newcomer=newcomer,
        newcomer_entry=late,
        absent_seat=absent,
        disqualified=disqualified,
        token=token,
        users=users,
        house_rules=house_rules,
    )


def registration_world(event, other) -> None:
    """The event open for sign-ups (one place; check-in open): a confirmed, a waiting and a pending sign-up,
    and a blocked address; the other event has a sign-up left from an earlier registration, and none now."""
    now = timezone.now()
    Registration.objects.create(
        event=event,
        opens_at=now - timedelta(days=1),
        closes_at=now + timedelta(days=1),
        cap=1,
        checkin_opens_at=now - timedelta(hours=1),
    )
    for rank, (name, state) in enumerate(
        (("Signed Confirmed", "confirmed"), ("Signed Waiting", "waiting"), ("Signed Pending", "pending")), start=1
    ):
        SignUp.objects.create(event=event, state=state, rank=rank, name=name, email=f"s{rank}@example.org", nonce="n")
    SignUp.objects.create(
        event=other, state="waiting", rank=1, name="Signed Elsewhere", email="e@example.org", nonce="n"
    )
    BlockedEmail.objects.create(event=event, email="spam@example.org")


def seasons_world(event, other, users) -> None:
    """A series of the event (its owner's), one of the other event (its organizer's), and one shared by both."""
    for slug, events, owner in (
        ("event-series", [event], "owner"),
        ("other-series", [other], "organizer_elsewhere"),
        ("shared-series", [event, other], "owner"),
    ):
        series = Series.objects.create(name=slug, slug=slug, owner=users[owner])
        SeriesEvent.objects.bulk_create(SeriesEvent(series=series, event=e) for e in events)


def series(slug: str):
    return lambda w: Series.objects.get(slug=slug)


def series_form(*events):
    return lambda w: {
        "name": "A series",
        "slug": "a-series",
        "rule": "sum",
        "best_n": "",
        "place_points": "[]",
        "is_public": "on",
        "event_choices": [getattr(w, e).pk for e in events],
    }


def profiles_world(event) -> None:
    """A merge to undo: "Zz Duplicate" (withdrawn from the event, its only event) merged into "Zz Kept"."""
    duplicate = Player.objects.create(display_name="Zz Duplicate")
    Entry.objects.create(event=event, player=duplicate, status=Entry.Status.WITHDRAWN)
    player_merge(kept=Player.objects.create(display_name="Zz Kept"), merged=duplicate)


def merge_players(merged: Callable[[World], Player], kept: Callable[[World], Player]):
    """The merge page's confirming POST: ``merged`` into ``kept``."""
    return post(
        lambda w: reverse("admin:profiles_playermerge_merge"), lambda w: {"merged": merged(w).pk, "kept": kept(w).pk}
    )


def signed(name: str):
    return lambda w: [SignUp.objects.get(name=name).pk]


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker) -> World:
    """Built once for the module; each case runs in a savepoint rolled back after it, so every write is
    tried against the world exactly as built."""
    yield from built_once(django_db_blocker, build_world)


def client_for(world: World, role: str) -> Client:
    client = Client()
    if role == "scorekeeper_table_2":
        card = world.users["_card"]
        response = client.post(reverse("console:table_card", args=[card.token]), {"pin": card.pin})
        assert response.status_code == 302, response.content[:500]
    elif role == "player":
        entry = world.event.entries.first()
        assert client.get(reverse("tournament:player_link", args=[entry.link_token])).status_code == 302
    elif role != "anonymous":
        client.force_login(world.users[role])
    return client


# --- The write paths ---------------------------------------------------------------------------------


def admin_action(model, action: str, pks: Callable[[World], list]):
    def run(client, w):
        url = reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_changelist")
        data = {"action": action, ACTION_CHECKBOX_NAME: [str(pk) for pk in pks(w)], "index": 0}
        if action == "register_in_event":
            data["event"] = str(w.event.pk)
        if action == "delete_selected":
            data["post"] = "yes"  # the confirmation page's answer
        return client.post(url, data)

    return run


def post(url: Callable[[World], str], data: Callable[[World], dict] | None = None, **kwargs):
    def run(client, w):
        return client.post(url(w), (data or (lambda _: {}))(w), **kwargs)

    return run


def hand(table: str):
    return post(
        lambda w: reverse("console:table", args=[getattr(w, table).pk]),
        lambda w: {
            "action": "hand",
            "outcome": "ron",
            "dealer_position": 0,
            "honba": 0,
            "expected_version": 0,
            "discarder": 2,
            "winner_1": 1,
            "han_1": 3,
            "fu_1": 30,
        },
    )


def sheet(table: str, action: str, **extra):
    return post(
        lambda w: reverse("console:table", args=[getattr(w, table).pk]),
        lambda w: {"action": action, **{k: v(w) for k, v in extra.items()}},
    )


def clock(table: str, verb: str, body: dict):
    return post(
        lambda w: reverse(f"tournament_api:clock_{verb}", args=[getattr(w, table).pk]),
        lambda w: body,
        content_type="application/json",
    )


def api(url: Callable[[World], str], body: dict | Callable[[World], dict] | None = None, method: str = "POST"):
    """A write through the REST API (/api/v1/), JSON in."""

    def run(client, w):
        data = body(w) if callable(body) else (body or {})
        return client.generic(method, url(w), json.dumps(data), content_type="application/json")

    return run


def v1(name: str, *args):
    return lambda w: reverse(f"api_v1:{name}", args=[a(w) for a in args])


def table_pk(table: str):
    return lambda w: getattr(w, table).pk


def event_slug(w):
    return w.event.slug


def event_url(name: str, *args):
    return lambda w: reverse(f"admin:tournament_event_{name}", args=[w.event.pk, *[a(w) for a in args]])


def change(model, obj: Callable[[World], object], data: Callable[[World], dict]):
    return post(
        lambda w: reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_change", args=[obj(w).pk]),
        data,
    )


def delete(model, obj: Callable[[World], object]):
    return post(
        lambda w: reverse(f"admin:tournament_{model._meta.model_name}_delete", args=[obj(w).pk]),
        lambda w: {"post": "yes"},
    )


def add(model, data: Callable[[World], dict]):
    return post(lambda w: reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_add"), data)


def csv_upload(w):
    return {"csv_file": SimpleUploadedFile("p.csv", b"display_name\nFresh Face\n", content_type="text/csv")}


EVENT_FORM = {
    "name": "Renamed",
    "slug": "spring-open",
    "status": "registration",
    "table_size": 4,
    "planned_rounds": 4,
    "entry_mode": "hands",
    "advancing_places": 1,
    "penalty_unit": 100,
    "final_games": 1,
    "standings_precedence": "advances,total_points",
    "clock_increment_seconds": 0,
    "seating_method": "swiss",
    "seating_remainder": "three",
    "is_public": "on",
    "time_zone": "UTC",
    "round_minutes": 90,
    "team_rule": "",
    "team_best": 2,
    "roles-TOTAL_FORMS": 0,
    "roles-INITIAL_FORMS": 0,
    "entries-TOTAL_FORMS": 0,
    "entries-INITIAL_FORMS": 0,
}


@dataclass(frozen=True)
class Write:
    name: str
    run: Callable
    allowed: frozenset
    surface: tuple[str, ...]  # the URL names / admin actions this write exercises


def W(name, run, allowed, *surface):
    return Write(name, run, frozenset(allowed), surface)


WRITES = [
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
    # the console's table sheet
    W("record a hand at table 1", hand("table_1"), SCORERS_AT_1, "console:table"),
    W("record a hand at table 2", hand("table_2"), SCORERS_AT_2, "console:table"),
    W(
        "confirm table 2's final scores",
        sheet(
            "table_2",
            "scores",
            seat_0=lambda w: 40000,
            seat_1=lambda w: 30000,
            seat_2=lambda w: 20000,
            seat_3=lambda w: 10000,
        ),
        SCORERS_AT_2,
        "console:table",
    ),
    W(
        "mark a player absent at table 2",
        sheet("table_2", "absent_during", seat=lambda w: w.table_2.seats.get(position=3).pk),
        REFEREES_AT_2,
        "console:table",
    ),
    W("reopen table 1", sheet("table_1", "reopen"), REFEREES_AT_1, "console:table"),
    W("apply the final's decision at table 2", sheet("table_2", "final_apply"), REFEREES_AT_2, "console:table"),
    W(
        "close table 1's overtime",
        sheet("table_1", "close_overtime", reason=lambda w: "time"),
        REFEREES_AT_1,
        "console:table",
    ),
    W(
        "void the last hand at table 2",
        sheet("table_2", "void", hand=lambda w: 1, expected_version=lambda w: 1),
        SCORERS_AT_2,
        "console:table",
    ),
    W(
        "undo an absence at table 2",
        sheet("table_2", "present", seat=lambda w: w.absent_seat.pk),
        REFEREES_AT_2,
        "console:table",
    ),
    W(
        "cancel a penalty at table 1 from the sheet",
        sheet("table_1", "cancel_penalty", penalty=lambda w: w.penalty.pk),
        REFEREES_AT_1,
        "console:table",
    ),
    W(
        "log a penalty at table 2 from the console",
        post(
            lambda w: reverse("console:penalty", args=[w.table_2.pk]),
            lambda w: {
                "seat": w.table_2.seats.get(position=1).pk,
                "kind": "art35_revealed_hand",
                "hand_number": 2,
                "reason": "shown",
            },
        ),
        REFEREES_AT_2,
        "console:penalty",
    ),
    # the clock API
    W(
        "start table 2's clock",
        clock("table_2", "start", {"hand_number": 1, "dealer_position": 0}),
        SCORERS_AT_2,
        "tournament_api:clock_start",
    ),
    W(
        "press table 1's clock",
        clock("table_1", "press", {"seat": 0, "turn_number": 1}),
        SCORERS_AT_1,
        "tournament_api:clock_press",
    ),
    W("pause table 2's clock", clock("table_2", "pause", {}), SCORERS_AT_2, "tournament_api:clock_pause"),
    W("resume table 1's clock", clock("table_1", "resume", {}), SCORERS_AT_1, "tournament_api:clock_resume"),
    W("record a flag on table 2's clock", clock("table_2", "flag", {}), SCORERS_AT_2, "tournament_api:clock_flag"),
    W(
        "replay an offline log on table 1's clock",
        clock(
            "table_1",
            "replay",
            {
                "base_version": 0,
                "sent_at_ms": 2000,
                "log": [
                    {"verb": "start", "at_ms": 1990, "hand_number": 1, "dealer_position": 0},
                    {"verb": "press", "at_ms": 2000, "seat": 0, "turn_number": 1},
                ],
            },
        ),
        SCORERS_AT_1,
        "tournament_api:clock_replay",
    ),
    W(
        "replay an offline log on table 2's clock",
        clock(
            "table_2",
            "replay",
            {
                "base_version": 0,
                "sent_at_ms": 2000,
                "log": [
                    {"verb": "start", "at_ms": 1990, "hand_number": 2, "dealer_position": 1},
                    {"verb": "press", "at_ms": 2000, "seat": 1, "turn_number": 1},
                ],
            },
        ),
        SCORERS_AT_2,
        "tournament_api:clock_replay",
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
    # the REST API, signed in (tests/tournament/test_api_matrix.py adds the API tokens)
    W(
        "register a player through the API",
        api(v1("event_entries", event_slug), lambda w: {"player": w.newcomer.pk}),
        ORGANIZERS,
        "api_v1:event_entries",
    ),
    W(
        "record an event-wide ruling through the API",
        api(v1("event_rulings", event_slug), {"decision": "lunch at noon"}),
        REFEREES_AT_2,
        "api_v1:event_rulings",
    ),
    W(
        "issue an API token through the API",
        api(v1("event_tokens", event_slug), {"name": "overlay", "scope": "read"}),
        ORGANIZERS,
        "api_v1:event_tokens",
    ),
    W(
        "revoke an API token through the API",
        api(v1("event_token_revoke", event_slug, lambda w: w.token.pk)),
        ORGANIZERS,
        "api_v1:event_token_revoke",
    ),
    W(
        "record a hand at table 1 through the API",
        api(
            v1("table_hands", table_pk("table_1")),
            {
                "number": 1,
                "outcome": "ron",
                "dealer_position": 0,
                "wins": [{"winner": 1, "discarder": 2, "han": 3, "fu": 30}],
            },
        ),
        SCORERS_AT_1,
        "api_v1:table_hands",
    ),
    W(
        "record a hand at table 2 through the API",
        api(v1("table_hands", table_pk("table_2")), {"number": 2, "outcome": "exhaustive_draw", "dealer_position": 1}),
        SCORERS_AT_2,
        "api_v1:table_hands",
    ),
    W(
        "correct a hand at table 2 through the API",
        api(
            v1("hand_versions", table_pk("table_2"), lambda w: 1),
            {"expected_version": 1, "outcome": "exhaustive_draw", "dealer_position": 0, "tenpai_positions": [0]},
        ),
        SCORERS_AT_2,
        "api_v1:hand_versions",
    ),
    W(
        "void the last hand at table 2 through the API",
        api(v1("hand_void", table_pk("table_2"), lambda w: 1), {"expected_version": 1}),
        SCORERS_AT_2,
        "api_v1:hand_void",
    ),
    W(
        "confirm table 2's result through the API",
        api(v1("table_result", table_pk("table_2")), {}),
        SCORERS_AT_2,
        "api_v1:table_result",
    ),
    W(
        "log a penalty at table 2 through the API",
        api(
            v1("table_penalties", table_pk("table_2")),
            {"position": 1, "kind": "art35_revealed_hand", "hand_number": 2, "reason": "shown"},
        ),
        REFEREES_AT_2,
        "api_v1:table_penalties",
    ),
    W(
        "mark a player absent at table 2 through the API",
        api(v1("table_absences", table_pk("table_2")), {"position": 1, "during": True}),
        REFEREES_AT_2,
        "api_v1:table_absences",
    ),
    W(
        "undo an absence at table 2 through the API",
        api(v1("table_absence", table_pk("table_2"), lambda w: 3), method="DELETE"),
        REFEREES_AT_2,
        "api_v1:table_absence",
    ),
    W(
        "record a ruling at table 1 through the API",
        api(v1("table_rulings", table_pk("table_1")), {"decision": "play on"}),
        REFEREES_AT_1,
        "api_v1:table_rulings",
    ),
    W(
        "start table 2's clock through the API",
        api(v1("clock_start", table_pk("table_2")), {"hand_number": 2, "dealer_position": 1}),
        SCORERS_AT_2,
        "api_v1:clock_start",
    ),
    W(
        "press table 1's clock through the API",
        api(v1("clock_press", table_pk("table_1")), {"seat": 0, "turn_number": 1}),
        SCORERS_AT_1,
        "api_v1:clock_press",
    ),
    W(
        "pause table 2's clock through the API",
        api(v1("clock_pause", table_pk("table_2"))),
        SCORERS_AT_2,
        "api_v1:clock_pause",
    ),
    W(
        "resume table 1's clock through the API",
        api(v1("clock_resume", table_pk("table_1"))),
        SCORERS_AT_1,
        "api_v1:clock_resume",
    ),
    W(
        "call a referee to table 2",
        post(lambda w: reverse("live:call", args=[w.table_2.pk]), lambda w: {"reason": "foul"}),
        SCORERS_AT_2,
        "live:call",
    ),
    W(
        "take the call of table 1",
        post(lambda w: reverse("live:call_take", args=[RefereeCall.objects.get().pk])),
        REFEREES_AT_1,
        "live:call_take",
    ),
    W(
        "close the call of table 1",
        post(lambda w: reverse("live:call_close", args=[RefereeCall.objects.get().pk]), lambda w: {"note": "play on"}),
        REFEREES_AT_1,
        "live:call_close",
    ),
    W(
        "give table 1 more time",
        post(
            lambda w: reverse("live:allowance", args=[w.event.slug]),
            lambda w: {"table": "1", "minutes": "5", "reason": "a long dispute"},
        ),
        REFEREES_AT_1,
        "live:allowance",
    ),
    W(
        "give every table one more hand",
        post(
            lambda w: reverse("live:allowance", args=[w.event.slug]),
            lambda w: {"table": "all", "hands": "1", "reason": "late start"},
        ),
        REFEREES_AT_2,
    ),
    W(
        "record a flag on table 1's clock through the API",
        api(v1("clock_flag", table_pk("table_1"))),
        SCORERS_AT_1,
        "api_v1:clock_flag",
    ),
    # teams (団体戦)
    W(
        "read the event's teams from CSV",
        post(
            event_url("teams_csv"),
            lambda w: {
                "csv_file": SimpleUploadedFile(
                    "t.csv",
                    f"team,player\nRed,{w.event.entries.first().player.display_name}\n".encode(),
                    content_type="text/csv",
                )
            },
        ),
        ORGANIZERS,
        "admin:tournament_event_teams_csv",
    ),
    W(
        "seat a substitute at table 1",
        post(
            lambda w: reverse("admin:tournament_table_substitute", args=[w.table_1.pk]),
            lambda w: {"seat": w.table_1.seats.get(position=3).pk, "name": "Stand In"},
        ),
        ORGANIZERS,
        "admin:tournament_table_substitute",
    ),
    W(
        "seat a substitute at table 1 from the console",
        post(
            lambda w: reverse("console:substitute", args=[w.table_1.pk]),
            lambda w: {"seat": w.table_1.seats.get(position=3).pk, "name": "Stand In"},
        ),
        REFEREES_AT_1,
        "console:substitute",
    ),
    W(
        "seat a substitute at table 2 from the console (a hand played: refused, but only for its referees)",
        post(
            lambda w: reverse("console:substitute", args=[w.table_2.pk]),
            lambda w: {"seat": w.table_2.seats.get(position=0).pk, "name": "Stand In"},
        ),
        REFEREES_AT_2,
        "console:substitute",
    ),
    W(
        "check round 1 through the API (locks it)",
        api(v1("round_check", event_slug, lambda w: 1)),
        REFEREES_AT_1,
        "api_v1:round_check",
    ),
    W(
        "unlock round 1 through the API, saying why",
        api(v1("round_unlock", event_slug, lambda w: 1), {"reason": "a result was typed wrong"}),
        {"owner", "superuser", "referee"},
        "api_v1:round_unlock",
    ),
    W(
        "seat the next round through the API (round 1 still playing: refused, but only for organizers)",
        api(v1("event_rounds", event_slug)),
        ORGANIZERS,
        "api_v1:event_rounds",
    ),
    W(
        "check round 1 on its admin page (locks it)",
        post(lambda w: reverse("admin:tournament_round_check", args=[w.round.pk])),
        REFEREES_AT_1,
        "admin:tournament_round_check",
    ),
    W(
        "unlock round 1 on its admin page, saying why",
        post(
            lambda w: reverse("admin:tournament_round_unlock", args=[w.round.pk]),
            lambda w: {"reason": "a result was typed wrong"},
        ),
        {"owner", "superuser", "referee"},
        "admin:tournament_round_unlock",
    ),
    W(
        "seat a substitute at table 1 through the API",
        api(v1("table_substitutes", table_pk("table_1")), {"position": 3, "name": "Stand In"}),
        REFEREES_AT_1,
        "api_v1:table_substitutes",
    ),
    W(
        "seat a substitute at table 2 through the API",
        api(v1("table_substitutes", table_pk("table_2")), {"position": 0, "name": "Stand In"}),
        REFEREES_AT_2,
        "api_v1:table_substitutes",
    ),
    W(
        "import the event's fixed schedule",
        post(
            event_url("schedule"),
            lambda w: {
                "winds": "keep",
                "file": SimpleUploadedFile("s.csv", b"round,table,east,south,west,north\n", content_type="text/csv"),
            },
        ),
        ORGANIZERS,
        "admin:tournament_event_schedule",
    ),
    W(
        "bring a reserve of the team in",
        post(
            lambda w: reverse("admin:tournament_team_reserve_in", args=[w.event.teams.get().pk]),
            lambda w: {"round_number": 9, "member": 0, "reserve": 0},
        ),
        ORGANIZERS,
        "admin:tournament_team_reserve_in",
    ),
    W(
        "plan the whole event now",
        post(event_url("schedule"), lambda w: {"plan": "1"}),
        ORGANIZERS,
        "admin:tournament_event_schedule",
    ),
    W(
        "add a team to the event",
        add(
            Team, lambda w: {"event": w.event.pk, "name": "Blue", "members-TOTAL_FORMS": 0, "members-INITIAL_FORMS": 0}
        ),
        ORGANIZERS,
        "add:tournament.team",
    ),
    W(
        "add a team to the other event",
        add(
            Team, lambda w: {"event": w.other.pk, "name": "Blue", "members-TOTAL_FORMS": 0, "members-INITIAL_FORMS": 0}
        ),
        {"superuser", "organizer_elsewhere"},
    ),
    W(
        "rename the event's team",
        change(
            Team,
            lambda w: w.event.teams.get(),
            lambda w: {"event": w.event.pk, "name": "Renamed", "members-TOTAL_FORMS": 0, "members-INITIAL_FORMS": 0},
        ),
        ORGANIZERS,
        "change:tournament.team",
    ),
    W("delete the event's team", delete(Team, lambda w: w.event.teams.get()), ORGANIZERS, "delete:tournament.team"),
    W(
        "delete teams",
        admin_action(Team, "delete_selected", lambda w: [w.event.teams.get().pk]),
        ORGANIZERS,
        "action:tournament.team.delete_selected",
    ),
    # registration: signing up is anyone's; the private link is only its sign-up's (NOT_ROLE_WRITES)
    W(
        "sign up for the event",
        post(
            lambda w: reverse("registration:sign_up", args=[w.event.slug]),
            lambda w: {"name": "New Face", "email": "new@example.org"},
        ),
        set(ROLES),
        "registration:sign_up",
    ),
    W(
        "check a player in at the desk",
        post(
            lambda w: reverse("registration:desk", args=[w.event.slug]),
            lambda w: {"action": "check_in", "sign_up": signed("Signed Confirmed")(w)[0]},
        ),
        ORGANIZERS,
        "registration:desk",
    ),
    W(
        "undo a check-in at the desk",
        post(
            lambda w: reverse("registration:desk", args=[w.event.slug]),
            lambda w: {"action": "undo_check_in", "sign_up": signed("Signed Confirmed")(w)[0]},
        ),
        ORGANIZERS,
    ),
    W(
        "approve a sign-up",
        admin_action(SignUp, "approve", signed("Signed Pending")),
        ORGANIZERS,
        "action:registration.signup.approve",
    ),
    W(
        "refuse a sign-up",
        admin_action(SignUp, "refuse", signed("Signed Waiting")),
        ORGANIZERS,
        "action:registration.signup.refuse",
    ),
    W(
        "refuse a sign-up of the other event",
        admin_action(SignUp, "refuse", signed("Signed Elsewhere")),
        {"superuser", "organizer_elsewhere"},
    ),
    W(
        "refuse a sign-up and block its address",
        admin_action(SignUp, "refuse_and_block", signed("Signed Waiting")),
        ORGANIZERS,
        "action:registration.signup.refuse_and_block",
    ),
    W(
        "move a sign-up to the top of the waiting list",
        admin_action(SignUp, "move_to_top", signed("Signed Waiting")),
        ORGANIZERS,
        "action:registration.signup.move_to_top",
    ),
    W(
        "merge a sign-up with its likely stored player",
        admin_action(SignUp, "merge_with_likely", signed("Signed Confirmed")),
        ORGANIZERS,
        "action:registration.signup.merge_with_likely",
    ),
    W(
        "confirm a sign-up's EMA number",
        admin_action(SignUp, "confirm_external_id", signed("Signed Confirmed")),
        ORGANIZERS,
        "action:registration.signup.confirm_external_id",
    ),
    W(
        "renew a sign-up's private link",
        admin_action(SignUp, "renew_link", signed("Signed Waiting")),
        ORGANIZERS,
        "action:registration.signup.renew_link",
    ),
    W(
        "export sign-ups",
        admin_action(SignUp, "export_csv", signed("Signed Waiting")),
        ORGANIZERS,
        "action:registration.signup.export_csv",
    ),
    W(
        "send the registration's reminders",
        admin_action(Registration, "send_reminders", lambda w: [w.event.registration.pk]),
        ORGANIZERS,
        "action:registration.registration.send_reminders",
    ),
    W(
        "open the other event's registration",
        add(
            Registration,
            lambda w: {
                "event": w.other.pk,
                "opens_at_0": "2026-01-01",
                "opens_at_1": "00:00",
                "closes_at_0": "2026-01-02",
                "closes_at_1": "00:00",
                "cap": 4,
                "asked": ["reading"],
                "required": [],
                "pending_per_email": 2,
            },
        ),
        {"superuser", "organizer_elsewhere"},
        "add:registration.registration",
    ),
    W(
        "change the event's registration",
        change(
            Registration,
            lambda w: w.event.registration,
            lambda w: {
                "event": w.event.pk,
                "opens_at_0": "2026-01-01",
                "opens_at_1": "00:00",
                "closes_at_0": "2030-01-02",
                "closes_at_1": "00:00",
                "cap": 3,
                "asked": ["reading"],
                "required": ["reading"],
                "pending_per_email": 2,
            },
        ),
        ORGANIZERS,
        "change:registration.registration",
    ),
    W(
        "block an address for the event",
        add(BlockedEmail, lambda w: {"event": w.event.pk, "email": "bot@example.org", "reason": "spam"}),
        ORGANIZERS,
        "add:registration.blockedemail",
    ),
    W(
        "change a blocked address",
        change(
            BlockedEmail,
            lambda w: w.event.blocked_emails.get(),
            lambda w: {"event": w.event.pk, "email": "spam2@example.org", "reason": "spam"},
        ),
        ORGANIZERS,
        "change:registration.blockedemail",
    ),
    W(
        "unblock an address",
        post(
            lambda w: reverse("admin:registration_blockedemail_delete", args=[w.event.blocked_emails.get().pk]),
            lambda w: {"post": "yes"},
        ),
        ORGANIZERS,
        "delete:registration.blockedemail",
    ),
    W(
        "unblock addresses",
        admin_action(BlockedEmail, "delete_selected", lambda w: [w.event.blocked_emails.get().pk]),
        ORGANIZERS,
        "action:registration.blockedemail.delete_selected",
    ),
    # seasons: a series is shared by its events; only an organizer of every one of them (or a superuser)
    # writes it, and an organizer adds only their own events
    W("add a series of the event", add(Series, series_form("event")), ORGANIZERS, "add:seasons.series"),
    W(
        "add a series of the other event",
        add(Series, series_form("other")),
        {"superuser", "organizer_elsewhere"},
        "add:seasons.series",
    ),
    W("add a series of both events", add(Series, series_form("event", "other")), {"superuser"}, "add:seasons.series"),
    W(
        "change the event's series",
        change(Series, series("event-series"), series_form("event")),
        ORGANIZERS,
        "change:seasons.series",
    ),
    W(
        "add the other event to the event's series",
        change(Series, series("event-series"), series_form("event", "other")),
        {"superuser"},
        "change:seasons.series",
    ),
    W(
        "change the series shared with the other event",
        change(Series, series("shared-series"), series_form("event", "other")),
        {"superuser"},
        "change:seasons.series",
    ),
    W(
        "delete the event's series",
        post(
            lambda w: reverse("admin:seasons_series_delete", args=[Series.objects.get(slug="event-series").pk]),
            lambda w: {"post": "yes"},
        ),
        ORGANIZERS,
        "delete:seasons.series",
    ),
    W(
        "delete the shared series",
        post(
            lambda w: reverse("admin:seasons_series_delete", args=[Series.objects.get(slug="shared-series").pk]),
            lambda w: {"post": "yes"},
        ),
        {"superuser"},
        "delete:seasons.series",
    ),
    W(
        "compute the event's series again",
        admin_action(Series, "recompute", lambda w: [series("event-series")(w).pk]),
        ORGANIZERS,
        "action:seasons.series.recompute",
    ),
    W(
        "compute the shared series again",
        admin_action(Series, "recompute", lambda w: [series("shared-series")(w).pk]),
        {"superuser"},
        "action:seasons.series.recompute",
    ),
    W(
        "delete the event's series from the list",
        admin_action(Series, "delete_selected", lambda w: [series("event-series")(w).pk]),
        ORGANIZERS,
        "action:seasons.series.delete_selected",
    ),
    W(
        "delete the shared series from the list",
        admin_action(Series, "delete_selected", lambda w: [series("shared-series")(w).pk]),
        {"superuser"},
        "action:seasons.series.delete_selected",
    ),
    # profiles: a player is shared by every event, so merging two is for an organizer of every event either
    # player has an entry in (or a superuser); switching a profile off is the player's own (tests/profiles)
    W(
        "merge a player of the event into a player of no event",
        merge_players(lambda w: w.newcomer_entry.player, lambda w: w.newcomer),
        ORGANIZERS,
        "admin:profiles_playermerge_merge",
    ),
    W(
        "merge a player of the other event into a player of the event",
        merge_players(lambda w: w.other.entries.first().player, lambda w: w.newcomer_entry.player),
        {"superuser"},
        "admin:profiles_playermerge_merge",
    ),
    W(
        "merge a player of the other event into a player of no event",
        merge_players(lambda w: w.other.entries.first().player, lambda w: w.newcomer),
        {"superuser", "organizer_elsewhere"},
        "admin:profiles_playermerge_merge",
    ),
    W(
        "undo a merge of a player of the event",
        admin_action(PlayerMerge, "undo", lambda w: [PlayerMerge.objects.get().pk]),
        ORGANIZERS,
        "action:profiles.playermerge.undo",
    ),
    W(
        "switch a player's public profile off",
        post(
            lambda w: reverse("profiles:player_listed", args=[w.event.entries.first().player_id]),
            lambda w: {"listed": "0"},
        ),
        set(),
        "profiles:player_listed",
    ),
]

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


def refused(response) -> bool:
    """403, or sent to sign in (the admin's or the site's login page)."""
    if response.status_code in (401, 403):
        return True
    return response.status_code == 302 and "login" in response.headers.get("Location", "")


CASES = [(write, role) for write in WRITES for role in ROLES]


@pytest.mark.parametrize(("write", "role"), CASES, ids=[f"{w.name} as {r}" for w, r in CASES])
def test_write_path_checks_the_role(world, write, role):
    client = client_for(world, role)
    with writes_recorded() as written:
        response = write.run(client, world)
    if role in write.allowed:
        assert not refused(response), f"{role} was refused: {response.status_code}"
    else:
        assert refused(response), f"{role} was not refused: {response.status_code} {response.content[:300]!r}"
        # stricter than "the rows are as before": a refusal comes before any write is even tried
        assert written == [], f"{role} was refused but wrote: {written}"


# Routes that answer GET only (test_read_only_routes_refuse_writes checks it).
READ_ONLY_ROUTES = {
    "profiles:search": lambda w: reverse("profiles:search") + "?q=player",
    "profiles:player": lambda w: reverse("profiles:player", args=[w.event.entries.first().player_id]),
    "console:my_tables": lambda w: reverse("console:my_tables"),
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
    for namespace in ("console", "tournament_api", "api_v1", "live", *apps_built_on):
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
