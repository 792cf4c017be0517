"""Shared fixtures: players alice and bob, a support user, a table admin, a table."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group

from baccarat.models import Table
from casino.accounts.models import User

PASSWORD = "correct-horse-battery-staple"


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
