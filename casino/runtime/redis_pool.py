"""The Redis cache: one connection pool per process and server, and a degraded mode for
when Redis fails.

One pool. Django keeps a cache object per thread and per async context, and each makes
its own connection pool: under ASGI every request runs in a context of its own, so every
request opened (and left behind) a new connection to Redis, with its handshake. Redis-py's
pools are thread-safe and notice a fork, so one per process is enough. Django's client also
makes a new ``redis.Redis`` for every cache call, and each fills a table of some 170 reply
handlers: :class:`RedisCache` keeps one per pool instead (a ``redis.Redis`` over a pool is
thread-safe: each command borrows a connection).

Degraded mode. A cache call that cannot reach Redis (refused, or no answer within the
pool's ``socket_timeout``) does not fail the request: the cache answers as its
``OPTIONS["when_down"]`` says, ``"memory"`` from a store in this process's memory (the
rate limits then count per process) or ``"miss"`` as an empty cache (the sessions then
come from the database). For ``REDIS_RETRY_SECONDS`` after a failure every cache of that
server in the process answers so at once, without asking Redis; then one call tries
Redis again. A key written or deleted meanwhile is deleted from Redis when it answers
again, so Redis never serves what was replaced or removed while it was away (a session
that logged out).
"""

from __future__ import annotations

import functools
import logging
import re
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypeVar

import redis
from django.conf import settings
from django.core.cache.backends import redis as django_redis
from django.core.cache.backends.locmem import LocMemCache

logger = logging.getLogger("casino.redis")

# What a server that is down, restarting or hanging raises (a refused or reset connection,
# a read that timed out, "loading the dataset").
UNREACHABLE = (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError)
# At most this many keys written while Redis was away are remembered, per process and server.
MAX_FORGOTTEN = 50_000
MEMORY_ENTRIES = 50_000
T = TypeVar("T")


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


def without_password(url: str) -> str:
    """``url`` as a log line may show it."""
    return re.sub(r"//[^/@]*@", "//", url)


class Outage:
    """Whether one Redis server failed lately, for every cache of this process, and the
    keys written while it did. Plain attributes, no lock: two threads that both try Redis
    again, or both note a key, do no harm."""

    _of: dict[str, Outage] = {}

    def __init__(self, server: str) -> None:
        self.server = server
        self.shown = without_password(server)  # for the logs
        self.until = 0.0  # monotonic time before which Redis is left alone
        self.down = False
        self.forgotten: set[str] = set()
        self.overflowed = False

    @classmethod
    def of(cls, server: str) -> Outage:
        outage = cls._of.get(server)
        if outage is None:
            outage = cls._of.setdefault(server, cls(server))
        return outage

    def should_try(self) -> bool:
        """Ask Redis now? While it is down, one call in ``REDIS_RETRY_SECONDS`` does."""
        if not self.down:
            return True
        now = time.monotonic()
        if now < self.until:
            return False
        self.until = now + settings.REDIS_RETRY_SECONDS  # the others wait for this try
        return True

    def failed(self, error: BaseException) -> None:
        self.until = time.monotonic() + settings.REDIS_RETRY_SECONDS
        if not self.down:
            self.down = True
            logger.warning(
                "Redis at %s cannot be reached (%s): the cache runs degraded, trying again "
                "every %s seconds",
                self.shown,
                error,
                settings.REDIS_RETRY_SECONDS,
            )

    def answered(self) -> None:
        if self.down:
            self.down = False
            logger.warning("Redis at %s answers again", self.shown)

    def forget(self, keys: Iterable[str]) -> None:
        """Delete these keys from Redis when it answers again."""
        for key in keys:
            if len(self.forgotten) >= MAX_FORGOTTEN:
                if not self.overflowed:
                    self.overflowed = True
                    logger.error(
                        "Redis at %s: more than %s keys written while it was away; some of "
                        "its entries may be older than the database",
                        self.shown,
                        MAX_FORGOTTEN,
                    )
                return
            self.forgotten.add(key)


class _Memory(LocMemCache):
    """This process's stand-in for Redis, addressed by the keys the Redis client gets
    (already prefixed and versioned)."""

    def make_key(self, key: Any, version: Any = None) -> str:
        return str(key)

    def validate_key(self, key: Any) -> None:
        pass


