"""Password hashes run in a few slots per process and hold no pooled connection
(``casino/accounts/hashers.py``): a crowd of logins queues for the CPU, not for the
database's connections, and one that waits too long gets the busy page."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time

import pytest
from axes.models import AccessAttempt
from django.conf import settings
from django.contrib.auth.hashers import check_password, make_password
from django.db import connection
from django.test import Client, override_settings
from django.urls import reverse

from casino.accounts import hashers
from casino.errors import BUSY_RETRY_AFTER_SECONDS
from casino.slots import RequestSlots
from tests.conftest import PASSWORD
from tests.pools import pool_of_one

OURS = [
    "casino.accounts.hashers.Argon2PasswordHasher",
    "casino.accounts.hashers.PBKDF2PasswordHasher",
]


def _password_settings(**env: str) -> dict[str, object]:
    """The settings as production reads them (the tests swap in MD5 for speed)."""
    script = (
        "import json; from casino import settings as s; print(json.dumps({"
        "'hashers': s.PASSWORD_HASHERS, 'slots': s.CASINO_PASSWORD_SLOTS,"
        "'wait': s.CASINO_PASSWORD_WAIT_SECONDS}))"
    )
    environ = {k: v for k, v in os.environ.items() if k != "CASINO_FAST_PASSWORD_HASHER"}
    run = subprocess.run(
        [sys.executable, "-c", script],
        env={**environ, **env},
        capture_output=True,
        text=True,
        check=True,
        cwd=settings.BASE_DIR,
    )
    return dict(json.loads(run.stdout.strip().splitlines()[-1]))


def test_production_hashes_through_the_slots():
    default = _password_settings(CASINO_PASSWORD_SLOTS="", CASINO_PASSWORD_WAIT_SECONDS="")
    assert default == {"hashers": OURS, "slots": max(1, (os.cpu_count() or 1) // 8), "wait": 30}
    told = _password_settings(CASINO_PASSWORD_SLOTS="3", CASINO_PASSWORD_WAIT_SECONDS="5")
    assert (told["slots"], told["wait"]) == (3, 5)


@override_settings(PASSWORD_HASHERS=OURS)
def test_hashes_stored_by_djangos_hashers_still_verify():
    from django.contrib.auth.hashers import Argon2PasswordHasher, PBKDF2PasswordHasher

    argon2 = Argon2PasswordHasher().encode("s3cret-word", Argon2PasswordHasher().salt())
    pbkdf2 = PBKDF2PasswordHasher().encode("s3cret-word", PBKDF2PasswordHasher().salt())
    assert check_password("s3cret-word", argon2)
    assert check_password("s3cret-word", pbkdf2)  # one slot, though verify calls encode
    assert not check_password("other-word", argon2)
    assert make_password("s3cret-word").startswith("argon2$")


def test_no_more_hashes_at_once_than_slots(settings):
    settings.CASINO_PASSWORD_SLOTS = 2
    lock, running, most = threading.Lock(), [0], [0]

    def hash_one():
        with hashers.password_slot():
            with lock:
                running[0] += 1
                most[0] = max(most[0], running[0])
            time.sleep(0.05)
            with lock:
                running[0] -= 1

    threads = [threading.Thread(target=hash_one) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert most[0] == 2


@pytest.mark.django_db
@override_settings(PASSWORD_HASHERS=OURS, CASINO_PASSWORD_SLOTS=1, CASINO_PASSWORD_WAIT_SECONDS=0.2)
def test_a_login_that_waits_out_the_slots_gets_the_busy_page_and_changes_nothing(alice):
    alice.password = make_password(PASSWORD)
    alice.save(update_fields=["password"])
    client = Client(raise_request_exception=False)
    semaphore = hashers._semaphore()
    assert semaphore.acquire(timeout=1)  # another login is hashing
    try:
        response = client.post(
            reverse("accounts:login"), {"username": "alice", "password": PASSWORD}
        )
    finally:
        semaphore.release()
    assert response.status_code == 503
    assert response["Retry-After"] == str(BUSY_RETRY_AFTER_SECONDS)
    assert "busy" in response.content.decode().lower()
    assert "_auth_user_id" not in client.session
    alice.refresh_from_db()
    assert alice.last_login is None
    assert not AccessAttempt.objects.exists()  # not counted as a failed login

    # The slot free again, the same login goes through.
    response = client.post(reverse("accounts:login"), {"username": "alice", "password": PASSWORD})
    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(alice.pk)


@pytest.mark.django_db
def test_a_connection_of_its_own_stays_open():
    # SQLite's, or PostgreSQL's without a pool: giving it back would only reconnect.
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    hashers.release_pooled_connections()
    assert connection.connection is not None


@pytest.mark.django_db
@pytest.mark.skipif(connection.vendor != "postgresql", reason="a psycopg pool: PostgreSQL")
def test_a_pooled_connection_goes_back_to_the_pool_unless_a_transaction_is_open():
    """A pool of one: after the release another request gets the connection at once;
    inside a transaction the connection is kept."""
    with pool_of_one("slots-test") as wrapper:
        hashing, waiting = wrapper(), wrapper()
        hashing.ensure_connection()
        hashing.in_atomic_block = True
        hashers.release_pooled_connections([hashing])
        assert hashing.connection is not None  # a transaction: kept
        hashing.in_atomic_block = False
        hashers.release_pooled_connections([hashing])
        assert hashing.connection is None
        waiting.ensure_connection()  # the pool's only connection, without a wait
        assert waiting.connection is not None
        waiting.close()


def test_a_hash_gives_the_requests_slot_to_the_next_request():
    """A request that hashes (or waits for a password slot) runs no Python meanwhile: its
    request slot (casino/slots.py) is the next request's until the hash is done."""
    slots = RequestSlots(1)
    semaphore = slots._semaphore
    assert semaphore is not None
    with slots.slot():
        assert not semaphore.acquire(blocking=False)
        with hashers.password_slot():
            assert semaphore.acquire(blocking=False)  # the next request's
            semaphore.release()
        assert not semaphore.acquire(blocking=False)  # taken back
