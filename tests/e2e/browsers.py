"""A new player signed into a browser of their own: the session cookie comes from Django's
test client (no password is hashed), the context from Playwright with the options a test
asks for (viewport, phone, locale)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client

from wallet.services import wallet_open_for_new_player


def new_player(username: str, language: str = "en") -> Any:
    """A player with a wallet opened with the starting chips."""
    user = get_user_model().objects.create_user(username=username, language=language)
    wallet_open_for_new_player(player=user)
    return user


def signed_in_page(
    browser: Any, base_url: str, user: Any, *, timeout: int = 15_000, **options: Any
) -> Any:
    """A page in a new browser context (``options`` for ``new_context``) signed in as
    ``user``. Close it with ``page.context.close()``."""
    client = Client()
    client.force_login(user)
    context = browser.new_context(base_url=base_url, **options)
    context.add_cookies(
        [
            {
                "name": settings.SESSION_COOKIE_NAME,
                "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                "url": base_url,
            }
        ]
    )
    page = context.new_page()
    page.set_default_timeout(timeout)
    return page
