"""Password hashing that a crowd of logins cannot turn into errors.

Argon2 is slow on purpose: a login's check costs some 0.3 s of CPU and 100 MB here. Run
as Django runs it, every login that arrives at once hashes at once, each holding the
pooled database connection its request already took. Eighty bots signing in together
(``table_bots``) held both web processes' eight connections for seconds, and the logins
behind them waited out the pool and got "the casino is busy".

So a hash runs in one of a few slots per process (``CASINO_PASSWORD_SLOTS``, one per 8
cores by default: Django's Argon2 hashes in 8 threads, so more would only share the same
cores and multiply the memory), and gives its pooled connection back to the pool first,
so a login waiting for a slot or hashing holds none; the next query takes one again
(inside a transaction the connection stays). A login that waits longer than
``CASINO_PASSWORD_WAIT_SECONDS`` for a slot gets the 503 page (``casino.errors.Busy``).
Stored hashes are unchanged: the algorithms keep their names.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from django.conf import settings
from django.contrib.auth import hashers
from django.db import connections
from django.db.backends.base.base import BaseDatabaseWrapper

from casino.errors import Busy
from casino.slots import outside_slot

_slots_lock = threading.Lock()
_slots: dict[int, threading.BoundedSemaphore] = {}


def _semaphore() -> threading.BoundedSemaphore:
    size = max(1, settings.CASINO_PASSWORD_SLOTS)
    with _slots_lock:
        if size not in _slots:
            _slots[size] = threading.BoundedSemaphore(size)
        return _slots[size]


def release_pooled_connections(opened: Iterable[BaseDatabaseWrapper] | None = None) -> None:
    """Give this thread's pooled connections (or ``opened``) back to their pools, unless
    a transaction is open on one (then the work must stay on that connection). Others,
    SQLite's or one per request, stay open: closing them would only cost a reconnect."""
    if opened is None:
        opened = connections.all(initialized_only=True)
    for conn in opened:
        if conn.connection is None or conn.in_atomic_block:
            continue
        if getattr(conn, "pool", None) is not None:
            conn.close()


@contextmanager
def password_slot() -> Iterator[None]:
    """Hold one of the process's password slots, with no pooled connection, for a hash;
    the request's own slot goes to the next request meanwhile (casino/slots.py)."""
    release_pooled_connections()
    semaphore = _semaphore()
    with outside_slot():
        if not semaphore.acquire(timeout=settings.CASINO_PASSWORD_WAIT_SECONDS):
            raise Busy("every password slot stayed taken")
        try:
            yield
        finally:
            semaphore.release()


class Argon2PasswordHasher(hashers.Argon2PasswordHasher):
    def encode(self, password: str, salt: str) -> str:
        with password_slot():
            return super().encode(password, salt)

    def verify(self, password: str, encoded: str) -> bool:
        with password_slot():
            return super().verify(password, encoded)


class PBKDF2PasswordHasher(hashers.PBKDF2PasswordHasher):
    """For hashes stored before Argon2; its ``verify`` hashes through ``encode`` (one slot:
    a slot is not taken twice by one thread)."""

    def encode(self, password: str, salt: str, iterations: Any = None) -> str:
        with password_slot():
            return super().encode(password, salt, iterations)
