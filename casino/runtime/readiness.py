"""Whether this web process can serve players now (``/health/ready/``), answered within
``CASINO_READY_TIMEOUT_SECONDS`` whatever the services do.

The database is asked from a thread of its own, one check at a time: a check that waits
(a pool with every connection taken, a server that does not answer) is not waited for
past the timeout, and the checks after it fail at once while it still waits, rather than
piling up threads. Redis is asked directly: its client gives up after
``REDIS_CONNECT_TIMEOUT`` and ``REDIS_READ_TIMEOUT``.
"""

from __future__ import annotations

import logging
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout

from django.conf import settings
from django.core.cache import caches
from django.db import connection

logger = logging.getLogger("casino.health")

_checker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="casino-ready")


def _ask_database() -> None:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    finally:
        connection.close()  # back to the pool, or closed: the thread keeps nothing


def database() -> str:
    """``"ok"`` when a connection answers ``SELECT 1`` in time, else ``"unavailable"``."""
    try:
        _checker.submit(_ask_database).result(settings.CASINO_READY_TIMEOUT_SECONDS)
    except FutureTimeout:
        logger.warning("readiness: the database did not answer in time")
        return "unavailable"
    except Exception as error:
        logger.warning("readiness: the database failed: %s", error)
        return "unavailable"
    return "ok"


def redis() -> str:
    """``"ok"`` or ``"unavailable"`` for the cache's Redis; ``"none"`` without one."""
    cache = caches["default"]
    ping = getattr(cache, "ping", None)
    if ping is None:
        return "none"
    try:
        ping()
    except Exception as error:
        logger.warning("readiness: Redis failed: %s", error)
        return "unavailable"
    return "ok"


def check() -> dict[str, str]:
    return {"database": database(), "redis": redis()}
