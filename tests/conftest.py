"""Shared fixtures: players alice and bob, a support user, a table admin, a table."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator

import pytest
from django.contrib.auth.models import Group

from baccarat.models import Table
from casino.accounts.models import User
from tests.racers import racers  # noqa: F401  (a fixture for PostgreSQL race tests)

PASSWORD = "correct-horse-battery-staple"

# Playwright's sync API runs an event loop in this thread; the live server's
# database work happens in its own thread, so this is safe here.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = os.environ.get("CHROMIUM_PATH") or shutil.which("chromium") or "/usr/bin/chromium"


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


@pytest.fixture(autouse=True)
def _no_scheduled_ticks(settings):
    # No worker runs in the test process: tests tick full tables themselves.
    settings.CASINO_TABLE_TICKS = False


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    # Argon2 is deliberately slow; tests that check the hasher ask for it explicitly.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def make_player(db):
    def make(username: str, **extra) -> User:
        from wallet.services import wallet_open_for_new_player

        user = User.objects.create_user(username=username, password=PASSWORD, **extra)
        wallet_open_for_new_player(player=user)
        return user

    return make


@pytest.fixture
def alice(make_player) -> User:
    return make_player("alice", language="en")


@pytest.fixture
def bob(make_player) -> User:
    return make_player("bob", language="en")


@pytest.fixture
def support_user(db) -> User:
    user = User.objects.create_user(username="sam", password=PASSWORD, is_staff=True)
    user.groups.add(Group.objects.get_or_create(name="Support")[0])
    return user


@pytest.fixture
def table_admin(db) -> User:
    user = User.objects.create_user(username="tara", password=PASSWORD, is_staff=True)
    user.groups.add(Group.objects.get_or_create(name="Table admin")[0])
    return user


@pytest.fixture
def single_table(db) -> Table:
    return Table.objects.create(name="Golden Baccarat", slug="golden")
