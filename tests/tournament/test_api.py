"""The REST API (/api/v1/): API tokens and their scopes, recording through the console's services, one
error shape, standings with ETag and pages, exports, the schema and its docs page."""

from __future__ import annotations

import csv
import hashlib
import io
import json
from datetime import timedelta
from fractions import Fraction

import pytest
from django.contrib.auth.models import User
from django.contrib.staticfiles import finders
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from players.models import Player
from taikai.errors import TaikaiError
from tests.factories import EventRoleFactory
from tournament.models import ApiToken, Entry, HandVersion, Penalty, Round, Ruling, Seat, SeatResult, Table
from tournament.services.hands import hand_record
from tournament.services.results import table_finish
from tournament.services.rounds import round_complete
from tournament.services.standings import standings_recompute
from tournament.services.tokens import api_token_issue

pytestmark = pytest.mark.django_db

RON = {"outcome": "ron", "dealer_position": 0, "wins": [{"winner": 1, "discarder": 2, "han": 3, "fu": 30}]}


@pytest.fixture
def event(make_event, seated_round):
    event = make_event(8, is_public=False, clock_bank_seconds=60)
    seated_round(event)
    return event


@pytest.fixture
def tables(event):
    return list(Table.objects.filter(round__event=event).order_by("number"))


def bearer(secret: str) -> Client:
    return Client(HTTP_AUTHORIZATION=f"Bearer {secret}")


def token(event, scope: str, tables: str = "", **kwargs):
    return api_token_issue(event=event, name=f"{scope} {tables}".strip(), scope=scope, tables=tables, **kwargs)


def post(client: Client, url: str, body, method: str = "POST"):
    return client.generic(method, url, json.dumps(body), content_type="application/json")


def hands_url(table) -> str:
    return reverse("api_v1:table_hands", args=[table.pk])


# --- Tokens and their scopes -----------------------------------------------------------------------


def test_a_referee_token_records_corrects_and_voids_at_its_table_and_each_version_names_it(event, tables):
    issued = token(event, "referee", "1")
    client = bearer(issued.secret)
    first = post(client, hands_url(tables[0]), {"number": 1, **RON})
    assert first.status_code == 201 and first.json()["deltas"] == [0, 3900, -3900, 0]
    assert first.json()["recorded_via"] == "api token"
    corrected = post(
        client,
        reverse("api_v1:hand_versions", args=[tables[0].pk, 1]),
        {**RON, "expected_version": 1, "wins": [{"winner": 1, "discarder": 2, "han": 4, "fu": 30}]},
    )
    assert corrected.status_code == 201 and corrected.json()["version"] == 2
    voided = post(client, reverse("api_v1:hand_void", args=[tables[0].pk, 1]), {"expected_version": 2})
    assert voided.status_code == 201 and voided.json()["outcome"] == "void"
    versions = client.get(reverse("api_v1:hand_versions", args=[tables[0].pk, 1])).json()
    assert [(v["version"], v["is_current"], v["outcome"]) for v in versions] == [
        (1, False, "ron"),
        (2, False, "ron"),
        (3, True, "void"),
    ]
    stored = HandVersion.objects.filter(hand__table=tables[0])
    assert {v.recorded_by_token_id for v in stored} == {issued.token.pk}
    assert {v.recorded_by_id for v in stored} == {None}
    assert stored.get(version=1).author == f"API token #{issued.token.pk}"


def test_a_referee_token_cannot_touch_another_table_and_writes_nothing(event, tables):
    client = bearer(token(event, "referee", "1").secret)
    refused = post(client, hands_url(tables[1]), {"number": 1, **RON})
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "forbidden"
    assert (
        post(
            client, reverse("api_v1:clock_start", args=[tables[1].pk]), {"hand_number": 1, "dealer_position": 0}
        ).status_code
        == 403
    )
    assert (
        post(
            client, reverse("api_v1:table_absences", args=[tables[1].pk]), {"position": 0, "during": False}
        ).status_code
        == 403
    )
    assert not HandVersion.objects.exists() and not Seat.objects.exclude(absence="present").exists()


