"""The ASGI handler (casino/asgi.py): the middleware chain and a sync view run in one
thread per request, taken from idle ones rather than made anew; an async view still
answers (a full table's live events are one)."""

from __future__ import annotations

import asyncio
import logging
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from django.db import transaction
from django.http import HttpRequest, JsonResponse, StreamingHttpResponse
from django.urls import include, path

from casino.asgi import ASGIHandler
from casino.slots import RequestSlots, outside_slot

seen: list[int] = []


def sync_view(request: HttpRequest) -> JsonResponse:
    seen.append(threading.get_ident())
    return JsonResponse({"thread": threading.get_ident()})


async def async_view(request: HttpRequest) -> StreamingHttpResponse:
    async def body() -> Any:
        for part in ("one ", "two"):
            yield part

    return StreamingHttpResponse(body(), content_type="text/plain")


# The project's own URLs too: its middleware names some of them.
urlpatterns = [
    path("sync/", sync_view),
    path("async/", async_view),
    path("", include("casino.urls")),
]


async def call(app: ASGIHandler, url: str) -> tuple[int, bytes]:
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": url,
        "raw_path": url.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"testserver")],
        "client": ("127.0.0.1", 5000),
        "server": ("testserver", 80),
    }
    asked = False

    async def receive() -> dict[str, Any]:
        nonlocal asked
        if not asked:
            asked = True
            return {"type": "http.request", "body": b"", "more_body": False}
        await asyncio.sleep(3600)
        return {"type": "http.disconnect"}

    messages: list[dict[str, Any]] = []

    async def send(message: dict[str, Any]) -> None:
        messages.append(message)

    await app(scope, receive, send)
    body = b"".join(m.get("body", b"") for m in messages if m["type"] == "http.response.body")
    return messages[0]["status"], body


def run_loop(coroutine: Any) -> Any:
    """``asyncio.run`` in a thread of its own: a browser test earlier in the session may
    have left Playwright's event loop running in this one."""
    with ThreadPoolExecutor(max_workers=1) as runner:
        return runner.submit(asyncio.run, coroutine).result()


@pytest.fixture
def app(settings: Any) -> ASGIHandler:
    settings.ROOT_URLCONF = __name__
    settings.ALLOWED_HOSTS = ["testserver"]
    seen.clear()
    return ASGIHandler()


def test_requests_one_after_another_reuse_one_thread(app: ASGIHandler) -> None:
    async def go() -> int:
        before = threading.active_count()
        for _ in range(5):
            assert (await call(app, "/sync/"))[0] == 200
        return threading.active_count() - before

    new_threads = run_loop(go())
    assert len(set(seen)) == 1 and seen[0] != threading.get_ident()
    assert new_threads <= 1  # the one request thread, kept for the next request


def test_requests_at_once_each_get_a_thread_of_their_own(app: ASGIHandler) -> None:
    async def go() -> None:
        statuses = await asyncio.gather(*(call(app, "/sync/") for _ in range(4)))
        assert [status for status, _body in statuses] == [200] * 4

    run_loop(go())
    assert len(seen) == 4


def test_an_async_view_streams(app: ASGIHandler) -> None:
    assert run_loop(call(app, "/async/")) == (200, b"one two")


def test_only_http_is_served(app: ASGIHandler) -> None:
    with pytest.raises(ValueError, match="lifespan"):
        run_loop(app({"type": "lifespan"}, None, None))


def test_idle_threads_beyond_the_limit_end(app: ASGIHandler, monkeypatch: Any) -> None:
    monkeypatch.setattr(ASGIHandler, "KEEP_IDLE", 2)

    async def go() -> None:
        await asyncio.gather(*(call(app, "/sync/") for _ in range(5)))

    run_loop(go())
    assert len(seen) == 5 and len(app._idle) == 2


def test_a_request_hops_to_its_thread_once(app: ASGIHandler, monkeypatch: Any) -> None:
    """The start signal, the view and the close (``request_finished``, which gives the
    database connection back) run in the request's thread in one hop, not three."""
    from django.core import signals

    hops: list[str] = []
    submit = ThreadPoolExecutor.submit

    def counted(self: ThreadPoolExecutor, fn: Any, /, *args: Any, **kwargs: Any) -> Any:
        if self._thread_name_prefix == "request":
            hops.append(getattr(fn, "__name__", repr(fn)))
        return submit(self, fn, *args, **kwargs)

    monkeypatch.setattr(ThreadPoolExecutor, "submit", counted)
    threads: dict[str, int] = {}

    def started(**kwargs: Any) -> None:
        threads["started"] = threading.get_ident()

    def finished(**kwargs: Any) -> None:
        threads.setdefault("finished", threading.get_ident())

    signals.request_started.connect(started)
    signals.request_finished.connect(finished)
    try:
        assert run_loop(call(app, "/sync/"))[0] == 200
    finally:
        signals.request_started.disconnect(started)
        signals.request_finished.disconnect(finished)
    assert len(hops) == 1
    assert threads == {"started": seen[0], "finished": seen[0]}
    assert run_loop(call(app, "/async/")) == (200, b"one two")  # a stream: closed after


# Request slots (casino/slots.py) ------------------------------------------------

