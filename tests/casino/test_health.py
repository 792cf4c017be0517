"""/health/ tells an operator whether recovery runs and no round waits; /health/live/
tells a load balancer whether this process answers."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from baccarat import recovery
from baccarat.models import Round, Table
from baccarat.play import betting, rounds
from wallet import services as wallet

pytestmark = pytest.mark.django_db


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
    assert body["oldest_unfinished_round"] == {"seconds": None, "stale": False}


def test_a_sweep_three_intervals_old_is_stale(client: Any, settings: Any) -> None:
    settings.CASINO_RECOVERY_INTERVAL_SECONDS = 5
    recovery.heartbeat_beat(at=timezone.now() - timedelta(seconds=14))
    assert client.get("/health/").status_code == 200
    recovery.heartbeat_beat(at=timezone.now() - timedelta(seconds=16))
    response = client.get("/health/")
    assert response.status_code == 503
    assert response.json()["recovery"]["stale"] is True


def test_a_round_locked_too_long_is_stale(client: Any, settings: Any, alice: Any) -> None:
    settings.CASINO_HEALTH_MAX_ROUND_AGE_SECONDS = 60
    table = Table.objects.create(name="H", slug="h")
    wallet.wallet_rebuy(player=alice, table=table, amount=10_00, reference="r")
    round = betting.round_open(table=table, player=alice)
    betting.bet_place(round=round, player=alice, kind="player", amount=100)
    rounds.round_lock(round_id=round.pk)
    recovery.heartbeat_beat()
    assert client.get("/health/").status_code == 200
    Round.objects.filter(pk=round.pk).update(locked_at=timezone.now() - timedelta(seconds=90))
    response = client.get("/health/")
    assert response.status_code == 503
    assert response.json()["oldest_unfinished_round"]["seconds"] >= 90
