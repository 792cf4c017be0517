from __future__ import annotations

import pytest
from django.urls import reverse

from casino.accounts.models import User
from wallet.models import Account, Transaction

pytestmark = pytest.mark.django_db

STRONG = "kettle-orbit-93-saffron"


def signup(client, **overrides):
    data = {
        "username": "carla",
        "email": "",
        "language": "de",
        "password1": STRONG,
        "password2": STRONG,
    }
    data.update(overrides)
    return client.post(reverse("accounts:signup"), data)


def test_signup_creates_player_logs_in_and_funds_wallet(client, settings):
    response = signup(client)
    assert response.status_code == 302
    user = User.objects.get(username="carla")
    assert user.language == "de"
    assert client.session["_auth_user_id"] == str(user.pk)
    wallet = Account.objects.get(kind=Account.Kind.WALLET, owner=user)
    assert wallet.balance == settings.CASINO_STARTING_CHIPS
    assert Transaction.objects.filter(player=user, kind="starting_chips").count() == 1


def test_signup_page_renders(client):
    response = client.get(reverse("accounts:signup"))
    assert response.status_code == 200
    assert b'name="username"' in response.content


@pytest.mark.parametrize(
    ("overrides", "field", "message"),
    [
        ({"username": "alice"}, "username", "This name is already taken."),
        ({"username": "ALICE"}, "username", "This name is already taken."),
        ({"username": "x" * 151}, "username", "at most 150 characters"),
        ({"password1": "abc", "password2": "abc"}, "password2", "too short"),
        ({"password1": "12345678901", "password2": "12345678901"}, "password2", "entirely numeric"),
        ({"password2": STRONG + "x"}, "password2", "didn’t match"),
        ({"language": "xx"}, "language", "not one of the available choices"),
    ],
)
def test_bad_signup_shows_message_and_creates_nothing(client, alice, overrides, field, message):
    users_before = User.objects.count()
    accounts_before = Account.objects.count()
    response = signup(client, **overrides)
    assert response.status_code == 200
    errors = " ".join(str(e) for e in response.context["form"].errors.get(field, []))
    assert message in errors
    assert User.objects.count() == users_before
    assert Account.objects.count() == accounts_before
    assert "_auth_user_id" not in client.session


def test_signup_error_is_in_the_users_language(client, alice):
    client.cookies["django_language"] = "de"
    response = signup(client, username="alice")
    assert "Dieser Name ist bereits vergeben." in response.content.decode()


def test_signed_in_user_is_sent_to_lobby(client, alice):
    client.force_login(alice)
    assert client.get(reverse("accounts:signup")).status_code == 302
