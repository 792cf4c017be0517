"""Live events for the browsers at a full table: a Server-Sent Events stream.

A browser opens ``/tables/<slug>/events/?after=N`` with the number of the last event its
page shows; when the connection drops, the browser comes back on its own with
``Last-Event-ID``. Either way the stream first sends every event after that number, read
from the rows (:class:`~baccarat.models.TableEvent`), then each new one: nothing is lost
when a connection or a web process goes away, and nothing comes twice.

How a web process learns that there are new rows: one :class:`Watcher` per process,
not one per connection. With ``REDIS_URL`` it listens to Redis pub/sub (the committing
process publishes, :func:`baccarat.events.announce`); on the embedded default it polls
the watched tables' latest event numbers a few times a second, so a Celery worker in
another process can write events too. Each stream also reads the rows again after a
quiet while, so even a lost nudge only delays an event. When Redis refuses, does not
answer within its timeouts (``REDIS_CONNECT_TIMEOUT``, ``REDIS_READ_TIMEOUT``) or stops
answering a ping, the watcher polls as on the embedded default and tries Redis again
every few seconds.

Served asynchronously under ASGI (``manage.py runall`` and production run uvicorn).
Under a WSGI server the same view falls back to a polling stream that holds a thread.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import time
from collections import deque
from collections.abc import AsyncIterator, Iterator
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.db import connection
from django.http import Http404, HttpRequest, HttpResponse, StreamingHttpResponse
from django.views.decorators.http import require_GET

from baccarat.events import CHANNEL_PREFIX, events_after
from baccarat.full.seats import seat_seen
from baccarat.models import Table, TableEvent

logger = logging.getLogger(__name__)

POLL_SECONDS = 0.2  # the embedded default: how often a process looks for new rows
QUIET_SECONDS = 5.0  # a stream reads the rows again after this long without a nudge
KEEPALIVE_SECONDS = 15.0  # a comment line keeps proxies from closing an idle stream
RETRY_MILLISECONDS = 1000  # how soon a browser reconnects
# A stream ends itself after this long (the browser reconnects with Last-Event-ID and
# misses nothing), so a stream whose browser vanished without a word cannot live on.
LIFETIME_SECONDS = 600.0
FEED_SIZE = 200  # recent events a web process keeps per watched table
EVENTS_PER_READ = 500  # events_after's limit


def event_message(event: TableEvent) -> str:
    """One SSE message: its ``id`` is the event's number (``Last-Event-ID`` on return)."""
    data = {
        "seq": event.seq,
        "kind": event.kind,
        "at": event.created_at.timestamp(),
        **event.data,
    }
    return f"id: {event.seq}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"


def hello_message() -> str:
    """The first message of a stream, without an id: which process serves it."""
    hello = json.dumps({"kind": "hello", "pid": os.getpid()})
    return f"retry: {RETRY_MILLISECONDS}\ndata: {hello}\n\n"


def _start(request: HttpRequest) -> int:
    """The number after which to send events: the browser's ``Last-Event-ID``, else
    ``?after=``; nonsense counts as 0 (everything)."""
    for raw in (request.headers.get("Last-Event-ID"), request.GET.get("after")):
        if raw is not None and raw.isdigit() and len(raw) < 19:
            return int(raw)
    return 0


# A stream lives for minutes and its queries run in any thread of the executor: each
# gives its connection back at once (to the pool, or closed), so a thousand open
# streams hold no database connection between their reads. (Inside a transaction, as in
# a test, the connection stays.)


def _give_back() -> None:
    if not connection.in_atomic_block:
        connection.close()


def _rows(table_id: int, seq: int) -> list[TableEvent]:
    try:
        return events_after(table_id, seq)
    finally:
        _give_back()


def _latest(table_ids: list[int]) -> dict[int, int]:
    try:
        return dict(Table.objects.filter(pk__in=table_ids).values_list("pk", "event_seq"))
    finally:
        _give_back()


