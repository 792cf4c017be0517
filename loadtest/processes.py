"""The server's processes as Linux's /proc shows them: which they are, their CPU time and
their memory. For ``manage.py bench`` and ``soak``, on the server's machine.

Web processes are found by the port they listen on (every process holding the listening
socket: uvicorn's supervisor and its workers) with their descendants. When they were
started by ``manage.py runall``, its other children are the Celery worker (with its
forked processes) and beat. PostgreSQL's processes (the postmaster and its backends) are
found by name, when the database runs on this machine.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

PROC = Path("/proc")
TICKS = os.sysconf("SC_CLK_TCK")
PAGE = os.sysconf("SC_PAGE_SIZE")
LISTEN = "0A"


@dataclass
class Processes:
    web: list[int] = field(default_factory=list)
    worker: list[int] = field(default_factory=list)
    beat: list[int] = field(default_factory=list)
    database: list[int] = field(default_factory=list)

    def groups(self) -> dict[str, list[int]]:
        return {
            name: pids
            for name, pids in (
                ("web", self.web),
                ("worker", self.worker),
                ("beat", self.beat),
                ("database", self.database),
            )
            if pids
        }


def _read(path: Path) -> str:
    try:
        return path.read_text()
    except OSError:
        return ""


def cmdline(pid: int) -> str:
    return _read(PROC / str(pid) / "cmdline").replace("\0", " ").strip()


def _stat_fields(pid: int) -> list[str]:
    """Fields of /proc/<pid>/stat after the command name (which may hold spaces)."""
    text = _read(PROC / str(pid) / "stat")
    return text[text.rfind(")") + 2 :].split() if text else []


def _all_pids() -> list[int]:
    return [int(entry.name) for entry in PROC.iterdir() if entry.name.isdigit()]


def _parents() -> dict[int, int]:
    parents = {}
    for pid in _all_pids():
        fields = _stat_fields(pid)
        if fields:
            parents[pid] = int(fields[1])
    return parents


def descendants(pids: list[int], parents: dict[int, int] | None = None) -> list[int]:
    """The processes and all their descendants, each once, in order found."""
    parents = _parents() if parents is None else parents
    found = list(dict.fromkeys(pids))
    for pid in found:  # grows while we walk it
        found += [
            child for child, parent in parents.items() if parent == pid and child not in found
        ]
    return found


def listening_pids(port: int) -> list[int]:
    """The processes holding a socket that listens on ``port`` (any address)."""
    inodes = set()
    for table in ("tcp", "tcp6"):
        for line in _read(PROC / "net" / table).splitlines()[1:]:
            parts = line.split()
            if len(parts) <= 9 or parts[3] != LISTEN:
                continue
            if int(parts[1].rsplit(":", 1)[1], 16) == port:
                inodes.add(f"socket:[{parts[9]}]")
    pids = []
    for pid in _all_pids():
        try:
            fds = list((PROC / str(pid) / "fd").iterdir())
        except OSError:
            continue
        for fd in fds:
            try:
                if os.readlink(fd) in inodes:
                    pids.append(pid)
                    break
            except OSError:
                continue
    return pids


def discover(
    *,
    port: int | None,
    web: list[int] | None = None,
    worker: list[int] | None = None,
    database: bool = False,
) -> Processes:
    """The server's processes: given, or found by port (and runall's other children)."""
    parents = _parents()
    found = Processes()
    found.web = descendants(web or (listening_pids(port) if port else []), parents)
    found.worker = descendants(worker, parents) if worker else []
    if found.web and not worker:
        # Started by runall? Then its other children are the worker and beat.
        top = found.web[0]
        while parents.get(top) in found.web:
            top = parents[top]
        runall = parents.get(top)
        if runall and "runall" in cmdline(runall):
            for child in [c for c, p in parents.items() if p == runall and c != top]:
                command = cmdline(child)
                if " worker" in command:
                    found.worker = descendants([child], parents)
                elif " beat" in command:
                    found.beat = descendants([child], parents)
    if database:
        found.database = postgres_pids(parents)
    return found


def postgres_pids(parents: dict[int, int] | None = None) -> list[int]:
    """PostgreSQL's processes on this machine: the postmaster and its backends (a pool
    opens backends as the load grows, so who they are changes during a run)."""
    return [
        pid
        for pid in (parents if parents is not None else _parents())
        if _read(PROC / str(pid) / "comm").strip() == "postgres"
    ]


def cpu_seconds(pids: list[int]) -> float:
    """User and system CPU of the processes, with that of their children that ended
    (a PostgreSQL backend that closed counts in the postmaster's)."""
    total = 0
    for pid in pids:
        fields = _stat_fields(pid)
        if len(fields) > 14:
            total += sum(int(value) for value in fields[11:15])  # utime stime cutime cstime
    return total / TICKS


def rss_bytes(pid: int) -> int | None:
    fields = _read(PROC / str(pid) / "statm").split()
    return int(fields[1]) * PAGE if len(fields) > 1 else None


def alive(pid: int) -> bool:
    return (PROC / str(pid)).exists()
