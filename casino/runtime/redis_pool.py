"""One Redis connection pool per process and server, shared by every cache instance.

Django keeps a cache object per thread and per async context, and each makes its own
connection pool: under ASGI every request runs in a context of its own, so every request
opened (and left behind) a new connection to Redis, with its handshake. Redis-py's pools
are thread-safe and notice a fork, so one per process is enough.

Django's client also makes a new ``redis.Redis`` for every cache call, and each fills a
table of some 170 reply handlers: :class:`RedisCache` keeps one per pool instead (a
``redis.Redis`` over a pool is thread-safe: each command borrows a connection).
"""

from __future__ import annotations

import functools
import threading
from typing import Any

import redis
from django.core.cache.backends import redis as django_redis


class SharedConnectionPool(redis.ConnectionPool):
    """``OPTIONS["pool_class"]`` of the Redis cache: ``from_url`` hands out the process's
    pool for that address and those options, made on first use."""

    _shared: dict[tuple[str, str], SharedConnectionPool] = {}
    _shared_lock = threading.Lock()

    @classmethod
    def from_url(cls, url: str, **kwargs: Any) -> SharedConnectionPool:
        key = (url, repr(sorted(kwargs.items(), key=lambda item: item[0])))
        with cls._shared_lock:
            pool = cls._shared.get(key)
            if pool is None:
                pool = cls._shared[key] = super().from_url(url, **kwargs)
            return pool

    @functools.cached_property
    def client(self) -> redis.Redis:
        """The process's client over this pool (a race makes two, both fine)."""
        return redis.Redis(connection_pool=self)


class _Client(django_redis.RedisCacheClient):
    def get_client(self, key: Any = None, *, write: bool = False) -> redis.Redis:
        pool = self._get_connection_pool(write)
        if isinstance(pool, SharedConnectionPool):
            return pool.client
        return super().get_client(key, write=write)


class RedisCache(django_redis.RedisCache):
    """``BACKEND`` of the cache: Django's, with one ``redis.Redis`` per shared pool."""

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = _Client
