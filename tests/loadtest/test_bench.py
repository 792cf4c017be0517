"""``manage.py bench`` and ``soak`` against the ASGI app under uvicorn, a few rounds each."""

from __future__ import annotations

import io
import json
import threading
import time
from typing import Any

from django.core.management import call_command
from django.db import connections

from baccarat.models import Round, Table
from baccarat.recovery import heartbeat_beat


def _in_thread(name: str, **options: Any) -> dict[str, Any]:
    """The command's JSON summary. In a thread of its own: it runs an event loop, and
    the browser tests of the same session keep one running in this thread."""
    out = io.StringIO()
    failed: list[BaseException] = []

    def run() -> None:
        try:
            call_command(name, json=True, stdout=out, **options)
        except BaseException as error:  # reported below
            failed.append(error)
        finally:
            connections.close_all()

    worker = threading.Thread(target=run)
    worker.start()
    worker.join(60)
    assert not worker.is_alive(), f"{name} did not finish"
    assert not failed, failed
    return json.loads(out.getvalue())


def test_bench_plays_sessions_and_measures_the_floor(asgi_server: str) -> None:
    heartbeat_beat()  # /health/ is 200 only while the recovery sweep runs
    s = _in_thread(
        "bench",
        base_url=asgi_server,
        players=2,
        rounds=3,
        floor_seconds=0.3,
        page_visits=1,
        tag="t",
    )
    assert s["errors"] == 0, s["error_samples"]
    assert s["rounds_played"] == 6 and s["rounds_settled"] == 6 and s["rounds_locked"] == 0
    endpoints = s["endpoints"]
    # A round is one request: DEAL with the layout laid out as the page's script does.
    assert endpoints["deal"]["count"] == 6 and "bet" not in endpoints
    assert endpoints["protocol"]["count"] == endpoints["cashier"]["count"] == 2
    assert endpoints["health"]["count"] > 0 and endpoints["simple page"]["count"] > 0
    assert endpoints["deal"]["p99"] >= endpoints["deal"]["p50"] > 0
    assert s["rounds_per_s"] > 0 and s["ratio"] > 0
    assert s["ledger"]["clean"], s["ledger"]["violations"]
    assert s["processes"] == {}  # the server runs in this process: no CPU figures
    assert Table.objects.get(slug="bench-t").is_active is False
    # Each round staked one chip, on the spot the layout sent (Player and Banker in turn).
    stakes = {r.plays.get().stake_total for r in Round.objects.filter(table__slug="bench-t")}
    assert stakes == {500}


def test_soak_plays_at_a_rate_and_samples(asgi_server: str) -> None:
    s = _in_thread(
        "soak",
        base_url=asgi_server,
        players=2,
        minutes=0.05,
        rate=4,
        sample_seconds=1,
        warmup_seconds=0,
        tag="s",
    )
    assert s["errors"] == 0, s["error_samples"]
    assert 6 <= s["rounds_played"] <= 13 and s["rounds_settled"] == s["rounds_played"]
    assert len(s["samples"]) >= 3 and s["samples"][0]["t"] < 1
    assert s["ledger"]["clean"], s["ledger"]["violations"]


def test_the_cpu_meter_splits_several_web_processes() -> None:
    """With several web processes the meter also gives each one's CPU: one of them may
    have taken most of the connections, and the run's figures then mean something else."""
    import os
    import subprocess
    import sys

    from loadtest.benchmark import CpuMeter

    idle = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        me = os.getpid()
        meter = CpuMeter({"web": [me, idle.pid]})
        meter.mark("rounds", "start")
        started = time.process_time()
        while time.process_time() - started < 0.3:
            sum(range(10_000))
        meter.mark("rounds", "end")
        used = meter.used("rounds")
    finally:
        idle.kill()
        idle.wait()
    assert used[f"web {me}"] >= 0.25 and used[f"web {idle.pid}"] < 0.05
    assert abs(used["web"] - used[f"web {me}"] - used[f"web {idle.pid}"]) < 0.02
    single = CpuMeter({"web": [me]})
    single.mark("rounds", "start")
    single.mark("rounds", "end")
    assert set(single.used("rounds")) == {"web", "client"}  # one process: no split


def test_cpu_meter_counts_database_backends_opened_during_a_phase(monkeypatch: Any) -> None:
    """A pool opens PostgreSQL backends as the load grows: one born during the phase
    counts from zero (the meter once counted only the backends there at its start)."""
    import subprocess
    import sys

    from loadtest import processes
    from loadtest.benchmark import CpuMeter

    burn = "import time\nt = time.process_time()\nwhile time.process_time() - t < 0.3: pass\n"
    there: list[int] = []
    monkeypatch.setattr(processes, "postgres_pids", lambda parents=None: list(there))
    meter = CpuMeter({"database": []})
    meter.mark("rounds", "start")
    backend = subprocess.Popen([sys.executable, "-c", burn + "time.sleep(30)"])
    try:
        there.append(backend.pid)
        deadline = time.monotonic() + 10
        while processes.cpu_seconds([backend.pid]) < 0.3 and time.monotonic() < deadline:
            time.sleep(0.05)
        meter.mark("rounds", "end")
    finally:
        backend.kill()
        backend.wait()
    assert meter.used("rounds")["database"] >= 0.25
