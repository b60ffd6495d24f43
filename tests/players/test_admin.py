import time

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from players.csv_import import players_import_run
from players.models import Player, PlayerImport

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


# --- A large file is imported by a worker, with its progress shown -----------------------------------


def _large_csv(rows: int, *, bad_line: int | None = None) -> bytes:
    lines = ["display_name,country,external_id"]
    lines += [f"Player {i},{'Japon' if i + 2 == bad_line else 'JP'},X{i:05d}" for i in range(rows)]
    return ("\n".join(lines) + "\n").encode()


def test_a_large_file_is_imported_by_a_worker_with_its_progress(
    admin_client, settings, django_capture_on_commit_callbacks
):
    # given an upload longer than the admin imports at once
    settings.PLAYER_IMPORT_INLINE_ROWS = 100
    upload = SimpleUploadedFile("field.csv", _large_csv(500), content_type="text/csv")
    # when it is uploaded
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        response = admin_client.post(reverse("admin:players_player_import_csv"), {"csv_file": upload})
    # then it goes to a job, whose page shows how it went
    job = PlayerImport.objects.get()
    assert response.status_code == 302 and response.url == reverse("admin:players_player_import_job", args=[job.pk])
    assert len(callbacks) == 1
    job.refresh_from_db()
    assert (job.state, job.percent, job.imported, job.lines, bytes(job.data)) == ("done", 100, 500, 501, b"")
    page = admin_client.get(response.url).content.decode()
    assert 'data-state="done"' in page and "Imported 500 players" in page and 'http-equiv="refresh"' not in page
    assert Player.objects.count() == 500
    # and a second run of the same job imports nothing more
    assert players_import_run(job_id=job.pk) == {"job": job.pk, "state": "done"}
    assert Player.objects.count() == 500


def test_a_large_file_with_a_problem_is_reported_on_its_job_and_nothing_is_imported(
    admin_client, settings, django_capture_on_commit_callbacks
):
    settings.PLAYER_IMPORT_INLINE_ROWS = 100
    upload = SimpleUploadedFile("field.csv", _large_csv(500, bad_line=321), content_type="text/csv")
    with django_capture_on_commit_callbacks(execute=True):
        response = admin_client.post(reverse("admin:players_player_import_csv"), {"csv_file": upload})
    page = admin_client.get(response.url).content.decode()
    assert 'data-state="failed"' in page and "Nothing was imported" in page
    assert (
        "line 321, column country: &#x27;Japon&#x27; is not a country: write its ISO code (JP or JPN) or its name"
        in page
    )
    assert Player.objects.count() == 0
    # and the same job delivered again keeps its report
    job = PlayerImport.objects.get()
    assert players_import_run(job_id=job.pk) == {"job": job.pk, "state": "failed"}
    job.refresh_from_db()
    assert job.problems == [
        "line 321, column country: 'Japon' is not a country: write its ISO code (JP or JPN) or its name"
    ]


def test_the_import_page_answers_get_only(admin_client):
    job = PlayerImport.objects.create(data=b"display_name\nA\n", lines=2)
    url = reverse("admin:players_player_import_job", args=[job.pk])
    assert admin_client.get(url).status_code == 200
    assert admin_client.post(url).status_code == 405


@pytest.mark.services("postgres", "redis", "worker")
@pytest.mark.django_db(transaction=True)
def test_a_20000_row_file_is_imported_by_the_worker_process(admin_client, settings, celery_worker_process):
    # given the admin and a real worker; when 20,000 players are uploaded
    upload = SimpleUploadedFile("field.csv", _large_csv(20_000), content_type="text/csv")
    started = time.monotonic()
    response = admin_client.post(reverse("admin:players_player_import_csv"), {"csv_file": upload})
    answered = time.monotonic() - started
    # then the upload is answered at once, and the worker imports them
    assert response.status_code == 302 and answered < 10
    job = PlayerImport.objects.get()
    deadline = time.monotonic() + 120
    while PlayerImport.objects.get(pk=job.pk).state not in ("done", "failed") and time.monotonic() < deadline:
        time.sleep(0.5)
    job.refresh_from_db()
    assert (job.state, job.imported) == ("done", 20_000), job.message
    assert Player.objects.count() == 20_000


def test_a_large_file_out_of_time_fails_with_its_reason_on_its_page_and_imports_nothing(
    admin_client, settings, django_capture_on_commit_callbacks
):
    """A job that uses its PLAYER_IMPORT_SECONDS (lowered here) stops, and its page says why and what to do,
    not only "failed"; nothing is imported, and the job delivered again keeps its report."""
    settings.PLAYER_IMPORT_INLINE_ROWS, settings.PLAYER_IMPORT_SECONDS = 100, 0
    upload = SimpleUploadedFile("field.csv", _large_csv(500), content_type="text/csv")
    with django_capture_on_commit_callbacks(execute=True):
        response = admin_client.post(reverse("admin:players_player_import_csv"), {"csv_file": upload})
    page = admin_client.get(response.url).content.decode()
    assert 'data-state="failed"' in page and 'http-equiv="refresh"' not in page
    assert "took longer than 0 seconds and was stopped" in page and "Split the file" in page
    assert Player.objects.count() == 0
    job = PlayerImport.objects.get()
    assert players_import_run(job_id=job.pk) == {"job": job.pk, "state": "failed"}
    job.refresh_from_db()
    assert job.state == "failed" and bytes(job.data) == b"" and len(job.problems) == 1


def test_a_large_file_within_its_time_is_written_in_batches(admin_client, settings, django_capture_on_commit_callbacks):
    settings.PLAYER_IMPORT_INLINE_ROWS = 100
    upload = SimpleUploadedFile("field.csv", _large_csv(2_500), content_type="text/csv")
    with django_capture_on_commit_callbacks(execute=True):
        admin_client.post(reverse("admin:players_player_import_csv"), {"csv_file": upload})
    job = PlayerImport.objects.get()
    assert (job.state, job.imported) == ("done", 2_500) and Player.objects.count() == 2_500
