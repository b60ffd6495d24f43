"""The archive in the REST API (mounted by ``config/urls.py`` in the ``api_v1`` namespace):

* ``events/<slug>/export.json`` (GET): the whole event as a versioned archive (``archive.export``), the
  penalties, rulings, status reasons and authors for the event's staff and tokens only;
* ``archive-schema.json`` (GET): the archive's published JSON Schema (``schema.json``).

Thin like every entry point: the event is read with the caller's rights, then the archive is built.
"""

from __future__ import annotations

from django.urls import path
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.response import Response

from archive.export import archive_download
from archive.schema import archive_schema
from core.api import READ_ERRORS
from tournament.api_v1.base import EventApiView


class EventExport(EventApiView):
    @extend_schema(
        operation_id="export_json",
        tags=["exports"],
        summary="The whole event as an archive: event, ruleset, players, rounds, every version of hands and results",
        description="A versioned archive (`archive_version` 1) that `manage.py import_event` reads back, described "
        "by the JSON Schema at `archive-schema.json`: the event and its ruleset (every field), entries with their "
        "players (external ids), rounds, tables, seats (absences), every version of hands and results (who recorded "
        "each as text), clocks, teams, the standings as computed, and `rules` (as the rules endpoint gives them). "
        "`penalties`, `rulings`, status reasons and authors are included for the event's staff and tokens only. "
        "Fractions are exact strings (n or n/d).",
        responses={200: OpenApiResponse(OpenApiTypes.OBJECT, description="The event's archive"), **READ_ERRORS},
    )
    def get(self, request, slug: str):
        event = self.event(slug)
        # the tournament rules and the whole ruleset, not only its name: as the rules endpoint gives them
        response = Response(archive_download(event, staff=self.staff(event.pk)))
        response["Content-Disposition"] = f'attachment; filename="{event.slug}.json"'
        return response


class ArchiveSchema(EventApiView):
    @extend_schema(
        operation_id="archive_schema",
        tags=["exports"],
        summary="The JSON Schema of the event archive",
        description="The published JSON Schema (draft 2020-12) of `export.json`, version 1.",
        responses={200: OpenApiResponse(OpenApiTypes.OBJECT, description="A JSON Schema")},
    )
    def get(self, request):
        return Response(archive_schema())


urlpatterns = [
    path("events/<slug:slug>/export.json", EventExport.as_view(), name="export_json"),
    path("archive-schema.json", ArchiveSchema.as_view(), name="archive_schema"),
]
