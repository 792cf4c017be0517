"""Services that fail, for tests: a port where nothing listens, a socket that accepts
and never answers, the project's own Redis settings pointed at either, and PostgreSQL
ending the test database's connections."""

from __future__ import annotations

import functools
import json
import os
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.conf import settings

PLACEHOLDER = "redis://127.0.0.1:9/15"


def free_port() -> int:
    """A port on the loopback where nothing listens (taken and given back at once)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def silent_server() -> Iterator[int]:
    """A server on the loopback that accepts every connection and never answers: a Redis
    (or PostgreSQL) that hangs. Yields its port."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    listener.settimeout(0.05)
    accepted: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        while not stop.is_set():
            try:
                connection, _ = listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return  # closed
            accepted.append(connection)

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        yield int(listener.getsockname()[1])
    finally:
        stop.set()
        thread.join(5)
        listener.close()
        for connection in accepted:
            connection.close()


@functools.cache
def production_settings() -> dict[str, Any]:
    """What casino/settings.py makes of a production environment (Redis for the cache,
    sessions and broker, PostgreSQL with a pool of 4): read in a process of its own."""
    names = [
        "CACHES",
        "SESSION_ENGINE",
        "SESSION_CACHE_ALIAS",
        "REDIS_TIMEOUTS",
        "CELERY_BROKER_TRANSPORT_OPTIONS",
        "CELERY_BROKER_CONNECTION_TIMEOUT",
        "CELERY_REDIS_SOCKET_TIMEOUT",
        "CELERY_REDIS_SOCKET_CONNECT_TIMEOUT",
        "DATABASES",
    ]
    script = (
        "import json; from casino import settings;"
        f" print(json.dumps({{name: getattr(settings, name, None) for name in {names!r}}}))"
    )
    env = {
        **os.environ,
        "REDIS_URL": PLACEHOLDER,
        "CELERY_BROKER_URL": PLACEHOLDER,
        "DATABASE_URL": "postgres://postgres@127.0.0.1:5432/casino_settings",
        "DATABASE_POOL_SIZE": "4",
    }
    run = subprocess.run(
        [sys.executable, "-c", script],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        cwd=settings.BASE_DIR,
    )
    return dict(json.loads(run.stdout.strip().splitlines()[-1]))


def redis_at(url: str) -> dict[str, Any]:
    """The production settings of the cache, the sessions and the live events, on the
    Redis at ``url``: for ``settings`` (pytest-django) or ``override_settings``."""
    production = production_settings()
    caches = json.loads(json.dumps(production["CACHES"]).replace(PLACEHOLDER, url))
    return {
        "REDIS_URL": url,
        "CACHES": caches,
        "SESSION_ENGINE": production["SESSION_ENGINE"],
        "SESSION_CACHE_ALIAS": production["SESSION_CACHE_ALIAS"],
    }


def end_database_connections() -> int:
    """PostgreSQL ends every connection to the test database (``pg_terminate_backend``),
    as a restart or a failover does; returns how many. Asked on a connection of its own."""
    import psycopg
    from django.db import connection

    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    params.pop("context", None)
    params.pop("prepare_threshold", None)
    with psycopg.connect(**params, autocommit=True) as killer:
        ended = killer.execute(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        ).fetchone()
    return int(ended[0]) if ended else 0
