"""The world of the role matrices (``test_roles_matrix*.py``): an event with every role, another event,
the apps built on the tournament; a client signed in as each role; the write paths as ``Write``s (a name,
how to run it, who may, the URL names and admin actions it exercises); and the check every case makes."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta

from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.contrib.auth.models import Group, Permission, User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from gamelogs.models import ConfirmationWindow, Disagreement, GameLogImport, OnlineLeague
from live.services.calls import referee_call
from players.models import Player
from profiles.services import player_merge
from registration.models import BlockedEmail, SignUp
from scoring.models import Ruleset
from seasons.models import Series, SeriesEvent
from tests.factories import RegistrationFactory
from tests.fixtures.tournament import event_with_players, round_seated, standard_ruleset_installed
from tests.fixtures.writes import writes_recorded
from tournament.models import ApiToken, Entry, Event, EventRole, Penalty, Round, ScorekeeperKey, SeatingJob, Table, Team
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
    cookies: dict[str, dict[str, str]] = field(default_factory=dict)  # each role's, once signed in (client_for)


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
    OnlineLeague.objects.create(event=event)
    game_log_world(event, table_1)
    world = World(
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
    world.cookies = {role: signed_in_cookies(world, role) for role in ROLES}
    return world


def game_log_world(event, table) -> None:
    """A game log imported at table 1 whose hand 1 is scored otherwise by Taikai: a disagreement to settle; a
    confirmation window for round 2, open."""
    ConfirmationWindow.objects.create(event=event, round_number=2, closes_at=timezone.now() + timedelta(days=1))
    record = GameLogImport.objects.create(
        event=event,
        table=table,
        platform="tenhou",
        game_id="matrix",
        digest="0" * 64,
        log_format="tenhou_xml",
        log="<mjloggm/>",
        hands=1,
    )
    Disagreement.objects.create(
        log_import=record,
        hand_number=1,
        winner_position=0,
        log_scoring={"han": 3, "fu": 30, "points": 3900, "yaku": [[1, 1]]},
        engine_scoring={"han": 2, "fu": 30, "points": 2000, "yaku": [["riichi", 1]]},
    )


def registration_world(event, other) -> None:
    """The event open for sign-ups (one place; check-in open): a confirmed, a waiting and a pending sign-up,
    and a blocked address; the other event has a sign-up left from an earlier registration, and none now."""
    RegistrationFactory(event=event, cap=1, checkin_open=True)
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


def client_for(world: World, role: str) -> Client:
    """A client as ``role``, with the cookies it was given when it signed in as the world was built: its session is
    one of the world's rows, so every case starts from it as built, and no case pays for signing in again."""
    client = Client()
    for name, value in world.cookies[role].items():
        client.cookies[name] = value
    return client


def signed_in_cookies(world: World, role: str) -> dict[str, str]:
    """The cookies of a client that signed in as ``role`` (opened the table card, followed the personal link)."""
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
    return {name: morsel.value for name, morsel in client.cookies.items()}


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
    "yaku_names": "bilingual",
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


def refused(response) -> bool:
    """403, or sent to sign in (the admin's or the site's login page)."""
    if response.status_code in (401, 403):
        return True
    return response.status_code == 302 and "login" in response.headers.get("Location", "")


def write_checks_the_role(world: World, write: Write, role: str) -> None:
    """Who may write is allowed; everyone else is refused with nothing written."""
    client = client_for(world, role)
    with writes_recorded() as written:
        response = write.run(client, world)
    if role in write.allowed:
        assert not refused(response), f"{role} was refused: {response.status_code}"
    else:
        assert refused(response), f"{role} was not refused: {response.status_code} {response.content[:300]!r}"
        # stricter than "the rows are as before": a refusal comes before any write is even tried
        assert written == [], f"{role} was refused but wrote: {written}"
