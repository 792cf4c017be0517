"""The signed-in user is read once a request, by one query of the user's own row (Django's
auth backend, ``User.objects.get(pk=...)``)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.db.models import QuerySet
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

pytestmark = pytest.mark.django_db


def _fields(user):
    return {field.attname: getattr(user, field.attname) for field in user._meta.concrete_fields}


def test_the_read_by_pk_is_one_query_of_the_users_row(alice):
    user_model = get_user_model()
    user_model.objects.filter(pk=alice.pk).update(
        last_login=timezone.now() - timedelta(hours=2),
        language="nl",
        reduced_motion=True,
        is_staff=True,
    )
    orm = QuerySet(user_model).get(pk=alice.pk)  # the ORM's own get, not the manager's
    with CaptureQueriesContext(connection) as queries:
        read = user_model.objects.get(pk=alice.pk)
    assert len(queries.captured_queries) == 1
    assert "JOIN" not in queries.captured_queries[0]["sql"]
    assert type(read) is user_model and read.pk == alice.pk
    assert _fields(read) == _fields(orm)
    assert read.last_login.tzinfo is not None and read.reduced_motion is True
    assert read._state.db == "default" and read._state.adding is False
    read.first_name = "Alice"
    read.save(update_fields=["first_name"])  # a model like any other: it saves
    assert user_model.objects.get(pk=alice.pk).first_name == "Alice"


def test_a_missing_user_is_does_not_exist():
    user_model = get_user_model()
    with pytest.raises(user_model.DoesNotExist):
        user_model.objects.get(pk=2**31 - 1)


def test_other_lookups_go_through_the_orm(alice, bob):
    user_model = get_user_model()
    assert user_model.objects.get(username="bob") == bob
    assert user_model.objects.get(pk=str(alice.pk)) == alice  # not an int: the ORM
    with pytest.raises(user_model.MultipleObjectsReturned):
        user_model.objects.get(is_active=True)


def test_a_signed_in_request_reads_its_user_once(client, alice):
    client.force_login(alice)
    with CaptureQueriesContext(connection) as queries:
        assert client.get("/health/live/").status_code == 200
    reads = [q["sql"] for q in queries.captured_queries if "accounts_user" in q["sql"]]
    assert len(reads) == 1 and "username" in reads[0]


@pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's plans")
def test_a_name_without_case_is_found_by_its_index(alice):
    """Sign-up's "already taken" and support's search by player compare names without case
    (``UPPER(username)``): the index on that expression answers them, not a read of every
    account (sequential scans discouraged, so the plan shows whether the index fits)."""
    user_model = get_user_model()
    query = user_model.objects.filter(username__iexact="ALICE").only("pk").query
    sql, params = query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute(f"EXPLAIN {sql}", params)
        plan = "\n".join(row[0] for row in cursor.fetchall())
    assert "user_username_upper" in plan, plan