class _Client(django_redis.RedisCacheClient):
    def __init__(self, servers: Any, *, when_down: str = "memory", **options: Any) -> None:
        super().__init__(servers, **options)
        if when_down not in {"memory", "miss"}:
            raise ValueError(f"when_down must be 'memory' or 'miss', not {when_down!r}")
        self._when_down = when_down
        self._outage = Outage.of(",".join(self._servers))  # type: ignore[attr-defined]
        self._memory = _Memory(
            f"casino.redis-down:{self._outage.server}", {"OPTIONS": {"MAX_ENTRIES": MEMORY_ENTRIES}}
        )

    def get_client(self, key: Any = None, *, write: bool = False) -> redis.Redis:
        pool = self._get_connection_pool(write)  # type: ignore[attr-defined]
        if isinstance(pool, SharedConnectionPool):
            return pool.client
        return super().get_client(key, write=write)

    def _call(
        self,
        redis_call: Callable[[], T],
        memory_call: Callable[[], T],
        miss_call: Callable[[], T],
        written: Iterable[str] = (),
    ) -> T:
        outage = self._outage
        if outage.should_try():
            was_down = outage.down
            try:
                if outage.forgotten:
                    self._forget_now()
                answer = redis_call()
            except UNREACHABLE as error:
                outage.failed(error)
            else:
                if was_down:
                    outage.answered()
                    self._memory.clear()  # counted and kept for the outage only
                return answer
        outage.forget(written)
        return memory_call() if self._when_down == "memory" else miss_call()

    def _forget_now(self) -> None:
        keys = list(self._outage.forgotten)
        client = self.get_client(write=True)
        for start in range(0, len(keys), 1000):
            client.delete(*keys[start : start + 1000])
        self._outage.forgotten.difference_update(keys)
        self._outage.overflowed = False

    def ping(self) -> bool:
        """Whether Redis answers now (readiness), whatever the degraded mode says."""
        return bool(self.get_client().ping())

    # Django's RedisCacheClient, call by call (the keys come made); ``up`` is its own.

    def add(self, key: Any, value: Any, timeout: Any) -> bool:
        up = super().add
        return self._call(
            lambda: up(key, value, timeout),
            lambda: self._memory.add(key, value, timeout),
            lambda: True,
        )

    def get(self, key: Any, default: Any) -> Any:
        up = super().get
        return self._call(
            lambda: up(key, default), lambda: self._memory.get(key, default), lambda: default
        )

    def set(self, key: Any, value: Any, timeout: Any) -> None:
        up = super().set
        self._call(
            lambda: up(key, value, timeout),
            lambda: self._memory.set(key, value, timeout),
            lambda: None,
            [key],
        )

    def touch(self, key: Any, timeout: Any) -> bool:
        up = super().touch
        return self._call(
            lambda: up(key, timeout), lambda: self._memory.touch(key, timeout), lambda: False
        )

    def delete(self, key: Any) -> bool:
        up = super().delete
        return self._call(lambda: up(key), lambda: self._memory.delete(key), lambda: False, [key])

    def get_many(self, keys: Iterable[Any]) -> dict[Any, Any]:
        up, keys = super().get_many, list(keys)
        return self._call(lambda: up(keys), lambda: self._memory.get_many(keys), dict)

    def has_key(self, key: Any) -> bool:
        up = super().has_key
        return self._call(lambda: up(key), lambda: self._memory.has_key(key), lambda: False)

    def incr(self, key: Any, delta: int) -> int:
        def missing() -> int:
            raise ValueError(f"Key '{key}' not found.")

        up = super().incr
        return int(
            self._call(lambda: up(key, delta), lambda: self._memory.incr(key, delta), missing)
        )

    def set_many(self, data: Mapping[Any, Any], timeout: Any) -> None:
        up = super().set_many
        self._call(
            lambda: up(data, timeout),
            lambda: self._memory.set_many(dict(data), timeout),
            lambda: None,
            list(data),
        )

    def delete_many(self, keys: Iterable[Any]) -> None:
        up, keys = super().delete_many, list(keys)
        self._call(lambda: up(keys), lambda: self._memory.delete_many(keys), lambda: None, keys)

    def clear(self) -> bool:
        def forget_all() -> bool:
            self._memory.clear()
            return True

        return self._call(super().clear, forget_all, lambda: False)


class RedisCache(django_redis.RedisCache):
    """``BACKEND`` of the cache: Django's, with one ``redis.Redis`` per shared pool, and
    a degraded mode while Redis cannot be reached (``OPTIONS["when_down"]``)."""

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = _Client

    def ping(self) -> bool:
        """Whether Redis answers now: raises what the client raises when it does not."""
        return self._cache.ping()  # type: ignore[attr-defined,no-any-return]
