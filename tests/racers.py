"""Real threads racing on real row locks (PostgreSQL tests)."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connections


class Racers:
    """Fifty threads kept for a whole test, so each keeps its own open connection.

    ``run`` starts every call at the same moment (a barrier as wide as the pool puts
    each call on its own thread) and returns each result or the exception raised.
    """

    def __init__(self, width: int = 50) -> None:
        self.width = width
        self.pool = ThreadPoolExecutor(max_workers=width)

    def run(self, calls: list[Callable[[], object]]) -> list[object]:
        assert len(calls) <= self.width
        barrier = threading.Barrier(len(calls))

        def race(call: Callable[[], object]) -> object:
            barrier.wait()
            try:
                return call()
            except Exception as error:  # collected and asserted on by the test
                return error

        return list(self.pool.map(race, calls))

    def close(self) -> None:
        self.run([connections.close_all] * self.width)
        self.pool.shutdown()


@pytest.fixture
def racers() -> Iterator[Racers]:
    racers = Racers()
    yield racers
    racers.close()
