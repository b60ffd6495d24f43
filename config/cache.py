"""The cache is a cache: when Redis cannot be reached, the site runs on local memory instead of failing.

``FailSafeRedisCache`` is Django's Redis cache with short socket timeouts. A call that meets a Redis error
(refused, reset, timed out) is answered by a local-memory cache of this process instead, and Redis is left
alone for ``CACHE_RETRY_SECONDS`` (so that a request does not wait on a dead server once per cache call);
then the next call tries Redis again. Meanwhile:

* pages are built from the database and kept in the process's memory (each process its own copy);
* the API throttles and the sign-in counters count per process: a limit still holds, per web process;
* nothing a person wrote is lost: the cache holds no records.

``/healthz`` asks ``cache_status()`` and reports the cache as down (status "degraded") while it is.

**One bounded pool per process.** Django keeps a cache object per thread and, under ASGI, per request's
context: with its own connection pool each, every live stream kept a Redis connection open for as long as it
lasted (the cache object of its access check lives with the stream's task). Here every cache object of a
process borrows from one shared pool of at most ``CACHE_MAX_CONNECTIONS`` (4) connections and gives each back
after the call: a thread that finds them all lent waits ``CACHE_POOL_WAIT_SECONDS`` (1 s) for one, and if
none comes that one call is answered from local memory (Redis is not taken for down: it answered).
"""

from __future__ import annotations

import logging
import os
import threading
import time

from django.core.cache import caches
from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from django.utils.functional import cached_property
from redis import BlockingConnectionPool
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError

log = logging.getLogger("taikai.cache")

CACHE_RETRY_SECONDS = 5.0
FALLBACK_ENTRIES = 20000
MAX_CONNECTIONS = 4  # per process, whatever the number of threads, requests and live streams
POOL_WAIT_SECONDS = 1.0


class PoolBusy(RedisError):
    """Every connection of the process's pool is lent and none came back in time: Redis itself answers."""


class SharedPool(BlockingConnectionPool):
    """A bounded pool that tells a wait for a connection (``PoolBusy``) from a Redis that cannot be reached."""

    def get_connection(self, *args, **kwargs):
        try:
            return super().get_connection(*args, **kwargs)
        except RedisConnectionError as exc:
            if "No connection available" in str(exc):
                raise PoolBusy(str(exc)) from exc
            raise


class SharedClient(RedisCacheClient):
    """Django's Redis cache client, whose pool is made once however many threads ask for it first at once."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._pools_lock = threading.Lock()

    def _get_connection_pool(self, write):
        with self._pools_lock:
            return super()._get_connection_pool(write)


_clients: dict[tuple, SharedClient] = {}
_clients_lock = threading.Lock()


def shared_client(servers: list[str], options: dict) -> SharedClient:
    """The process's one cache client (and so one pool) for ``servers`` with ``options``, made on first use in
    each process (a forked worker makes its own)."""
    key = (os.getpid(), tuple(servers), tuple(sorted((name, repr(value)) for name, value in options.items())))
    with _clients_lock:
        client = _clients.get(key)
        if client is None:
            client = _clients[key] = SharedClient(servers, **options)
        return client


def _fail_safe(name: str):
    def call(self, *args, **kwargs):
        if time.monotonic() < self._redis_down_until:
            return getattr(self.fallback, name)(*args, **kwargs)
        try:
            return getattr(RedisCache, name)(self, *args, **kwargs)
        except PoolBusy as exc:
            log.warning("cache_pool_busy: %s; this call is answered from local memory", exc)
            return getattr(self.fallback, name)(*args, **kwargs)
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
        options.setdefault("max_connections", MAX_CONNECTIONS)
        options["timeout"] = float(options.pop("pool_wait_seconds", POOL_WAIT_SECONDS))
        options["pool_class"] = SharedPool
        options.setdefault("client_name", "taikai-cache")
        super().__init__(server, {**params, "OPTIONS": options})
        self.fallback = LocMemCache(
            f"taikai-fallback-{server}",
            {"TIMEOUT": params.get("TIMEOUT", 300), "OPTIONS": {"MAX_ENTRIES": FALLBACK_ENTRIES}},
        )
        self._redis_down_until = 0.0
        self.last_error = ""

    @cached_property
    def _cache(self):
        return shared_client(self._servers, self._options)

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
