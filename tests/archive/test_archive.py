"""The event archive (export.json, archive_version 1): its schema, and the round trip through
``import_event``. The import goes into the same test database as a new event under a new slug (``-2``):
it shares nothing with the original but the ruleset (reused: identical) and the accounts."""

import copy
import io
import json
import random
import re
import subprocess
import sys
from collections import Counter

import jsonschema
import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse

from archive.export import archive_build
from archive.load import event_import
from archive.schema import archive_schema
from players.models import Player
from scoring.models import Ruleset
from taikai.errors import TaikaiError
from tests.factories import EventRoleFactory
from tests.fixtures.tournament import built_once
from tournament.audit import event_audit
from tournament.models import Entry, Event, HandVersion, Penalty, Ruling, Seat, SeatResult, Table
from tournament.services.hands import hand_void
from tournament.simulation import Incidents, event_create, event_simulate, simulated_players

SEED = 69


def simulated_event() -> Event:
    """16 players, 3 rounds with penalties and absences, then a 4th round in play whose last hand is voided
    (a hand with two versions)."""
    event = event_create(
        slug="archived",
        name="Archived",
        players=simulated_players(16),
        ruleset=Ruleset.objects.get(slug="standard"),
        planned_rounds=5,
        clock_bank_seconds=60,
        clock_increment_seconds=5,
    )
    event_simulate(
        event,
        rounds=3,
        seed=SEED,
        seating="shuffle",
        in_progress=(2, 3),
        incidents=Incidents(penalties=True, absences=True),
    )
    table = Table.objects.filter(round__event=event, status=Table.Status.PLAYING).order_by("number").first()
    last = table.hands.order_by("-number").first()
    hand_void(table=table, number=last.number, expected_version=last.current_version, note="entered twice")
    return Event.objects.select_related("ruleset").get(pk=event.pk)


@pytest.fixture(scope="module")
def original_id(django_db_setup, django_db_blocker):
    yield from built_once(django_db_blocker, lambda: simulated_event().pk)


@pytest.fixture
def original(original_id, db):
    return Event.objects.select_related("ruleset").get(pk=original_id)


@pytest.fixture
def archive(original) -> dict:
    return json.loads(json.dumps(archive_build(original, staff=True)))  # as read from a file


def standings_by_player(event: Event) -> dict[str, tuple]:
    return {
        row.entry.player.external_id or row.name: (
            row.rank,
            row.award_rank,
            str(row.total_points),
            row.games,
            row.advances,
            row.penalty_points,
            row.status,
        )
        for row in event.standings_rows.select_related("entry__player")
    }


def test_the_export_of_an_event_with_a_penalty_an_absence_and_a_correction_validates(archive):
    # given an archive with a penalty, an absence and a hand in two versions
    seats = [s for r in archive["rounds"] for t in r["tables"] for s in t["seats"]]
    versions = Counter((t["id"], h["number"]) for r in archive["rounds"] for t in r["tables"] for h in t["hands"])
    assert archive["archive_version"] == 1 and archive["penalties"]
    assert any(seat["absence"] != "present" for seat in seats)
    assert max(versions.values()) == 2
    assert any(t["clock"] for r in archive["rounds"] for t in r["tables"])
    # then the published schema validates it
    jsonschema.Draft202012Validator(archive_schema()).validate(archive)


def test_the_api_serves_the_archive_and_its_schema(original):
    organizer = EventRoleFactory(event=original, user__username="archivist", kind="organizer").user
    client = Client()
    client.force_login(organizer)
    exported = client.get(reverse("api_v1:export_json", args=[original.slug])).json()
    schema = Client().get(reverse("api_v1:archive_schema")).json()
    assert schema == archive_schema()
    jsonschema.Draft202012Validator(schema).validate(exported)
    assert exported["format"] == "taikai-event" and exported["archive_version"] == 1
    assert exported["penalties"] and exported["rules"]["ruleset"]["slug"] == "standard"


