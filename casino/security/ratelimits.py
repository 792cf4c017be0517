"""Rate limits beyond the login lockout, counted in the cache (django-ratelimit).

Axes locks one username at one IP address after five wrong passwords; these limits add
failed logins per IP across usernames (password spraying: past the limit the IP gets one
login a minute, and a browser where the player signed in before is let through, see
:mod:`casino.accounts.devices`), sign-ups and password-reset mails per IP, and deposits
and table actions per player. Each rate is a setting (``CASINO_RATE_*``, "N/period";
empty turns it off). A refused request gets HTTP 429 with a translated message: a page,
or for HTMX a fragment that the page shows in its ``#request-error`` box.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.functional import Promise
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _
from django_htmx.http import reselect, reswap, retarget
from django_ratelimit.core import get_usage

from casino.accounts import devices

logger = logging.getLogger("casino.security")


@dataclass(frozen=True)
class Limit:
    group: str
    setting: str  # the name of the setting that holds the rate
    key: str  # "ip" or "user"
    message: Promise


LOGIN_FAILURES = Limit(
    "casino.login_failures",
    "CASINO_RATE_LOGIN_FAILURES",
    "ip",
    _("Too many failed logins from your network. Please try again in a few minutes."),
)
LOGIN_THROTTLED = Limit(
    "casino.login_throttled",
    "CASINO_RATE_LOGIN_THROTTLED",
    "ip",
    _("Too many failed logins from your network. Please wait a minute and try again."),
)
SIGNUP = Limit(
    "casino.signup",
    "CASINO_RATE_SIGNUP",
    "ip",
    _("Too many sign-ups from your network. Please try again later."),
)
PASSWORD_RESET = Limit(
    "casino.password_reset",
    "CASINO_RATE_PASSWORD_RESET",
    "ip",
    _("Too many password reset requests from your network. Please try again later."),
)
DEPOSIT = Limit(
    "casino.deposit",
    "CASINO_RATE_DEPOSIT",
    "user",
    _("Too many deposits in a short time. Please wait a little and try again."),
)
TABLE = Limit(
    "casino.table",
    "CASINO_RATE_TABLE",
    "user",
    _("That was faster than the table allows. Please wait a moment and try again."),
)
TWO_FACTOR = Limit(
    "casino.two_factor",
    "CASINO_RATE_TWO_FACTOR",
    "user",
    _("Too many codes entered. Please wait a few minutes and try again."),
)

# POSTs to these views count against their limit (URL name -> limit).
COUNTED = {
    "accounts:signup": SIGNUP,
    "accounts:password_reset": PASSWORD_RESET,
    "accounts:two_factor_setup": TWO_FACTOR,
    "accounts:two_factor_verify": TWO_FACTOR,
    "wallet:deposit": DEPOSIT,
    **{
        f"baccarat:{action}": TABLE
        for action in (
            "table_bet",
            "table_layout",
            "table_clear",
            "table_rebet",
            "table_deal",
            "table_rebuy",
            "table_exit",
            "table_sit",
            "table_pass",
            "table_cut",
            "chat_send",
        )
    },
}
# Logins are refused once their IP has too many failures (counted by a signal).
LOGIN_VIEWS = {"accounts:login", "admin:login"}


def _usage(request: HttpRequest, limit: Limit, *, increment: bool) -> dict[str, Any] | None:
    rate = getattr(settings, limit.setting)
    if not rate:
        return None
    if limit.key == "user" and not request.user.is_authenticated:
        return None  # the view sends the anonymous visitor to log in
    return get_usage(  # type: ignore[no-any-return]
        request, group=limit.group, key=limit.key, rate=rate, increment=increment
    )


def login_failure_count(request: HttpRequest) -> None:
    """One more failed login from this request's IP address."""
    _usage(request, LOGIN_FAILURES, increment=True)


def login_refusal(request: HttpRequest) -> HttpResponse | None:
    """The answer to a login from an IP address past its failed logins, or None to let it
    try: one try per ``CASINO_RATE_LOGIN_THROTTLED``, and every try of a player on a
    browser they signed in from before. Spraying is held back to that pace; a player
    behind the same address waits a minute, or not at all on their own browser."""
    usage = _usage(request, LOGIN_FAILURES, increment=False)
    if usage is None or usage["count"] < usage["limit"]:
        return None
    if devices.device_known(request, username=request.POST.get("username", "")):
        return None
    slow = _usage(request, LOGIN_THROTTLED, increment=True)
    if slow is None:
        return refused(request, LOGIN_FAILURES, usage)
    if slow["should_limit"]:
        return refused(request, LOGIN_THROTTLED, slow)
    return None


class RateLimitMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_view(
        self, request: HttpRequest, view: Callable[..., Any], args: Any, kwargs: Any
    ) -> HttpResponse | None:
        if request.method != "POST" or request.resolver_match is None:
            return None
        name = request.resolver_match.view_name
        if name in LOGIN_VIEWS:
            return login_refusal(request)
        limit = COUNTED.get(name)
        if limit is None:
            return None
        usage = _usage(request, limit, increment=True)
        if usage is not None and usage["should_limit"]:
            return refused(request, limit, usage)
        return None


def refused(request: HttpRequest, limit: Limit, usage: dict[str, Any]) -> HttpResponse:
    """HTTP 429 with the limit's message; HTMX swaps it into the page's error box."""
    logger.warning("rate limited %s %s (%s)", request.method, request.path, limit.group)
    message = str(limit.message)
    if getattr(request, "htmx", False):
        response = HttpResponse(
            format_html(
                '<p class="message error request-error" id="request-error" role="alert">{}</p>',
                message,
            ),
            status=429,
        )
        retarget(response, "#request-error")
        reswap(response, "outerHTML")
        reselect(response, "#request-error")
    else:
        response = render(request, "accounts/rate_limited.html", {"message": message}, status=429)
    # The window's last second still counts in it: the next one starts a second later.
    response["Retry-After"] = str(max(1, int(usage.get("time_left") or 0) + 1))
    return response
