"""Every endpoint of the REST API (/api/v1/) against every role, API tokens included: who may is answered
(2xx), everyone else is refused, 401 (no credentials, or a revoked or expired token) or 403, with nothing
written.

The endpoints and their methods are read from the URL conf (``test_every_endpoint_is_in_the_matrix``): a
new endpoint or method without its cases here fails. The event is not public, so reading it needs a role
or a token too. The world is built once for the module; each case runs in a savepoint rolled back after.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import URLResolver, get_resolver, reverse
from django.utils import timezone

from players.models import Player
from registration.models import SignUp
from scoring.models import Ruleset
from scoring.presets import install_presets
from tests.factories import RegistrationFactory
from tests.fixtures.tournament import built_once
from tests.fixtures.writes import writes_recorded
from tournament.models import ApiToken, Entry, Event, Table, Team, TeamMember
from tournament.services.checks import round_check
from tournament.services.clock import clock_pause, clock_start
from tournament.services.discipline import seat_mark_absent
from tournament.services.hands import hand_record
from tournament.services.results import table_finish
from tournament.services.roles import role_grant, scorekeeper_keys_issue
from tournament.services.rounds import round_complete, round_create
from tournament.services.tokens import api_token_issue

pytestmark = pytest.mark.once

ROLES = (
    "anonymous",
    "plain_user",  # an account without a role
    "player",  # a player of the event, through their personal link
    "scorekeeper_table_2",  # no account: table 2's card opened with its PIN
    "read_token",
    "referee_token_table_1",
    "referee_token_other_event",
    "organizer_token",
    "organizer_token_other_event",
    "revoked_token",  # an organizer token of the event, revoked
    "expired_token",  # an organizer token of the event, expired
    "session_organizer",  # the event's owner, signed in
    "session_referee_table_1",  # a referee of table 1, signed in
    "superuser",
)
TOKENS = {role for role in ROLES if role.endswith("_token") or "_token_" in role}
ALL = set(ROLES)
VALID = ALL - {"revoked_token", "expired_token"}
READERS = {
    "read_token",
    "referee_token_table_1",
    "organizer_token",
    "session_organizer",
    "session_referee_table_1",
    "superuser",
}
ORGANIZERS = {"organizer_token", "session_organizer", "superuser"}
TOKEN_ISSUERS = {"session_organizer", "superuser"}
AT_TABLE_1 = {
    "referee_token_table_1",
    "organizer_token",
    "session_organizer",
    "session_referee_table_1",
    "superuser",
}
AT_TABLE_2 = {"scorekeeper_table_2", "organizer_token", "session_organizer", "superuser"}
EVERY_TABLE = ORGANIZERS  # referees of every table: here, the organizers


@dataclass
class World:
    event: Event
    other: Event
    table_1: Table
    table_2: Table
    spare_token: ApiToken
    secrets: dict = field(default_factory=dict)
    users: dict = field(default_factory=dict)
    card: object = None
    player_link: str = ""
    sign_ups: dict = field(default_factory=dict)
    team: Team | None = None
    cookies: dict = field(default_factory=dict)  # each session role's, once signed in (client_for)


def build_world() -> World:
    install_presets(Ruleset)
    standard = Ruleset.objects.get(slug="standard")
    owner = User.objects.create_user("owner")
    users = {
        "plain_user": User.objects.create_user("plain"),
        "session_organizer": owner,
        "session_referee_table_1": User.objects.create_user("ref1"),
        "superuser": User.objects.create_superuser("root"),
    }
    event = Event.objects.create(
        name="Closed Cup",
        slug="closed-cup",
        ruleset=standard,
        is_public=False,
        owner=owner,
        clock_bank_seconds=600,
        status=Event.Status.RUNNING,
        team_rule="sum",
    )
    other = Event.objects.create(name="Other Cup", slug="other-cup", ruleset=standard, is_public=False)
    people = Player.objects.bulk_create(Player(display_name=f"Player {i:02d}") for i in range(1, 13))
    Entry.objects.bulk_create(Entry(event=event, player=p) for p in people[:8])
    Entry.objects.bulk_create(Entry(event=other, player=p) for p in people[8:])
    ids = list(event.entries.order_by("id").values_list("id", flat=True))
    round_ = round_create(event=event, tables=[ids[:4], ids[4:]])
    other_ids = list(other.entries.order_by("id").values_list("id", flat=True))
    round_create(event=other, tables=[other_ids])
    table_1, table_2 = round_.tables.order_by("number")
    role_grant(event=event, user=users["session_referee_table_1"], kind="referee", tables="1")
    # table 1: hand 1 recorded, West left after it, the clock of hand 2 running; table 2: nothing yet
    hand_record(
        table=table_1,
        number=1,
        expected_version=0,
        data={"outcome": "ron", "dealer_position": 0, "wins": [{"winner": 1, "discarder": 2, "han": 3, "fu": 30}]},
    )
    seat_mark_absent(seat=table_1.seats.get(position=3), during=True)
    clock_start(table=table_1, hand_number=2, dealer_position=1)
    secrets = {
        "read_token": api_token_issue(event=event, name="scoreboard", scope="read").secret,
        "referee_token_table_1": api_token_issue(event=event, name="tablet 1", scope="referee", tables="1").secret,
        "referee_token_other_event": api_token_issue(event=other, name="elsewhere", scope="referee").secret,
        "organizer_token": api_token_issue(event=event, name="club software", scope="organizer").secret,
        "organizer_token_other_event": api_token_issue(event=other, name="their club", scope="organizer").secret,
    }
    revoked = api_token_issue(event=event, name="old", scope="organizer")
    revoked.token.revoke(owner)
    expired = api_token_issue(event=event, name="last year", scope="organizer")
    ApiToken.objects.filter(pk=expired.token.pk).update(expires_at=timezone.now() - timedelta(days=1))
    secrets |= {"revoked_token": revoked.secret, "expired_token": expired.secret}
    spare = api_token_issue(event=event, name="spare", scope="read").token
    [card] = scorekeeper_keys_issue(tables=[table_2])
    link = event.entries.order_by("id").first().link_token
    team = Team.objects.create(event=event, name="Red", captain_id=ids[0])  # members 1 and 2, reserve 8
    TeamMember.objects.bulk_create(
        [
            TeamMember(team=team, entry_id=ids[0]),
            TeamMember(team=team, entry_id=ids[1]),
            TeamMember(team=team, entry_id=ids[7], role=TeamMember.Role.RESERVE),
        ]
    )
    world = World(
        event=event,
        other=other,
        table_1=table_1,
        table_2=table_2,
        spare_token=spare,
        secrets=secrets,
        users=users,
        card=card,
        player_link=link,
        sign_ups=registration_built(event),
        team=team,
    )
    world.cookies = {role: signed_in_cookies(world, role) for role in ROLES if role not in world.secrets}
    return world


def registration_built(event: Event) -> dict[str, SignUp]:
    """The event's registration, open, approving each sign-up, check-in open: one sign-up confirmed (its entry
    the event's first), one pending, two waiting."""
    RegistrationFactory(event=event, cap=2, approval=True, checkin_open=True)
    states = {
        "confirmed": SignUp.State.CONFIRMED,
        "pending": SignUp.State.PENDING,
        "waiting": SignUp.State.WAITING,
        "waiting_2": SignUp.State.WAITING,
    }
    made = {
        label: SignUp.objects.create(
            event=event, state=state, rank=rank, name=f"Signed {label}", email=f"{label}@example.org", nonce=label
        )
        for rank, (label, state) in enumerate(states.items(), start=1)
    }
    SignUp.objects.filter(pk=made["confirmed"].pk).update(entry=event.entries.order_by("id").first())
    return made


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker):
    """Built once, in a transaction every case's savepoint sits in; rolled back at the end of the module."""
    yield from built_once(django_db_blocker, build_world)


