"""How many requests of a web process run their Python at once: its request slots.

The ASGI handler (casino/asgi.py) gives every request a thread of its own, and Python
runs one thread of a process at a time. When the eighty players of ten full tables press
Deal or fetch their board in the same instant, some forty threads a process want to run
together, and the event loop that sends the live events to every open stream waits its
turn among them: with every bot acting at once (``table_bots --think-seconds 0``) an
event reached every browser at its table within 25 ms at p50 but 1.7-2.1 s at p99.

So a request runs its Python in one of ``CASINO_REQUEST_SLOTS`` slots per process and
waits for a free one in its thread, without running (CPython's semaphore wakes its
waiters in the order they came). The event loop then shares the process with a few
threads: the same run's p99 was 0.3-0.5 s. The requests get the same CPU as before, one
after the other instead of all at once (performance.md, "Current figures").

A request that waits outside Python for long (a password hash, which runs in a few slots
of its own: casino/accounts/hashers.py) gives its slot to the next request meanwhile
(:func:`outside_slot`), unless it holds a database transaction: another request could be
waiting for that transaction's locks in the slot it would need back.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

from django.db import connections

_held = threading.local()  # the semaphore of the slot this thread's request runs in, if any


class RequestSlots:
    """``size`` slots of one web process; ``size`` 0: no limit."""

    def __init__(self, size: int) -> None:
        self._semaphore = threading.BoundedSemaphore(size) if size > 0 else None

    @contextmanager
    def slot(self) -> Iterator[float]:
        """Run the block (a request's middleware chain and view) in a slot; it gets the
        seconds the request waited for one."""
        if self._semaphore is None:
            yield 0.0
            return
        asked = time.perf_counter()
        self._semaphore.acquire()
        _held.semaphore = self._semaphore
        try:
            yield time.perf_counter() - asked
        finally:
            _held.semaphore = None
            self._semaphore.release()


@contextmanager
def outside_slot() -> Iterator[None]:
    """A wait outside Python (a password hash): the request's slot goes to the next
    request meanwhile and is taken back after, unless a transaction is open on one of
    this thread's database connections."""
    semaphore: threading.BoundedSemaphore | None = getattr(_held, "semaphore", None)
    opened = connections.all(initialized_only=True)
    if semaphore is None or any(conn.in_atomic_block for conn in opened):
        yield
        return
    semaphore.release()
    _held.semaphore = None
    try:
        yield
    finally:
        semaphore.acquire()
        _held.semaphore = semaphore