def _seen(table_id: int, player_id: int) -> None:
    try:
        seat_seen(table_id=table_id, player_id=player_id)
    finally:
        _give_back()


# The watcher: one per web process --------------------------------------------------


class Feed:
    """The recent events of one table as SSE messages, read once per process for all of
    its streams at that table (eight players and the spectators: one query per event,
    not one per browser). Holds a contiguous run of event numbers."""

    def __init__(self) -> None:
        self.messages: deque[tuple[int, str]] = deque(maxlen=FEED_SIZE)
        self.streams = 0
        self.fetching = False
        self.again = False

    @property
    def latest(self) -> int | None:
        return self.messages[-1][0] if self.messages else None

    def after(self, seq: int) -> list[tuple[int, str]] | None:
        """The messages after ``seq``, or None when the feed does not reach back to it
        (or is behind it): then the stream reads the rows."""
        if not self.messages or not self.messages[0][0] - 1 <= seq <= self.messages[-1][0]:
            return None
        return [message for message in self.messages if message[0] > seq]

    def learn(self, messages: list[tuple[int, str]]) -> None:
        for seq, text in messages:
            latest = self.latest
            if latest is not None and seq <= latest:
                continue  # known already
            if latest is not None and seq > latest + 1:
                self.messages.clear()  # a gap: start the run again from here
            self.messages.append((seq, text))

    def forget_before(self, seq: int) -> None:
        """Drop the messages before ``seq``: a stream that needs them reads the rows."""
        while self.messages and self.messages[0][0] < seq:
            self.messages.popleft()


# An event that changes rows written before it (a removed chat message's text leaves its
# ``chat`` event in the same transaction): a feed keeps nothing older.
REWRITING_KINDS = frozenset({"chat_removed"})


def messages_of(rows: list[TableEvent]) -> list[tuple[int, str]]:
    return [(event.seq, event_message(event)) for event in rows]


def feed_learn(feed: Feed, rows: list[TableEvent]) -> list[tuple[int, str]]:
    """Teach ``feed`` the messages of ``rows`` (returned); an event that rewrote older
    rows takes the feed's copies of them away."""
    messages = messages_of(rows)
    feed.learn(messages)
    rewrites = [event.seq for event in rows if event.kind in REWRITING_KINDS]
    if rewrites:
        feed.forget_before(max(rewrites))
    return messages