def client_for(world: World, role: str) -> Client:
    """A client as ``role``: its token, or the cookies it was given when it signed in as the world was built (its
    session is one of the world's rows, so every case starts from it as built, without signing in again)."""
    if role in world.secrets:
        return Client(HTTP_AUTHORIZATION=f"Bearer {world.secrets[role]}")
    client = Client()
    for name, value in world.cookies[role].items():
        client.cookies[name] = value
    return client


def signed_in_cookies(world: World, role: str) -> dict[str, str]:
    """The cookies of a client that signed in as ``role`` (opened the table card, followed the personal link)."""
    client = Client()
    if role == "scorekeeper_table_2":
        response = client.post(reverse("console:table_card", args=[world.card.token]), {"pin": world.card.pin})
        assert response.status_code == 302
    elif role == "player":
        assert client.get(reverse("tournament:player_link", args=[world.player_link])).status_code == 302
    elif role != "anonymous":
        client.force_login(world.users[role])
    return {name: morsel.value for name, morsel in client.cookies.items()}


def token_bookkeeping(sql: str) -> bool:
    """When a token was last presented is bookkeeping, not a record."""
    return sql.startswith('UPDATE "tournament_apitoken" SET "last_used_at"')


# --- The cases: endpoint × method → what is asked, and who may ---------------------------------------


