from __future__ import annotations

import pytest
from django.contrib.auth.hashers import identify_hasher, make_password
from django.test import override_settings
from django.urls import reverse

from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db


def login(client, username="alice", password=PASSWORD):
    return client.post(reverse("accounts:login"), {"username": username, "password": password})


def test_login_rotates_the_session_id(client, alice):
    client.get(reverse("accounts:login"))
    session = client.session
    session["marker"] = "before"
    session.save()
    before = session.session_key
    response = login(client)
    assert response.status_code == 302
    assert client.session.session_key != before


def test_wrong_password_is_refused_with_a_message(client, alice):
    response = login(client, password="wrong")
    assert response.status_code == 200
    assert "Please enter a correct username and password" in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_five_failures_lock_the_account_and_ip(client, alice):
    for _ in range(5):
        login(client, password="wrong")
    response = login(client)  # even the right password is refused now
    assert response.status_code == 429
    assert "_auth_user_id" not in client.session
    assert "Too many failed logins" in response.content.decode()


def test_lockout_is_per_account(client, alice, bob):
    for _ in range(5):
        login(client, password="wrong")
    assert login(client, username="bob").status_code == 302


@override_settings(
    PASSWORD_HASHERS=[
        "casino.accounts.hashers.Argon2PasswordHasher",
        "casino.accounts.hashers.PBKDF2PasswordHasher",
    ]
)
def test_passwords_are_hashed_with_argon2():
    assert identify_hasher(make_password("whatever-123")).algorithm == "argon2"


def test_logout_needs_post(client, alice):
    client.force_login(alice)
    assert client.get(reverse("accounts:logout")).status_code == 405
    assert client.post(reverse("accounts:logout")).status_code == 302
    assert "_auth_user_id" not in client.session


def test_password_change(client, alice):
    client.force_login(alice)
    response = client.post(
        reverse("accounts:password_change"),
        {
            "old_password": PASSWORD,
            "new_password1": "new-Secret-991x",
            "new_password2": "new-Secret-991x",
        },
    )
    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.check_password("new-Secret-991x")


def test_password_reset_sends_a_mail(client, alice, mailoutbox):
    alice.email = "alice@example.com"
    alice.save()
    response = client.post(reverse("accounts:password_reset"), {"email": "alice@example.com"})
    assert response.status_code == 302
    assert len(mailoutbox) == 1
    assert "/accounts/password/reset/" in mailoutbox[0].body
