"""The stream nodes' ASGI application counts its open live streams (``taikai_live_streams_open``)."""

from __future__ import annotations

from ops import metrics

LIVE_SUFFIX = "/live"


def with_stream_count(application):
    async def counted(scope, receive, send):
        if scope["type"] != "http" or not scope.get("path", "").endswith(LIVE_SUFFIX):
            return await application(scope, receive, send)
        metrics.LIVE_STREAMS.inc()
        try:
            return await application(scope, receive, send)
        finally:
            metrics.LIVE_STREAMS.dec()

    return counted