@dataclass(frozen=True)
class Case:
    label: str
    url: Callable[[World], str]
    allowed: frozenset
    body: dict | None = None
    setup: Callable[[World], None] | None = None
    signed_out: frozenset = frozenset()  # roles the setup leaves with nothing in the event (401)


def v1(name: str, *args) -> Callable[[World], str]:
    return lambda w: reverse(f"api_v1:{name}", args=[a(w) if callable(a) else a for a in args])


def slug(w):
    return w.event.slug


def t1(w):
    return w.table_1.pk


def t2(w):
    return w.table_2.pk


def reserve_entry(w):
    return w.team.members.get(role="reserve").entry_id


def member_entry(w):
    return w.team.members.filter(role="member").order_by("entry_id").first().entry_id


def round_finished(w) -> None:
    table_finish(table=w.table_1, end_reason="time")
    table_finish(table=w.table_2, final_points=[40000, 30000, 20000, 10000])


def round_completed(w) -> None:
    round_finished(w)
    round_complete(round_=w.table_1.round)


def round_checked(w) -> None:
    round_finished(w)
    round_check(round_=w.table_1.round)


def sign_up(label: str):
    return lambda w: w.sign_ups[label].pk


def C(label, url, allowed, body=None, setup=None, signed_out=()):
    return Case(label, url, frozenset(allowed), body, setup, frozenset(signed_out))


RON = {"outcome": "ron", "dealer_position": 1, "wins": [{"winner": 0, "discarder": 2, "han": 2, "fu": 40}]}

