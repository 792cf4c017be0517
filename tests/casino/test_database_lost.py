"""PostgreSQL ends the casino's connections (a restart, a failover, an operator's
``pg_terminate_backend``): the pool hands out only connections that answer, a read
that still meets a broken one is served again on a new one, and a write gets the 503
page with ``Retry-After``, never a 500."""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from django.db import close_old_connections, connection, connections
from django.urls import reverse

from baccarat.models import Table
from casino.errors import BUSY_RETRY_AFTER_SECONDS
from tests.outages import end_database_connections, production_settings
from wallet.selectors import wallet_balance
from wallet.services import wallet_rebuy

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture(autouse=True)
def _broken_connection_closed(transactional_db: None) -> Iterator[None]:
    yield
    connection.close()  # ended by the test: the database's flush needs a new one


@contextmanager
def production_pool(alias: str) -> Iterator[Callable[[], Any]]:
    """A maker of database wrappers on the test database, sharing one pool made as the
    production settings make it (``DATABASE_POOL_SIZE``): its options, its checks."""
    from casino.runtime.postgresql.base import DatabaseWrapper

    production = production_settings()["DATABASES"]["default"]
    params = {
        **connection.settings_dict,
        "CONN_MAX_AGE": 0,
        "CONN_HEALTH_CHECKS": production["CONN_HEALTH_CHECKS"],
        "OPTIONS": {**connection.settings_dict["OPTIONS"], "pool": production["OPTIONS"]["pool"]},
    }
    version = connection.pg_version

    def wrapper() -> DatabaseWrapper:
        pooled = DatabaseWrapper(params, alias=alias)
        pooled.__dict__["pg_version"] = version  # asking would take a second connection
        return pooled

    try:
        yield wrapper
    finally:
        opened = DatabaseWrapper._connection_pools.pop(alias, None)
        if opened is not None:
            opened.close()


def test_the_pool_hands_out_no_connection_the_server_ended() -> None:
    """Four idle connections, all ended by the server: the next request gets a new one at
    once (psycopg_pool alone found them one by one, waiting 0, 1 and 2 seconds between)."""
    with production_pool("pool-check") as wrapper:
        held = [wrapper() for _ in range(4)]
        for pooled in held:
            with pooled.cursor() as cursor:
                cursor.execute("SELECT 1")
        for pooled in held:
            pooled.close()  # back to the pool, as at the end of a request
        assert end_database_connections() >= 4
        started = time.monotonic()
        fresh = wrapper()
        with fresh.cursor() as cursor:
            cursor.execute("SELECT 1")
            assert cursor.fetchone() == (1,)
        fresh.close()
        assert time.monotonic() - started < 0.5


@pytest.fixture
def pooled_requests() -> Iterator[None]:
    """The test's requests on the production pool, each giving its connection back at its
    end, as a web process's do (the test client keeps it otherwise)."""
    original = connections["default"]
    with production_pool("default") as wrapper:
        connections["default"] = wrapper()
        try:
            yield
        finally:
            connections["default"].close()
            connections["default"] = original


def answered(response: Any) -> Any:
    close_old_connections()  # the request's end
    assert response.status_code != 500
    if response.status_code == 503:
        assert response["Retry-After"] == str(BUSY_RETRY_AFTER_SECONDS)
    return response


def test_requests_after_the_server_ended_every_connection(
    pooled_requests: None, client: Any, alice: Any
) -> None:
    client.raise_request_exception = False
    table = Table.objects.create(name="Golden", slug="golden")
    wallet_rebuy(player=alice, table=table, amount=100_00, reference="lost")
    close_old_connections()
    client.force_login(alice)
    assert answered(client.get(reverse("lobby"))).status_code == 200
    assert end_database_connections() >= 1
    table_url = reverse("baccarat:table", args=[table.slug])
    chip_url = reverse("baccarat:table_bet", args=[table.slug])
    statuses = [
        answered(client.get(reverse("lobby"))).status_code,
        answered(client.get(table_url)).status_code,
        answered(client.post(chip_url, {"kind": "player", "amount": 500}, **HTMX)).status_code,
        answered(client.get(table_url)).status_code,
    ]
    assert statuses == [200, 200, 200, 200]  # each connection checked before use


def test_a_read_that_meets_a_broken_connection_is_served_again(client: Any, alice: Any) -> None:
    """The test client keeps its connection from request to request: ended under it, the
    next request meets it broken, as one in flight does."""
    client.raise_request_exception = False
    client.force_login(alice)
    assert client.get(reverse("lobby")).status_code == 200
    assert end_database_connections() >= 1
    response = client.get(reverse("lobby"))
    assert response.status_code == 200
    assert response.context["user"] == alice


def test_a_write_that_meets_a_broken_connection_is_a_503(client: Any, alice: Any) -> None:
    client.raise_request_exception = False
    client.force_login(alice)
    assert client.get(reverse("lobby")).status_code == 200
    before = wallet_balance(player=alice)
    assert end_database_connections() >= 1
    response = client.post(
        reverse("wallet:deposit"), {"reference": str(uuid.uuid4()), "amount": "25"}
    )
    assert response.status_code == 503
    assert response["Retry-After"] == str(BUSY_RETRY_AFTER_SECONDS)
    assert "The casino is briefly unavailable" in response.content.decode()
    connection.close()
    assert wallet_balance(player=alice) == before
