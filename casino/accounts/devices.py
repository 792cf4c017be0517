"""Browsers a player has signed in from: a signed cookie, set at each login, that names
the player (by a digest of the name, not the name).

The limit on failed logins per address (password spraying) holds back everyone behind
that address; a player who signs in on a browser that carries this cookie for their
name is not held back by it (axes still counts their own failures, per name and address).
"""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.http import HttpRequest, HttpResponse

DEVICE_COOKIE = "casino_device"
DEVICE_SALT = "casino.accounts.login-device"


def _digest(username: str) -> str:
    return hashlib.sha256(username.casefold().encode()).hexdigest()[:32]


def device_remember(response: HttpResponse, *, username: str) -> None:
    """Mark the browser that gets ``response`` as one ``username`` signed in from."""
    response.set_signed_cookie(
        DEVICE_COOKIE,
        _digest(username),
        salt=DEVICE_SALT,
        max_age=settings.CASINO_LOGIN_DEVICE_DAYS * 24 * 60 * 60,
        secure=settings.SESSION_COOKIE_SECURE,
        httponly=True,
        samesite="Lax",
    )


def device_known(request: HttpRequest, *, username: str) -> bool:
    """True when ``username`` signed in from this browser within the cookie's lifetime."""
    if not username:
        return False
    known = request.get_signed_cookie(
        DEVICE_COOKIE,
        default=None,
        salt=DEVICE_SALT,
        max_age=settings.CASINO_LOGIN_DEVICE_DAYS * 24 * 60 * 60,
    )
    return known == _digest(username)