CASES: dict[tuple[str, str], list[Case]] = {
    ("schema", "GET"): [C("the OpenAPI schema", v1("schema"), ALL)],
    ("docs", "GET"): [C("the docs page", v1("docs"), ALL)],
    ("events", "GET"): [C("list events", v1("events"), VALID)],
    ("event", "GET"): [C("read the event", v1("event", slug), READERS)],
    ("event_rules", "GET"): [C("read its rules", v1("event_rules", slug), READERS)],
    ("event_entries", "GET"): [C("list its entries", v1("event_entries", slug), READERS)],
    ("event_entries", "POST"): [
        C(
            "register a player",
            v1("event_entries", slug),
            ORGANIZERS,
            {"display_name": "Walk-in", "external_id": "EMA-0001", "country": "de"},
        )
    ],
    ("event_rounds", "GET"): [C("list its rounds", v1("event_rounds", slug), READERS)],
    ("event_rounds", "POST"): [
        C(
            "seat round 2 once round 1 is completed (table 2's card no longer opens anything; check-in is still "
            "open: overridden, with a reason)",
            v1("event_rounds", slug),
            ORGANIZERS,
            {"override": ["check_in_open"], "reason": "the desk stays open for latecomers"},
            setup=round_completed,
            signed_out={"scorekeeper_table_2"},
        )
    ],
    ("round_seating", "GET"): [C("read round 1's seating", v1("round_seating", slug, 1), READERS)],
    ("event_standings", "GET"): [C("read the standings", v1("event_standings", slug), READERS)],
    ("event_rulings", "GET"): [C("list the event's rulings", v1("event_rulings", slug), READERS)],
    ("event_teams", "GET"): [C("list the event's teams", v1("event_teams", slug), READERS)],
    ("event_team_standings", "GET"): [C("read the team standings", v1("event_team_standings", slug), READERS)],
    ("team_reserve_in", "POST"): [
        C(
            "bring a reserve in for round 2",
            v1("team_reserve_in", slug, lambda w: w.team.pk),
            ORGANIZERS,
            {"reserve": reserve_entry, "member": member_entry, "round": 2},
        )
    ],
    ("event_rulings", "POST"): [
        C("record an event-wide ruling", v1("event_rulings", slug), EVERY_TABLE, {"decision": "lunch at noon"})
    ],
    ("event_tokens", "GET"): [C("list the API tokens", v1("event_tokens", slug), TOKEN_ISSUERS)],
    ("event_tokens", "POST"): [
        C(
            "issue an API token",
            v1("event_tokens", slug),
            TOKEN_ISSUERS,
            {"name": "overlay", "scope": "referee", "tables": "2"},
        )
    ],
    ("event_token_revoke", "POST"): [
        C("revoke an API token", v1("event_token_revoke", slug, lambda w: w.spare_token.pk), TOKEN_ISSUERS)
    ],
    ("export_csv", "GET"): [C("export the standings as CSV", v1("export_csv", slug), READERS)],
    ("export_json", "GET"): [C("export the event as JSON", v1("export_json", slug), READERS)],
    ("archive_schema", "GET"): [C("the archive's JSON Schema", v1("archive_schema"), VALID)],
    ("results_ema", "GET"): [C("export the EMA results", v1("results_ema", slug), READERS)],
    ("event_registration", "GET"): [C("read the registration", v1("event_registration", slug), READERS)],
    ("event_sign_ups", "GET"): [C("list the sign-ups", v1("event_sign_ups", slug), ORGANIZERS)],
    ("event_sign_ups", "POST"): [
        C(
            "sign someone up",
            v1("event_sign_ups", slug),
            ORGANIZERS,
            {"name": "Walk-in", "email": "walk-in@example.org"},
        )
    ],
    ("sign_up_approve", "POST"): [
        C("approve a pending sign-up", v1("sign_up_approve", slug, sign_up("pending")), ORGANIZERS)
    ],
    ("sign_up_refuse", "POST"): [
        C(
            "refuse and block a sign-up",
            v1("sign_up_refuse", slug, sign_up("waiting")),
            ORGANIZERS,
            {"reason": "twice", "block": True},
        )
    ],
    ("sign_up_withdraw", "POST"): [
        C("withdraw a sign-up", v1("sign_up_withdraw", slug, sign_up("waiting")), ORGANIZERS)
    ],
    ("sign_up_check_in", "POST"): [
        C("check a player in", v1("sign_up_check_in", slug, sign_up("confirmed")), ORGANIZERS)
    ],
    ("sign_up_move", "POST"): [
        C(
            "move a sign-up up the waiting list",
            v1("sign_up_move", slug, sign_up("waiting_2")),
            ORGANIZERS,
            {"before": sign_up("waiting"), "reason": "called first"},
        )
    ],
    ("checkin_close", "POST"): [C("close check-in", v1("checkin_close", slug), ORGANIZERS)],
    ("players", "GET"): [C("list players", v1("players"), VALID)],
    ("table", "GET"): [
        C("read table 1", v1("table", t1), READERS),
        C("read table 2", v1("table", t2), READERS | {"scorekeeper_table_2"}),
    ],
    ("table_hands", "GET"): [C("list table 1's hands", v1("table_hands", t1), READERS)],
    ("table_hands", "POST"): [
        C("record a hand at table 1", v1("table_hands", t1), AT_TABLE_1, {"number": 2, **RON}),
        C(
            "record a hand at table 2",
            v1("table_hands", t2),
            AT_TABLE_2,
            {"number": 1, "outcome": "exhaustive_draw", "dealer_position": 0},
        ),
    ],
    ("hand_versions", "GET"): [C("read every version of hand 1", v1("hand_versions", t1, 1), READERS)],
    ("hand_versions", "POST"): [
        C(
            "correct hand 1 at table 1",
            v1("hand_versions", t1, 1),
            AT_TABLE_1,
            {
                "expected_version": 1,
                "outcome": "ron",
                "dealer_position": 0,
                "wins": [{"winner": 1, "discarder": 2, "han": 4, "fu": 30}],
            },
        )
    ],
    ("hand_void", "POST"): [C("void hand 1 at table 1", v1("hand_void", t1, 1), AT_TABLE_1, {"expected_version": 1})],
    ("table_result", "GET"): [C("read table 1's result", v1("table_result", t1), READERS)],
    ("table_result", "POST"): [
        C("confirm table 1 from its hands", v1("table_result", t1), AT_TABLE_1, {"end_reason": "time"}),
        C(
            "confirm table 2's final scores",
            v1("table_result", t2),
            AT_TABLE_2,
            {"final_points": [40000, 30000, 20000, 10000]},
        ),
    ],
    ("table_penalties", "GET"): [C("list table 1's penalties", v1("table_penalties", t1), READERS)],
    ("table_penalties", "POST"): [
        C(
            "log a penalty at table 1",
            v1("table_penalties", t1),
            AT_TABLE_1,
            {"position": 0, "kind": "art35_revealed_hand", "hand_number": 2, "reason": "shown"},
        )
    ],
    ("table_absences", "POST"): [
        C("mark South absent at table 1", v1("table_absences", t1), AT_TABLE_1, {"position": 1, "during": True})
    ],
    ("table_absence", "DELETE"): [C("undo West's absence at table 1", v1("table_absence", t1, 3), AT_TABLE_1)],
    # a substitute: the table's referees (table 2's: the organizers; a referee of table 1 is refused there)
    ("table_substitutes", "POST"): [
        C("seat a substitute at table 2", v1("table_substitutes", t2), EVERY_TABLE, {"position": 0, "name": "Stand In"})
    ],
    # checking a round locks it: its organizers and referees; unlocking: the owner or an organizer token
    ("round_check", "POST"): [
        C(
            "check round 1 once its tables are finished",
            v1("round_check", slug, 1),
            AT_TABLE_1 - {"scorekeeper_table_2"},
            setup=round_finished,
        )
    ],
    ("round_unlock", "POST"): [
        C(
            "unlock round 1, saying why",
            v1("round_unlock", slug, 1),
            ORGANIZERS,
            {"reason": "a result was typed wrong"},
            setup=round_checked,
        )
    ],
    # a re-seat: the table's referees and the organizers (table 1: hand 1 re-priced, West's absence and the clock
    # moved with the players)
    ("table_reseat", "POST"): [
        C(
            "re-seat table 1 (its players in reverse)",
            v1("table_reseat", t1),
            AT_TABLE_1,
            {"seats": lambda w: list(w.table_1.seats.order_by("-position").values_list("entry__player_id", flat=True))},
        )
    ],
    ("table_rulings", "GET"): [C("list table 1's rulings", v1("table_rulings", t1), READERS)],
    ("table_rulings", "POST"): [
        C("record a ruling at table 1", v1("table_rulings", t1), AT_TABLE_1, {"decision": "play on", "position": 0})
    ],
    ("clock", "GET"): [C("read table 1's clock", v1("clock", t1), READERS)],
    ("clock_start", "POST"): [
        C("start table 1's clock", v1("clock_start", t1), AT_TABLE_1, {"hand_number": 2, "dealer_position": 1}),
        C("start table 2's clock", v1("clock_start", t2), AT_TABLE_2, {"hand_number": 1, "dealer_position": 0}),
    ],
    ("clock_press", "POST"): [
        C("press table 1's clock", v1("clock_press", t1), AT_TABLE_1, {"seat": 1, "turn_number": 1})
    ],
    ("clock_pause", "POST"): [C("pause table 1's clock", v1("clock_pause", t1), AT_TABLE_1)],
    ("clock_resume", "POST"): [
        C("resume table 1's clock", v1("clock_resume", t1), AT_TABLE_1, setup=lambda w: clock_pause(table=w.table_1))
    ],
    ("clock_flag", "POST"): [C("record a flag on table 1's clock", v1("clock_flag", t1), AT_TABLE_1)],
}