def test_the_round_trip_gives_an_event_that_audits_clean_with_the_same_standings(original, archive, tmp_path):
    # given the archive in a file
    path = tmp_path / "archive.json"
    path.write_text(json.dumps(archive), encoding="utf-8")
    # when it is imported
    call_command("import_event", str(path))
    imported = Event.objects.select_related("ruleset").get(slug="archived-2")
    # then a new event, under the same (identical) ruleset, that audits clean
    assert imported.ruleset == original.ruleset
    assert event_audit(imported) == []
    assert standings_by_player(imported) == standings_by_player(original)

    # with every version of hands and results, their numbers, flags and times, the absences and penalties
    def versions(model, event, *fields):
        key = "hand__table__round__event" if model is HandVersion else "table__round__event"
        return sorted(model.objects.filter(**{key: event}).values_list(*fields))

    hand_fields = (
        "hand__table__round__number",
        "hand__table__number",
        "hand__number",
        "version",
        "is_current",
        "outcome",
        "deltas",
        "recorded_at",
    )
    assert versions(HandVersion, imported, *hand_fields) == versions(HandVersion, original, *hand_fields)
    result_fields = (
        "table__round__number",
        "table__number",
        "seat__position",
        "version",
        "is_current",
        "game_points",
        "recorded_at",
    )
    assert versions(SeatResult, imported, *result_fields) == versions(SeatResult, original, *result_fields)
    absences = ("round__number", "table__number", "position", "absence", "left_after_hand")
    assert sorted(Seat.objects.filter(round__event=imported).values_list(*absences)) == sorted(
        Seat.objects.filter(round__event=original).values_list(*absences)
    )
    penalty = ("kind", "points", "hand_number", "cancelled_at", "logged_at")
    assert sorted(Penalty.objects.filter(event=imported).values_list(*penalty)) == sorted(
        Penalty.objects.filter(event=original).values_list(*penalty)
    )
    # and exported again, the same archive but for the ids and the slug
    again = json.loads(json.dumps(archive_build(imported, staff=True)))
    assert [len(r["tables"]) for r in again["rounds"]] == [len(r["tables"]) for r in archive["rounds"]]
    assert again["standings"]["round_numbers"] == archive["standings"]["round_numbers"]


def test_an_invalid_archive_is_refused_with_its_path_and_nothing_is_written(archive, tmp_path):
    # given an archive with a seat at position 9
    broken = copy.deepcopy(archive)
    broken["rounds"][2]["tables"][0]["seats"][1]["position"] = 9
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(broken), encoding="utf-8")
    before = (
        Event.objects.count(),
        Player.objects.count(),
        Ruleset.objects.count(),
        HandVersion.objects.count(),
    )
    # when it is imported, then it is refused, naming the path
    with pytest.raises(CommandError, match=r"^archive_invalid: \$\.rounds\[2\]\.tables\[0\]\.seats\[1\]\.position: "):
        call_command("import_event", str(path))
    assert (
        Event.objects.count(),
        Player.objects.count(),
        Ruleset.objects.count(),
        HandVersion.objects.count(),
    ) == before


def test_a_row_naming_a_row_the_archive_does_not_hold_writes_nothing(archive):
    broken = copy.deepcopy(archive)
    broken["penalties"][0]["entry"] = 10**9
    before = (Event.objects.count(), Player.objects.count(), HandVersion.objects.count())
    with pytest.raises(TaikaiError) as refused:
        event_import(archive=broken)
    assert refused.value.code == "archive_invalid" and refused.value.field == "$.penalties[0].entry"
    assert (Event.objects.count(), Player.objects.count(), HandVersion.objects.count()) == before


def test_a_ruleset_that_differs_is_copied_under_a_new_slug(archive):
    # given an archive whose ruleset differs from the stored one of its slug (not in how hands are priced)
    changed = copy.deepcopy(archive)
    changed["ruleset"]["description"] = "House rules"
    # when it is imported
    imported = event_import(archive=changed)
    # then the ruleset is a copy, the stored one unchanged
    assert imported.ruleset.slug == "standard-2" and imported.ruleset.description == "House rules"
    assert Ruleset.objects.get(slug="standard").description != "House rules"


