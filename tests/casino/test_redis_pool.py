"""One Redis connection pool per process and server: Django makes a cache object per
thread and per async context (so, under ASGI, per request), and each used to open its
own connection."""

from __future__ import annotations

from django.core.cache.backends.redis import RedisCache

from casino.runtime.redis_pool import SharedConnectionPool

OPTIONS = {"pool_class": "casino.runtime.redis_pool.SharedConnectionPool"}


def client_pool(cache: RedisCache) -> object:
    return cache._cache._get_connection_pool(write=True)


def test_every_cache_object_of_a_process_shares_one_pool() -> None:
    first = RedisCache("redis://127.0.0.1:6379/7", {"OPTIONS": OPTIONS})
    second = RedisCache("redis://127.0.0.1:6379/7", {"OPTIONS": OPTIONS})
    assert client_pool(first) is client_pool(second)
    assert isinstance(client_pool(first), SharedConnectionPool)


def test_another_server_or_database_gets_its_own_pool() -> None:
    seven = RedisCache("redis://127.0.0.1:6379/7", {"OPTIONS": OPTIONS})
    eight = RedisCache("redis://127.0.0.1:6379/8", {"OPTIONS": OPTIONS})
    assert client_pool(seven) is not client_pool(eight)


def test_without_it_each_cache_object_made_its_own() -> None:
    first = RedisCache("redis://127.0.0.1:6379/7", {})
    second = RedisCache("redis://127.0.0.1:6379/7", {})
    assert client_pool(first) is not client_pool(second)


def test_one_client_per_pool_for_every_call() -> None:
    from casino.runtime.redis_pool import RedisCache as SharedRedisCache

    first = SharedRedisCache("redis://127.0.0.1:6379/7", {"OPTIONS": OPTIONS})
    second = SharedRedisCache("redis://127.0.0.1:6379/7", {"OPTIONS": OPTIONS})
    client = first._cache.get_client(write=True)
    assert client is second._cache.get_client(write=False)
    assert client.connection_pool is client_pool(first)
    first.set("shared-client", 7)
    assert second.get("shared-client") == 7
    first.delete("shared-client")
    assert RedisCache("redis://127.0.0.1:6379/7", {})._cache.get_client() is not client
