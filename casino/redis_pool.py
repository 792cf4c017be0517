"""One Redis connection pool per process and server, shared by every cache instance.

Django keeps a cache object per thread and per async context, and each makes its own
connection pool: under ASGI every request runs in a context of its own, so every request
opened (and left behind) a new connection to Redis, with its handshake. Redis-py's pools
are thread-safe and notice a fork, so one per process is enough.
"""

from __future__ import annotations

import threading
from typing import Any

import redis


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
