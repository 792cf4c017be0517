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
def _postgres_marker(request):
    # ``@pytest.mark.postgres``: real row locks, generate_series and the like; skipped on
    # the embedded SQLite.
    from django.db import connection

    if request.node.get_closest_marker("postgres") and connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL")


@pytest.fixture(autouse=True)
def _no_scheduled_ticks(settings):
    # No worker runs in the test process: tests tick full tables themselves.
    settings.CASINO_TABLE_TICKS = False


@pytest.fixture(autouse=True)
def _staff_second_factor_off(settings):
    # Most tests sign staff in with force_login; the second factor's own tests and the
    # access matrix turn it on again and sign staff in with tests.otp.login_verified.
    settings.CASINO_STAFF_OTP_REQUIRED = False


@pytest.fixture(autouse=True)
def _own_rate_limit_counters(settings):
    # Every test counts its requests from 127.0.0.1 afresh (the cache outlives a test).
    import uuid

    settings.RATELIMIT_CACHE_PREFIX = f"rl:{uuid.uuid4().hex}:"


@pytest.fixture(autouse=True)
def _default_language():
    # A request answers in its player's language and leaves it active in the thread, as
    # Django's LocaleMiddleware does: each test starts from the default instead of
    # inheriting the language of the test before it in the same worker.
    from django.utils import translation

    translation.deactivate()
    yield
    translation.deactivate()


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


@pytest.fixture
def asgi_server(transactional_db):
    """The project's ASGI application under uvicorn in a thread (live events need ASGI),
    on the test database, with a croupier thread ticking the full tables as the Celery
    worker would. Yields the base URL."""
    import socket
    import threading
    import time

    import uvicorn
    from django.db import connections

    from baccarat.full import croupier
    from casino.asgi import application

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    server = uvicorn.Server(
        uvicorn.Config(
            application,
            host="127.0.0.1",
            port=port,
            log_level="warning",
            lifespan="off",
            # As runall: open live streams are closed shortly into the shutdown. Without it
            # uvicorn waits for them, the thread outlives the test, and its streams read a
            # database that is gone (and its loop's tasks are destroyed pending, later).
            timeout_graceful_shutdown=2,
        )
    )
    serving = threading.Thread(target=server.run, daemon=True)
    serving.start()
    stop = threading.Event()

    def tick() -> None:
        while not stop.is_set():
            try:
                croupier.tables_tick()
            except Exception as error:  # reported, and the croupier keeps going
                print(f"tick failed: {error!r}")
            finally:
                connections.close_all()
            stop.wait(0.25)

    ticking = threading.Thread(target=tick, daemon=True)
    ticking.start()
    deadline = time.monotonic() + 20
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    assert server.started, "uvicorn did not start"
    yield f"http://127.0.0.1:{port}"
    stop.set()
    ticking.join(10)
    server.should_exit = True
    serving.join(10)
    assert not serving.is_alive(), "uvicorn did not stop"
    _end_server_connections()


def _end_server_connections() -> None:
    """End connections the server's threads may still hold (a thread of the executor
    keeps its connection until it next runs a request), so PostgreSQL can drop the test
    database afterwards."""
    from django.db import connections

    connection = connections["default"]
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