class Watcher:
    """Wakes the streams of a table when it has new events (one per process and loop),
    after reading the new rows once into the table's :class:`Feed`."""

    def __init__(self) -> None:
        self._waiters: dict[int, set[asyncio.Event]] = {}
        self._feeds: dict[int, Feed] = {}
        # How many times each table's streams were woken: a stream that was busy (reading
        # the rows) when a nudge came sees the number moved and does not wait for the next.
        self._wakes: dict[int, int] = {}
        self._task: asyncio.Task[None] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._degraded = False  # Redis failed: polling the rows until it answers again

    def _ensure_running(self) -> None:
        loop = asyncio.get_running_loop()
        if self._task is None or self._task.done() or self._loop is not loop:
            self._loop = loop
            self._task = loop.create_task(self._run())

    def join(self, table_id: int) -> Feed:
        """A stream starts at ``table_id``: the table's feed, kept while streams read it."""
        self._ensure_running()
        feed = self._feeds.setdefault(table_id, Feed())
        feed.streams += 1
        return feed

    def leave(self, table_id: int) -> None:
        feed = self._feeds.get(table_id)
        if feed is not None:
            feed.streams -= 1
            if feed.streams <= 0:
                del self._feeds[table_id]
                self._wakes.pop(table_id, None)

    def wakes(self, table_id: int) -> int:
        return self._wakes.get(table_id, 0)

    async def wait(self, table_id: int, timeout: float, *, since: int) -> bool:
        """Return True when ``table_id`` may have new events (at once if its streams were
        woken since ``wakes()`` said ``since``), False after ``timeout`` quiet seconds."""
        self._ensure_running()
        if self.wakes(table_id) != since:
            return True
        event = asyncio.Event()
        self._waiters.setdefault(table_id, set()).add(event)
        try:
            await asyncio.wait_for(event.wait(), timeout)
            return True
        except TimeoutError:
            return False
        finally:
            waiters = self._waiters.get(table_id, set())
            waiters.discard(event)
            if not waiters:
                self._waiters.pop(table_id, None)

    def _wake(self, table_id: int) -> None:
        if table_id in self._feeds or table_id in self._waiters:
            self._wakes[table_id] = self.wakes(table_id) + 1
        for event in list(self._waiters.get(table_id, ())):
            event.set()

    def notify(self, table_id: int) -> None:
        """New rows at ``table_id``: read them once into its feed, then wake its streams."""
        feed = self._feeds.get(table_id)
        if feed is None or feed.latest is None:
            self._wake(table_id)  # no feed to fill yet: each stream reads the rows
            return
        if feed.fetching:
            feed.again = True
            return
        feed.fetching = True
        asyncio.get_running_loop().create_task(self._refresh(table_id, feed))

    async def _refresh(self, table_id: int, feed: Feed) -> None:
        try:
            while True:
                feed.again = False
                after = feed.latest or 0
                rows = await sync_to_async(_rows, thread_sensitive=False)(table_id, after)
                feed_learn(feed, rows)
                self._wake(table_id)
                if not feed.again and len(rows) < EVENTS_PER_READ:
                    break
        except Exception:
            logger.warning("live events: reading table %s failed", table_id, exc_info=True)
            self._wake(table_id)  # the streams read the rows themselves
        finally:
            feed.fetching = False

    async def _run(self) -> None:
        url = getattr(settings, "REDIS_URL", "")
        while True:
            try:
                if url:
                    await self._listen(url)
                else:
                    await self._poll()
            except asyncio.CancelledError:
                raise
            except Exception as error:
                # Redis refused, hangs or dropped the connection (or a poll failed): poll
                # the rows a while, then try Redis again.
                if not self._degraded:
                    self._degraded = True
                    logger.warning("live events: %r; polling the database meanwhile", error)
                self._notify_all()
                try:
                    await self._poll(rounds=int(QUIET_SECONDS / POLL_SECONDS))
                except asyncio.CancelledError:
                    raise
                except Exception:
                    await asyncio.sleep(QUIET_SECONDS)  # the database failed too

    def _notify_all(self) -> None:
        """Each watched table reads its rows once: events written while the watcher
        switched between Redis and polling may have had no nudge."""
        for table_id in list(self._feeds.keys() | self._waiters.keys()):
            self.notify(table_id)

    async def _listen(self, url: str) -> None:
        """Wake the streams as Redis pub/sub announces events. Raises when Redis cannot be
        reached, does not answer within its timeouts, or stops answering (a ping after
        each quiet ``QUIET_SECONDS``)."""
        import redis.asyncio as redis

        timeout = settings.REDIS_READ_TIMEOUT
        client = redis.Redis.from_url(
            url, socket_connect_timeout=settings.REDIS_CONNECT_TIMEOUT, socket_timeout=timeout
        )
        pubsub = client.pubsub()
        try:
            await pubsub.psubscribe(f"{CHANNEL_PREFIX}*")
            if await pubsub.get_message(timeout=timeout) is None:
                raise TimeoutError("Redis did not confirm the subscription")
            if self._degraded:
                self._degraded = False
                logger.warning("live events: Redis pub/sub answers again")
            # A stream that began before this subscription (the process's first, or any
            # while Redis was away) may have missed the nudge of an event written
            # meanwhile: each watched table reads its rows once, instead of its streams
            # waiting out their quiet while.
            self._notify_all()
            asked = False
            while True:
                message = await pubsub.get_message(timeout=timeout if asked else QUIET_SECONDS)
                if message is None:
                    if asked:
                        raise TimeoutError("Redis did not answer a ping")
                    await pubsub.ping()  # quiet a while: does Redis still answer?
                    asked = True
                    continue
                asked = False
                if message.get("type") == "pmessage":
                    channel = message["channel"].decode()
                    self.notify(int(channel.rsplit(":", 1)[1]))
        finally:
            with contextlib.suppress(Exception):
                await pubsub.aclose()
                await client.aclose()

    async def _poll(self, rounds: int | None = None) -> None:
        known: dict[int, int] = {}
        done = 0
        while rounds is None or done < rounds:
            done += 1
            watched = list(self._feeds.keys() | self._waiters.keys())
            if watched:
                latest = await sync_to_async(_latest, thread_sensitive=False)(watched)
                for table_id, seq in latest.items():
                    if known.get(table_id) != seq:
                        if table_id in known:
                            self.notify(table_id)
                        known[table_id] = seq
            await asyncio.sleep(POLL_SECONDS)


