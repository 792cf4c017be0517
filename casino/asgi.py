"""The ASGI application: uvicorn serves it (``runall``, README "Production").

Django builds its middleware chain for ASGI in async mode. With a sync-only middleware
between async-capable ones (django-axes and django-htmx are async-capable, ours are not),
each request hopped from its thread back to the event loop and out again, and every sync
``process_view`` and the view itself took one more hop: about 4.6 ms of CPU per request
on the benchmark machine, more than a whole page of the ORM. :class:`ASGIHandler` builds
the chain in sync mode and runs all of it, views included, in one hop to the request's
thread, as Django itself does when every middleware is sync-only. An async view (a full
table's live events) is called through ``async_to_sync`` from that thread and returns its
streaming response at once; the server streams it from the event loop as before.

Django also gives each request a thread of its own (``ThreadSensitiveContext``): made for
the request, then joined by one more thread made for that, about 0.8 ms of CPU and 2 ms
of latency per request. The handler keeps those one-thread executors and hands an idle one
to the next request instead (asgiref's ``ThreadSensitiveContext(executor=...)``): each
request still has one thread to itself for all its sync code (its database connection is
per thread), as under a threaded WSGI server.
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import django
from asgiref.sync import ThreadSensitiveContext, sync_to_async
from django.core.handlers.asgi import ASGIHandler as DjangoASGIHandler

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")


class ASGIHandler(DjangoASGIHandler):
    # Idle request threads kept for the next requests; beyond that (after a burst, or
    # once many live streams have ended) a thread ends when its request does.
    KEEP_IDLE = 64

    def __init__(self) -> None:
        super().__init__()
        # Touched only from the event loop's thread: no lock.
        self._idle: list[ThreadPoolExecutor] = []

    def load_middleware(self, is_async: bool = False) -> None:
        super().load_middleware(is_async=False)
        chain: Any = self._middleware_chain
        self._middleware_chain = sync_to_async(chain, thread_sensitive=True)

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
