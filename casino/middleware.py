"""Request-wide behaviour: the player's language, HTMX requests of a lapsed session, and
admin filters no database can take."""

from __future__ import annotations

import re
from collections.abc import Callable
from urllib.parse import urlencode, urlsplit

from django.conf import settings
from django.contrib.admin.views.main import ERROR_FLAG
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import resolve_url
from django.urls import reverse
from django.utils import translation
from django_htmx.http import HttpResponseClientRedirect


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