def player_of_a_private_event(external_id: str = "EMA-42") -> tuple[Player, Event]:
    """A stored player entered only in a private event another organizer owns."""
    owner = User.objects.create_user(f"organizer-of-{external_id}")
    private = Event.objects.create(
        slug=f"private-{external_id.lower()}",
        name="Private",
        is_public=False,
        ruleset=Ruleset.objects.get(slug="standard"),
        owner=owner,
    )
    player = Player.objects.create(display_name=f"Known {external_id}", external_id=external_id)
    Entry.objects.create(event=private, player=player)
    return player, private


def claiming(archive: dict, *external_ids: str) -> dict:
    """``archive`` whose first players claim ``external_ids``."""
    named = copy.deepcopy(archive)
    for entry, external_id in zip(named["entries"], external_ids, strict=False):
        entry["player"]["external_id"] = external_id
    return named


def test_an_external_id_of_a_player_of_events_the_importer_does_not_organize_is_not_that_player(archive):
    # given a stored player of another organizer's private event, and an importer who organizes none of it
    stored, private = player_of_a_private_event()
    importer = User.objects.create_user("importer")
    named = claiming(archive, "EMA-42")
    players_before = Player.objects.count()
    # when the importer imports an archive whose first player claims the stored player's external id
    imported = event_import(archive=named, owner=importer)
    # then the stored player is not entered: a new player of the archive's name, without the id, is
    assert list(Entry.objects.filter(player=stored).values_list("event", flat=True)) == [private.pk]
    newcomer = imported.entries.get(player__display_name=named["entries"][0]["player"]["display_name"]).player
    assert newcomer != stored and newcomer.external_id is None
    assert Player.objects.count() == players_before + len({e["player"]["id"] for e in named["entries"]})


def test_one_player_of_the_archive_entered_twice_is_refused_and_makes_no_rows(archive):
    # given an archive whose third entry names the first entry's player (the same name, the same id)
    twice = copy.deepcopy(archive)
    twice["entries"][2]["player"] = copy.deepcopy(twice["entries"][0]["player"])
    # when it is imported, then it is refused at that entry's player, and no player row is made
    assert refused_at(twice).field == "$.entries[2].player.id"


def test_an_external_id_of_a_player_entered_in_an_event_the_importer_organizes_is_that_player(archive):
    # given a stored player entered in an event the importer organizes
    stored, private = player_of_a_private_event()
    importer = EventRoleFactory(event=private, user__username="importer", kind="organizer").user
    # when the importer imports an archive whose first player has that external id
    imported = event_import(archive=claiming(archive, "EMA-42"), owner=importer)
    # then it is that player
    assert imported.entries.filter(player=stored).exists()


def test_the_command_makes_look_alikes_the_stored_players_only_when_asked(archive, tmp_path):
    # given a stored player, and an archive whose first player claims their external id
    stored, _private = player_of_a_private_event()
    path = tmp_path / "archive.json"
    path.write_text(json.dumps(claiming(archive, "EMA-42")), encoding="utf-8")
    # when it is imported without the flag, then a new player, and the command says so
    out = io.StringIO()
    call_command("import_event", str(path), stdout=out)
    first = Event.objects.get(slug="archived-2")
    assert not first.entries.filter(player=stored).exists() and "--link-players" in out.getvalue()
    # when it is imported with --link-players, then the stored player
    call_command("import_event", str(path), "--link-players", stdout=io.StringIO())
    assert Event.objects.get(slug="archived-3").entries.filter(player=stored).exists()


def test_the_imported_copy_is_private_and_marked_imported_until_its_organizer_publishes_it(original, archive):
    # given a public event's archive
    public = copy.deepcopy(archive)
    public["event"]["is_public"] = True
    # when it is imported
    imported = event_import(archive=public, owner=User.objects.create_user("importer"))
    # then the copy is private and marked imported: not listed, its pages not found
    assert not imported.is_public and imported.imported and not original.imported
    visitor = Client()
    assert visitor.get(f"/events/{imported.slug}/").status_code == 404
    assert f"/events/{imported.slug}/" not in visitor.get("/").content.decode()
    # when its organizer publishes it, then it is public, still marked imported
    Event.objects.filter(pk=imported.pk).update(is_public=True)
    assert visitor.get(f"/events/{imported.slug}/").status_code == 200


