"""The cache's Redis connections: one bounded pool per process, shared by the cache objects Django keeps per
thread (and, under ASGI, per request's context), each call borrowing a connection and giving it back."""

from __future__ import annotations

import threading

import pytest
import redis
from django.core.cache import caches


@pytest.fixture
def redis_cache(own_redis, settings):
    settings.CACHES = {
        "default": {
            "BACKEND": "config.cache.FailSafeRedisCache",
            "LOCATION": own_redis.url(1),
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5, "max_connections": 2},
        }
    }
    return own_redis


def cache_connections(server) -> int:
    asking = redis.Redis(port=server.port)
    try:
        return sum(client["name"] == "taikai-cache" for client in asking.client_list())
    finally:
        asking.close()


def test_the_cache_objects_of_many_threads_share_one_bounded_pool(redis_cache):
    answers = []

    def use_the_cache(number: int) -> None:
        cache = caches["default"]  # a cache object of this thread's own, as Django keeps them
        cache.set(f"k{number}", number)
        answers.append(cache.get(f"k{number}"))

    threads = [threading.Thread(target=use_the_cache, args=(number,)) for number in range(20)]
    for thread in threads:  # at once: the first calls of several threads make one pool between them
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(answers) == list(range(20))
    assert 1 <= cache_connections(redis_cache) <= 2


def test_a_call_that_finds_every_connection_lent_is_answered_from_memory_and_redis_stays_in_use(redis_cache, settings):
    settings.CACHES["default"]["OPTIONS"] |= {"max_connections": 1, "pool_wait_seconds": 0.05}
    cache = caches["default"]
    cache.set("kept", "in redis")
    pool = cache._cache.get_client().connection_pool
    lent = pool.get_connection()  # the process's only connection, held by another call
    try:
        assert cache.get("kept", "missed") == "missed"
    finally:
        pool.release(lent)
    assert cache.get("kept") == "in redis"  # Redis was never taken for down
