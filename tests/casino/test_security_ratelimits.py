"""Rate limits: sign-ups, password-reset mails and failed logins per IP address; deposits
and table actions per player. A refusal is HTTP 429 with a message, and changes nothing."""

from __future__ import annotations

import os
import subprocess
import sys
import uuid

import pytest
from django.core import mail
from django.urls import reverse

from baccarat.models import Bet, ChatMessage, Seat, Table
from casino.accounts.models import User
from tests.conftest import PASSWORD
from wallet.selectors import wallet_balance
from wallet.services import wallet_rebuy

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


def signup(client, username: str, **extra):
    data = {
        "username": username,
        "password1": PASSWORD,
        "password2": PASSWORD,
        "language": "en",
        "email": "",
    }
    return client.post(reverse("accounts:signup"), data, **extra)


def test_sign_ups_per_ip_are_limited(client, settings):
    settings.CASINO_RATE_SIGNUP = "2/h"
    for name in ("one", "two"):
        assert signup(client, name).status_code == 302
        client.post(reverse("accounts:logout"))
    response = signup(client, "three")
    assert response.status_code == 429
    assert "Too many sign-ups from your network. Please try again later." in (
        response.content.decode()
    )
    assert int(response["Retry-After"]) > 0
    assert not User.objects.filter(username="three").exists()


def test_another_ip_address_has_its_own_count(client, settings):
    settings.CASINO_RATE_SIGNUP = "1/h"
    assert signup(client, "one").status_code == 302
    client.post(reverse("accounts:logout"))
    assert signup(client, "two", REMOTE_ADDR="10.1.2.3").status_code == 302


def test_password_reset_mails_per_ip_are_limited(client, settings, make_player):
    settings.CASINO_RATE_PASSWORD_RESET = "2/h"
    make_player("carol", email="carol@example.com")
    url = reverse("accounts:password_reset")
    for _ in range(2):
        assert client.post(url, {"email": "carol@example.com"}).status_code == 302
    response = client.post(url, {"email": "carol@example.com"})
    assert response.status_code == 429
    assert "Too many password reset requests" in response.content.decode()
    assert len(mail.outbox) == 2


def login(client, username: str, password: str = PASSWORD):
    return client.post(reverse("accounts:login"), {"username": username, "password": password})


def test_failed_logins_across_usernames_slow_the_ip(client, settings, alice):
    """Password spraying: one wrong password each for many names; axes (per name and IP)
    never locks, the IP's limit does: past it one try per CASINO_RATE_LOGIN_THROTTLED,
    then even a right password waits (tests/casino/test_security_login_spraying.py)."""
    settings.CASINO_RATE_LOGIN_FAILURES = "3/15m"
    settings.CASINO_RATE_LOGIN_THROTTLED = "1/h"  # hours: no window ends between the posts
    for name in ("mallory1", "mallory2", "mallory3", "mallory4"):
        assert login(client, name, "Winter2026!").status_code == 200
    response = login(client, "alice")
    assert response.status_code == 429
    assert "Too many failed logins from your network." in response.content.decode()
    assert "_auth_user_id" not in client.session
    admin_login = client.post(reverse("admin:login"), {"username": "alice", "password": "x"})
    assert admin_login.status_code == 429


def test_successful_logins_do_not_count(client, settings, alice):
    settings.CASINO_RATE_LOGIN_FAILURES = "2/15m"
    for _ in range(5):
        assert login(client, "alice").status_code == 302
        client.post(reverse("accounts:logout"))


def deposit(client, **extra):
    data = {"reference": str(uuid.uuid4()), "amount": "25"}
    return client.post(reverse("wallet:deposit"), data, **extra)


def test_deposits_per_player_are_limited(client, settings, alice, bob):
    settings.CASINO_RATE_DEPOSIT = "2/h"
    client.force_login(alice)
    assert deposit(client).status_code == 302
    assert deposit(client).status_code == 302
    before = wallet_balance(player=alice)
    response = deposit(client)
    assert response.status_code == 429
    assert "Too many deposits in a short time." in response.content.decode()
    assert wallet_balance(player=alice) == before
    client.force_login(bob)  # another player, the same address: a count of their own
    assert deposit(client).status_code == 302


