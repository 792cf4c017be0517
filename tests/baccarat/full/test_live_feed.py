"""The per-process feed of a table's live events: one read for every stream at the table,
a contiguous run of event numbers, and no wake-up lost while a stream was busy or before
the process subscribed."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from baccarat.full.live import Feed, Watcher


def test_the_feed_answers_only_what_it_holds_without_a_gap() -> None:
    feed = Feed()
    assert feed.after(0) is None  # empty: the stream reads the rows
    feed.learn([(3, "c"), (4, "d")])
    assert feed.after(2) == [(3, "c"), (4, "d")]
    assert feed.after(3) == [(4, "d")]
    assert feed.after(4) == []
    assert feed.after(1) is None  # before what it holds
    assert feed.after(5) is None  # ahead of it: the rows know better
    feed.learn([(2, "b"), (4, "d"), (5, "e")])  # known numbers are skipped
    assert [seq for seq, _ in feed.messages] == [3, 4, 5]
    feed.learn([(9, "i")])  # a gap: the run starts again
    assert feed.after(5) is None and feed.after(8) == [(9, "i")]


def test_the_feed_keeps_the_latest_events_only() -> None:
    feed = Feed()
    feed.learn([(n, str(n)) for n in range(1, 1001)])
    assert feed.latest == 1000 and len(feed.messages) == 200
    assert feed.after(800) == [(n, str(n)) for n in range(801, 1001)]
    assert feed.after(799) is None


def test_a_wake_while_a_stream_was_busy_is_not_lost() -> None:
    async def scenario() -> tuple[bool, bool, float]:
        watcher = Watcher()
        watcher._ensure_running = lambda: None  # type: ignore[method-assign]  # no Redis, no poll
        watcher.join(7)
        before = watcher.wakes(7)
        watcher._wake(7)  # the nudge comes while the stream reads the rows
        loop = asyncio.get_running_loop()
        start = loop.time()
        woke = await watcher.wait(7, 5.0, since=before)
        quick = loop.time() - start
        quiet = await watcher.wait(7, 0.05, since=watcher.wakes(7))
        return woke, quiet, quick

    # In a thread of its own: browser tests of the same session keep a loop in this one.
    with ThreadPoolExecutor(1) as pool:
        woke, quiet, quick = pool.submit(asyncio.run, scenario()).result(30)
    assert woke is True and quick < 0.5
    assert quiet is False


def test_streams_that_began_before_the_subscription_read_their_rows_once_it_is_made(
    monkeypatch: Any,
) -> None:
    """The nudge of an event written after a stream's first read and before the web
    process subscribed to Redis never comes: once subscribed, every watched table reads
    its rows (its streams are woken), rather than wait out the quiet while."""
    import redis.asyncio

    class PubSub:
        def __init__(self) -> None:
            self.confirmed = False

        async def psubscribe(self, pattern: str) -> None:
            pass

        async def get_message(self, timeout: float) -> dict[str, Any] | None:
            if not self.confirmed:
                self.confirmed = True
                return {"type": "psubscribe"}
            await asyncio.sleep(timeout)
            return None

        async def ping(self) -> None:
            pass

        async def aclose(self) -> None:
            pass

    class Client:
        def pubsub(self) -> PubSub:
            return PubSub()

        async def aclose(self) -> None:
            pass

    monkeypatch.setattr(redis.asyncio.Redis, "from_url", lambda *args, **kwargs: Client())

    async def scenario() -> int:
        watcher = Watcher()
        watcher._ensure_running = lambda: None  # type: ignore[method-assign]
        watcher.join(7)  # a stream at table 7 read its rows and waits
        listening = asyncio.get_running_loop().create_task(watcher._listen("redis://x/0"))
        await asyncio.sleep(0.2)
        listening.cancel()
        return watcher.wakes(7)

    with ThreadPoolExecutor(1) as pool:
        assert pool.submit(asyncio.run, scenario()).result(30) == 1
