"""Page weights of the people-facing pages on the demo event: the HTML each page sends, raw and gzipped,
and the queries it makes. Run: ``python benchmarks/page_weights.py`` (a throwaway SQLite database).

The tiles and styles are small static files cached by the browser; the figures are the documents.
"""

from __future__ import annotations

import gzip
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ["DATABASE_URL"] = f"sqlite:///{tempfile.mkdtemp()}/weights.sqlite3"
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402


def main() -> None:
    call_command("migrate", verbosity=0)
    call_command("demo_event", stdout=open(os.devnull, "w"))  # noqa: SIM115
    from tournament.models import Entry, EventRole, Round, Table

    event = EventRole.objects.get(user__username="referee").event  # the demo's running event
    round_ = Round.objects.filter(event=event).exclude(status="draft").order_by("-number").first()
    table = Table.objects.filter(round=round_).first()
    entry = Entry.objects.filter(event=event).first()
    referee = Client()
    referee.force_login(get_user_model().objects.get(username="referee"))
    public = Client()
    pages = [
        ("table sheet (console)", referee, f"/console/tables/{table.pk}/"),
        ("chess clock (console)", referee, f"/console/tables/{table.pk}/clock/"),
        ("my tables (console)", referee, "/console/"),
        ("player's page", public, f"/events/{event.slug}/players/{entry.pk}/"),
        ("standings", public, f"/events/{event.slug}/standings/"),
        ("round seating", public, f"/events/{event.slug}/rounds/{round_.number}/"),
        ("venue screen", public, f"/events/{event.slug}/venue/"),
    ]
    print(f"{'page':24} {'bytes':>8} {'gzip':>7} {'queries':>8}")
    for name, client, url in pages:
        client.get(url)  # warm the caches
        with CaptureQueriesContext(connection) as queries:
            response = client.get(url)
        body = response.content
        assert response.status_code == 200, (url, response.status_code)
        print(f"{name:24} {len(body):>8} {len(gzip.compress(body)):>7} {len(queries):>8}")


if __name__ == "__main__":
    main()
