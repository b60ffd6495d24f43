"""Settling a disagreement between a log's scoring and Taikai's: accepted as recorded, or corrected first."""

from __future__ import annotations

import pytest
from django.urls import reverse

from gamelogs.models import Disagreement
from gamelogs.services import disagreement_settle, game_log_import
from taikai.errors import TaikaiError
from tests.factories import EventRoleFactory
from tournament.models import HandVersion, Table
from tournament.services.hands import hand_record

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
