"""Django's PostgreSQL backend, with statements cut to what the server can bind, and a
pool that checks all its idle connections once one of them is found broken.

With the values bound by the server (``server_side_binding``, settings.py's prepared
statements) a statement carries at most 65,535 of them: the protocol counts them in 16
bits. Django's PostgreSQL backend counts on no limit, so ``bulk_create`` sent every row in
one statement and a delete that collects (the chat purge: each message takes its reports
along) asked for every object's related rows in one; past 65,535 values either failed.
Here both are cut into batches that fit, as Django does for SQLite's own limit.

The pool (``DATABASE_POOL_SIZE``) checks each connection before handing it out
(``CONN_HEALTH_CHECKS``, casino/settings.py). When the server has ended connections (a
restart, a failover), psycopg_pool finds its broken idle connections one at a time and
waits longer after each (0, 1, 2, 4 seconds...): with eight of them a request waited out
the pool's 10 seconds and got a 503. Here the first broken one has the pool check every
idle connection at once, and the request takes a new one without waiting.
"""

from __future__ import annotations

from typing import Any

from django.db.backends.postgresql import base, operations
from psycopg_pool import ConnectionPool

MAX_BOUND_VALUES = 65_535


class DatabaseOperations(operations.DatabaseOperations):
    def bulk_batch_size(self, fields: Any, objs: Any) -> int:
        size = super().bulk_batch_size(fields, objs)
        if not self.connection.features.uses_server_side_binding:
            return size
        return max(1, min(size, MAX_BOUND_VALUES // max(1, len(fields))))


def check_all_when_broken(conn: Any) -> None:
    """psycopg_pool's check of a connection it hands out; when that one is broken, the
    pool's other idle connections are checked (and the broken ones replaced) at once."""
    try:
        ConnectionPool.check_connection(conn)
    except Exception:
        pool = getattr(conn, "_pool", None)
        if pool is not None:
            pool.check()
        raise


class DatabaseWrapper(base.DatabaseWrapper):
    ops_class = DatabaseOperations

    @property
    def pool(self) -> Any:
        pool = super().pool
        # Django makes the pool with check=ConnectionPool.check_connection when
        # CONN_HEALTH_CHECKS is on; psycopg_pool keeps it as ``_check``.
        if pool is not None and getattr(pool, "_check", None) is ConnectionPool.check_connection:
            pool._check = check_all_when_broken
        return pool
