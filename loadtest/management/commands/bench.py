"""``manage.py bench``: whole single-player sessions against a real server, measured.

    python manage.py bench --base-url http://127.0.0.1:8000 --players 16 --rounds 40

Run it on the server's machine with the server's environment (same database). It makes a
single-player table and its players (:mod:`loadtest.benchmark`), and the players
(:mod:`loadtest.bench`) sign in, then, every phase at the same concurrency:

1. the framework floor: ``/health/`` and a simple signed-in page in loops;
2. sit: the table page and a buy-in;
3. rounds: DEAL with the layout (HTMX, as the page with its script sends it: one request
   a round), ``--rounds`` each;
4. the protocol and the cashier, ``--page-visits`` times each.

It prints per endpoint the requests per second, p50/p95/p99/max and errors; rounds per
second and their ratio to ``/health/``'s requests per second; the CPU the web processes
(found by the port, or ``--server-pids``), the Celery worker and PostgreSQL used per round
in the rounds phase; the rounds the database settled, and the ledger audit. It exits
non-zero on any error or violation. A server with DEBUG off and the production profile is
what it is for (README, "Benchmark and soak"); table actions are rate-limited per player,
so start the server with ``CASINO_RATE_TABLE=`` (off) or a high limit.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from loadtest import benchmark, loadrun
from loadtest.bench import Run, bench_run
from loadtest.loadclient import percentiles

ORDER = ["login form", "login", "health", "simple page", "table page", "rebuy", "deal"]


class Command(BaseCommand):
    help = "Play single-player sessions over HTTP; requests/s, latencies, CPU per round."

    def add_arguments(self, parser: CommandParser) -> None:
        benchmark.add_common_arguments(parser)
        parser.add_argument("--rounds", type=int, default=40, help="Rounds per player (40).")
        parser.add_argument(
            "--floor-seconds", type=float, default=10.0, help="Seconds per floor endpoint (10)."
        )
        parser.add_argument(
            "--page-visits", type=int, default=3, help="Protocol and cashier visits each (3)."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["rounds"] < 1:
            raise CommandError("--rounds must be at least 1.")
        run_setup = benchmark.setup(options, rounds_per_player=options["rounds"])
        found = benchmark.server_processes(options)
        meter = benchmark.CpuMeter(found.groups())
        quiet = logging.getLogger("httpx")  # it logs every request at INFO
        level = quiet.level
        quiet.setLevel(logging.WARNING)
        try:
            run = asyncio.run(
                bench_run(
                    specs=run_setup.players,
                    plan=run_setup.plan,
                    rounds=options["rounds"],
                    floor_seconds=options["floor_seconds"],
                    page_visits=options["page_visits"],
                    on_phase=meter.mark,
                )
            )
        finally:
            quiet.setLevel(level)
        summary = _summary(run, meter, run_setup, options)
        summary |= benchmark.finish(run_setup, options)
        loadrun.report(self, summary, as_json=options["json"])

    def _print(self, s: dict[str, Any]) -> None:
        out = self.stdout.write
        out(
            f"Bench {s['tag']}: {s['players']} players against {s['base_url']}, "
            f"{s['rounds_per_player']} rounds each, floor {s['floor_seconds']} s per endpoint."
        )
        out(
            f"{'endpoint':14}{'phase':22}{'count':>7}{'req/s':>9}{'p50':>8}{'p95':>8}"
            f"{'p99':>8}{'max':>8}{'errors':>8}  (ms)"
        )
        for name, e in s["endpoints"].items():
            out(
                f"{name:14}{e['phase']:22}{e['count']:>7}{e['rps']:>9.1f}"
                + "".join(f"{benchmark.ms(e[p]):>8}" for p in ("p50", "p95", "p99", "max"))
                + f"{e['errors']:>8}"
            )
        out(
            f"Rounds: {s['rounds_played']} in {s['rounds_s']} s = {s['rounds_per_s']} per second; "
            f"/health/ {s['health_rps']} req/s; ratio rounds/s / health req/s = {s['ratio']}."
        )
        for group, cpu in s["cpu_per_round_ms"].items():
            out(f"CPU per round, {group}: {cpu} ms")
        for group, cpu in s["cpu_per_health_ms"].items():
            out(f"CPU per /health/ request, {group}: {cpu} ms")
        if not s["processes"]:
            out("CPU: the server's processes were not found on this machine (--server-pids).")
        out(
            f"Database: {s['rounds_settled']} rounds settled at the table, "
            f"{s['rounds_locked']} locked."
        )
        loadrun.print_outcome(out, s)


def _summary(
    run: Run, meter: benchmark.CpuMeter, run_setup: benchmark.Setup, options: dict[str, Any]
) -> dict[str, Any]:
    endpoints: dict[str, Any] = {}
    for phase in run.phases.values():
        for name in sorted(set(phase.times) | set(phase.errors), key=_order):
            times = phase.times.get(name, [])
            endpoints[name] = {
                "phase": phase.name,
                **percentiles(times),
                "rps": round(len(times) / phase.seconds, 1),
                "errors": phase.errors.get(name, 0),
            }
    rounds = run.phases.get("rounds")
    health = run.phases.get("floor health")
    played = rounds.rounds if rounds else 0
    rounds_per_s = played / rounds.seconds if rounds else 0.0
    health_rps = len(health.times.get("health", [])) / health.seconds if health else 0.0
    health_count = len(health.times.get("health", [])) if health else 0

    def per(phase: str, count: int) -> dict[str, float]:
        used = meter.used(phase)
        return {group: round(s / count * 1000, 2) for group, s in used.items() if count}

    return {
        "tag": run_setup.tag,
        "base_url": run_setup.plan.base_url,
        "players": len(run_setup.players),
        "rounds_per_player": options["rounds"],
        "floor_seconds": options["floor_seconds"],
        "https_proxy": run_setup.plan.https_proxy,
        "phases_s": {name: round(p.seconds, 2) for name, p in run.phases.items()},
        "endpoints": endpoints,
        "rounds_played": played,
        "rounds_s": round(rounds.seconds, 2) if rounds else 0.0,
        "rounds_per_s": round(rounds_per_s, 1),
        "health_rps": round(health_rps, 1),
        "ratio": round(rounds_per_s / health_rps, 3) if health_rps else None,
        "processes": meter.groups,
        "cpu_per_round_ms": per("rounds", played),
        "cpu_per_health_ms": per("floor health", health_count),
        "errors": run.errors,
        "error_kinds": dict(run.error_kinds.most_common()),
        "error_samples": run.error_samples,
    }


def _order(name: str) -> tuple[int, str]:
    return (ORDER.index(name) if name in ORDER else len(ORDER), name)
