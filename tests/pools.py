"""A psycopg pool of one connection on the test database (PostgreSQL), for tests of what
happens when a request must wait for, or give back, a pooled connection."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from django.db import connection


@contextmanager
def pool_of_one(alias: str, timeout: float = 0.2) -> Iterator[Callable[[], object]]:
    """Yield a maker of database wrappers that share one pool of one connection, which
    waits ``timeout`` seconds for it; the pool is closed afterwards."""
    from django.db.backends.postgresql.base import DatabaseWrapper

    params = {**connection.settings_dict, "CONN_MAX_AGE": 0}
    pool = {"min_size": 1, "max_size": 1, "timeout": timeout}
    params["OPTIONS"] = {**params.get("OPTIONS", {}), "pool": pool}
    version = connection.pg_version

    def wrapper() -> DatabaseWrapper:
        pooled = DatabaseWrapper(params, alias=alias)
        pooled.__dict__["pg_version"] = version  # asking would take a second connection
        return pooled

    try:
        yield wrapper
    finally:
        opened = DatabaseWrapper._connection_pools.pop(alias, None)
        if opened is not None:
            opened.close()
