"""Browser tests: Playwright driving Debian's Chromium against Django's live server."""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/e2e/" in str(item.fspath):
            item.add_marker(pytest.mark.e2e)


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

    from wallet.formatting import format_money

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
