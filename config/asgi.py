"""The ASGI application (production: gunicorn with uvicorn workers, see the README's "Live pages").

Django serves every path; the live streams' paths are served by ``live.asgi`` beside it, so that an open
stream holds no thread.
"""

import gc
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ["TAIKAI_SERVED_BY"] = "asgi"  # settings: no persistent database connections under ASGI

django_application = get_asgi_application()

from live.asgi import with_live_streams  # noqa: E402  (after Django is set up)
from ops.asgi import with_stream_count  # noqa: E402

application = with_stream_count(with_live_streams(django_application))

# What the process loaded to start (Django, the apps, their modules) lives as long as it does: left out of
# the garbage collector's scans, which then pause a process holding thousands of streams for less.
gc.freeze()
