"""``make run`` and ``make prod``: the web server, Celery worker and beat, stopped together.

The web server is uvicorn (ASGI), as in production, so the full table's live events
stream here too; ``--reload`` restarts it when the code changes. ``--workers N`` runs N
uvicorn processes, each on a listening socket of its own on the same port
(``SO_REUSEPORT``: the kernel spreads the connections; see :mod:`casino.runtime.serve`);
``--role`` runs only some of the three, for more machines: any number of web processes
and workers, exactly one beat (README, "Production").

Each child runs in a session of its own, so a Ctrl-C reaches only this command,
which then stops them all and waits for them. One of several web processes that dies
after it has been up a while is started again (on a new socket: the dead one's was
closed with it, so no connection waits for it). Otherwise, if one of them dies, the
others are stopped too and the exit status says so.

With DEBUG off (``--production`` insists on it) it refuses to start what would fail
later or serve wrongly: no ALLOWED_HOSTS, static files not collected, migrations not
applied, ``--reload``, or an error of Django's deployment checks.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from types import FrameType
from typing import Any

from django.conf import settings
from django.core import checks
from django.core.exceptions import ImproperlyConfigured
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connections
from django.db.migrations.executor import MigrationExecutor

from casino.startup import require_collected_static

ROLES = ("web", "worker", "beat")
# A web process that dies sooner than this after its start is not started again: it
# would only die again (a broken configuration), so everything stops and says so.
RESTART_AFTER_SECONDS = 10.0


def roles_of(value: str) -> list[str]:
    """``all``, or a comma list of web, worker and beat."""
    asked = [part.strip() for part in value.split(",") if part.strip()]
    if asked == ["all"]:
        return list(ROLES)
    unknown = [role for role in asked if role not in ROLES]
    if not asked or unknown:
        raise CommandError(f"--role takes all, or some of {', '.join(ROLES)}; not {value!r}.")
    return [role for role in ROLES if role in asked]


class Command(BaseCommand):
    help = "Run the web server, a Celery worker and Celery beat (or some of them) until Ctrl-C."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--addr", default="127.0.0.1:8000", help="HOST:PORT of uvicorn.")
        parser.add_argument("--reload", action="store_true", help="Restart on code changes.")
        parser.add_argument(
            "--workers", type=int, default=1, help="uvicorn processes (web); default 1."
        )
        parser.add_argument(
            "--role",
            default="all",
            help="all, or a comma list of web, worker, beat (exactly one beat per site).",
        )
        parser.add_argument(
            "--db-pool",
            type=int,
            default=None,
            help="DATABASE_POOL_SIZE for each web process (PostgreSQL); never for worker/beat.",
        )
        parser.add_argument(
            "--worker-concurrency", type=int, default=None, help="Celery worker processes."
        )
        parser.add_argument(
            "--production", action="store_true", help="Refuse to start unless DEBUG is off."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        roles = roles_of(options["role"])
        if options["workers"] < 1:
            raise CommandError("--workers must be at least 1.")
        if options["reload"] and options["workers"] > 1:
            raise CommandError("--reload runs one web process: leave out --workers.")
        if options["production"] and settings.DEBUG:
            raise CommandError("--production needs DEBUG=0 (README, Production).")
        if not settings.DEBUG:
            self._refuse_production_pitfalls(roles, reload=options["reload"])
        self._warn_local_state(roles)
        commands = self._commands(roles, options)
        self._run(commands, options["addr"] if "web" in roles else "")

    # Before anything starts ---------------------------------------------------------------

    def _refuse_production_pitfalls(self, roles: list[str], *, reload: bool) -> None:
        problems: list[str] = []
        if reload:
            problems.append("--reload is for development (DEBUG=1).")
        if "web" in roles and not os.environ.get("ALLOWED_HOSTS"):
            problems.append(
                "ALLOWED_HOSTS is not set: name the host names the site answers to "
                "(ALLOWED_HOSTS=casino.example.com)."
            )
        if "web" in roles:
            try:
                require_collected_static()
            except ImproperlyConfigured as error:
                problems.append(str(error))
        pending = _pending_migrations()
        if pending:
            problems.append(
                f"{pending} migration(s) not applied: run `python manage.py migrate` first."
            )
        errors = [
            message
            for message in checks.run_checks(include_deployment_checks=True)
            if message.level >= checks.ERROR and not message.is_silenced()
        ]
        problems += [str(message) for message in errors]
        if problems:
            raise CommandError(
                "Not starting with DEBUG off:\n" + "\n".join(f"- {p}" for p in problems)
            )

    def _warn_local_state(self, roles: list[str]) -> None:
        """The embedded default keeps state in this machine's var/: fine for one machine,
        wrong when the roles run on several."""
        if roles == list(ROLES):
            return
        if settings.CELERY_BROKER_URL.startswith("filesystem://"):
            self.stderr.write(
                "Warning: the embedded broker lives in this machine's var/; with roles on "
                "several machines set CELERY_BROKER_URL (Redis)."
            )
        if connections["default"].vendor == "sqlite":
            self.stderr.write(
                "Warning: SQLite is a file on this machine; with roles on several machines "
                "set DATABASE_URL (PostgreSQL)."
            )
        if not settings.REDIS_URL:
            self.stderr.write(
                "Warning: without REDIS_URL each web process has its own cache, rate limits "
                "and sessions' cache; set REDIS_URL when there are several."
            )

    def _commands(self, roles: list[str], options: dict[str, Any]) -> dict[str, Any]:
        python = sys.executable
        # The Celery worker forks its processes: a connection pool opened before the fork
        # would be shared by all of them. Only web processes pool.
        no_pool = {**os.environ, "DATABASE_POOL_SIZE": "0"}
        web_env = dict(os.environ)
        if options["db_pool"] is not None:
            web_env["DATABASE_POOL_SIZE"] = str(options["db_pool"])
        commands: dict[str, Any] = {}
        if "web" in roles and options["workers"] > 1 and _reuse_port():
            host, _, port = options["addr"].rpartition(":")
            self.listen = (host.strip("[]") or "127.0.0.1", int(port))
            serve = [python, "-m", "casino.runtime.serve", "--log-level", "info"]
            for number in range(1, options["workers"] + 1):
                commands[f"web-{number}"] = (serve, web_env)
        elif "web" in roles:
            host, _, port = options["addr"].rpartition(":")
            web = [python, "-m", "uvicorn", "casino.asgi:application"]
            web += ["--host", host or "127.0.0.1", "--port", port, "--log-level", "info"]
            # Live streams never finish by themselves: on Ctrl-C, close them after 5 s (the
            # browsers come back by Last-Event-ID) instead of waiting for them.
            web += ["--timeout-graceful-shutdown", "5"]
            # Django writes the access lines itself, with the request id (casino.access).
            web += ["--no-access-log", "--lifespan", "off"]
            if options["workers"] > 1:
                web += ["--workers", str(options["workers"])]
            if options["reload"]:
                web += ["--reload", "--reload-dir", "baccarat", "--reload-dir", "casino"]
                web += ["--reload-dir", "wallet", "--reload-dir", "templates"]
            commands["web"] = (web, web_env)
        if "worker" in roles:
            worker = [python, "-m", "celery", "-A", "casino", "worker", "--loglevel=INFO"]
            if options["worker_concurrency"]:
                worker += ["--concurrency", str(options["worker_concurrency"])]
            commands["worker"] = (worker, no_pool)
        if "beat" in roles:
            beat = [python, "-m", "celery", "-A", "casino", "beat", "--loglevel=INFO"]
            commands["beat"] = (beat, no_pool)
        return commands

    # Running -------------------------------------------------------------------------------

    def _run(self, commands: dict[str, Any], addr: str) -> None:
        connections.close_all()  # the checks' connection is not the children's business
        listen: tuple[str, int] | None = getattr(self, "listen", None)
        if listen is not None:
            _refuse_taken_port(*listen)

        def start(name: str) -> subprocess.Popen[bytes]:
            command, env = commands[name]
            if listen is None or not name.startswith("web-"):
                return subprocess.Popen(command, env=env, start_new_session=True)  # noqa: S603
            sock = _listening_socket(*listen)
            try:
                return subprocess.Popen(  # noqa: S603
                    [*command, "--fd", str(sock.fileno())],
                    env=env,
                    start_new_session=True,
                    pass_fds=(sock.fileno(),),
                )
            finally:
                sock.close()  # the child's now: when it ends, so does the socket

        children: dict[str, subprocess.Popen[bytes]] = {}
        for name in commands:
            try:
                children[name] = start(name)
            except OSError as error:  # its socket: the port taken from under us meanwhile
                _stop_all(children)
                raise CommandError(f"Could not start {name}: {error}.") from None
        started = dict.fromkeys(children, time.monotonic())
        stopping = False

        def stop(signum: int, frame: FrameType | None) -> None:
            nonlocal stopping
            stopping = True

        signal.signal(signal.SIGINT, stop)
        signal.signal(signal.SIGTERM, stop)
        names = ", ".join(children)
        where = f"Casino on http://{addr}/: " if addr else ""
        self.stdout.write(f"{where}{names} (Ctrl-C stops them)")
        failed = ""
        while not stopping and not failed:
            for name, child in children.items():
                if stopping or child.poll() is None:
                    continue
                up = time.monotonic() - started[name]
                if listen is not None and name.startswith("web-") and up > RESTART_AFTER_SECONDS:
                    self.stderr.write(f"{name} ended ({child.returncode}); starting it again.")
                    try:
                        children[name], started[name] = start(name), time.monotonic()
                    except OSError as error:
                        self.stderr.write(f"{name} could not start again: {error}.")
                        failed = name
                        break
                else:
                    failed = name
                    break
            time.sleep(0.2)
        _stop_all(children)
        if failed:
            self.stderr.write(f"{failed} stopped unexpectedly; stopped the others.")
            sys.exit(1)
        self.stdout.write(f"Stopped {names}.")


def _stop_all(children: dict[str, subprocess.Popen[bytes]]) -> None:
    """SIGTERM to every child still running, then wait; SIGKILL what is left after 15 s.
    The children run in sessions of their own (a Ctrl-C reaches runall only), so nothing
    else stops them."""
    for child in children.values():
        if child.poll() is None:
            child.send_signal(signal.SIGTERM)
    deadline = time.monotonic() + 15
    for child in children.values():
        try:
            child.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()


def _reuse_port() -> bool:
    """Whether several sockets may listen on one port, the kernel spreading connections."""
    return sys.platform.startswith("linux") and hasattr(socket, "SO_REUSEPORT")


def _address(host: str, port: int) -> tuple[socket.AddressFamily, Any]:
    family, _, _, _, address = socket.getaddrinfo(
        host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
    )[0]
    return family, address


def _refuse_taken_port(host: str, port: int) -> None:
    """Bind without ``SO_REUSEPORT`` first: a port that anything listens on (another
    runall too, whose sockets would otherwise share the connections) is refused."""
    family, address = _address(host, port)
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as error:
            raise CommandError(f"Cannot listen on {host}:{port}: {error.strerror}.") from None


def _listening_socket(host: str, port: int) -> socket.socket:
    family, address = _address(host, port)
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    sock.bind(address)
    sock.listen(2048)
    sock.set_inheritable(True)
    return sock


def _pending_migrations() -> int:
    executor = MigrationExecutor(connections["default"])
    return len(executor.migration_plan(executor.loader.graph.leaf_nodes()))
