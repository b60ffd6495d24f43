"""Every write at the tables against every role (the console's table sheet, the clock API, the REST API signed
in): who may write is allowed, everyone else is refused (403, or sent to sign in) with nothing written. The world
and the check are ``roles_matrix_world``'s; ``test_roles_matrix.py`` checks that every write path is in one of
these lists.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from live.models import RefereeCall
from tests.fixtures.tournament import built_once
from tests.tournament.roles_matrix_world import (
    ORGANIZERS,
    REFEREES_AT_1,
    REFEREES_AT_2,
    ROLES,
    SCORERS_AT_1,
    SCORERS_AT_2,
    W,
    World,
    api,
    build_world,
    clock,
    event_slug,
    hand,
    post,
    sheet,
    table_pk,
    v1,
    write_checks_the_role,
)

pytestmark = [pytest.mark.django_db, pytest.mark.once]

TABLE_WRITES = [
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
    W(
        "re-seat table 2 from the console",
        post(
            lambda w: reverse("console:reseat", args=[w.table_2.pk]), lambda w: {**reseated(w.table_2), "confirm": "on"}
        ),
        REFEREES_AT_2,
        "console:reseat",
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
        "re-seat table 2 through the API",
        api(v1("table_reseat", table_pk("table_2")), lambda w: {"seats": list(reseated(w.table_2).values())}),
        REFEREES_AT_2,
        "api_v1:table_reseat",
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
        "check a player in at table 1 (the referee saw them)",
        sheet("table_1", "arrived", seat=lambda w: w.table_1.seats.get(position=1).pk),
        REFEREES_AT_1,
        "console:table",
    ),
    W("hold the late players' clock for table 2", sheet("table_2", "late_hold"), REFEREES_AT_2, "console:table"),
    W(
        "record a flag on table 1's clock through the API",
        api(v1("clock_flag", table_pk("table_1"))),
        SCORERS_AT_1,
        "api_v1:clock_flag",
    ),
]


def reseated(table) -> dict[str, int]:
    """The table's players in other seats (West and North, South and East swapped), as the console posts them."""
    players = list(table.seats.order_by("position").values_list("entry__player_id", flat=True))
    return {f"seat_{position}": players[position ^ 1] for position in range(len(players))}


CASES = [(write, role) for write in TABLE_WRITES for role in ROLES]


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker) -> World:
    """Built once for the module; each case runs in a savepoint rolled back after it, so every write is
    tried against the world exactly as built."""
    yield from built_once(django_db_blocker, build_world)


@pytest.mark.parametrize(("write", "role"), CASES, ids=[f"{w.name} as {r}" for w, r in CASES])
def test_write_path_checks_the_role(world, write, role):
    write_checks_the_role(world, write, role)