watcher = Watcher()


# The streams ------------------------------------------------------------------------


async def _stream(table: Table, after: int, player_id: int | None) -> AsyncIterator[str]:
    yield hello_message()
    feed = watcher.join(table.pk)
    try:
        seq = after
        last_write = started = time.monotonic()
        last_seen = 0.0
        from_rows = True  # the first read, and after a quiet while, go to the rows
        while time.monotonic() - started < LIFETIME_SECONDS:
            wakes = watcher.wakes(table.pk)
            messages = None if from_rows else feed.after(seq)
            more = False
            if messages is None:
                rows = await sync_to_async(_rows, thread_sensitive=False)(table.pk, seq)
                messages = feed_learn(feed, rows)
                more = len(rows) >= EVENTS_PER_READ
            if messages:
                # Every event of a wake in one write: a deal's cards, result and payouts
                # are written in one commit and leave in one chunk, not nine.
                seq = messages[-1][0]
                yield "".join(text for _number, text in messages)
                last_write = time.monotonic()
            now = time.monotonic()
            if player_id is not None and now - last_seen > KEEPALIVE_SECONDS:
                await sync_to_async(_seen, thread_sensitive=False)(table.pk, player_id)
                last_seen = now
            if now - last_write > KEEPALIVE_SECONDS:
                yield ": keep-alive\n\n"
                last_write = now
            from_rows = more
            if not messages:
                from_rows = not await watcher.wait(table.pk, QUIET_SECONDS, since=wakes)
    finally:
        watcher.leave(table.pk)


def _polling_stream(table: Table, after: int, player_id: int | None) -> Iterator[str]:
    """The WSGI fallback: one thread per connection, polling the rows."""
    yield hello_message()
    seq = after
    last_write = last_seen = started = time.monotonic()
    while time.monotonic() - started < LIFETIME_SECONDS:
        rows = _rows(table.pk, seq)
        for event in rows:
            seq = event.seq
            yield event_message(event)
            last_write = time.monotonic()
        now = time.monotonic()
        if player_id is not None and now - last_seen > KEEPALIVE_SECONDS:
            _seen(table.pk, player_id)
            last_seen = now
        if now - last_write > KEEPALIVE_SECONDS:
            yield ": keep-alive\n\n"
            last_write = now
        if not rows:
            time.sleep(POLL_SECONDS)


@require_GET
async def table_events(request: HttpRequest, slug: str) -> HttpResponse | StreamingHttpResponse:
    """The live events of a full table, for anyone signed in (players and spectators)."""
    user = await request.auser()
    if not user.is_authenticated:
        return HttpResponse(status=403)
    table = await Table.objects.filter(slug=slug, kind=Table.Kind.FULL, is_active=True).afirst()
    if table is None:
        raise Http404
    after = _start(request)
    # The lookups above used this request's connection; give it back now rather than
    # when the stream ends minutes later.
    await sync_to_async(_give_back)()
    if isinstance(request, ASGIRequest):
        body: Any = _stream(table, after, user.pk)
    else:
        body = _polling_stream(table, after, user.pk)
    response = StreamingHttpResponse(body, content_type="text/event-stream")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
    return response
