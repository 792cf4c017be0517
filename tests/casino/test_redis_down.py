"""Redis refusing connections, or accepting them and never answering: players keep
playing (sessions from the database), the rate limits still count (in each process's
memory), every request answers within a few seconds, and every Redis client gives up
after its timeouts. The project's own production settings, pointed at a port where
nothing listens or at a socket that never answers (tests/outages.py)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from django.conf import settings as django_settings
from django.contrib.sessions.models import Session
from django.core.cache import caches
from django.urls import reverse

from baccarat.models import Round
from tests.conftest import PASSWORD
from tests.outages import free_port, production_settings, redis_at, silent_server
from wallet.selectors import wallet_balance
from wallet.services import wallet_rebuy

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
# A request may wait out one read timeout (the first to find Redis gone), never more.
QUICK = 2 * 1.0 + 1.5


@pytest.fixture(params=["refused", "silent"])
def redis_down(request: Any, settings: Any) -> Iterator[str]:
    """The production settings of the cache, sessions and live events, on a Redis that
    refuses (a port where nothing listens) or hangs (accepts, never answers)."""
    if request.param == "refused":
        url = f"redis://127.0.0.1:{free_port()}/0"
        for name, value in redis_at(url).items():
            setattr(settings, name, value)
        yield url
    else:
        with silent_server() as port:
            url = f"redis://127.0.0.1:{port}/0"
            for name, value in redis_at(url).items():
                setattr(settings, name, value)
            yield url


def test_every_redis_client_has_connect_and_read_timeouts() -> None:
    production = production_settings()
    timeouts = production["REDIS_TIMEOUTS"]
    assert 0 < timeouts["socket_connect_timeout"] <= 2
    assert 0 < timeouts["socket_timeout"] <= 2
    for alias in ("default", "sessions"):
        options = production["CACHES"][alias]["OPTIONS"]
        assert options["socket_connect_timeout"] == timeouts["socket_connect_timeout"]
        assert options["socket_timeout"] == timeouts["socket_timeout"]
    broker = production["CELERY_BROKER_TRANSPORT_OPTIONS"]
    assert 0 < broker["socket_connect_timeout"] <= 2 and 0 < broker["socket_timeout"] <= 2
    assert 0 < production["CELERY_BROKER_CONNECTION_TIMEOUT"] <= 2
    assert 0 < production["CELERY_REDIS_SOCKET_TIMEOUT"] <= 2
    assert 0 < production["CELERY_REDIS_SOCKET_CONNECT_TIMEOUT"] <= 2


def test_signed_in_players_keep_playing(redis_down: str, client: Any, alice: Any) -> None:
    """Lobby, table, a chip and a DEAL: every one was a 500 (refused) or waited (hanging)."""
    from baccarat.models import Table

    table = Table.objects.create(name="Golden", slug="golden")
    wallet_rebuy(player=alice, table=table, amount=100_00, reference="redis-down")
    client.force_login(alice)
    started = time.monotonic()
    assert client.get(reverse("lobby")).status_code == 200
    assert client.get(reverse("baccarat:table", args=[table.slug])).status_code == 200
    chip = client.post(
        reverse("baccarat:table_bet", args=[table.slug]), {"kind": "player", "amount": 500}, **HTMX
    )
    assert chip.status_code == 200
    deal = client.post(
        reverse("baccarat:table_deal", args=[table.slug]),
        {"layout": "on", "stake_banker": 500},
        **HTMX,
    )
    assert deal.status_code == 200
    assert time.monotonic() - started < QUICK + 2
    assert Round.objects.get().state == Round.State.SETTLED


def test_sessions_come_from_the_database(redis_down: str, client: Any, alice: Any) -> None:
    started = time.monotonic()
    login = client.post(reverse("accounts:login"), {"username": "alice", "password": PASSWORD})
    assert login.status_code == 302
    assert Session.objects.count() == 1
    lobby = client.get(reverse("lobby"))
    assert lobby.status_code == 200 and lobby.context["user"] == alice
    assert client.post(reverse("accounts:logout")).status_code == 302
    assert not Session.objects.exists()
    assert client.get(reverse("lobby")).context["user"].is_authenticated is False
    assert time.monotonic() - started < QUICK + 2


def test_failed_logins_are_still_limited(redis_down: str, client: Any, settings: Any) -> None:
    """The per-address limit counts in this process's memory while Redis is away."""
    settings.CASINO_RATE_LOGIN_FAILURES = "3/15m"
    settings.CASINO_RATE_LOGIN_THROTTLED = ""
    login = reverse("accounts:login")
    for name in ("mallory1", "mallory2", "mallory3"):
        assert client.post(login, {"username": name, "password": "Winter2026!"}).status_code == 200
    refused = client.post(login, {"username": "mallory4", "password": "Winter2026!"})
    assert refused.status_code == 429
    assert int(refused["Retry-After"]) > 0


