"""Error views of our own: the CSRF failure and the server error (a busy or lost
database is a 503), in the site's style and language."""

from __future__ import annotations

import sqlite3
import sys

import psycopg
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


# PostgreSQL's codes for a connection that broke or could not be made: the class
# "connection exception", the server shutting down or starting, no connection slot left.
LOST_SQLSTATES = {"57P01", "57P02", "57P03", "53300"}


def database_lost(error: BaseException | None) -> bool:
    """Whether ``error`` (or what it was raised from) says the connection to PostgreSQL
    broke or could not be made (the server ended it, restarted, or does not answer):
    something a moment later may not meet, unlike an error in a query."""
    seen: set[int] = set()
    while error is not None and id(error) not in seen:
        seen.add(id(error))
        if isinstance(error, psycopg.OperationalError):
            state = error.sqlstate
            if state is None or state.startswith("08") or state in LOST_SQLSTATES:
                return True
        error = error.__cause__ or error.__context__
    return False


def unavailable_response(*, lost: bool) -> HttpResponse:
    """The 503 page with ``Retry-After``: the database is busy, or its connection was lost.
    Rendered without a request (no context processor may touch the database)."""
    html = loader.render_to_string("503.html", {"database_lost": lost})
    response = HttpResponse(html, status=503)
    response["Retry-After"] = str(BUSY_RETRY_AFTER_SECONDS)
    response.database_lost = lost  # type: ignore[attr-defined]  # DatabaseRetryMiddleware
    return response


def server_error(request: HttpRequest) -> HttpResponse:
    """The 500 page; a busy database, or a lost connection to it, is a 503 with
    ``Retry-After`` instead, so a balancer and the page try again in a moment rather than
    reporting a bug.

    Called while Django handles the exception, so ``sys.exc_info()`` is the error."""
    error = sys.exc_info()[1]
    if database_busy(error):  # before lost: the pool's timeout is an OperationalError too
        return unavailable_response(lost=False)
    if database_lost(error):
        return unavailable_response(lost=True)
    return defaults.server_error(request)