MATRIX = [(route, method, case, role) for (route, method), cases in CASES.items() for case in cases for role in ROLES]


def url_conf_endpoints() -> set[tuple[str, str]]:
    """(route name, method) of every endpoint under /api/v1/, from the URL conf."""
    _, resolver = get_resolver().namespace_dict["api_v1"]
    found = set()
    patterns = list(resolver.url_patterns)
    while patterns:
        pattern = patterns.pop()
        if isinstance(pattern, URLResolver):  # an app's endpoints included under a path (registration)
            patterns.extend(pattern.url_patterns)
            continue
        view = pattern.callback.cls
        for method in ("get", "post", "put", "patch", "delete"):
            if hasattr(view, method):
                found.add((pattern.name, method.upper()))
    return found


def test_every_endpoint_is_in_the_matrix():
    assert url_conf_endpoints() == set(CASES)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("route", "method", "case", "role"), MATRIX, ids=[f"{m} {r}: {c.label} as {role}" for r, m, c, role in MATRIX]
)
def test_endpoint_answers_each_role(world, route, method, case, role):
    client = client_for(world, role)
    if case.setup is not None:
        case.setup(world)
    body = {} if case.body is None and method != "GET" else case.body
    if body:  # a value may name a row of the world (a sign-up's id)
        body = {name: value(world) if callable(value) else value for name, value in body.items()}
    with writes_recorded(token_bookkeeping) as written:
        if method == "GET":
            response = client.get(case.url(world))
        else:
            response = client.generic(method, case.url(world), json.dumps(body), content_type="application/json")
    if role in case.allowed:
        assert response.status_code < 300, f"{role} was refused: {response.status_code} {response.content[:300]!r}"
        return
    expected = 401 if role in ("anonymous", "revoked_token", "expired_token") or role in case.signed_out else 403
    assert response.status_code == expected, f"{role}: {response.status_code} {response.content[:300]!r}"
    error = response.json()["error"]
    if role == "revoked_token":
        assert error["code"] == "token_revoked"
    elif role == "expired_token":
        assert error["code"] == "token_expired"
    if expected == 401:
        assert response.headers["WWW-Authenticate"] == 'Bearer realm="api"'
    assert written == [], f"{role} was refused but wrote: {written}"  # a refusal comes before any write
