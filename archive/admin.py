"""The archive in the admin, on the Events screens: an event's archive downloaded (the event page's *Export
archive*), and an archive uploaded (the Events list's "Import an archive…"), read as a new event, owned by
whoever uploads it, through the same loader as ``manage.py import_event``.

Both are views of the tournament's Events admin (their addresses and names, ``admin:tournament_event_…``,
are the Events admin's): this app registers the Events admin again with them added, so that the tournament
app never imports this one.

When players of the file have the external id of stored players the uploader does not organize, nothing is
imported yet: a preview lists them, and the uploader links each one or lets it be created anew (the file
waits in the cache meanwhile, an hour at most)."""

from __future__ import annotations

import hashlib
import json
import re
import zlib

from django import forms
from django.contrib import admin, messages
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.core.serializers.json import DjangoJSONEncoder
from django.db import transaction
from django.http import HttpResponse, HttpResponseNotAllowed
from django.shortcuts import redirect
from django.template.defaultfilters import filesizeformat
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from archive.export import archive_download
from archive.load import archive_lookalikes, event_import
from archive.schema import archive_check
from idempotency.services import request_answer_keep, request_claim
from taikai.errors import TaikaiError
from tournament.admin.events import EventAdmin
from tournament.models import Event

# An archive holds every version of every hand: under 1 MB for 100 tables. The loader reads the whole file
# into memory, so the upload stops well before what the web server lets through.
ARCHIVE_UPLOAD_MAX_BYTES = 16 * 1024 * 1024
PREVIEW_SECONDS = 3600  # how long an uploaded file waits for the uploader's choice of players to link
DIGEST = re.compile(r"[0-9a-f]{64}")


class ArchiveUploadForm(forms.Form):
    archive = forms.FileField(
        label=gettext_lazy("Archive"),
        help_text=gettext_lazy("The event's export.json (JSON, archive_version 1), as another Taikai exports it."),
    )

    def clean_archive(self):
        """The file read as JSON; a file too large, not UTF-8 or not JSON is refused here, naming why."""
        upload = self.cleaned_data["archive"]
        if upload.size > ARCHIVE_UPLOAD_MAX_BYTES:
            raise forms.ValidationError(
                _("The file is %(size)s; an archive may be at most %(limit)s.")
                % {"size": filesizeformat(upload.size), "limit": filesizeformat(ARCHIVE_UPLOAD_MAX_BYTES)},
                code="too_large",
            )
        content = upload.read()
        self.digest = hashlib.sha256(content).hexdigest()
        self.content = content
        return archive_read(content)


def archive_read(content: bytes):
    """The file read as JSON; a file not UTF-8 or not JSON is refused, naming why."""
    try:
        return json.loads(content.decode("utf-8-sig"))
    except UnicodeDecodeError as exc:
        raise forms.ValidationError(
            _("The file is not text in UTF-8 (byte %(position)s); an archive is a JSON file.")
            % {"position": exc.start + 1},  # counted from 1, as people count
            code="not_utf8",
        ) from exc
    except (ValueError, RecursionError) as exc:  # JSONDecodeError, a number too long, nesting too deep
        raise forms.ValidationError(_("The file is not JSON: %(error)s") % {"error": exc}, code="not_json") from exc


def _preview_key(user, digest: str) -> str:
    return f"archive-preview:{user.pk}:{digest}"


def _waiting_archive(request, form: ArchiveUploadForm):
    """The file the uploader previewed (their answer names it by its digest), read again; refused when no
    such file waits (the preview expired)."""
    digest = request.POST.get("preview", "")
    content = cache.get(_preview_key(request.user, digest)) if DIGEST.fullmatch(digest) else None
    if content is None:
        raise TaikaiError("archive_preview_expired", _("The preview has expired; upload the file again."))
    form.digest = digest
    return archive_read(zlib.decompress(content))


