"""Password spraying (many names, one wrong password each, from one address) is held back
after CASINO_RATE_LOGIN_FAILURES failures (10 in 15 minutes): the address then gets one
login a minute. A player behind the same address waits that minute at most, and not at
all on a browser where they signed in before. A refused login changes nothing."""

from __future__ import annotations

from typing import Any

import pytest
from axes.models import AccessAttempt
from django.conf import settings as django_settings
from django.test import Client
from django.urls import reverse

from casino.accounts.devices import DEVICE_COOKIE
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db

WRONG = "Winter2026!"


class Clock:
    """The rate limits' clock (django-ratelimit reads ``time.time()``), moved by the test."""

    def __init__(self) -> None:
        self.now = 1_900_000_000.0

    def time(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch: Any) -> Clock:
    import django_ratelimit.core

    fake = Clock()
    monkeypatch.setattr(django_ratelimit.core, "time", fake)
    return fake


def login(client: Client, username: str, password: str = PASSWORD) -> Any:
    return client.post(reverse("accounts:login"), {"username": username, "password": password})


def spray(client: Client, count: int, *, start: int = 0) -> list[int]:
    return [login(client, f"mallory{n}", WRONG).status_code for n in range(start, start + count)]


def signed_in(client: Client) -> bool:
    return "_auth_user_id" in client.session


def test_the_figures_are_ten_failures_in_fifteen_minutes_then_one_login_a_minute() -> None:
    assert django_settings.CASINO_RATE_LOGIN_FAILURES == "10/15m"
    assert django_settings.CASINO_RATE_LOGIN_THROTTLED == "1/m"


def test_spraying_is_held_back_after_ten_failures_from_one_address(clock: Clock) -> None:
    sprayer = Client()
    assert spray(sprayer, 10) == [200] * 10  # each a wrong password, no lock (axes: per name)
    assert spray(sprayer, 1, start=10) == [200]  # the minute's one try
    attempts = AccessAttempt.objects.count()
    refused = login(sprayer, "mallory11", WRONG)
    assert refused.status_code == 429
    assert 0 < int(refused["Retry-After"]) <= 60
    assert "Too many failed logins from your network. Please wait a minute" in (
        refused.content.decode()
    )
    assert AccessAttempt.objects.count() == attempts  # refused before any password check
    # Another address has a count of its own.
    assert login(Client(REMOTE_ADDR="10.9.8.7"), "mallory12", WRONG).status_code == 200
    # A minute later: one more try, then the wait again.
    clock.now += 60
    assert spray(sprayer, 2, start=13) == [200, 429]


def test_a_player_behind_the_sprayed_address_signs_in_a_minute_later(
    clock: Clock, alice: Any
) -> None:
    spray(Client(), 11)  # ten failures and the minute's one try
    player = Client()
    refused = login(player, "alice")
    assert refused.status_code == 429
    assert not signed_in(player)
    clock.now += int(refused["Retry-After"])
    response = login(player, "alice")
    assert response.status_code == 302 and signed_in(player)


def test_a_browser_the_player_signed_in_from_is_not_held_back(
    clock: Clock, alice: Any, bob: Any
) -> None:
    player = Client()
    assert login(player, "alice").status_code == 302
    assert player.cookies[DEVICE_COOKIE]["httponly"]
    player.post(reverse("accounts:logout"))
    spray(Client(), 11)

    assert login(player, "alice").status_code == 302 and signed_in(player)
    player.post(reverse("accounts:logout"))
    # The cookie speaks for alice alone: bob on her browser waits as everyone else does.
    assert login(player, "bob").status_code == 429 and not signed_in(player)
    # Nor does it lift axes' lock of alice's own name after her own five failures.
    for _ in range(5):
        login(player, "alice", WRONG)
    assert login(player, "alice").status_code != 302 and not signed_in(player)


def test_a_forged_browser_cookie_is_no_way_round_the_limit(clock: Clock, alice: Any) -> None:
    spray(Client(), 11)
    forger = Client()
    forger.cookies[DEVICE_COOKIE] = "alice"
    assert login(forger, "alice").status_code == 429 and not signed_in(forger)
