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
        " print(json.dumps(settings.DATABASES['default'].get('OPTIONS', {})))"
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