def test_an_archive_nested_too_deeply_is_refused_by_the_command_with_a_code_and_no_traceback(tmp_path):
    # given a file of a million nested lists
    path = tmp_path / "deep.json"
    path.write_text("[" * 1_000_000, encoding="utf-8")
    # when the command reads it, then one line with the code, a non-zero exit, no traceback
    run = subprocess.run(
        [sys.executable, "manage.py", "import_event", str(path)],
        capture_output=True,
        text=True,
        cwd=settings.BASE_DIR,
        timeout=120,
        check=False,
    )
    assert run.returncode != 0
    assert "Traceback" not in run.stderr and "RecursionError" not in run.stderr
    assert run.stderr.strip().splitlines() == [
        "CommandError: archive_unreadable: the file nests lists or objects too deeply to be an archive"
    ]


def first_hand(archive: dict, outcomes: tuple[str, ...]) -> tuple[int, int, int, dict]:
    """The first current hand of one of ``outcomes`` after the first hand of a table where everyone played:
    its round, table and hand indexes in the archive, and the hand."""
    for r, round_ in enumerate(archive["rounds"]):
        for t, table in enumerate(round_["tables"]):
            if any(seat["absence"] != "present" for seat in table["seats"]):
                continue
            for h, hand in enumerate(table["hands"]):
                if hand["number"] > 1 and hand["is_current"] and hand["outcome"] in outcomes:
                    return r, t, h, hand
    raise AssertionError(f"no hand of {outcomes}")


def refused_at(archive: dict) -> TaikaiError:
    before = (
        Event.objects.count(),
        Player.objects.count(),
        HandVersion.objects.count(),
        SeatResult.objects.count(),
    )
    with pytest.raises(TaikaiError) as refused:
        event_import(archive=archive)
    assert refused.value.code == "archive_invalid"
    assert (
        Event.objects.count(),
        Player.objects.count(),
        HandVersion.objects.count(),
        SeatResult.objects.count(),
    ) == before
    return refused.value


def test_a_hand_whose_changes_do_not_sum_to_zero_is_refused_with_its_path_and_nothing_is_written(archive):
    # given an archive where a won hand gives one seat 1,000 points from nobody
    broken = copy.deepcopy(archive)
    r, t, h, hand = first_hand(broken, ("ron", "tsumo"))
    hand["deltas"][0] += 1000
    # when it is imported, then it is refused at that hand's changes
    refused = refused_at(broken)
    assert refused.field == f"$.rounds[{r}].tables[{t}].hands[{h}].deltas"


def test_a_hand_whose_changes_are_not_those_of_its_win_is_refused_with_its_path(archive):
    # given an archive where a won hand moves 1,000 points more from one seat to another (still zero sum)
    broken = copy.deepcopy(archive)
    r, t, h, hand = first_hand(broken, ("ron", "tsumo"))
    hand["deltas"][0] += 1000
    hand["deltas"][1] -= 1000
    # when it is imported, then it is refused at that hand's changes
    assert refused_at(broken).field == f"$.rounds[{r}].tables[{t}].hands[{h}].deltas"


def test_riichi_deposits_that_no_hand_left_are_refused_with_their_path(archive):
    # given an archive where a drawn hand finds 1,000 points of deposits on the table that nobody left
    broken = copy.deepcopy(archive)
    r, t, h, hand = first_hand(broken, ("exhaustive_draw", "abortive_draw"))
    hand["deposits_in"] += 1000
    hand["deposits_out"] += 1000
    # when it is imported, then it is refused at that hand's deposits in
    assert refused_at(broken).field == f"$.rounds[{r}].tables[{t}].hands[{h}].deposits_in"


def test_a_running_score_that_the_hands_do_not_give_is_refused_at_its_path(archive):
    # given an archive where a game in progress shows its first seat 1,000 points up, its second 1,000 down
    broken = copy.deepcopy(archive)
    r, t, table = next(
        (r, t, table)
        for r, round_ in enumerate(broken["rounds"])
        for t, table in enumerate(round_["tables"])
        if table["status"] == "playing" and table["hands"]
    )
    table["running_points"][0] += 1000
    table["running_points"][1] -= 1000
    # when it is imported, then it is refused at the table's running score
    assert refused_at(broken).field == f"$.rounds[{r}].tables[{t}].running_points"


