"""Apply a signed-in player's language preference over cookie and browser."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils import translation


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
