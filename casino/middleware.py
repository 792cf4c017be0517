"""Request-wide behaviour: request ids and access lines, a read retried once when its
database connection was lost, compression, the player's language, HTMX requests of a
lapsed session, and admin filters no database can take."""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Callable
from typing import Any
from urllib.parse import urlencode, urlsplit

from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from django.conf import settings
from django.contrib.admin.views.main import ERROR_FLAG
from django.core.signals import request_finished
from django.db import connections
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.middleware.gzip import GZipMiddleware
from django.shortcuts import resolve_url
from django.urls import reverse
from django.utils import translation
from django_htmx.http import HttpResponseClientRedirect

from casino.runtime import logs


class UserLanguageMiddleware:
    """Runs after authentication: the player's saved language wins.

    ``LocaleMiddleware`` has already picked a language from the cookie or the
    browser; for a signed-in player we override it with the preference.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = getattr(request, "user", None)
        language = getattr(user, "language", "") if user is not None else ""
        if user is not None and user.is_authenticated and language:
            translation.activate(language)
            request.LANGUAGE_CODE = language
        response = self.get_response(request)
        if request.LANGUAGE_CODE:
            response.headers.setdefault("Content-Language", request.LANGUAGE_CODE)
        return response


class HtmxLoginRedirectMiddleware:
    """An HTMX request whose session ran out is sent to the login page as a whole page.

    ``login_required`` answers with a redirect; HTMX would follow it and swap the login
    form into the part of the page it meant to update. ``HX-Redirect`` makes the browser
    load the login page instead, coming back to the page the player was on.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if not getattr(request, "htmx", False) or response.status_code not in (301, 302):
            return response
        location = response.headers.get("Location", "")
        login = resolve_url(settings.LOGIN_URL)
        if not location.startswith(login):
            return response
        page = request.headers.get("HX-Current-URL", "")
        target = f"{login}?{urlencode({'next': urlsplit(page).path or '/'})}"
        return HttpResponseClientRedirect(target)


LARGEST_ID = 2**63 - 1  # the largest key a BIGINT (or SQLite INTEGER) column holds
NUMBER = re.compile(r"[-+]?\d+")


def too_big(value: str) -> bool:
    """A number (or a comma list with one) no integer column can hold."""
    return any(
        NUMBER.fullmatch(part.strip()) is not None and abs(int(part)) > LARGEST_ID
        for part in value.split(",")
    )


class AdminFilterGuardMiddleware:
    """The admin hands its list filters from the query string to the database as they
    come: ``?round=10**30`` is an error there (SQLite cannot even send it) and a 500 for
    staff. No row has such a key, so the filter is answered as the admin answers any
    filter it cannot use: the list again with "?e=1". The search box (``q``) is text."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.prefix = ""

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not self.prefix:
            self.prefix = reverse("admin:index")
        if request.path.startswith(self.prefix) and any(
            too_big(value) for key, values in request.GET.lists() if key != "q" for value in values
        ):
            return HttpResponseRedirect(f"{request.path}?{ERROR_FLAG}=1")
        return self.get_response(request)


access_log = logging.getLogger("casino.access")
logger = logging.getLogger(__name__)


class RequestIdMiddleware:
    """Every request gets an id (the client's or proxy's ``X-Request-ID`` when it is
    sane, else a new one): in the context of every log line written for it, in the
    response's ``X-Request-ID``, and in one access line (``casino.access``) when its
    response starts.

    Outermost and asynchronous under ASGI, so that the id is set in the request's own
    task: the views' threads, Django's own line for an error response (written after the
    middleware returned) and a live stream log under it too. Synchronously (tests, WSGI)
    the thread is reused: the id is dropped when the request has finished.
    """

    sync_capable = True
    async_capable = True

    def __init__(self, get_response: Callable[[HttpRequest], Any]) -> None:
        self.get_response = get_response
        self.is_async = iscoroutinefunction(get_response)
        if self.is_async:
            markcoroutinefunction(self)

    def __call__(self, request: HttpRequest) -> Any:
        if self.is_async:
            return self._acall(request)
        started = time.perf_counter()
        logs.request_id.set(logs.request_id_for(request.headers.get("X-Request-ID")))
        response = self.get_response(request)
        return self._answered(request, response, started)

    async def _acall(self, request: HttpRequest) -> HttpResponse:
        started = time.perf_counter()
        # The request's own task ends with it: nothing to reset, and a stream that goes on
        # after this returns still logs under the id.
        logs.request_id.set(logs.request_id_for(request.headers.get("X-Request-ID")))
        response = await self.get_response(request)
        return self._answered(request, response, started)

    def _answered(self, request: HttpRequest, response: HttpResponse, started: float) -> Any:
        response.headers["X-Request-ID"] = logs.request_id.get()
        if settings.CASINO_ACCESS_LOG:
            duration = (time.perf_counter() - started) * 1000
            # The wait for a request slot (casino/slots.py), before this middleware ran.
            waited = getattr(request, "slot_wait", 0.0) * 1000
            line = "%s %s %s %.1fms"
            values: list[Any] = [request.method, request.path, response.status_code, duration]
            if waited >= 1:
                line += " (%.1fms waiting for a slot)"
                values.append(waited)
            access_log.info(
                line,
                *values,
                extra={
                    "method": request.method,
                    "path": request.path,
                    "status": response.status_code,
                    "duration_ms": round(duration, 1),
                    "slot_wait_ms": round(waited, 1),
                },
            )
        return response


class DatabaseRetryMiddleware:
    """A read (GET or HEAD) whose database connection broke under it (PostgreSQL ended or
    lost it: ``casino.errors.database_lost``) is served once more, on a new connection,
    before its 503 goes out. A write is not: its 503 tells the page to try again, and the
    idempotency of every money path makes that safe.

    Around the whole chain but the request id, so the retry goes through every middleware
    again (the session and the player are read anew too)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if request.method not in ("GET", "HEAD") or not getattr(response, "database_lost", False):
            return response
        for connection in connections.all(initialized_only=True):
            if connection.in_atomic_block:
                return response  # a transaction around the request: nothing to retry on
            # The broken connection is closed (back to the pool, which drops it); the
            # retry opens or takes a checked one.
            connection.close_if_unusable_or_obsolete()
        logger.warning(
            "%s %s: database connection lost, retried once", request.method, request.path
        )
        return self.get_response(request)


def _no_request(**kwargs: Any) -> None:
    logs.request_id.set(logs.NO_REQUEST)


request_finished.connect(_no_request, dispatch_uid="casino.middleware.no_request")


class CompressionMiddleware(GZipMiddleware):
    """Django's ``GZipMiddleware`` (its level and its padding against BREACH), for pages
    and partials, never for a live event stream: each event must leave at once, and a
    compressor holds bytes back (and buys nothing on tiny messages).

    The second factor's pages (a TOTP key, recovery codes) are sent uncompressed all the
    same: they are few and small.
    """

    def __init__(self, get_response: Callable[[HttpRequest], Any]) -> None:
        super().__init__(get_response)
        self.uncompressed: tuple[str, ...] = ()

    def process_response(self, request: HttpRequest, response: HttpResponse) -> HttpResponse:
        if response.get("Content-Type", "").startswith("text/event-stream"):
            return response
        if not self.uncompressed:
            self.uncompressed = (
                reverse("accounts:two_factor_setup"),
                reverse("accounts:two_factor_verify"),
            )
        if request.path.startswith(self.uncompressed):
            return response
        return super().process_response(request, response)
