import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from players.models import Player

pytestmark = pytest.mark.django_db


def test_admin_changelist_searches_and_filters(admin_client):
    Player.objects.create(display_name="山田 太郎", reading="やまだ", country="JP", club="Tokyo")
    Player.objects.create(display_name="Anna Kowalska", country="PL")
    url = reverse("admin:players_player_changelist")
    assert "山田 太郎" in admin_client.get(url, {"q": "やまだ"}).content.decode()
    response = admin_client.get(url, {"country": "PL"}).content.decode()
    assert "Anna Kowalska" in response and "山田 太郎" not in response


def test_admin_csv_import_creates_players(admin_client):
    upload = SimpleUploadedFile("p.csv", b"display_name,country\nA,JP\nB,FR\n", content_type="text/csv")
    response = admin_client.post(reverse("admin:players_player_import_csv"), {"csv_file": upload})
    assert response.status_code == 302
    assert sorted(Player.objects.values_list("display_name", flat=True)) == ["A", "B"]


def test_admin_csv_import_shows_problems_and_writes_nothing(admin_client):
    upload = SimpleUploadedFile("p.csv", b"display_name,external_id\nA,1\nB,1\n", content_type="text/csv")
    response = admin_client.post(reverse("admin:players_player_import_csv"), {"csv_file": upload})
    assert response.status_code == 400
    body = response.content.decode()
    assert "Nothing was imported" in body
    assert "line 3, column external_id: &#x27;1&#x27; also appears on line 2" in body
    assert Player.objects.count() == 0


def test_external_id_unique_only_when_present():
    Player.objects.create(display_name="A", external_id=None)
    Player.objects.create(display_name="B", external_id=None)
    Player.objects.create(display_name="C", external_id="X1")
    from django.db import IntegrityError, transaction

    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.create(display_name="D", external_id="X1")


def test_blank_external_id_is_stored_as_none():
    player = Player(display_name="E", external_id="  ", country=" jp ")
    player.full_clean()
    assert (player.external_id, player.country) == (None, "JP")