def test_final_points_that_the_hands_do_not_give_are_refused_at_the_tables_results(archive):
    # given an archive where a confirmed table's first seat has 1,000 points more, the second 1,000 fewer
    broken = copy.deepcopy(archive)
    r, t, table = next(
        (r, t, table)
        for r, round_ in enumerate(broken["rounds"])
        for t, table in enumerate(round_["tables"])
        if table["status"] == "finished" and table["hands"]
    )
    current = sorted((x for x in table["results"] if x["is_current"]), key=lambda x: x["position"])
    current[0]["final_points"] += 1000
    current[1]["final_points"] -= 1000
    # when it is imported, then it is refused at the table's results, saying why
    refused = refused_at(broken)
    assert refused.field == f"$.rounds[{r}].tables[{t}].results" and "(table_points)" in refused.message


def authors(archive: dict) -> dict[str, list]:
    """Every author text of an archive, by what was written (ids left out: they differ after an import)."""
    tables = [(r["number"], t) for r in archive["rounds"] for t in r["tables"]]
    return {
        "hands": sorted(
            (n, t["number"], h["number"], h["version"], h["recorded_by"]) for n, t in tables for h in t["hands"]
        ),
        "results": sorted(
            (n, t["number"], x["position"], x["version"], x["recorded_by"]) for n, t in tables for x in t["results"]
        ),
        "penalties": sorted(
            (p["kind"], p["reason"], p["logged_at"], p["logged_by"] or "", p["cancelled_by"] or "")
            for p in archive["penalties"]
        ),
        "rulings": sorted((r["decision"], r["decided_by"] or "") for r in archive["rulings"]),
        "entries": sorted(
            (e["player"]["display_name"], e["disqualification_confirmed_by"] or "") for e in archive["entries"]
        ),
    }


def with_authors(archive: dict, scorer: str, referee: str, director: str) -> dict:
    """``archive`` with its rows written by the names given, a table card and an API token: the hands and
    results alternately, the penalties, a ruling added, and a confirmed disqualification."""
    named = copy.deepcopy(archive)
    writers = [(scorer, "account"), ("table card #7", "table card"), ("API token #3", "api token")]
    rows = [row for r in named["rounds"] for t in r["tables"] for row in t["hands"] + t["results"]]
    for i, row in enumerate(rows):
        row["recorded_by"], row["recorded_via"] = writers[i % len(writers)]
    for i, penalty in enumerate(named["penalties"]):
        penalty["logged_by"] = [referee, "API token #3"][i % 2]
    named["penalties"][0].update(cancelled_at="2026-03-01T10:00:00Z", cancelled_by=director)
    table = named["rounds"][0]["tables"][0]
    named["rulings"].append(
        {
            "id": 9001,
            "table": table["id"],
            "entry": table["seats"][0]["entry"],
            "decision": "play on",
            "decided_at": "2026-03-01T10:05:00Z",
            "decided_by": director,
        }
    )
    named["entries"][0].update(
        disqualification_confirmed_at="2026-03-01T10:10:00Z", disqualification_confirmed_by=director
    )
    return named


def test_authors_without_an_account_here_are_kept_as_the_archive_named_them(archive):
    # given an archive whose authors have no account here: people of the other database, a card, a token
    named = with_authors(archive, "ghost-scorer", "ghost-referee", "ghost-director")
    # when it is imported
    imported = event_import(archive=named)
    # then every name is kept, beside no account
    versions = HandVersion.objects.filter(hand__table__round__event=imported)
    assert {v.author for v in versions} == {"ghost-scorer", "table card #7", "API token #3"}
    assert not versions.filter(recorded_by__isnull=False).exists()
    cancelled = Penalty.objects.get(event=imported, cancelled_by_name="ghost-director")
    assert cancelled.cancelled_by is None and cancelled.logged_by_name == "ghost-referee"
    ruling = Ruling.objects.get(event=imported, decision="play on", decided_by_name="ghost-director")
    assert ruling.decided_by is None
    assert imported.entries.filter(disqualification_confirmed_by_name="ghost-director").count() == 1
    # and exported again, the same author texts, and how each version was recorded
    again = json.loads(json.dumps(archive_build(imported, staff=True)))
    assert authors(again) == authors(named)
    assert recorded_via(again) == recorded_via(named) and set(recorded_via(again)) == {
        "account",
        "table card",
        "api token",
    }