def test_a_read_token_reads_an_event_that_is_not_public_and_writes_nothing(event, tables):
    client = bearer(token(event, "read").secret)
    assert client.get(reverse("api_v1:event", args=[event.slug])).status_code == 200
    assert client.get(reverse("api_v1:table_hands", args=[tables[0].pk])).status_code == 200
    assert Client().get(reverse("api_v1:event", args=[event.slug])).status_code == 401
    assert post(client, hands_url(tables[0]), {"number": 1, **RON}).status_code == 403
    assert post(client, reverse("api_v1:event_entries", args=[event.slug]), {"display_name": "X"}).status_code == 403
    assert not HandVersion.objects.exists() and event.entries.count() == 8


def test_a_token_never_reaches_another_event(event, make_event, seated_round):
    other = make_event(4, name="Other Cup", slug="other-cup", is_public=False)
    other_table = seated_round(other).tables.get()
    client = bearer(token(event, "organizer").secret)
    assert client.get(reverse("api_v1:event", args=[other.slug])).status_code == 403
    assert post(client, hands_url(other_table), {"number": 1, **RON}).status_code == 403
    assert post(client, reverse("api_v1:event_entries", args=[other.slug]), {"display_name": "X"}).status_code == 403
    listed = client.get(reverse("api_v1:events")).json()["results"]
    assert [e["slug"] for e in listed] == [event.slug]
    players = client.get(reverse("api_v1:players")).json()
    assert players["count"] == 8 and not set(other.entries.values_list("player_id", flat=True)) & {
        p["id"] for p in players["results"]
    }


def test_an_organizer_token_is_no_account_and_never_manages_tokens(event):
    client = bearer(token(event, "organizer").secret)
    refused = post(client, reverse("api_v1:event_tokens", args=[event.slug]), {"name": "more", "scope": "organizer"})
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "token_not_allowed"
    assert client.get(reverse("admin:index")).status_code == 302  # the admin asks to sign in: a token is no account
    assert ApiToken.objects.count() == 1


@pytest.mark.parametrize(
    ("header", "code"),
    [
        ("Bearer taikai_unknown", "token_invalid"),
        ("Bearer", "token_invalid"),
        ("Bearer a b", "token_invalid"),
    ],
)
def test_an_unknown_or_malformed_token_is_401(event, header, code):
    response = Client(HTTP_AUTHORIZATION=header).get(reverse("api_v1:events"))
    assert response.status_code == 401 and response.json()["error"]["code"] == code
    assert response.headers["WWW-Authenticate"] == 'Bearer realm="api"'


