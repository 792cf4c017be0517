"""Crash tests with real processes: a web server, a Celery worker and beat.

The subprocesses share the pytest-django test database (``transaction=True`` tests, so
what the test writes is committed and what the subprocesses write is visible) and a
broker: the filesystem broker in a fresh ``CASINO_VAR_DIR`` on SQLite, the test
process's ``CELERY_BROKER_URL`` (Redis in CI) otherwise.
"""

from __future__ import annotations

import contextlib
import http.client
import os
import re
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator
from http.cookiejar import CookieJar
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.db import connection

ROOT = Path(__file__).resolve().parents[2]
PYTHON = sys.executable
RECOVERY_SECONDS = 1
DEADLINE = float(os.environ.get("RECOVERY_TIMEOUT", "60"))


def _flush_retrying_deadlocks() -> None:
    """The worker and beat live through a module's tests (``cluster``) and keep querying
    (the sweep every second) while pytest-django empties the database after each test. On
    PostgreSQL its ``TRUNCATE`` of every table can meet a query of theirs holding a lock it
    needs in the other order: the server breaks the deadlock by failing the ``TRUNCATE``,
    and the test errs at teardown (a clean-clone CI run met it once). The flush is tried
    again then; the other side's query finishes in milliseconds."""
    from django.db import OperationalError
    from django.db.backends.base.operations import BaseDatabaseOperations

    flush = BaseDatabaseOperations.execute_sql_flush

    def retried(self: BaseDatabaseOperations, sql_list: list[str]) -> None:
        for attempt in range(5):
            try:
                return flush(self, sql_list)
            except OperationalError as error:
                if "deadlock detected" not in str(error) or attempt == 4:
                    raise
                time.sleep(0.2)

    BaseDatabaseOperations.execute_sql_flush = retried  # type: ignore[method-assign]


_flush_retrying_deadlocks()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/recovery/" in str(item.fspath):
            item.add_marker(pytest.mark.recovery)


def wait_for(predicate: Callable[[], Any], *, timeout: float, what: str, step: float = 0.05) -> Any:
    """Poll ``predicate`` until it returns something truthy; fail after ``timeout``."""
    end = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > end:
            raise AssertionError(f"timed out after {timeout:.0f}s waiting for {what}")
        time.sleep(step)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def database_url() -> str:
    """A URL for the test database this pytest process uses right now."""
    conf = connection.settings_dict
    if conf["ENGINE"] == "django.db.backends.sqlite3":
        name = str(conf["NAME"])
        if name == ":memory:" or name.startswith("file:"):
            pytest.skip("an in-memory SQLite database cannot be shared with other processes")
        return "sqlite:///" + str(Path(name).resolve())
    if connection.vendor != "postgresql":
        pytest.skip(f"no crash tests for {conf['ENGINE']}")
    quote = urllib.parse.quote
    auth = quote(conf["USER"] or "", safe="")
    if conf.get("PASSWORD"):
        auth += ":" + quote(conf["PASSWORD"], safe="")
    host = conf.get("HOST") or "localhost"
    port = f":{conf['PORT']}" if conf.get("PORT") else ""
    return f"postgres://{auth}@{host}{port}/{quote(conf['NAME'], safe='')}"


class Proc:
    """A subprocess in its own process group, its output in a log file."""

    def __init__(self, name: str, args: list[str], env: dict[str, str], log: Path) -> None:
        self.name = name
        self.log = log
        self._file = log.open("ab")
        self._file.write(f"\n=== {name}: {' '.join(args)}\n".encode())
        self._file.flush()
        self.popen = subprocess.Popen(
            args,
            cwd=ROOT,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=self._file,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    @property
    def returncode(self) -> int | None:
        return self.popen.poll()

    def wait_dead(self, timeout: float) -> int:
        try:
            return self.popen.wait(timeout)
        except subprocess.TimeoutExpired:
            raise AssertionError(f"{self.name} did not die within {timeout:.0f}s") from None

    def kill(self) -> None:
        if self.popen.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.popen.pid, signal.SIGKILL)
        else:
            # The leader died; its children (runserver threads, pool workers) may not.
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.popen.pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.popen.wait(10)
        self._file.close()

    def tail(self, lines: int = 60) -> str:
        try:
            text = self.log.read_text(errors="replace")
        except OSError:
            return ""
        return "\n".join(text.splitlines()[-lines:])