def recorded_via(archive: dict) -> list[str]:
    """How each version of a hand or a result was recorded, in the archive's order."""
    return [row["recorded_via"] for r in archive["rounds"] for t in r["tables"] for row in t["hands"] + t["results"]]


def test_an_author_named_like_an_account_here_is_kept_as_text_only(archive):
    # given accounts here of the names the archive gives as its authors
    scorer = User.objects.create_user("known-scorer")
    User.objects.create_user("known-referee")
    User.objects.create_user("known-director")
    named = with_authors(archive, "known-scorer", "known-referee", "known-director")
    # when it is imported
    imported = event_import(archive=named)
    # then no row names an account: every author is the text the file gave
    versions = HandVersion.objects.filter(hand__table__round__event=imported)
    assert not versions.filter(recorded_by__isnull=False).exists()
    assert versions.filter(recorded_by_name="known-scorer").exists()
    results = SeatResult.objects.filter(table__round__event=imported)
    assert not results.filter(recorded_by__isnull=False).exists()
    penalties = Penalty.objects.filter(event=imported)
    assert not penalties.filter(logged_by__isnull=False).exists()
    assert not penalties.filter(cancelled_by__isnull=False).exists()
    assert penalties.filter(logged_by_name="known-referee", cancelled_by_name="known-director").exists()
    ruling = Ruling.objects.get(event=imported, decision="play on")
    assert ruling.decided_by is None and ruling.decided_by_name == "known-director"
    assert not imported.entries.filter(disqualification_confirmed_by__isnull=False).exists()
    assert not versions.filter(recorded_by=scorer).exists()
    # and the archive exported again names the same authors, recorded the same way
    again = json.loads(json.dumps(archive_build(imported, staff=True)))
    assert authors(again) == authors(named) and recorded_via(again) == recorded_via(named)


@pytest.mark.parametrize(
    ("where", "value", "path"),
    [
        (("penalties", 0, "logged_by"), "x" * 151, r"$.penalties[0].logged_by"),
        (("rounds", 0, "created_at"), "2026-02-30T10:00:00Z", r"$.rounds[0].created_at"),
        (("event", "starts_on"), "2026-13-01", r"$.event.starts_on"),
        (("rounds", 0, "tables", 0, "results", 1, "oka"), "1/0", r"$.rounds[0].tables[0].results[1].oka"),
    ],
    ids=["an author too long", "a moment that does not exist", "a day that does not exist", "a fraction over zero"],
)
def test_a_value_the_database_cannot_keep_is_refused_with_its_path(archive, where, value, path):
    broken = copy.deepcopy(archive)
    *parents, last = where
    target = broken
    for key in parents:
        target = target[key]
    target[last] = value
    before = Event.objects.count()
    with pytest.raises(TaikaiError) as refused:
        event_import(archive=broken)
    assert refused.value.code == "archive_invalid" and refused.value.field == path
    assert Event.objects.count() == before


def _leaves(node, path=()):
    """Every (path, value) of a JSON document, containers included."""
    yield path, node
    children = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    for key, child in children:
        yield from _leaves(child, (*path, key))


# values put in the place of another: other types, numbers out of range, text too long, no such day or choice
REPLACEMENTS = [
    None,
    -1,
    0,
    10**12,
    "",
    "x" * 300,
    "2026-02-30",
    "2026-02-30T10:00:00Z",
    [],
    {},
    1.5,
    True,
    "elsewhere",
]
# values a schema reads one way and a hasty check another: an integer written 2.0, a number where true
# might pass, a string at the limits of a pattern, a moment with its zone
EDGE_REPLACEMENTS = [2.0, 1, 3, 4, -0.0, False, "-3/4", "3/", "a b", "2026-01-02T10:00:00.5+09:00", "present"]


