"""Settling a disagreement between a log's scoring and Taikai's: accepted as recorded, or corrected first."""

from __future__ import annotations

import pytest
from django.urls import reverse

from gamelogs.models import Disagreement, OnlineLeague
from gamelogs.services import disagreement_settle, game_log_import
from gamelogs.side_by_side import side_by_side
from taikai.errors import TaikaiError
from tests.factories import EventRoleFactory
from tournament.models import HandVersion, SeatResult, Table
from tournament.services.hands import hand_record
from tournament.services.results import table_finish

from .engine.conftest import log_bytes
from .test_import import log_table, online_event

pytestmark = pytest.mark.django_db


@pytest.fixture
def pao_import(standard_ruleset):
    """pao.xml: Taikai's rules have no 責任払い, so its daisangen's payments disagree; the result waits."""
    event, game, _ = online_event(standard_ruleset, "pao.xml")
    record = game_log_import(event=event, data=log_bytes("pao.xml"))
    return event, game, record, record.disagreements.get()


def test_accepting_the_last_open_disagreement_confirms_the_tables_result(pao_import, admin_user):
    event, _, _, disagreement = pao_import
    assert log_table(event).status == Table.Status.PLAYING
    settled = disagreement_settle(disagreement=disagreement, state="accepted", user=admin_user)
    assert (settled.state, settled.resolved_by) == (Disagreement.State.ACCEPTED, admin_user)
    assert settled.resolved_at is not None
    assert log_table(event).status == Table.Status.FINISHED


def test_corrected_needs_a_correction_made_at_the_table_first(pao_import, admin_user):
    event, _, _, disagreement = pao_import
    with pytest.raises(TaikaiError) as error:
        disagreement_settle(disagreement=disagreement, state="corrected", user=admin_user)
    assert error.value.code == "not_corrected"
    disagreement.refresh_from_db()
    assert disagreement.state == Disagreement.State.OPEN and log_table(event).status == Table.Status.PLAYING
    # the referee corrects the hand as a new version (here: the same hand, recorded again), then marks it
    table = log_table(event)
    last = HandVersion.objects.get(hand__table=table, hand__number=disagreement.hand_number, is_current=True)
    data = {
        "outcome": last.outcome,
        "dealer_position": last.dealer_position,
        "honba": last.honba,
        "riichi_positions": last.riichi_positions,
        "wins": last.wins,
    }
    hand_record(table=table, number=disagreement.hand_number, expected_version=1, data=data, user=admin_user)
    settled = disagreement_settle(disagreement=disagreement, state="corrected", user=admin_user)
    assert settled.state == Disagreement.State.CORRECTED
    assert log_table(event).status == Table.Status.FINISHED


def test_a_disagreement_is_settled_once(pao_import, admin_user):
    _, _, _, disagreement = pao_import
    disagreement_settle(disagreement=disagreement, state="accepted", user=admin_user)
    with pytest.raises(TaikaiError) as error:
        disagreement_settle(disagreement=disagreement, state="accepted", user=admin_user)
    assert error.value.code == "already_settled" and error.value.status == 409


def test_the_admin_action_settles_for_the_tables_referee_and_not_for_another_tables(client, pao_import):
    event, _, _, disagreement = pao_import
    other = EventRoleFactory(
        event=event, user__username="other-referee", user__password="pw-123456", kind="referee", tables="1"
    ).user
    client.force_login(other)
    url = reverse("admin:gamelogs_disagreement_changelist")
    client.post(url, {"action": "accept", "_selected_action": [disagreement.pk]})
    disagreement.refresh_from_db()
    assert disagreement.state == Disagreement.State.OPEN
    referee = EventRoleFactory(
        event=event, user__username="referee", user__password="pw-123456", kind="referee", tables="2"
    ).user
    client.force_login(referee)
    answer = client.post(url, {"action": "accept", "_selected_action": [disagreement.pk]})
    assert answer.status_code == 302
    disagreement.refresh_from_db()
    assert disagreement.state == Disagreement.State.ACCEPTED and disagreement.resolved_by == referee