def test_revoked_and_expired_tokens_are_401_even_for_public_reads(event):
    revoked, expired = token(event, "read"), token(event, "read")
    revoked.token.revoke(None)
    ApiToken.objects.filter(pk=expired.token.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    for issued, code in ((revoked, "token_revoked"), (expired, "token_expired")):
        response = bearer(issued.secret).get(reverse("api_v1:events"))
        assert response.status_code == 401 and response.json()["error"]["code"] == code


def test_the_token_scheme_is_read_too_and_its_last_use_is_noted(event):
    issued = token(event, "read")
    assert issued.token.last_used_at is None
    response = Client(HTTP_AUTHORIZATION=f"Token {issued.secret}").get(reverse("api_v1:event", args=[event.slug]))
    assert response.status_code == 200
    issued.token.refresh_from_db()
    assert issued.token.last_used_at is not None


def test_basic_auth_is_not_taken(event, tables):
    import base64

    User.objects.create_superuser("root", password="root-pw")
    header = "Basic " + base64.b64encode(b"root:root-pw").decode()
    response = post(Client(HTTP_AUTHORIZATION=header), hands_url(tables[0]), {"number": 1, **RON})
    assert response.status_code == 401 and not HandVersion.objects.exists()


def test_an_organizer_issues_a_token_through_the_api_and_only_its_digest_is_kept(event, tables):
    owner = User.objects.create_user("owner")
    event.owner = owner
    event.save(update_fields=["owner"])
    client = Client()
    client.force_login(owner)
    issued = post(
        client,
        reverse("api_v1:event_tokens", args=[event.slug]),
        {"name": "tablet 2", "scope": "referee", "tables": "2"},
    )
    assert issued.status_code == 201
    secret = issued.json()["token"]
    row = ApiToken.objects.get()
    assert row.digest == hashlib.sha256(secret.encode()).hexdigest() and secret not in json.dumps(
        list(ApiToken.objects.values()), default=str
    )
    assert "token" not in client.get(reverse("api_v1:event_tokens", args=[event.slug])).json()[0]
    assert post(bearer(secret), hands_url(tables[1]), {"number": 1, **RON}).status_code == 201
    revoked = post(client, reverse("api_v1:event_token_revoke", args=[event.slug, row.pk]), {})
    assert revoked.status_code == 200 and revoked.json()["revoked_at"]
    assert post(bearer(secret), hands_url(tables[1]), {"number": 2, **RON}).status_code == 401


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"name": "", "scope": "read"}, "name"),
        ({"name": "x", "scope": "admin"}, "scope"),
        ({"name": "x", "scope": "read", "tables": "1"}, "tables"),
        ({"name": "x", "scope": "referee", "tables": "a-b"}, "tables"),
        ({"name": "x", "scope": "read", "expires_at": "2000-01-01T00:00:00Z"}, "expires_at"),
    ],
)
def test_a_token_that_cannot_be_issued_is_400_naming_the_field(event, body, field):
    superuser = User.objects.create_superuser("root")
    client = Client()
    client.force_login(superuser)
    response = post(client, reverse("api_v1:event_tokens", args=[event.slug]), body)
    assert response.status_code == 400 and response.json()["error"]["field"] == field
    assert not ApiToken.objects.exists()


# --- The console's checks, the same through the API -----------------------------------------------


@pytest.mark.parametrize(
    ("wins", "code", "field"),
    [
        ([{"winner": 1, "discarder": 2, "han": 3, "fu": 35}], "impossible_fu", "wins[0].fu"),
        ([{"winner": 1, "discarder": 2, "han": 1, "fu": 20}], "impossible_han_fu", "wins[0].fu"),
        ([{"winner": 1, "han": 3, "fu": 30}], "missing_discarder", "wins[0].discarder"),
        ([{"winner": 1, "discarder": 1, "han": 3, "fu": 30}], "winner_is_discarder", "wins[0].winner"),
        ([{"winner": 1, "discarder": 2, "han": 3}], "missing_fu", "wins[0].fu"),
    ],
)
def test_a_hand_is_checked_by_the_services_the_console_uses(event, tables, wins, code, field):
    data = {"outcome": "ron", "dealer_position": 0, "wins": wins}
    with pytest.raises(TaikaiError) as direct:
        hand_record(table=tables[0], number=1, expected_version=0, data=data)
    response = post(bearer(token(event, "organizer").secret), hands_url(tables[0]), {"number": 1, **data})
    assert response.status_code == 400
    assert response.json()["error"] == {"code": code, "message": direct.value.message, "field": field}
    assert direct.value.code == code and not HandVersion.objects.exists()


