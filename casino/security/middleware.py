"""Request-wide security: refusals logged, the Permissions-Policy header, sessions that
end, and the second factor staff give before /admin/ and /support/."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import resolve_url
from django.urls import reverse
from django.utils.translation import gettext as _
from django_htmx.http import HttpResponseClientRedirect

from casino.accounts import two_factor

logger = logging.getLogger("casino.security")


class DenialLogMiddleware:
    """Log every refused request: 403, 404 and redirects to the login page."""

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


class PermissionsPolicyMiddleware:
    """``Permissions-Policy`` from ``CASINO_PERMISSIONS_POLICY``: feature -> allowed origins
    (an empty list: nobody, not even this site)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.header = ", ".join(
            f"{feature}=({' '.join(origins)})"
            for feature, origins in settings.CASINO_PERMISSIONS_POLICY.items()
        )

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if self.header:
            response.headers.setdefault("Permissions-Policy", self.header)
        return response


SESSION_STARTED = "casino_session_started"
SESSION_SEEN = "casino_session_seen"
SEEN_STEP_SECONDS = 60  # last activity is written at most once a minute, not per request


def session_stamp(request: HttpRequest) -> None:
    """A new login: the session's lifetime and idle time start now."""
    now = int(time.time())
    request.session[SESSION_STARTED] = now
    request.session[SESSION_SEEN] = now


def session_limits(user: Any) -> tuple[int, int]:
    """Idle time and lifetime of a session of ``user``, in seconds."""
    if two_factor.is_staff_member(user):
        return (
            settings.CASINO_STAFF_SESSION_IDLE_MINUTES * 60,
            settings.CASINO_STAFF_SESSION_LIFETIME_HOURS * 3600,
        )
    return settings.CASINO_SESSION_IDLE_MINUTES * 60, settings.CASINO_SESSION_LIFETIME_HOURS * 3600


class SessionExpiryMiddleware:
    """Ends a signed-in session that was idle too long or has lived too long.

    The player is logged out and sent to the login page with a message (an HTMX request
    as a whole page, by ``HtmxLoginRedirectMiddleware``). A live event stream does not
    count as activity: an open table page alone keeps nobody signed in.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            ended = self._check(request, user)
            if ended is not None:
                return ended
        return self.get_response(request)

    def _check(self, request: HttpRequest, user: Any) -> HttpResponse | None:
        now = int(time.time())
        session = request.session
        started, seen = session.get(SESSION_STARTED), session.get(SESSION_SEEN)
        if not isinstance(started, int) or not isinstance(seen, int):
            session_stamp(request)  # a session from before these limits: from now on
            return None
        idle, lifetime = session_limits(user)
        if now - started > lifetime:
            return self._end(request, _("Your session has expired. Please log in again."))
        if now - seen > idle:
            return self._end(
                request,
                _("You were logged out after a period of inactivity. Please log in again."),
            )
        streaming = request.headers.get("Accept", "") == "text/event-stream"
        if not streaming and now - seen >= SEEN_STEP_SECONDS:
            session[SESSION_SEEN] = now
        return None

    @staticmethod
    def _end(request: HttpRequest, message: str) -> HttpResponse:
        logger.info("session ended for %s: %s", request.user, message)
        logout(request)
        messages.info(request, message)
        if request.method == "GET" and not getattr(request, "htmx", False):
            return redirect_to_login(request.get_full_path())
        return HttpResponseRedirect(resolve_url(settings.LOGIN_URL))


class StaffTwoFactorMiddleware:
    """/admin/ and /support/ (``CASINO_STAFF_OTP_PATHS``) only for a session whose staff
    member gave the second factor; otherwise to enrolment or to the code, and back."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if settings.CASINO_STAFF_OTP_REQUIRED and request.path.startswith(
            tuple(settings.CASINO_STAFF_OTP_PATHS)
        ):
            user = request.user
            if (
                user.is_authenticated
                and not two_factor.is_verified(user)
                and request.path != reverse("admin:logout")
                and two_factor.needs_second_factor(user)
            ):
                return self._second_factor(request, user)
        return self.get_response(request)

    @staticmethod
    def _second_factor(request: HttpRequest, user: Any) -> HttpResponse:
        logger.warning("second factor required: %s %s for %s", request.method, request.path, user)
        next_url = request.get_full_path() if request.method == "GET" else request.path
        target = two_factor.second_factor_url(user, next_url)
        if getattr(request, "htmx", False):
            return HttpResponseClientRedirect(target)
        return HttpResponseRedirect(target)
