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
"""

from __future__ import annotations

import os
from typing import Any

import django
from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIHandler as DjangoASGIHandler

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")


class ASGIHandler(DjangoASGIHandler):
    def load_middleware(self, is_async: bool = False) -> None:
        super().load_middleware(is_async=False)
        chain: Any = self._middleware_chain
        self._middleware_chain = sync_to_async(chain, thread_sensitive=True)


django.setup(set_prefix=False)
application = ASGIHandler()

from casino.startup import require_collected_static  # noqa: E402  (needs the settings)

require_collected_static()