def test_someone_who_saved_first_is_a_409(event, tables):
    client = bearer(token(event, "referee").secret)
    assert post(client, hands_url(tables[0]), {"number": 1, **RON}).status_code == 201
    again = post(client, hands_url(tables[0]), {"number": 1, **RON})
    assert again.status_code == 409 and again.json()["error"]["code"] == "version_conflict"
    stale = post(client, reverse("api_v1:hand_versions", args=[tables[0].pk, 1]), {**RON, "expected_version": 0})
    assert stale.status_code == 409 and stale.json()["error"]["field"] == "expected_version"
    assert HandVersion.objects.count() == 1


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"number": "one", **RON}, "number"),
        ({"number": 1, "outcome": "win", "dealer_position": 0}, "outcome"),
        ({"number": 1, **RON, "dealer_position": 7}, "dealer_position"),
        ({"number": 1, **RON, "wins": "East"}, "wins"),
        (
            {"number": 1, **RON, "wins": [{"winner": 1, "discarder": 2, "han": 3, "fu": 30, "yaku": [["riichi"]]}]},
            "wins[0].yaku[0]",
        ),
        ({"number": 1, **RON, "wins": [{"winner": 1, "discarder": 2, "hand": {"tiles": "1m\x002m"}}]}, "wins[0].hand"),
        ({"number": 1, **RON, "note": "x" * 201}, "note"),
        ({"number": 10**6, **RON}, "number"),
        ({**RON}, "number"),
    ],
)
def test_bad_input_is_400_naming_the_field_and_nothing_is_written(event, tables, body, field):
    response = post(bearer(token(event, "organizer").secret), hands_url(tables[0]), body)
    assert response.status_code == 400, response.content
    assert response.json()["error"]["code"] == "invalid_input" and response.json()["error"]["field"] == field
    assert not HandVersion.objects.exists()


def test_a_body_that_is_not_json_is_400_and_a_form_is_415(event, tables):
    client = bearer(token(event, "organizer").secret)
    broken = client.post(hands_url(tables[0]), "{not json", content_type="application/json")
    assert broken.status_code == 400 and broken.json()["error"]["code"] == "invalid_json"
    deep = client.post(hands_url(tables[0]), "[" * 100_000 + "]" * 100_000, content_type="application/json")
    assert deep.status_code == 400 and deep.json()["error"]["code"] == "invalid_json"
    form = client.post(hands_url(tables[0]), {"number": 1})
    assert form.status_code == 415 and form.json()["error"]["code"] == "unsupported_media_type", form.content
    assert not HandVersion.objects.exists()


def test_a_seating_draft_and_why_a_player_is_out_are_for_the_staff(event, tables):
    Round.objects.filter(event=event).update(status=Round.Status.DRAFT)
    Entry.objects.filter(pk=tables[0].seats.first().entry_id).update(status="withdrawn", status_reason="went home ill")
    event.is_public = True
    event.save(update_fields=["is_public"])
    organizer = bearer(token(event, "organizer").secret)
    assert Client().get(reverse("api_v1:table", args=[tables[0].pk])).status_code == 404
    assert Client().get(reverse("api_v1:round_seating", args=[event.slug, 1])).status_code == 404
    assert organizer.get(reverse("api_v1:table", args=[tables[0].pk])).status_code == 200
    reasons = {
        e["status_reason"] for e in Client().get(reverse("api_v1:event_entries", args=[event.slug])).json()["results"]
    }
    assert reasons == {""}
    staff = organizer.get(reverse("api_v1:event_entries", args=[event.slug])).json()["results"]
    assert "went home ill" in {e["status_reason"] for e in staff}


def test_one_error_shape_for_404_and_405(event, tables):
    client = bearer(token(event, "read").secret)
    missing = client.get(reverse("api_v1:table", args=[10**17]))
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found"
    assert client.get(f"/api/v1/tables/{10**30}/").status_code == 404  # beyond any id
    wrong = post(client, reverse("api_v1:event", args=[event.slug]), {})
    assert wrong.status_code == 405 and wrong.json()["error"]["code"] == "method_not_allowed"


