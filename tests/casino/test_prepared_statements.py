"""PostgreSQL plans a statement a connection runs again and again once (settings.py,
DATABASE_PREPARED_STATEMENTS): the values are bound by the server, not written into the
SQL, and psycopg prepares a statement from its fifth run on a connection."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from django.conf import settings
from django.db import connection

from baccarat.models import Table


def _options(**env: str) -> dict[str, object]:
    script = (
        "import json; from casino import settings;"
        " default = settings.DATABASES['default'];"
        " print(json.dumps({**default.get('OPTIONS', {}), 'ENGINE': default['ENGINE']}))"
    )
    run = subprocess.run(
        [sys.executable, "-c", script],
        env={**os.environ, "DATABASE_URL": "postgres://postgres@127.0.0.1:5432/x", **env},
        capture_output=True,
        text=True,
        check=True,
        cwd=settings.BASE_DIR,
    )
    return dict(json.loads(run.stdout.strip().splitlines()[-1]))


def test_postgresql_prepares_statements_unless_told_not_to() -> None:
    on = _options(DATABASE_PREPARED_STATEMENTS="")
    assert on["server_side_binding"] is True and on["prepare_threshold"] == 5
    assert on["ENGINE"] == "casino.runtime.postgresql"  # statements cut to what the server binds
    off = _options(DATABASE_PREPARED_STATEMENTS="0")
    assert "server_side_binding" not in off and "prepare_threshold" not in off


@pytest.mark.django_db
def test_a_statement_run_again_is_planned_once_on_postgresql() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("prepared statements are PostgreSQL's")
    for _ in range(6):
        assert not Table.objects.filter(slug="no-such-table").exists()
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT statement FROM pg_prepared_statements WHERE statement LIKE %s",
            ['%"baccarat_table"%'],
        )
        prepared = [row[0] for row in cursor.fetchall()]
    assert prepared and all("$1" in statement for statement in prepared)
    assert not any("no-such-table" in statement for statement in prepared)


@pytest.mark.django_db
def test_more_rows_than_a_statement_may_bind_are_written_and_deleted_in_batches() -> None:
    """With the values bound by the server a statement carries at most 65,535 of them
    (the protocol counts them in 16 bits). Django's PostgreSQL backend counts on no limit:
    ``bulk_create`` sent every row in one statement and a delete that collects (the chat
    purge: each message takes its reports along) asked for every message's reports in
    one. The project's backend cuts both into batches that fit."""
    from datetime import timedelta

    from django.utils import timezone

    from baccarat.full import chat
    from baccarat.models import ChatMessage
    from casino.accounts.models import User

    table = Table.objects.create(name="Salon", slug="salon", kind=Table.Kind.FULL, seats=8)
    player = User.objects.create_user(username="chatty", password="pw-for-tests-1")
    old = timezone.now() - timedelta(days=400)
    count = 70_000  # 70,000 rows of 5 values, and 70,000 ids, are both beyond 65,535
    ChatMessage.objects.bulk_create(
        ChatMessage(table=table, player=player, seat=1, text="hi", created_at=old)
        for _ in range(count)
    )
    assert ChatMessage.objects.count() == count
    assert chat.chat_purge() == count
    assert not ChatMessage.objects.exists()