def test_the_tables_result_waits_while_a_disagreement_is_open(pao_import, admin_user):
    event, _, _, disagreement = pao_import
    table = log_table(event)
    with pytest.raises(TaikaiError) as error:
        table_finish(table=table, user=admin_user, end_reason="other", end_note="the referee confirms")
    assert (error.value.code, error.value.status) == ("disagreement_open", 409)
    assert str(disagreement.hand_number) in error.value.message
    assert log_table(event).status == Table.Status.PLAYING and not SeatResult.objects.filter(table=table).exists()


def test_a_league_that_accepts_the_logs_scoring_confirms_the_result_at_once(standard_ruleset):
    event, _, _ = online_event(standard_ruleset, "pao.xml")
    OnlineLeague.objects.create(event=event, accepts_log_scoring=True)
    record = game_log_import(event=event, data=log_bytes("pao.xml"))
    [disagreement] = record.disagreements.all()
    assert disagreement.state == Disagreement.State.ACCEPTED and disagreement.resolved_by is None
    assert disagreement.resolved_at is not None
    assert log_table(event).status == Table.Status.FINISHED


def test_the_console_shows_both_scorings_and_the_tables_referee_accepts(client, pao_import):
    event, game, record, disagreement = pao_import
    referee = EventRoleFactory(event=event, user__username="referee", kind="referee", tables="2").user
    client.force_login(referee)
    url = reverse("gamelogs:console_disagreement", args=[record.pk, disagreement.pk])
    page = client.get(url)
    assert page.status_code == 200
    text = page.content.decode()
    assert all(name in text for name in game.players)  # each seat's change, the log's and Taikai's
    assert all(f"{delta:+d}" in text for delta in disagreement.log_scoring["deltas"])
    assert f"?hand={disagreement.hand_number}" in text  # where to correct it
    refused = client.post(url, {"state": "corrected"})
    assert refused.status_code == 400 and b"not_corrected" in refused.content
    assert client.post(url, {"state": "accepted"}).status_code == 302
    disagreement.refresh_from_db()
    assert (disagreement.state, disagreement.resolved_by) == (Disagreement.State.ACCEPTED, referee)
    assert log_table(event).status == Table.Status.FINISHED


def test_the_console_refuses_another_tables_referee_and_a_player(client, pao_import):
    event, _, record, disagreement = pao_import
    url = reverse("gamelogs:console_disagreement", args=[record.pk, disagreement.pk])
    other = EventRoleFactory(event=event, user__username="other", kind="referee", tables="1").user
    client.force_login(other)
    assert client.get(url).status_code == 404
    assert client.post(url, {"state": "accepted"}).status_code == 403
    client.logout()
    entry = event.entries.first()
    assert client.get(reverse("tournament:player_link", args=[entry.link_token])).status_code == 302
    assert client.post(url, {"state": "accepted"}).status_code in (302, 403)
    disagreement.refresh_from_db()
    assert disagreement.state == Disagreement.State.OPEN


def test_a_win_scored_otherwise_reads_han_fu_yaku_and_points_side_by_side(pao_import):
    _, game, record, _ = pao_import
    crafted = Disagreement(
        log_import=record,
        hand_number=3,
        winner_position=1,
        log_scoring={"han": 3, "fu": 40, "limit": None, "points": 5200, "yaku": [[1, 1], [8, 1], [54, 1]]},
        engine_scoring={"han": 2, "fu": 40, "yakuman": 0, "points": 2600, "yaku": [["riichi", 1], ["tanyao", 1]]},
    )
    rows = {row.label: row for row in side_by_side(crafted, list(game.players))}
    assert (rows["Han"].log, rows["Han"].taikai, rows["Han"].differs) == ("3", "2", True)
    assert not rows["Fu"].differs
    assert "立直" in rows["Yaku"].log and "断幺九" in rows["Yaku"].log
    assert "Riichi" in rows["Yaku"].taikai
    assert (rows["Points"].log, rows["Points"].taikai) == ("5200", "2600")


def test_the_admin_shows_both_scorings_on_the_disagreements_page(admin_client, pao_import):
    _, game, _, disagreement = pao_import
    page = admin_client.get(reverse("admin:gamelogs_disagreement_change", args=[disagreement.pk]))
    assert page.status_code == 200
    text = page.content.decode()
    assert 'id="scorings"' in text and all(name in text for name in game.players)
