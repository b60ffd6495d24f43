"""The console's game log page: a referee or an organizer uploads or pastes a log, then sees its table, the final
scores and the disagreements."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from gamelogs.models import GameLogImport
from tournament.services.roles import role_grant

from .engine.conftest import LOGS, log_bytes
from .test_import import online_event

pytestmark = pytest.mark.django_db
IMPORT_URL = reverse("gamelogs:console_import")


def with_role(event, kind="referee", name="ref", tables=None) -> User:
    user = User.objects.create_user(name, password="pw-123456")
    role_grant(event=event, user=user, kind=kind, **({"tables": tables} if tables is not None else {}))
    return user


def test_a_referee_uploads_a_log_and_sees_the_table_the_final_scores_and_no_disagreement(client, standard_ruleset):
    event, game, _ = online_event(standard_ruleset)
    client.force_login(with_role(event))
    assert IMPORT_URL in client.get(reverse("console:my_tables")).content.decode()  # My tables links to it
    assert client.get(IMPORT_URL).status_code == 200
    with open(LOGS / "example.xml", "rb") as file:
        answer = client.post(IMPORT_URL, {"event": event.pk, "log_file": file}, HTTP_ACCEPT_LANGUAGE="en")
    record = GameLogImport.objects.get()
    assert answer.status_code == 302 and answer["Location"] == reverse("gamelogs:console_log", args=[record.pk])
    page = client.get(answer["Location"], HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Round 1, table 2" in page and "result is confirmed" in page
    for name, score in zip(game.players, game.final_scores, strict=True):
        assert name in page and f">{score}<" in page


def test_a_pasted_log_with_pao_shows_its_disagreement_in_japanese(client, standard_ruleset):
    event, _, _ = online_event(standard_ruleset, "pao.xml")
    client.force_login(with_role(event, kind="organizer", name="org"))
    answer = client.post(IMPORT_URL, {"event": event.pk, "log_text": log_bytes("pao.xml").decode()})
    page = client.get(answer["Location"], HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert 'id="log-disagreements"' in page and "食い違い" in page


def test_a_refusal_names_its_code_and_nothing_is_written(client, standard_ruleset):
    event, _, _ = online_event(standard_ruleset)
    client.force_login(with_role(event))
    answer = client.post(IMPORT_URL, {"event": event.pk, "log_text": "<html>\n</body>"})
    assert answer.status_code == 400 and 'data-code="not_a_game_log"' in answer.content.decode()
    assert not GameLogImport.objects.exists()


def test_nobody_signs_in_first_and_someone_without_a_role_is_refused(client, standard_ruleset):
    event, _, _ = online_event(standard_ruleset)
    assert client.get(IMPORT_URL).status_code == 302
    client.force_login(User.objects.create_user("nobody", password="pw-123456"))
    assert client.get(IMPORT_URL).status_code == 403
    pasted = {"event": event.pk, "log_text": log_bytes("example.xml").decode()}
    assert client.post(IMPORT_URL, pasted).status_code == 403
    assert not GameLogImport.objects.exists()


def test_a_referee_of_another_table_neither_imports_nor_sees_the_log(client, standard_ruleset):
    from gamelogs.services import game_log_import

    event, _, _ = online_event(standard_ruleset)
    client.force_login(with_role(event, tables="1"))
    answer = client.post(IMPORT_URL, {"event": event.pk, "log_text": log_bytes("example.xml").decode()})
    assert answer.status_code == 403 and 'data-code="forbidden"' in answer.content.decode()
    record = game_log_import(event=event, data=log_bytes("example.xml"))
    assert client.get(reverse("gamelogs:console_log", args=[record.pk])).status_code == 404
