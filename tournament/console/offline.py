"""The console offline: the service worker (``/console/sw.js``) with the files it keeps on the device
(``CONSOLE_FILES``), and the web app manifest."""

from __future__ import annotations

import hashlib
import json

from django.conf import settings
from django.http import JsonResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

# The scripts and files a console page needs offline, fetched when the service worker is installed.
CONSOLE_FILES = (
    "tournament/js/outbox.js",
    "tournament/js/store.js",
    "tournament/js/write_keys.js",
    "tournament/js/dealer.js",
    "tournament/js/clock_rules.js",
    "tournament/js/settle.js",
    "tournament/js/table.js",
    "tournament/js/clock.js",
    "tournament/js/penalty.js",
    "tournament/js/tables.js",
    "live/js/live.js",
    "tournament/icon.svg",
)


@require_http_methods(["GET"])
def service_worker(request):
    """The console's service worker (``/console/sw.js``, so its scope is the console): its pages and writes
    keep working when the network drops (``templates/tournament/console/sw.js`` says how)."""
    precache = [static(path) for path in CONSOLE_FILES] + [reverse("javascript_catalog")]
    context = {
        "precache": json.dumps(precache),
        "catalog": reverse("javascript_catalog"),
        "static_url": settings.STATIC_URL,
        "my_tables": reverse("console:my_tables"),
        "words": {
            "offline": _("Offline"),
            "my_tables": _("My tables"),
            "not_saved": _(
                "This page was not saved on this device before the network dropped. Open My "
                "tables, or a table you opened before."
            ),
        },
    }
    source = render_to_string("tournament/console/sw.js", {**context, "version": ""}, request=request)
    context["version"] = hashlib.sha256(source.encode()).hexdigest()[:12]
    response = render(request, "tournament/console/sw.js", context, content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    return response


@require_http_methods(["GET"])
def console_manifest(request):
    """The console as an app on the referee's phone: it opens on My tables, within the console's scope."""
    manifest = {
        "name": _("Taikai console"),
        "short_name": "Taikai",
        "start_url": reverse("console:my_tables"),
        "scope": reverse("console:my_tables"),
        "display": "standalone",
        "theme_color": "#0b6e4f",
        "background_color": "#ffffff",
        "icons": [{"src": static("tournament/icon.svg"), "sizes": "any", "type": "image/svg+xml"}],
    }
    response = JsonResponse(manifest, content_type="application/manifest+json")
    response["Cache-Control"] = "no-cache"
    return response
