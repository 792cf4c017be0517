"""Request ids (X-Request-ID) in responses and log lines; JSON log lines; the task's id."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys

from django.test import Client

from casino.celery import REQUEST_ID_HEADER, _send_request_id, _task_request_id
from casino.runtime import logs


def test_every_response_names_a_new_request_id(client: Client, db) -> None:
    first = client.get("/health/live/")["X-Request-ID"]
    second = client.get("/health/live/")["X-Request-ID"]
    assert len(first) == 32 and int(first, 16) >= 0
    assert first != second


def test_a_sane_request_id_is_taken_and_a_wild_one_replaced(client: Client, db) -> None:
    taken = client.get("/health/live/", headers={"X-Request-ID": "lb-7f3a:42"})
    assert taken["X-Request-ID"] == "lb-7f3a:42"
    wild = client.get("/health/live/", headers={"X-Request-ID": "a b\x7f<script>" + "x" * 200})
    assert wild["X-Request-ID"] != "a b\x7f<script>" and len(wild["X-Request-ID"]) == 32


def test_log_lines_of_a_request_carry_its_id(client: Client, db, caplog) -> None:
    caplog.handler.addFilter(logs.RequestIdFilter())
    with caplog.at_level(logging.INFO):
        response = client.get("/no-such-page/", headers={"X-Request-ID": "req-1"})
    assert response.status_code == 404
    mine = [r for r in caplog.records if r.name in ("django.request", "casino.access")]
    assert {r.name for r in mine} == {"django.request", "casino.access"}
    assert {r.request_id for r in mine} == {"req-1"}
    access = next(r for r in mine if r.name == "casino.access")
    assert (access.method, access.path, access.status) == ("GET", "/no-such-page/", 404)
    # After the request, lines are no one's.
    logging.getLogger("casino").warning("between requests")
    assert caplog.records[-1].request_id == logs.NO_REQUEST


def test_a_json_line_holds_the_message_the_id_and_the_extras() -> None:
    record = logging.LogRecord("casino.x", logging.WARNING, __file__, 1, "%s won", ("alice",), None)
    record.round = 7
    token = logs.request_id.set("req-9")
    try:
        logs.RequestIdFilter().filter(record)
    finally:
        logs.request_id.reset(token)
    line = json.loads(logs.JsonFormatter().format(record))
    assert line["message"] == "alice won" and line["level"] == "WARNING"
    assert line["logger"] == "casino.x" and line["request_id"] == "req-9" and line["round"] == 7


def test_log_format_json_and_redis_sessions_from_the_environment(tmp_path) -> None:
    """The settings as a fresh process reads them: JSON lines on stderr, sessions in Redis."""
    code = (
        "import django, logging; django.setup(); from django.conf import settings; "
        "print(settings.SESSION_ENGINE); logging.getLogger('casino.test').warning('hello')"
    )
    env = {
        **os.environ,
        "LOG_FORMAT": "json",
        "REDIS_URL": "redis://127.0.0.1:6379/13",  # read, not connected to
        "DJANGO_SETTINGS_MODULE": "casino.settings",
        "CASINO_VAR_DIR": str(tmp_path),
    }
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "django.contrib.sessions.backends.cached_db"
    line = json.loads(done.stderr.strip().splitlines()[-1])
    assert line["message"] == "hello" and line["logger"] == "casino.test"
    assert line["request_id"] == "-"


def test_a_task_logs_under_the_id_of_the_request_that_sent_it() -> None:
    headers: dict[str, str] = {}
    token = logs.request_id.set("req-5")
    try:
        _send_request_id(headers=headers)
    finally:
        logs.request_id.reset(token)
    assert headers == {REQUEST_ID_HEADER: "req-5"}

    class Task:
        class request:
            casino_request_id = "req-5"

    _task_request_id(task_id="t-1", task=Task())
    try:
        assert logs.request_id.get() == "req-5"
    finally:
        from casino.celery import _task_request_id_done

        _task_request_id_done(task_id="t-1")
    assert logs.request_id.get() == logs.NO_REQUEST