running = {"now": 0, "most": 0}
release = threading.Event()
hashing = threading.Event()
lock = threading.Lock()


def blocking_view(request: HttpRequest) -> JsonResponse:
    """Runs until the test lets it go, counting the requests in their views at once."""
    with lock:
        running["now"] += 1
        running["most"] = max(running["most"], running["now"])
    try:
        release.wait(20)
    finally:
        with lock:
            running["now"] -= 1
    return JsonResponse({})


def hashing_view(request: HttpRequest) -> JsonResponse:
    """A password hash's wait: outside the request's slot until the test lets it go."""
    with outside_slot():
        hashing.set()
        release.wait(20)
    return JsonResponse({})


urlpatterns += [path("blocking/", blocking_view), path("hashing/", hashing_view)]


async def running_reaches(count: int) -> None:
    """Until ``count`` requests are in their views: threads start late on a busy machine."""
    async with asyncio.timeout(10):
        while running["now"] < count:
            await asyncio.sleep(0.01)


@pytest.fixture
def slots_app(settings: Any) -> Any:
    settings.ROOT_URLCONF = __name__
    settings.ALLOWED_HOSTS = ["testserver"]
    running.update(now=0, most=0)
    release.clear()
    hashing.clear()

    def make(size: int) -> ASGIHandler:
        settings.CASINO_REQUEST_SLOTS = size
        return ASGIHandler()

    yield make
    release.set()


def test_requests_beyond_the_slots_wait_their_turn(slots_app: Any) -> None:
    app = slots_app(2)

    async def go() -> list[int]:
        calls = [asyncio.ensure_future(call(app, "/blocking/")) for _ in range(4)]
        await running_reaches(2)
        await asyncio.sleep(0.3)  # all four arrived: two run, two wait
        assert running["now"] == 2
        release.set()
        return [status for status, _body in await asyncio.gather(*calls)]

    assert run_loop(go()) == [200] * 4
    assert running["most"] == 2


def test_without_a_limit_every_request_runs_at_once(slots_app: Any) -> None:
    app = slots_app(0)

    async def go() -> None:
        calls = [asyncio.ensure_future(call(app, "/blocking/")) for _ in range(4)]
        await running_reaches(4)  # no request waits for another to finish
        release.set()
        await asyncio.gather(*calls)

    run_loop(go())
    assert running["most"] == 4


def test_the_access_line_says_how_long_a_request_waited_for_its_slot(
    slots_app: Any, settings: Any, caplog: Any
) -> None:
    settings.CASINO_ACCESS_LOG = True
    app = slots_app(1)
    asked = threading.Semaphore(0)

    class Watched(threading.BoundedSemaphore):
        def acquire(self, *args: Any, **kwargs: Any) -> bool:
            asked.release()  # a request asks for the slot
            return super().acquire(*args, **kwargs)

    app.slots._semaphore = Watched(1)

    async def go() -> None:
        first = asyncio.ensure_future(call(app, "/blocking/"))
        await running_reaches(1)
        second = asyncio.ensure_future(call(app, "/sync/"))
        for _ in range(2):  # the first request's ask, then the second's: it waits
            assert await asyncio.to_thread(asked.acquire, True, 10)
        await asyncio.sleep(0.2)
        release.set()
        await asyncio.gather(first, second)

    with caplog.at_level(logging.INFO, logger="casino.access"):
        run_loop(go())
    lines = {r.path: r for r in caplog.records if r.name == "casino.access"}
    assert lines["/sync/"].slot_wait_ms >= 150
    assert "ms waiting for a slot)" in lines["/sync/"].getMessage()
    assert lines["/blocking/"].slot_wait_ms < 1
    assert lines["/blocking/"].getMessage().endswith("ms")  # no wait to tell


def test_a_password_hash_gives_its_slot_to_the_next_request(slots_app: Any) -> None:
    """One slot: a login hashing (or waiting for a password slot) does not hold back the
    pages behind it; it takes its slot back after."""
    app = slots_app(1)

    async def go() -> tuple[int, int]:
        login = asyncio.ensure_future(call(app, "/hashing/"))
        await asyncio.to_thread(hashing.wait, 5)
        page = await asyncio.wait_for(call(app, "/sync/"), 5)  # served meanwhile
        assert not login.done()
        release.set()
        return page[0], (await login)[0]

    assert run_loop(go()) == (200, 200)
    semaphore = app.slots._semaphore
    assert semaphore is not None and semaphore.acquire(blocking=False)  # given back
    semaphore.release()


@pytest.mark.django_db(transaction=True)
def test_a_wait_inside_a_transaction_keeps_its_slot() -> None:
    """Another request may wait for the transaction's locks in the slot it would need
    back: the slot stays."""
    slots = RequestSlots(1)
    semaphore = slots._semaphore
    assert semaphore is not None
    with slots.slot():
        with transaction.atomic(), outside_slot():
            assert not semaphore.acquire(blocking=False)
        with outside_slot():
            assert semaphore.acquire(blocking=False)  # given to the next request
            semaphore.release()
        assert not semaphore.acquire(blocking=False)  # taken back
    assert semaphore.acquire(blocking=False)
    semaphore.release()
