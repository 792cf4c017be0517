"""The ASGI application: uvicorn serves it (``runall``, README "Production").

Django builds its middleware chain for ASGI in async mode. With a sync-only middleware
between async-capable ones (django-axes and django-htmx are async-capable, ours are not),
each request hops from its thread back to the event loop and out again, and every sync
``process_view`` and the view itself takes one more hop. :class:`ASGIHandler` builds the
chain in sync mode and runs all of it, views included, in one hop to the request's
thread, as Django itself does when every middleware is sync-only. An async view (a full
table's live events) is called through ``async_to_sync`` from that thread and returns its
streaming response at once; the server streams it from the event loop.

Django's handler also hops to that thread twice more: to send ``request_started`` (its
receivers are sync) and, after the response went out, to close it (``request_finished``,
which gives the database connection back). :meth:`ASGIHandler.handle` does both in the
request's one hop: the signal before the chain; the close after it, for a response whose
body is already in memory (a streaming one is closed after it was sent).

Django also gives each request a thread of its own (``ThreadSensitiveContext``): made for
the request, then joined. The handler keeps those one-thread executors and hands an idle
one to the next request instead (asgiref's ``ThreadSensitiveContext(executor=...)``):
each request still has one thread to itself for all its sync code (its database
connection is per thread), as under a threaded WSGI server.

What it buys (about a tenth of a round's web CPU), the internals it copies and the tests
that watch them: docs/architecture.md, "What replaces the framework".
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import django
from asgiref.sync import ThreadSensitiveContext, sync_to_async
from django.conf import settings
from django.core import signals
from django.core.exceptions import RequestAborted
from django.core.handlers.asgi import ASGIHandler as DjangoASGIHandler
from django.core.handlers.asgi import get_script_prefix
from django.http import FileResponse, HttpRequest, HttpResponseBase
from django.urls import set_script_prefix, set_urlconf
from django.utils.log import log_response

from casino.slots import RequestSlots

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")


class ASGIHandler(DjangoASGIHandler):
    # Idle request threads kept for the next requests; beyond that (after a burst, or
    # once many live streams have ended) a thread ends when its request does.
    KEEP_IDLE = 64

    def __init__(self) -> None:
        super().__init__()
        # Touched only from the event loop's thread: no lock.
        self._idle: list[ThreadPoolExecutor] = []
        self.slots = RequestSlots(settings.CASINO_REQUEST_SLOTS)

    def load_middleware(self, is_async: bool = False) -> None:
        super().load_middleware(is_async=False)
        self._respond = sync_to_async(self._respond_in_thread, thread_sensitive=True)

    def _respond_in_thread(self, scope: Any, request: HttpRequest) -> HttpResponseBase:
        """Everything of a request that runs in its thread, in one hop: the start signal,
        the middleware chain with the view, the log of an error, and the close of a
        response whose body is in memory; all of it in one of the process's request
        slots (casino/slots.py)."""
        with self.slots.slot() as waited:
            request.slot_wait = waited  # type: ignore[attr-defined]  (the access line's)
            return self._respond_in_slot(scope, request)

    def _respond_in_slot(self, scope: Any, request: HttpRequest) -> HttpResponseBase:
        signals.request_started.send(sender=self.__class__, scope=scope)
        set_urlconf(settings.ROOT_URLCONF)
        response: Any = self._middleware_chain(request)
        response._resource_closers.append(request.close)
        response._handler_class = self.__class__
        if response.status_code >= 400:
            log_response(
                "%s: %s", response.reason_phrase, request.path, response=response, request=request
            )
        if isinstance(response, FileResponse):
            response.block_size = self.chunk_size  # the server chunks it
        if not response.streaming:
            response.close()
        return response

    async def handle(self, scope: Any, receive: Any, send: Any) -> None:
        """Django's request cycle, with the thread's work done in one hop
        (:meth:`_respond_in_thread`). As in Django, a client that disconnects while its
        response is made or streamed cancels the task that makes or streams it."""
        try:
            body_file = await self.read_body(receive)
        except RequestAborted:
            return
        set_script_prefix(get_script_prefix(scope))
        request, error_response = self.create_request(scope, body_file)
        if request is None:  # the request itself was refused (too large, bad host)
            body_file.close()
            await self.send_response(error_response, send)
            await sync_to_async(error_response.close)()
            return

        async def respond() -> HttpResponseBase:
            response = await self._respond(scope, request)
            with contextlib.suppress(asyncio.CancelledError):  # the client left meanwhile
                await self.send_response(response, send)
            return response

        listening = asyncio.create_task(self.listen_for_disconnect(receive))
        responding = asyncio.create_task(respond())
        await asyncio.wait([listening, responding], return_when=asyncio.FIRST_COMPLETED)
        for task in (listening, responding):
            if not task.done():
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
                continue
            try:
                task.result()
            except RequestAborted:
                pass  # a disconnect
            except AssertionError:
                body_file.close()
                raise
        try:
            response = responding.result()
        except asyncio.CancelledError:
            await signals.request_finished.asend(sender=self.__class__)
        else:
            if response.streaming:
                await sync_to_async(response.close)()
        body_file.close()

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            raise ValueError(f"Django can only handle ASGI/HTTP connections, not {scope['type']}.")
        executor = (
            self._idle.pop()
            if self._idle
            else ThreadPoolExecutor(max_workers=1, thread_name_prefix="request")
        )
        try:
            async with ThreadSensitiveContext(executor=executor):
                await self.handle(scope, receive, send)
        finally:
            # A sync call a disconnect left running keeps the thread: the next request
            # given this executor waits for it, as it would for its own.
            if len(self._idle) < self.KEEP_IDLE:
                self._idle.append(executor)
            else:
                executor.shutdown(wait=False)


django.setup(set_prefix=False)
application = ASGIHandler()

from casino.startup import require_collected_static  # noqa: E402  (needs the settings)

require_collected_static()