def test_penalties_absences_and_rulings_name_the_token_and_a_disqualifying_foul_asks_first(event, tables):
    issued = token(event, "referee", "1")
    client = bearer(issued.secret)
    url = reverse("api_v1:table_penalties", args=[tables[0].pk])
    foul = {"position": 2, "kind": "art37_deliberate_foul", "hand_number": 1, "reason": "swapped tiles"}
    asked = post(client, url, foul)
    assert asked.status_code == 400 and asked.json()["error"]["field"] == "confirm_disqualification"
    assert not Penalty.objects.exists()
    logged = post(client, url, {**foul, "confirm_disqualification": True})
    assert logged.status_code == 201 and logged.json()["points"] == 400
    penalty = Penalty.objects.get()
    assert penalty.logged_by_token_id == issued.token.pk and penalty.entry.status == Entry.Status.DISQUALIFIED
    absent = post(client, reverse("api_v1:table_absences", args=[tables[0].pk]), {"position": 3, "during": False})
    assert absent.status_code == 201 and [s["game_index"] for s in absent.json()["seats"]] == [0, 1, 2, None]
    back = client.delete(reverse("api_v1:table_absence", args=[tables[0].pk, 3]))
    assert back.status_code == 200 and back.json()["seats"][3]["absence"] == "present"
    ruled = post(client, reverse("api_v1:table_rulings", args=[tables[0].pk]), {"decision": "replay", "position": 1})
    assert ruled.status_code == 201
    assert Ruling.objects.get().decided_by_token_id == issued.token.pk
    assert (
        post(client, reverse("api_v1:table_rulings", args=[tables[0].pk]), {"decision": "x", "position": 9}).status_code
        == 400
    )


def test_the_result_from_final_scores_is_checked_like_the_console(event, tables):
    client = bearer(token(event, "organizer").secret)
    url = reverse("api_v1:table_result", args=[tables[0].pk])
    unusual = post(client, url, {"final_points": [45050, 30000, 15000, 9950]})
    assert unusual.status_code == 400 and unusual.json()["error"]["field"] == "confirm_unusual"
    wrong_sum = post(client, url, {"final_points": [40000, 30000, 20000, 20000]})
    assert wrong_sum.status_code == 400 and wrong_sum.json()["error"]["code"] == "scores_do_not_sum"
    done = post(client, url, {"final_points": [45050, 30000, 15000, 9950], "confirm_unusual": True})
    assert done.status_code == 201
    stored = SeatResult.objects.filter(table=tables[0]).order_by("seat__position")
    assert [r["game_points"] for r in done.json()] == [str(r.game_points) for r in stored]
    assert sum(Fraction(r["game_points"]) for r in done.json()) == 0 and "/" in done.json()[0]["game_points"]


def test_the_v1_clock_runs_with_a_token_and_the_old_clock_answers_as_before(event, tables):
    client = bearer(token(event, "referee", "1").secret)
    started = post(client, reverse("api_v1:clock_start", args=[tables[0].pk]), {"hand_number": 1, "dealer_position": 0})
    assert started.status_code == 200 and started.json()["seat_on_turn"] == 0
    wrong = post(client, reverse("api_v1:clock_press", args=[tables[0].pk]), {"seat": 2, "turn_number": 1})
    assert wrong.status_code == 409 and wrong.json()["error"]["code"] == "clock_wrong_seat"
    old = post(client, reverse("tournament_api:clock_press", args=[tables[0].pk]), {"seat": 0, "turn_number": 1})
    assert old.status_code == 403  # the old clock API takes sessions only


# --- Players, entries -------------------------------------------------------------------------------


def test_an_organizer_token_registers_players_by_values_and_by_their_external_id(event):
    client = bearer(token(event, "organizer").secret)
    url = reverse("api_v1:event_entries", args=[event.slug])
    known = Player.objects.create(display_name="Known Player", external_id="04010123")
    first = post(
        client,
        url,
        {
            "display_name": "Ann Example",
            "family_name": "Example",
            "given_name": "Ann",
            "country": "nl",
            "external_id": "04010999",
        },
    )
    assert first.status_code == 201 and first.json()["player"]["country"] == "NL"
    by_id = post(client, url, {"display_name": "Whatever", "external_id": "04010123"})
    assert by_id.status_code == 201 and by_id.json()["player"]["id"] == known.pk
    stored = post(client, url, {"player": known.pk})
    assert stored.status_code == 201 and stored.json()["id"] == by_id.json()["id"]
    assert event.entries.count() == 10 and Player.objects.filter(display_name="Whatever").count() == 0


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"display_name": "A", "country": "Nederland"}, "country"),
        ({"display_name": "A", "country": "1x"}, "country"),
        ({"player": 10**9}, "player"),
        ({"player": 1, "display_name": "A"}, "player"),
        ({}, "display_name"),
        ({"display_name": "   "}, "display_name"),
    ],
)
def test_a_player_who_cannot_be_registered_is_400_and_nothing_is_written(event, body, field):
    players = Player.objects.count()
    response = post(bearer(token(event, "organizer").secret), reverse("api_v1:event_entries", args=[event.slug]), body)
    assert response.status_code == 400 and response.json()["error"]["field"] == field
    assert Player.objects.count() == players and event.entries.count() == 8


