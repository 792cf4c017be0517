"""Log every refused request: 403, 404 and redirects to the login page."""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import resolve_url

logger = logging.getLogger("casino.security")


class DenialLogMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.login_url = ""

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        status = response.status_code
        if status in (401, 403, 404, 405):
            self._log(request, status)
        elif status == 302:
            if not self.login_url:
                self.login_url = resolve_url(settings.LOGIN_URL)
            location = response.headers.get("Location", "")
            if location.startswith(self.login_url) and request.path != self.login_url:
                self._log(request, status)
        return response

    @staticmethod
    def _log(request: HttpRequest, status: int) -> None:
        user = getattr(request, "user", None)
        who = user.get_username() if user is not None and user.is_authenticated else "anonymous"
        logger.warning("denied %s %s %s for %s", status, request.method, request.path, who)
