"""Django's PostgreSQL backend, with statements cut to what the server can bind.

With the values bound by the server (``server_side_binding``, settings.py's prepared
statements) a statement carries at most 65,535 of them: the protocol counts them in 16
bits. Django's PostgreSQL backend counts on no limit, so ``bulk_create`` sent every row in
one statement and a delete that collects (the chat purge: each message takes its reports
along) asked for every object's related rows in one; past 65,535 values either failed.
Here both are cut into batches that fit, as Django does for SQLite's own limit.
"""

from __future__ import annotations

from typing import Any

from django.db.backends.postgresql import base, operations

MAX_BOUND_VALUES = 65_535


class DatabaseOperations(operations.DatabaseOperations):
    def bulk_batch_size(self, fields: Any, objs: Any) -> int:
        size = super().bulk_batch_size(fields, objs)
        if not self.connection.features.uses_server_side_binding:
            return size
        return max(1, min(size, MAX_BOUND_VALUES // max(1, len(fields))))


class DatabaseWrapper(base.DatabaseWrapper):
    ops_class = DatabaseOperations