def test_deposits_are_still_limited(redis_down: str, client: Any, settings: Any, alice: Any):
    settings.CASINO_RATE_DEPOSIT = "2/h"
    client.force_login(alice)
    url = reverse("wallet:deposit")
    for _ in range(2):
        assert client.post(url, {"reference": str(uuid.uuid4()), "amount": "25"}).status_code == 302
    before = wallet_balance(player=alice)
    refused = client.post(url, {"reference": str(uuid.uuid4()), "amount": "25"})
    assert refused.status_code == 429
    assert wallet_balance(player=alice) == before


def test_the_cache_leaves_a_hanging_redis_alone_for_a_while(settings: Any) -> None:
    """After one call waited out the read timeout, the calls after it answer at once."""
    with silent_server() as port:
        for name, value in redis_at(f"redis://127.0.0.1:{port}/0").items():
            setattr(settings, name, value)
        cache = caches["default"]
        started = time.monotonic()
        assert cache.add("count", 0, 60) is True
        first = time.monotonic() - started
        assert 0.5 <= first < QUICK
        started = time.monotonic()
        for _ in range(20):
            cache.incr("count")
        assert cache.get("count") == 20
        assert time.monotonic() - started < 0.2
        assert caches["sessions"].get("anything") is None  # sessions: read the database


@pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs a Redis that answers")
def test_a_session_ended_while_redis_was_away_is_not_served_when_it_returns(
    settings: Any, client: Any, alice: Any
) -> None:
    """A logout while Redis could not be reached deletes the session from the database
    only; when Redis answers again, its stale copy there is deleted before any use."""
    from casino.runtime.redis_pool import Outage

    for name, value in redis_at(os.environ["REDIS_URL"]).items():
        setattr(settings, name, value)
    client.force_login(alice)
    assert client.get(reverse("lobby")).status_code == 200  # the session is in Redis now
    cookie = client.cookies[django_settings.SESSION_COOKIE_NAME].value
    outage = Outage.of(os.environ["REDIS_URL"])
    outage.failed(ConnectionError("a test takes Redis away"))
    try:
        assert client.post(reverse("accounts:logout")).status_code == 302
    finally:
        outage.until = 0.0  # Redis answers again from the next call on
    client.cookies[django_settings.SESSION_COOKIE_NAME] = cookie  # the old cookie, replayed
    assert client.get(reverse("lobby")).context["user"].is_authenticated is False
    assert not outage.forgotten and not outage.down


def test_a_task_sent_to_a_hanging_broker_gives_up(tmp_path: Any) -> None:
    """A full table's timer is sent from a request: against a broker that never answers
    the send fails after the broker's timeouts, and the ticks after it are not tried for
    a while (the sweep ticks the table), so no request waits on the broker twice."""
    script = """
import time, django
django.setup()
from django.utils import timezone
import casino.celery
from baccarat.full.croupier import schedule_tick
for _ in range(2):
    started = time.monotonic()
    schedule_tick(1, timezone.now())  # outside a transaction (SQLite in tmp): sent at once
    print(round(time.monotonic() - started, 2))
"""
    with silent_server() as port:
        env = {
            **{name: value for name, value in os.environ.items() if name != "DATABASE_URL"},
            "DJANGO_SETTINGS_MODULE": "casino.settings",
            "CELERY_BROKER_URL": f"redis://127.0.0.1:{port}/0",
            "CASINO_VAR_DIR": str(tmp_path),
            "CASINO_TABLE_TICKS": "1",
        }
        run = subprocess.run(
            [sys.executable, "-c", script],
            env=env,
            capture_output=True,
            text=True,
            timeout=30,
            cwd=django_settings.BASE_DIR,
        )
    first, second = run.stdout.split()[-2:]
    assert "could not schedule the tick of table 1" in run.stderr, run.stdout + run.stderr
    assert "OperationalError: Timeout reading from" in run.stderr
    assert float(first) < 5
    assert float(second) < 0.1