def changed_once(archive: dict, *, seed: int, count: int, replacements: list = REPLACEMENTS):
    """``archive`` changed ``count`` times, each time at one value (a seeded random place) replaced by one of
    ``replacements``; with the path and the value put there. The change is made in ``archive`` itself and undone
    before the next one (a copy of the whole archive each time would cost more than checking it): read each
    change before asking for the next."""
    rng = random.Random(seed)
    places = [path for path, _ in _leaves(archive) if path]
    for _ in range(count):
        *parents, last = rng.choice(places)
        target = archive
        for key in parents:
            target = target[key]
        kept, target[last] = target[last], rng.choice(replacements)
        try:
            yield archive, ([*parents, last], target[last])
        finally:
            target[last] = kept


@pytest.mark.once  # the schema against itself: no database or service changes the verdicts
def test_the_compiled_schema_agrees_with_the_published_schema_on_every_change_tried(archive):
    """``archive_check`` trusts the schema compiled to Python (``archive.schema_code``, for speed) to say whether
    a file follows the schema: it must answer as jsonschema does, on the file and on 240 files changed at one
    place each (a value replaced by another type, an out-of-range number, a string that is no date …)."""
    from archive.schema import _compiled_test, _validator

    def verdicts(document) -> tuple[bool, bool]:
        return _compiled_test()(document), _validator().is_valid(document)

    assert verdicts(archive) == (True, True)
    refused = 0
    for broken, where in changed_once(archive, seed=29, count=240, replacements=REPLACEMENTS + EDGE_REPLACEMENTS):
        compiled, published = verdicts(broken)
        assert compiled == published, where
        refused += not published
    assert refused > 70  # the changes tried do break the schema, most of the time


@pytest.mark.once  # the schema against itself: no database or service changes the verdicts
def test_every_problem_the_schema_finds_is_said_in_the_readers_language(archive):
    """jsonschema says its problems in English; a Japanese organizer reads each one in Japanese (the
    values quoted from the file aside). The same random changes as above, read in Japanese."""
    from django.utils import translation
    from jsonschema.exceptions import best_match

    from archive.problems import schema_problem, shown
    from archive.schema import _validator

    keywords = set()
    for broken, _where in changed_once(archive, seed=31, count=60):
        error = best_match(_validator().iter_errors(broken))
        if error is None:
            continue
        keywords.add(error.validator)
        with translation.override("ja"):
            problem = schema_problem(error)
        quoted_left_out = re.sub(r'"[^"]*"', "", problem.replace(shown(error.instance), ""))  # the file's values
        words = set(re.findall(r"[A-Za-z]{3,}", quoted_left_out)) - {"true", "false", "null"}  # JSON's own
        assert problem != error.message and not words, (error.validator, error.message, problem)
    assert len(keywords) >= 4  # the changes reached several kinds of problem


@pytest.mark.services("postgres")
def test_on_postgresql_the_rows_go_in_by_copy_with_their_times_and_a_row_twice_writes_nothing(original, archive):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    # when the archive is imported on PostgreSQL
    with CaptureQueriesContext(connection) as queries:
        imported = event_import(archive=archive)
    # then the bulk rows went in by COPY, their creation times in it (no UPDATE of a time after)
    sql = [q["sql"] for q in queries]
    assert any(s.startswith('COPY "tournament_handversion"') for s in sql)
    assert not any(s.startswith("UPDATE") and "recorded_at" in s for s in sql)
    fields = ("hand__table__round__number", "hand__table__number", "hand__number", "version", "recorded_at")
    assert sorted(HandVersion.objects.filter(hand__table__round__event=imported).values_list(*fields)) == sorted(
        HandVersion.objects.filter(hand__table__round__event=original).values_list(*fields)
    )
    assert event_audit(imported) == []
    # and a hand's version given twice is refused by the database inside the import's transaction: nothing kept
    broken = copy.deepcopy(archive)
    hands = broken["rounds"][0]["tables"][0]["hands"]
    hands.append(dict(hands[0]))
    before = (Event.objects.count(), Player.objects.count(), HandVersion.objects.count(), Seat.objects.count())
    with pytest.raises(TaikaiError) as refused:
        event_import(archive=broken)
    assert refused.value.code == "archive_invalid"
    assert (Event.objects.count(), Player.objects.count(), HandVersion.objects.count(), Seat.objects.count()) == before
