"""/health/ tells an operator whether recovery runs and no round waits (its details to
staff and to a monitor with the token, its status to anyone); /health/live/ tells a load
balancer whether this process answers, /health/ready/ whether it can serve now."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings as django_settings
from django.db import connection, connections
from django.utils import timezone

from baccarat import recovery
from baccarat.models import Round, Table
from baccarat.play import betting, rounds
from casino.runtime import readiness
from tests.outages import free_port, redis_at, silent_server
from wallet import services as wallet

pytestmark = pytest.mark.django_db

TOKEN = "a-monitor-token-0123456789"


@pytest.fixture
def client(client: Any, settings: Any) -> Any:
    """A monitor that sends the health token: it sees the details."""
    settings.CASINO_HEALTH_TOKEN = TOKEN
    client.defaults["HTTP_AUTHORIZATION"] = f"Bearer {TOKEN}"
    return client


def test_live_answers_while_the_sweep_never_ran(client: Any) -> None:
    assert client.get("/health/live/").json() == {"status": "ok"}
    response = client.get("/health/")
    assert response.status_code == 503
    assert response.json()["recovery"] == {"last_sweep": None, "seconds_ago": None, "stale": True}


def test_healthy_after_a_sweep(client: Any) -> None:
    recovery.recover_rounds()
    response = client.get("/health/")
    body = response.json()
    assert response.status_code == 200, body
    assert body["status"] == "ok" and body["recovery"]["stale"] is False
    assert body["overdue_rounds"] == {
        "locked_past_grace": 0,
        "betting_past_deadline": 0,
        "oldest_seconds": None,
        "stale": False,
    }


def test_a_sweep_three_intervals_old_is_stale(client: Any, settings: Any) -> None:
    settings.CASINO_RECOVERY_INTERVAL_SECONDS = 5
    recovery.heartbeat_beat(at=timezone.now() - timedelta(seconds=14))
    assert client.get("/health/").status_code == 200
    recovery.heartbeat_beat(at=timezone.now() - timedelta(seconds=16))
    response = client.get("/health/")
    assert response.status_code == 503
    assert response.json()["recovery"]["stale"] is True


def test_a_round_locked_past_its_grace_is_counted_and_stale_when_too_long(
    client: Any, settings: Any, alice: Any
) -> None:
    settings.CASINO_RECOVERY_GRACE_SECONDS = 5
    settings.CASINO_HEALTH_MAX_OVERDUE_SECONDS = 15
    table = Table.objects.create(name="H", slug="h")
    wallet.wallet_rebuy(player=alice, table=table, amount=10_00, reference="r")
    round = betting.round_open(table=table, player=alice)
    betting.bet_place(round=round, player=alice, kind="player", amount=100)
    rounds.round_lock(round_id=round.pk)
    recovery.heartbeat_beat()
    assert client.get("/health/").json()["overdue_rounds"]["locked_past_grace"] == 0
    Round.objects.filter(pk=round.pk).update(locked_at=timezone.now() - timedelta(seconds=10))
    counted = client.get("/health/")  # past its grace by 5 seconds: counted, not yet stale
    assert counted.status_code == 200
    assert counted.json()["overdue_rounds"]["locked_past_grace"] == 1
    assert 4 <= counted.json()["overdue_rounds"]["oldest_seconds"] < 15
    Round.objects.filter(pk=round.pk).update(locked_at=timezone.now() - timedelta(seconds=90))
    response = client.get("/health/")
    assert response.status_code == 503
    assert response.json()["overdue_rounds"]["oldest_seconds"] >= 85
    assert response.json()["overdue_rounds"]["stale"] is True


def test_a_full_tables_round_betting_past_its_deadline_is_stale(client: Any, settings: Any) -> None:
    """A round whose timer ran out and that no tick dealt (a worker that dies in every
    tick): counted from its deadline, stale after CASINO_HEALTH_MAX_OVERDUE_SECONDS."""
    settings.CASINO_HEALTH_MAX_OVERDUE_SECONDS = 15
    salon = Table.objects.create(name="S", slug="s", kind=Table.Kind.FULL, seats=8)
    round = Round.objects.create(
        table=salon, shared=True, rules=salon.rule_snapshot(), deadline=timezone.now()
    )
    recovery.heartbeat_beat()
    Round.objects.filter(pk=round.pk).update(deadline=timezone.now() + timedelta(seconds=5))
    assert client.get("/health/").json()["overdue_rounds"]["betting_past_deadline"] == 0
    Round.objects.filter(pk=round.pk).update(deadline=timezone.now() - timedelta(seconds=3))
    counted = client.get("/health/")
    assert counted.status_code == 200
    assert counted.json()["overdue_rounds"]["betting_past_deadline"] == 1
    Round.objects.filter(pk=round.pk).update(deadline=timezone.now() - timedelta(seconds=27))
    response = client.get("/health/")
    assert response.status_code == 503 and response.json()["status"] == "stale"
    assert response.json()["overdue_rounds"] == {
        "locked_past_grace": 0,
        "betting_past_deadline": 1,
        "oldest_seconds": pytest.approx(27, abs=2),
        "stale": True,
    }
    assert response.json()["recovery"]["stale"] is False  # the sweep runs: the round is stuck


def test_anonymous_callers_get_the_status_only(client: Any, settings: Any) -> None:
    recovery.recover_rounds()
    del client.defaults["HTTP_AUTHORIZATION"]
    response = client.get("/health/")
    assert response.status_code == 200 and response.json() == {"status": "ok"}
    client.defaults["HTTP_AUTHORIZATION"] = "Bearer a-guess"
    assert client.get("/health/").json() == {"status": "ok"}
    recovery.heartbeat_beat(at=timezone.now() - timedelta(hours=1))
    stale = client.get("/health/", HTTP_AUTHORIZATION="")
    assert stale.status_code == 503 and stale.json() == {"status": "stale"}
    settings.CASINO_HEALTH_TOKEN = ""  # no token set: an empty one opens nothing
    assert client.get("/health/", HTTP_AUTHORIZATION="Bearer ").json() == {"status": "stale"}


def test_staff_see_the_details(client: Any, support_user: Any, alice: Any) -> None:
    recovery.recover_rounds()
    del client.defaults["HTTP_AUTHORIZATION"]
    client.force_login(alice)
    assert client.get("/health/").json() == {"status": "ok"}
    client.force_login(support_user)
    body = client.get("/health/").json()
    assert body["database"] == "ok" and body["recovery"]["stale"] is False


def test_ready_when_the_database_answers(client: Any) -> None:
    response = client.get("/health/ready/")
    assert response.status_code == 200
    redis = "ok" if django_settings.REDIS_URL else "none"
    assert response.json() == {"status": "ready", "database": "ok", "redis": redis}
    del client.defaults["HTTP_AUTHORIZATION"]
    assert client.get("/health/ready/").json() == {"status": "ready"}


@pytest.fixture
def database_waits(monkeypatch: Any) -> Iterator[threading.Event]:
    """Every readiness check of the database waits until the event is set (a pool whose
    connections are all taken, a server that does not answer)."""
    release = threading.Event()
    monkeypatch.setattr(readiness, "_ask_database", lambda: release.wait(30))
    yield release
    release.set()


def test_not_ready_when_the_database_does_not_answer_in_time(
    client: Any, settings: Any, database_waits: threading.Event
) -> None:
    settings.CASINO_READY_TIMEOUT_SECONDS = 0.3
    started = time.monotonic()
    first = client.get("/health/ready/")
    second = client.get("/health/ready/")  # the first check still waits: no second thread
    assert first.status_code == second.status_code == 503
    assert first.json()["status"] == "unavailable"
    assert first.json()["database"] == "unavailable"
    assert time.monotonic() - started < 1.5
    assert client.get("/health/live/").status_code == 200  # liveness is what it was


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("server", ["refused", "silent"])
def test_not_ready_when_postgresql_refuses_or_hangs(client: Any, settings: Any, server: str):
    """The readiness check's own connection goes to a port where nothing listens, or to
    a server that accepts and never answers: 503 within the timeout, never a wait."""
    settings.CASINO_READY_TIMEOUT_SECONDS = 1.0
    database = connections.settings["default"]
    port = database["PORT"]
    connection.ensure_connection()  # the test's own connection stays on the real server
    try:
        with silent_server() as silent:
            database["PORT"] = str(free_port() if server == "refused" else silent)
            started = time.monotonic()
            response = client.get("/health/ready/")
            assert time.monotonic() - started < 2.0
    finally:
        database["PORT"] = port
        readiness._checker.submit(lambda: None).result(10)  # the check gave up or failed
    assert response.status_code == 503
    assert response.json()["database"] == "unavailable"


@pytest.mark.parametrize("server", ["refused", "silent"])
def test_redis_down_is_reported_and_takes_the_process_out_only_if_told(
    client: Any, settings: Any, server: str
) -> None:
    with silent_server() as silent:
        port = free_port() if server == "refused" else silent
        for name, value in redis_at(f"redis://127.0.0.1:{port}/0").items():
            setattr(settings, name, value)
        started = time.monotonic()
        degraded = client.get("/health/ready/")
        assert degraded.status_code == 200  # the casino serves without Redis
        assert degraded.json() == {"status": "ready", "database": "ok", "redis": "unavailable"}
        settings.CASINO_READY_NEEDS_REDIS = True
        assert client.get("/health/ready/").status_code == 503
        assert time.monotonic() - started < 4
