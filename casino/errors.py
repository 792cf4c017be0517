"""Error views of our own: the CSRF failure and the server error (a busy database is a
503), in the site's style and language."""

from __future__ import annotations

import sqlite3
import sys

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template import loader
from django.views import defaults
from psycopg_pool import PoolTimeout


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """A form sent with a missing or stale CSRF token (a page open too long, a new
    session): the 403 page says the page expired and should be reloaded. ``reason`` is
    for developers and stays out of the page."""
    return render(request, "403.html", {"csrf_expired": True}, status=403)


# How long a browser or a load balancer is asked to wait before it tries again.
BUSY_RETRY_AFTER_SECONDS = 5


class Busy(Exception):
    """The server has no room for this request now (every password slot of the process
    stayed taken past its wait, ``casino.accounts.hashers``): a 503, like a busy database."""


def database_busy(error: BaseException | None) -> bool:
    """Whether ``error`` (or what it was raised from) says the server is busy rather
    than broken: every pooled connection stayed taken past the pool's wait, SQLite's
    write lock past its timeout, or a ``Busy`` of our own."""
    seen: set[int] = set()
    while error is not None and id(error) not in seen:
        seen.add(id(error))
        if isinstance(error, PoolTimeout | Busy):
            return True
        if isinstance(error, sqlite3.OperationalError) and "database is locked" in str(error):
            return True
        error = error.__cause__ or error.__context__
    return False


def server_error(request: HttpRequest) -> HttpResponse:
    """The 500 page; a busy database is a 503 with ``Retry-After`` instead, so a balancer
    and the page try again in a moment rather than reporting a bug.

    Called while Django handles the exception, so ``sys.exc_info()`` is the error.
    Rendered without a request (no context processor may touch the busy database)."""
    if database_busy(sys.exc_info()[1]):
        response = HttpResponse(loader.render_to_string("503.html"), status=503)
        response["Retry-After"] = str(BUSY_RETRY_AFTER_SECONDS)
        return response
    return defaults.server_error(request)