def test_a_superuser_lists_every_event_and_anyone_else_the_public_ones_and_their_own(event, make_event):
    public = make_event(4, name="Open", slug="open")
    root = Client()
    root.force_login(User.objects.create_superuser("root"))
    assert {e["slug"] for e in root.get(reverse("api_v1:events")).json()["results"]} == {
        event.slug,
        public.slug,
    }
    assert root.get(reverse("api_v1:players")).json()["count"] == 12
    assert [e["slug"] for e in Client().get(reverse("api_v1:events")).json()["results"]] == [public.slug]
    mine = bearer(token(event, "read").secret).get(reverse("api_v1:events")).json()["results"]
    assert {e["slug"] for e in mine} == {event.slug, public.slug}


def test_anyone_lists_the_players_of_public_events_only(event, make_event):
    public = make_event(4, name="Open", slug="open")
    listed = Client().get(reverse("api_v1:players")).json()
    assert {p["id"] for p in listed["results"]} == set(public.entries.values_list("player_id", flat=True))
    found = Client().get(reverse("api_v1:players") + "?external_id=nobody").json()
    assert found["count"] == 0


# --- Standings and exports ---------------------------------------------------------------------------


@pytest.fixture
def played(event, tables):
    """Round 1 played: table 1 from its hands, table 2 from final scores; standings computed."""
    Player.objects.filter(entries__event=event).update(family_name="Family", given_name="Given")
    Player.objects.filter(pk=event.entries.order_by("id").first().player_id).update(external_id="04-001")
    hand_record(table=tables[0], number=1, expected_version=0, data=RON)
    table_finish(table=tables[0], end_reason="time")
    table_finish(table=tables[1], final_points=[40000, 30000, 20000, 10000])
    round_complete(round_=Round.objects.get(event=event))
    standings_recompute(event_id=event.pk)
    return event


def test_standings_are_paginated_with_an_etag_that_stays_until_they_change(played, make_event):
    client = bearer(token(played, "read").secret)
    url = reverse("api_v1:event_standings", args=[played.slug])
    first = client.get(url)
    body = first.json()
    assert first.status_code == 200 and body["count"] == 8 and body["rounds"] == [1]
    top = played.standings_rows.order_by("position").first()
    assert (
        body["results"][0]["total_points"] == str(top.total_points) and body["results"][0]["history"][0]["round"] == 1
    )
    again = client.get(url, HTTP_IF_NONE_MATCH=first.headers["ETag"])
    assert again.status_code == 304
    standings_recompute(event_id=played.pk)
    assert client.get(url, HTTP_IF_NONE_MATCH=first.headers["ETag"]).status_code == 200
    assert client.get(url + "?page=2").status_code == 404


def test_a_long_field_is_read_a_hundred_rows_a_page(make_event):
    big = make_event(130, slug="big")
    standings_recompute(event_id=big.pk)
    page_2 = Client().get(reverse("api_v1:event_standings", args=[big.slug]) + "?page=2").json()
    assert (page_2["count"], page_2["pages"], len(page_2["results"])) == (130, 2, 30)
    assert page_2["previous"].endswith(f"/api/v1/events/{big.slug}/standings") and page_2["next"] is None