def archive_import_view(model_admin, request):
    """Upload an archive: a new event, its importer its owner (the organizer, as for an event added here);
    refused with the JSON path of the first problem, nothing written. Players of the file that look like
    stored ones the uploader does not organize are shown first, to link or to create anew."""
    if not model_admin.has_add_permission(request):
        raise PermissionDenied
    posted = request.method == "POST"
    previewed = posted and "preview" in request.POST
    form = ArchiveUploadForm(request.POST, request.FILES) if posted and not previewed else ArchiveUploadForm()
    problem = None  # a refusal of the preview's answer (the form itself was not sent)
    if previewed or (posted and form.is_valid()):
        try:
            archive = _waiting_archive(request, form) if previewed else form.cleaned_data["archive"]
            archive_check(archive)
            lookalikes = [
                lookalike for lookalike in archive_lookalikes(archive, request.user) if not lookalike.organized
            ]
            if lookalikes and not previewed:
                cache.set(_preview_key(request.user, form.digest), zlib.compress(form.content), PREVIEW_SECONDS)
                context = {
                    **model_admin.admin_site.each_context(request),
                    "opts": model_admin.model._meta,
                    "title": _("Import an event archive"),
                    "lookalikes": lookalikes,
                    "digest": form.digest,
                }
                return TemplateResponse(request, "admin/tournament/event/import_archive_players.html", context)
            chosen = set(request.POST.getlist("link")) if previewed else set()
            link = {lookalike.archive_id for lookalike in lookalikes if str(lookalike.archive_id) in chosen}
            with transaction.atomic():
                # the same file sent again by the same user (a double click, a reload) is imported once
                claim, first = request_claim(
                    scope=f"user:{request.user.pk}", key=f"archive:{form.digest}", fingerprint=form.digest
                )
                if not first and claim.location:
                    messages.info(request, _("This file was imported before; nothing was imported again."))
                    return redirect(claim.location)
                event = event_import(archive=archive, owner=request.user, link=link)
                model_admin.log_addition(request, event, [{"added": {}}])
                location = reverse("admin:tournament_event_change", args=[event.pk])
                request_answer_keep(claim, status=302, content_type="", location=location, body=b"")
        except TaikaiError as exc:
            if previewed:
                problem = exc.message
            else:
                form.add_error("archive", exc.message)
        else:
            if previewed:
                cache.delete(_preview_key(request.user, form.digest))
            messages.success(
                request,
                _(
                    "%(event)s is imported from the archive as %(slug)s, private until you make it public; you "
                    "are its organizer."
                )
                % {"event": event.name, "slug": event.slug},
            )
            return redirect(location)
    context = {
        **model_admin.admin_site.each_context(request),
        "opts": model_admin.model._meta,
        "title": _("Import an event archive"),
        "form": form,
        "problem": problem,
        "max_size": filesizeformat(ARCHIVE_UPLOAD_MAX_BYTES),
    }
    return TemplateResponse(
        request, "admin/tournament/event/import_archive.html", context, status=400 if posted else 200
    )


class EventArchiveAdmin(EventAdmin):
    """The tournament's Events admin with the archive's two views: the upload (on the Events list) and the
    download (on an event's page)."""

    def get_urls(self):
        return [
            path(
                "import-archive/",
                self.admin_site.admin_view(lambda request: archive_import_view(self, request)),
                name="tournament_event_import_archive",
            ),
            path(
                "<int:event_id>/export-archive/",
                self.admin_site.admin_view(self.export_archive_view),
                name="tournament_event_export_archive",
            ),
            *super().get_urls(),
        ]

    def export_archive_view(self, request, event_id):
        """The event's archive to download, for its organizers: the same file as the API's ``export.json``
        (``archive_download``), with who recorded what, the penalties and the rulings."""
        if request.method != "GET":
            return HttpResponseNotAllowed(["GET"])
        event = self.object_to_change(request, Event, event_id)
        body = json.dumps(archive_download(event, staff=True), ensure_ascii=False, cls=DjangoJSONEncoder)
        response = HttpResponse(body, content_type="application/json; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{event.slug}.json"'
        return response


admin.site.unregister(Event)
admin.site.register(Event, EventArchiveAdmin)