class Client:
    """A browser-like HTTP client (urllib, a cookie jar, Django's CSRF token)."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.jar = CookieJar()

        class NoRedirect(urllib.request.HTTPRedirectHandler):
            def redirect_request(self, *args: Any, **kwargs: Any) -> None:
                return None

        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(self.jar), NoRedirect()
        )

    def cookie(self, name: str) -> str | None:
        return next((c.value for c in self.jar if c.name == name), None)

    def request(
        self, path: str, data: dict[str, Any] | None = None, timeout: float = 30
    ) -> tuple[int, str, dict[str, str]]:
        body = None
        headers = {}
        if data is not None:
            token = self.cookie("csrftoken")
            assert token, "no CSRF cookie yet"
            body = urllib.parse.urlencode({"csrfmiddlewaretoken": token, **data}).encode()
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        request = urllib.request.Request(self.base + path, data=body, headers=headers)  # noqa: S310
        try:
            with self.opener.open(request, timeout=timeout) as response:
                return response.status, response.read().decode(), dict(response.headers)
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode(errors="replace"), dict(error.headers)

    def get(self, path: str) -> tuple[int, str]:
        status, text, _headers = self.request(path)
        return status, text

    def post(self, path: str, data: dict[str, Any]) -> tuple[int, str]:
        status, text, _headers = self.request(path, data)
        return status, text

    def sign_in(self, username: str, password: str) -> None:
        status, page = self.get("/accounts/login/")
        assert status == 200, (status, page[:500])
        assert "csrfmiddlewaretoken" in page
        status, text, _headers = self.request(
            "/accounts/login/", {"username": username, "password": password}
        )
        assert status == 302, (status, text[:2000])
        assert self.cookie("sessionid"), "no session cookie after signing in"

    def post_expecting_drop(self, path: str, data: dict[str, Any]) -> str:
        """POST and expect the server to die before it answers; the error seen."""
        try:
            status, text, _headers = self.request(path, data)
        except (
            http.client.RemoteDisconnected,
            ConnectionError,
            urllib.error.URLError,
            http.client.IncompleteRead,
        ) as error:
            return repr(error)
        raise AssertionError(f"the server answered {status} instead of dying: {text[:500]}")


class Cluster:
    """Web servers, a Celery worker and beat sharing the test database and a broker."""

    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.var = tmp / "var"
        self.var.mkdir(parents=True, exist_ok=True)
        self.procs: list[Proc] = []
        self.counter = 0
        self.worker: Proc | None = None
        self.beat: Proc | None = None
        env = {k: v for k, v in os.environ.items() if not k.startswith("CASINO_FAULT")}
        env.update(
            DJANGO_SETTINGS_MODULE="casino.settings",
            DATABASE_URL=database_url(),
            CASINO_VAR_DIR=str(self.var),
            DEBUG="1",
            CASINO_ALLOW_FAULT_INJECTION="1",
            CASINO_FAST_PASSWORD_HASHER="1",
            CASINO_RECOVERY_INTERVAL_SECONDS=str(RECOVERY_SECONDS),
            CASINO_RECOVERY_GRACE_SECONDS=str(RECOVERY_SECONDS),
            CELERY_TASK_ALWAYS_EAGER="0",
            CELERY_BROKER_URL=settings.CELERY_BROKER_URL,
            PYTHONUNBUFFERED="1",
            LOG_LEVEL="INFO",
        )
        self.env = env

    def _start(
        self, name: str, args: list[str], fault: str | None, settings: dict[str, str] | None = None
    ) -> Proc:
        env = {**self.env, **(settings or {})}
        if fault:
            env["CASINO_FAULT_POINT"] = fault
        self.counter += 1
        proc = Proc(name, args, env, self.tmp / f"{self.counter:03d}-{name}.log")
        self.procs.append(proc)
        return proc

    def start_web(self, fault: str | None = None) -> tuple[Proc, str]:
        """``runserver`` on a free port; returns once ``/health/live/`` answers."""
        port = free_port()
        name = f"web-{fault or 'healthy'}"
        args = [PYTHON, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload"]
        args.append("--skip-checks")
        proc = self._start(name, args, fault)
        base = f"http://127.0.0.1:{port}"

        def up() -> bool:
            if proc.returncode is not None:
                raise AssertionError(f"{name} exited with {proc.returncode}:\n{proc.tail()}")
            try:
                with urllib.request.urlopen(base + "/health/live/", timeout=2) as response:  # noqa: S310
                    return response.status == 200
            except (OSError, http.client.HTTPException):
                return False

        wait_for(up, timeout=60, what=f"{name} to answer")
        return proc, base

    def start_asgi(self, workers: int = 2) -> tuple[Proc, str]:
        """uvicorn with ``workers`` processes on one port, as in production; returns once
        ``/health/live/`` answers. Killing one worker leaves the port served."""
        port = free_port()
        args = [PYTHON, "-m", "uvicorn", "casino.asgi:application", "--host", "127.0.0.1"]
        args += ["--port", str(port), "--workers", str(workers), "--log-level", "info"]
        proc = self._start("asgi", args, None)
        base = f"http://127.0.0.1:{port}"

        def up() -> bool:
            if proc.returncode is not None:
                raise AssertionError(f"uvicorn exited with {proc.returncode}:\n{proc.tail()}")
            try:
                with urllib.request.urlopen(base + "/health/live/", timeout=2) as response:  # noqa: S310
                    return response.status == 200
            except (OSError, http.client.HTTPException):
                return False

        wait_for(up, timeout=60, what="uvicorn to answer")
        return proc, base

    def start_worker(
        self, fault: str | None = None, pool: str = "solo", settings: dict[str, str] | None = None
    ) -> Proc:
        """A worker (``settings``: environment variables of its own)."""
        args = [PYTHON, "-m", "celery", "-A", "casino", "worker", f"--pool={pool}"]
        args += ["--concurrency=1", "--loglevel=INFO", "--without-gossip", "--without-mingle"]
        args += ["--without-heartbeat", "-n", f"recovery{self.counter}@%h"]
        self.worker = self._start(f"worker-{fault or 'healthy'}", args, fault, settings)
        return self.worker

    def start_beat(self) -> Proc:
        schedule = str(self.var / "celerybeat-schedule")
        args = [PYTHON, "-m", "celery", "-A", "casino", "beat", "--loglevel=INFO", "-s", schedule]
        self.beat = self._start("beat", args, None)
        return self.beat

    def ensure_background(self) -> None:
        """Worker and beat are alive (a test may have killed the worker)."""
        for proc in (self.worker, self.beat):
            if proc is not None and proc.returncode is not None:
                raise AssertionError(f"{proc.name} died ({proc.returncode}):\n{proc.tail()}")

    def recovery_ticks(self) -> int:
        if self.worker is None:
            return 0
        log = self.worker.tail(100_000)
        return sum(
            1 for line in log.splitlines() if "recover_rounds[" in line and "succeeded" in line
        )

    def wait_recovery_ticks(self, count: int) -> None:
        """Wait until the worker has finished ``count`` more recovery tasks."""
        start = self.recovery_ticks()
        wait_for(
            lambda: self.recovery_ticks() >= start + count,
            timeout=DEADLINE,
            what=f"{count} more recovery ticks",
            step=0.1,
        )

    def tails(self) -> str:
        return "\n".join(f"--- {proc.log.name}\n{proc.tail(40)}" for proc in self.procs[-6:])

    def stop(self) -> None:
        for proc in self.procs:
            proc.kill()


@pytest.fixture(scope="module")
def cluster(
    request: pytest.FixtureRequest, django_db_setup: None, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Cluster]:
    cluster = Cluster(tmp_path_factory.mktemp("recovery"))
    try:
        cluster.start_beat()
        cluster.start_worker()
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture
def show_logs_on_failure(request: pytest.FixtureRequest, cluster: Cluster) -> Iterator[None]:
    yield
    report = getattr(request.node, "rep_call", None)
    if report is not None and report.failed:
        print(f"\n===== subprocess logs (in {cluster.tmp}) =====\n{cluster.tails()}")


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    report = yield
    setattr(item, f"rep_{report.when}", report)
    return report


def new_token() -> str:
    return secrets.token_hex(8)


def round_id_from(text: str) -> int | None:
    match = re.search(r'name="round"[^>]*value="(\d+)"', text)
    return int(match.group(1)) if match else None
