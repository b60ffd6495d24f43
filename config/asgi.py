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

# Each message wakes every stream, and each wake-up makes a few objects that live until the next message
# (the stream's wait): at the default thresholds (a young collection every 700 allocations) they outlived
# several collections and reached the oldest generation, whose collection, over every open stream's objects,
# then came every few messages and cost more than the messages themselves (benchmarks/live_wakeup.py, 5,000
# streams: 16 µs a stream a message on average, pauses up to 73 µs a stream, against 5 µs without them).
# Young collections every 50,000 allocations, and the oldest generation's a hundredth as often.
gc.set_threshold(50_000, 20, 100)
