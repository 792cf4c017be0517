"""Browser tests: Playwright driving Debian's Chromium against Django's live server."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator

import pytest

# Playwright's sync API runs an event loop in this thread; the live server's
# database work happens in its own thread, so this is safe here.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = os.environ.get("CHROMIUM_PATH") or shutil.which("chromium") or "/usr/bin/chromium"


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/e2e/" in str(item.fspath):
            item.add_marker(pytest.mark.e2e)


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    if not os.path.exists(CHROMIUM):
        if os.environ.get("CI"):
            pytest.fail(f"Chromium not found at {CHROMIUM}")
        pytest.skip("Chromium is not installed")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            headless=True,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--disable-background-networking",
                "--disable-component-update",
                "--no-first-run",
                "--disable-sync",
            ],
        )
        yield browser
        browser.close()


@pytest.fixture
def page(browser, live_server):
    context = browser.new_context(base_url=live_server.url, locale="en-US")
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


@pytest.fixture
def signed_in(page, live_server):
    """Sign a new player (wallet opened with the starting chips) into ``page``.

    Call it with a username and optionally ``language``; it returns the user. The
    session cookie comes from Django's test client, so no password is hashed.
    """
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.test import Client

    from wallet.services import wallet_open_for_new_player

    def sign_in(username: str, *, language: str = "en"):
        user = get_user_model().objects.create_user(username=username, language=language)
        wallet_open_for_new_player(player=user)
        client = Client()
        client.force_login(user)
        page.context.add_cookies(
            [
                {
                    "name": settings.SESSION_COOKIE_NAME,
                    "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                    "url": live_server.url,
                }
            ]
        )
        return user

    return sign_in


@pytest.fixture
def money():
    """The on-screen money format of ``casino.templatetags.casino`` in a language."""
    from django.utils import translation

    from casino.templatetags.casino import format_money

    def fmt(cents: int, language: str = "en") -> str:
        with translation.override(language):
            return format_money(cents)

    return fmt


@pytest.fixture
def ledger():
    """Balances from the ledger: ``ledger.wallet(user)``, ``ledger.stack(user, table)``."""
    from wallet.models import Account

    class Ledger:
        @staticmethod
        def wallet(user) -> int:
            return Account.objects.get(kind=Account.Kind.WALLET, owner=user).balance

        @staticmethod
        def stack(user, table) -> int:
            account = Account.objects.filter(
                kind=Account.Kind.STACK, owner=user, table=table
            ).first()
            return account.balance if account else 0

    return Ledger()