def test_the_exports_give_the_standings_the_event_and_a_ranking_results_file(played):
    client = bearer(token(played, "read").secret)
    standings = list(
        csv.DictReader(io.StringIO(client.get(reverse("api_v1:export_csv", args=[played.slug])).content.decode()))
    )
    assert len(standings) == 8 and standings[0]["total_points"] == str(
        played.standings_rows.order_by("position").first().total_points
    )
    ema = list(
        csv.DictReader(io.StringIO(client.get(reverse("api_v1:results_ema", args=[played.slug])).content.decode()))
    )
    assert list(ema[0]) == [
        "place",
        "ema_number",
        "last_name",
        "first_name",
        "country",
        "points",
        "score",
        "games",
    ]
    row = next(r for r in ema if r["ema_number"] == "04-001")
    entry = played.entries.order_by("id").first()
    result = entry.results.get(is_current=True)
    assert (row["last_name"], row["first_name"], row["games"]) == ("Family", "Given", "1")
    assert row["score"] == str(result.final_points - 25000) and Fraction(row["points"]) == result.game_points
    assert "/" not in row["points"]  # a decimal, never a fraction
    exported = client.get(reverse("api_v1:export_json", args=[played.slug])).json()
    assert exported["format"] == "taikai-event" and len(exported["entries"]) == 8
    [round_] = exported["rounds"]
    assert [len(t["hands"]) for t in round_["tables"]] == [1, 0]
    assert all(isinstance(r["game_points"], str) for t in round_["tables"] for r in t["results"])
    assert "penalties" in exported
    # the tournament rules and the whole ruleset travel with the event, as the rules endpoint gives them
    rules = client.get(reverse("api_v1:event_rules", args=[played.slug])).json()
    assert exported["rules"] == rules and exported["rules"]["ruleset"]["start_points"] == 25000
    assert {"uma", "clock_bank_seconds", "standings_precedence"} <= set(exported["rules"])
    public = Client()
    played.is_public = True
    played.save(update_fields=["is_public"])
    assert "penalties" not in public.get(reverse("api_v1:export_json", args=[played.slug])).json()


def test_who_recorded_a_hand_is_named_to_the_event_staff_only(event, tables, settings):
    referee = EventRoleFactory(event=event, user__username="ref", kind="referee").user
    hand_record(table=tables[0], number=1, expected_version=0, data=RON, user=referee)
    event.is_public = True
    event.save(update_fields=["is_public"])
    staff = Client()
    staff.force_login(referee)
    assert staff.get(hands_url(tables[0])).json()[0]["recorded_by"] == "ref"
    assert Client().get(hands_url(tables[0])).json()[0]["recorded_by"] is None


# --- The schema and its docs page ------------------------------------------------------------------


def test_the_schema_lists_every_endpoint_with_exact_points():
    response = Client().get(reverse("api_v1:schema") + "?format=json")
    schema = json.loads(response.content)
    assert response.status_code == 200 and schema["openapi"].startswith("3.")
    assert (
        "/api/v1/tables/{table_id}/hands" in schema["paths"] and "/api/tables/{table_id}/clock" not in schema["paths"]
    )
    assert schema["components"]["securitySchemes"]["apiToken"]["scheme"] == "bearer"
    assert (
        schema["components"]["schemas"]["SeatResult"]["properties"]["game_points"]["pattern"] == "^-?[0-9]+(/[0-9]+)?$"
    )


def test_the_docs_page_serves_its_scripts_from_this_site_under_the_content_security_policy():
    response = Client().get(reverse("api_v1:docs"))
    page = response.content.decode()
    assert response.status_code == 200 and "script-src 'self'" in response.headers["Content-Security-Policy"]
    assert "cdn." not in page and "https://" not in page and "<script>" not in page
    scripts = [part.split('"')[0] for part in page.split('<script src="')[1:]]
    assert len(scripts) == 3
    for src in scripts:
        if src.startswith("/static/"):
            assert finders.find(src.removeprefix("/static/")), src
        else:
            assert Client().get(src).status_code == 200  # the page's own script, from this view