def bet(client, table: Table):
    url = reverse("baccarat:table_bet", args=[table.slug])
    return client.post(url, {"kind": "player", "amount": 500}, headers=HTMX)


def test_table_actions_per_player_are_limited_and_htmx_shows_the_message(
    client, settings, alice, single_table
):
    settings.CASINO_RATE_TABLE = "3/h"  # hours: a minute's edge can fall between the requests
    wallet_rebuy(player=alice, table=single_table, amount=100_00, reference="limit-rebuy")
    client.force_login(alice)
    for _ in range(3):
        assert bet(client, single_table).status_code == 200
    stake = sum(Bet.objects.filter(play__player=alice).values_list("stake", flat=True))
    assert stake == 3 * 500
    response = bet(client, single_table)
    assert response.status_code == 429
    assert response["HX-Retarget"] == "#request-error"
    assert response["HX-Reswap"] == "outerHTML"
    html = response.content.decode()
    assert html.startswith('<p class="message error request-error" id="request-error"')
    assert "That was faster than the table allows. Please wait a moment and try again." in html
    assert "<html" not in html
    assert sum(Bet.objects.filter(play__player=alice).values_list("stake", flat=True)) == stake


def test_the_chat_counts_as_a_table_action(client, settings, alice, single_table):
    settings.CASINO_RATE_TABLE = "1/h"  # hours: a minute's edge can fall between the requests
    salon = Table.objects.create(name="Salon", slug="salon", kind=Table.Kind.FULL, seats=8)
    wallet_rebuy(player=alice, table=single_table, amount=100_00, reference="limit-rebuy")
    client.force_login(alice)
    assert bet(client, single_table).status_code == 200
    response = client.post(
        reverse("baccarat:chat_send", args=[salon.slug]), {"text": "hi"}, headers=HTMX
    )
    assert response.status_code == 429
    assert not ChatMessage.objects.exists()
    assert not Seat.objects.filter(table=salon).exists()


def test_an_empty_rate_turns_a_limit_off(client, settings, alice, single_table):
    settings.CASINO_RATE_TABLE = ""
    wallet_rebuy(player=alice, table=single_table, amount=100_00, reference="limit-rebuy")
    client.force_login(alice)
    for _ in range(5):
        assert bet(client, single_table).status_code == 200


def test_reading_is_never_limited(client, settings, alice, single_table):
    settings.CASINO_RATE_TABLE = "1/h"  # hours: a minute's edge can fall between the requests
    client.force_login(alice)
    for _ in range(3):
        assert client.get(reverse("baccarat:table", args=[single_table.slug])).status_code == 200


def test_the_defaults_leave_room_for_real_play(settings):
    from django_ratelimit.core import _split_rate

    count, seconds = _split_rate(settings.CASINO_RATE_TABLE)
    assert count / seconds >= 2  # two actions a second, every second, for a minute
    count, seconds = _split_rate(settings.CASINO_RATE_DEPOSIT)
    assert count >= 10 and seconds <= 3600


def test_a_malformed_rate_is_refused_at_start(tmp_path):
    env = {**os.environ, "CASINO_RATE_TABLE": "120 per minute", "CASINO_VAR_DIR": str(tmp_path)}
    result = subprocess.run(
        [sys.executable, "-c", "import casino.settings"],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode != 0
    assert "A rate limit must look like 30/15m" in result.stderr


def test_every_action_at_a_table_counts():
    """Each POST that changes something at a table counts against the player's limit (a
    new one must be named in COUNTED); the reality check's answer does not: it only lets
    the player go on or leave, and a limit must never hold them in its dialog."""
    from casino.security.ratelimits import COUNTED
    from tests.test_access_matrix import MATRIX, POST_ONLY

    actions = {
        name
        for name, (_args, rule) in MATRIX.items()
        if rule is POST_ONLY and name.startswith("baccarat:table_")
    }
    assert actions - set(COUNTED) == {"baccarat:table_reality_check"}
