"""A full table's live events while Redis refuses connections or never answers: the
stream opens (the session comes from the database), and each web process's watcher
polls the rows instead of waiting for Redis pub/sub, so an event still arrives within
a second or two. Served by the project's ASGI application under uvicorn."""

from __future__ import annotations

import http.client
import json
import time
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import pytest
from django.conf import settings as django_settings
from django.test import Client

from baccarat.full import seats
from baccarat.models import Table
from tests.baccarat.conftest import make_player
from tests.outages import free_port, redis_at, silent_server


@pytest.fixture(params=["refused", "silent"])
def redis_down(request: Any, settings: Any) -> Iterator[None]:
    if request.param == "refused":
        for name, value in redis_at(f"redis://127.0.0.1:{free_port()}/0").items():
            setattr(settings, name, value)
        yield
    else:
        with silent_server() as port:
            for name, value in redis_at(f"redis://127.0.0.1:{port}/0").items():
                setattr(settings, name, value)
            yield


def read_events(response: Any, until: float) -> Iterator[dict[str, Any]]:
    """The stream's messages as they come, until the monotonic time ``until``."""
    while time.monotonic() < until:
        line = response.fp.readline()
        if not line:
            return
        if line.startswith(b"data: "):
            yield json.loads(line[6:])


@pytest.mark.django_db(transaction=True)
def test_the_event_stream_serves_and_polls_while_redis_is_down(
    redis_down: None, asgi_server: str
) -> None:
    salon = Table.objects.create(name="Salon", slug="salon", kind=Table.Kind.FULL, seats=8)
    anna, ben = make_player("anna"), make_player("ben")
    browser = Client()
    browser.force_login(anna)
    cookie = browser.cookies[django_settings.SESSION_COOKIE_NAME].value
    address = urlsplit(asgi_server)
    stream = http.client.HTTPConnection(address.hostname or "", address.port, timeout=5)
    stream.request(
        "GET",
        f"/tables/{salon.slug}/events/?after=0",
        headers={"Cookie": f"{django_settings.SESSION_COOKIE_NAME}={cookie}"},
    )
    response = stream.getresponse()
    try:
        assert response.status == 200
        messages = read_events(response, until=time.monotonic() + 4)
        assert next(messages)["kind"] == "hello"
        seats.seat_take(table=salon, player=ben, number=2, buy_in=100_00, reference="sit")
        written = time.monotonic()
        kinds = []
        for message in messages:
            kinds.append(message["kind"])
            if message["kind"] == "sit":
                break
        assert "sit" in kinds
        assert time.monotonic() - written < 3
    finally:
        stream.close()
