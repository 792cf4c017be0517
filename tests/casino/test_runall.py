"""``manage.py runall``: which processes it starts, with what, and what it refuses."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from casino.management.commands.runall import Command, roles_of


def test_roles_are_all_or_a_list_of_web_worker_beat() -> None:
    assert roles_of("all") == ["web", "worker", "beat"]
    assert roles_of("beat,web") == ["web", "beat"]
    with pytest.raises(CommandError, match="--role"):
        roles_of("web,cron")


def test_web_processes_pool_connections_and_the_worker_never_does(monkeypatch) -> None:
    monkeypatch.setenv("DATABASE_POOL_SIZE", "3")
    options = {
        "addr": "0.0.0.0:8000",
        "workers": 4,
        "reload": False,
        "db_pool": 8,
        "worker_concurrency": 2,
    }
    commands = Command()._commands(["web", "worker", "beat"], options)
    # Several web processes: each serves a socket of its own (casino.runtime.serve), not uvicorn's
    # --workers sharing one.
    webs = [name for name in commands if name.startswith("web")]
    assert webs == ["web-1", "web-2", "web-3", "web-4"]
    for name in webs:
        web, web_env = commands[name]
        assert web[1:3] == ["-m", "casino.runtime.serve"] and "--workers" not in web
        assert web_env["DATABASE_POOL_SIZE"] == "8"
    worker, worker_env = commands["worker"]
    assert worker[worker.index("--concurrency") + 1] == "2"
    assert worker_env["DATABASE_POOL_SIZE"] == "0"
    assert commands["beat"][1]["DATABASE_POOL_SIZE"] == "0"
    only_web = Command()._commands(["web"], {**options, "workers": 1})
    assert list(only_web) == ["web"] and "--workers" not in only_web["web"][0]
    web = only_web["web"][0]
    assert web[web.index("--timeout-graceful-shutdown") + 1] == "5"


def test_production_refuses_debug_on(settings) -> None:
    settings.DEBUG = True
    with pytest.raises(CommandError, match="DEBUG=0"):
        call_command("runall", production=True)


def test_debug_off_refuses_to_start_without_allowed_hosts_or_with_reload(
    settings, monkeypatch, db
) -> None:
    settings.DEBUG = False
    monkeypatch.delenv("ALLOWED_HOSTS", raising=False)
    with pytest.raises(CommandError) as refused:
        call_command("runall", reload=True)
    assert "ALLOWED_HOSTS is not set" in str(refused.value)
    assert "--reload is for development" in str(refused.value)


def test_debug_off_on_a_worker_machine_needs_no_allowed_hosts(settings, monkeypatch, db) -> None:
    settings.DEBUG = False
    monkeypatch.delenv("ALLOWED_HOSTS", raising=False)
    monkeypatch.delenv("DJANGO_ALLOW_ASYNC_UNSAFE")  # the tests' own; a deploy check error
    Command()._refuse_production_pitfalls(["worker"], reload=False)  # no refusal


def test_several_workers_cannot_reload() -> None:
    with pytest.raises(CommandError, match="--reload"):
        call_command("runall", reload=True, workers=2)


def test_several_web_processes_share_the_connections_and_come_back(tmp_path) -> None:
    """``--workers 2``: two processes, each on a socket of its own on the one port, so the
    kernel spreads the connections (uvicorn's shared socket let the first process to wake
    take them all); one killed after it has run a while is started again; the port is
    refused to a second runall."""
    import os
    import re
    import signal
    import socket
    import subprocess
    import sys
    import time
    from pathlib import Path

    from casino.management.commands import runall
    from loadtest import processes

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {
        **os.environ,
        "CASINO_VAR_DIR": str(tmp_path / "var"),
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
    }
    root = Path(__file__).resolve().parents[2]
    command = [sys.executable, "manage.py", "runall", "--role", "web", "--workers", "2"]
    log = (tmp_path / "runall.log").open("wb")
    server = subprocess.Popen(
        [*command, "--addr", f"127.0.0.1:{port}"],
        cwd=root,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )

    def serving() -> list[int]:
        listening = processes.listening_pids(port)
        return [pid for pid in (int(line) for line in _children(server.pid)) if pid in listening]

    def wait(what: str, ready: object) -> None:
        deadline = time.monotonic() + 60
        while not ready():  # type: ignore[operator]
            assert server.poll() is None, (tmp_path / "runall.log").read_text()
            assert time.monotonic() < deadline, what
            time.sleep(0.2)

    try:
        wait("two web processes listening", lambda: len(serving()) == 2)
        first = serving()
        clients = []
        for _ in range(16):
            client = socket.create_connection(("127.0.0.1", port), timeout=30)
            client.sendall(b"GET /favicon.ico HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            assert client.recv(12).startswith(b"HTTP/1.1")  # answered, kept open
            clients.append(client)
        held = {pid: _connections(pid, port) for pid in first}
        assert sum(held.values()) == 16 and all(held.values()), held
        for client in clients:
            client.close()
        with pytest.raises(CommandError, match="Cannot listen"):
            runall._refuse_taken_port("127.0.0.1", port)
        time.sleep(runall.RESTART_AFTER_SECONDS + 0.5)  # up long enough to be restarted
        os.kill(first[0], signal.SIGKILL)
        wait("the killed process started again", lambda: len(set(serving()) - set(first)) == 1)
        assert server.poll() is None
        with socket.create_connection(("127.0.0.1", port), timeout=30) as client:
            client.sendall(b"GET /favicon.ico HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            assert client.recv(12).startswith(b"HTTP/1.1")
    finally:
        server.send_signal(signal.SIGINT)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            raise
        log.close()
    assert server.returncode == 0, (tmp_path / "runall.log").read_text()
    assert re.search(
        r"web-\d ended \(-9\); starting it again\.", (tmp_path / "runall.log").read_text()
    )


def _children(pid: int) -> list[str]:
    from pathlib import Path

    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        found += (task / "children").read_text().split()
    return found


def _socket_inodes(pid: int) -> set[str]:
    import os

    inodes = set()
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            target = os.readlink(f"/proc/{pid}/fd/{fd}")
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[8:-1])
    return inodes


def _tcp(port: int, state: str) -> set[str]:
    """Inodes of the IPv4 TCP sockets on local ``port`` in ``state`` (01: open; the
    listening ones are ``loadtest.processes.listening_pids``')."""
    from pathlib import Path

    inodes = set()
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        parts = line.split()
        if int(parts[1].split(":")[1], 16) == port and parts[3] == state:
            inodes.add(parts[9])
    return inodes


def _connections(pid: int, port: int) -> int:
    return len(_socket_inodes(pid) & _tcp(port, "01"))


@pytest.fixture
def fake_children(monkeypatch):
    """runall's supervision with stand-in web processes (``python -c``), a socket that
    cannot be had after ``sockets`` were made, and the signal handlers put back after."""
    import signal
    import socket
    import sys

    from casino.management.commands import runall

    handlers = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}
    made, spawned = [], []
    make, popen = runall._listening_socket, runall.subprocess.Popen

    def recorded(*args, **kwargs):
        spawned.append(popen(*args, **kwargs))
        return spawned[-1]

    monkeypatch.setattr(runall.subprocess, "Popen", recorded)

    def listening(sockets: int):
        def socket_or_fail(host: str, port: int) -> socket.socket:
            if len(made) >= sockets:
                raise OSError(98, "Address already in use")
            made.append(port)
            return make(host, port)

        monkeypatch.setattr(runall, "_listening_socket", socket_or_fail)

    def command(seconds: float) -> tuple[list[str], dict[str, str]]:
        return [sys.executable, "-c", f"import time; time.sleep({seconds})"], {}

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    runner = Command()
    runner.listen = ("127.0.0.1", port)
    yield runner, listening, command, made, spawned
    for sig, handler in handlers.items():
        signal.signal(sig, handler)


def test_a_web_process_that_cannot_start_again_stops_the_others(fake_children, monkeypatch) -> None:
    """A web process ended after running a while, and its new socket cannot be bound: runall
    stops the other children and exits 1, leaving none behind (they run in sessions of
    their own)."""
    from casino.management.commands import runall

    runner, listening, command, made, spawned = fake_children
    monkeypatch.setattr(runall, "RESTART_AFTER_SECONDS", 0.3)
    listening(sockets=2)
    children = {"web-1": command(0.8), "web-2": command(60), "worker": command(60)}
    with pytest.raises(SystemExit) as stopped:
        runner._run(children, "")
    assert stopped.value.code == 1 and len(made) == 2 and len(spawned) == 3
    assert all(child.poll() is not None for child in spawned)  # none left running


def test_a_web_socket_that_cannot_be_had_at_the_start_stops_what_started(
    fake_children,
) -> None:
    runner, listening, command, _made, spawned = fake_children
    listening(sockets=1)
    with pytest.raises(CommandError, match="Could not start web-2"):
        runner._run({"web-1": command(60), "web-2": command(60)}, "")
    assert len(spawned) == 1 and spawned[0].poll() is not None
