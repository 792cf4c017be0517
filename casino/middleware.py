"""Request-wide behaviour: the player's language, and HTMX requests of a lapsed session."""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import urlencode, urlsplit

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import resolve_url
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
