"""The cache is a cache: when Redis cannot be reached, the site runs on local memory instead of failing.

``FailSafeRedisCache`` is Django's Redis cache with short socket timeouts. A call that meets a Redis error
(refused, reset, timed out) is answered by a local-memory cache of this process instead, and Redis is left
alone for ``CACHE_RETRY_SECONDS`` (so that a request does not wait on a dead server once per cache call);
then the next call tries Redis again. Meanwhile:

* pages are built from the database and kept in the process's memory (each process its own copy);
* the API throttles and the sign-in counters count per process: a limit still holds, per web process;
* nothing a person wrote is lost: the cache holds no records.

``/healthz`` asks ``cache_status()`` and reports the cache as down (status "degraded") while it is.
"""

from __future__ import annotations

import logging
import time

from django.core.cache import caches
from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache
from redis.exceptions import RedisError

log = logging.getLogger("taikai.cache")

CACHE_RETRY_SECONDS = 5.0
FALLBACK_ENTRIES = 20000


def _fail_safe(name: str):
    def call(self, *args, **kwargs):
        if time.monotonic() < self._redis_down_until:
            return getattr(self.fallback, name)(*args, **kwargs)
        try:
            return getattr(RedisCache, name)(self, *args, **kwargs)
        except RedisError as exc:
            self._redis_failed(exc)
            return getattr(self.fallback, name)(*args, **kwargs)

    call.__name__ = name
    call.__doc__ = f"``{name}`` on Redis, or on local memory while Redis cannot be reached."
    return call


class FailSafeRedisCache(RedisCache):
    def __init__(self, server, params):
        options = dict(params.get("OPTIONS") or {})
        self.retry_seconds = float(options.pop("retry_seconds", CACHE_RETRY_SECONDS))
        super().__init__(server, {**params, "OPTIONS": options})
        self.fallback = LocMemCache(
            f"taikai-fallback-{server}",
            {"TIMEOUT": params.get("TIMEOUT", 300), "OPTIONS": {"MAX_ENTRIES": FALLBACK_ENTRIES}},
        )
        self._redis_down_until = 0.0
        self.last_error = ""

    def _redis_failed(self, exc: Exception) -> None:
        self._redis_down_until = time.monotonic() + self.retry_seconds
        self.last_error = exc.__class__.__name__
        log.warning("cache_unreachable: Redis refused a call (%s); local memory for %ss", exc, self.retry_seconds)

    def redis_reachable(self) -> tuple[bool, str]:
        """Ping Redis now, whatever the last call met (for ``/healthz``)."""
        try:
            self._cache.get_client(write=True).ping()
        except RedisError as exc:
            self._redis_failed(exc)
            return False, exc.__class__.__name__
        self._redis_down_until = 0.0
        return True, ""

    add = _fail_safe("add")
    get = _fail_safe("get")
    set = _fail_safe("set")
    touch = _fail_safe("touch")
    delete = _fail_safe("delete")
    get_many = _fail_safe("get_many")
    has_key = _fail_safe("has_key")
    incr = _fail_safe("incr")
    set_many = _fail_safe("set_many")
    delete_many = _fail_safe("delete_many")
    clear = _fail_safe("clear")


def cache_status() -> dict:
    """The default cache for ``/healthz``: Redis reachable, or down (the site runs on local memory)."""
    cache = caches["default"]
    if not isinstance(cache, FailSafeRedisCache):
        return {"ok": True, "mode": "local memory"}
    started = time.monotonic()
    ok, error = cache.redis_reachable()
    if ok:
        return {"ok": True, "mode": "redis", "ms": round((time.monotonic() - started) * 1000, 1)}
    return {"ok": False, "mode": "redis", "error": error, "fallback": "local memory"}
