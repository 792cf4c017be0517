"""``manage.py soak``: single-player rounds at a fixed rate for minutes; does it stay up?

    python manage.py soak --base-url http://127.0.0.1:8000 --minutes 10 --capacity 40

Run it on the server's machine with the server's environment. Its players (as ``bench``'s)
play rounds at ``--rate`` rounds per second (or half of ``--capacity``, the rounds per
second ``bench`` measured) for ``--minutes``. Every ``--sample-seconds`` it records the
resident memory (RSS) of each web and worker process (found as ``bench`` finds them) and
the connections to the database (PostgreSQL's ``pg_stat_activity``). It prints the series,
each process's growth after the warm-up (the goal: under 5 %), the connections' range, the
errors (the goal: none) and the ledger audit; non-zero exit on an error or a violation.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connections

from loadtest import benchmark, loadrun, processes
from loadtest.bench import soak_run
from loadtest.loadclient import percentiles

MB = 1024 * 1024


class Command(BaseCommand):
    help = "Single-player rounds at a fixed rate; RSS, database connections, errors, ledger."

    def add_arguments(self, parser: CommandParser) -> None:
        benchmark.add_common_arguments(parser)
        parser.add_argument("--minutes", type=float, default=10.0)
        parser.add_argument("--rate", type=float, default=None, help="Rounds per second.")
        parser.add_argument(
            "--capacity",
            type=float,
            default=None,
            help="Rounds per second bench measured; the soak runs at half of it.",
        )
        parser.add_argument("--sample-seconds", type=float, default=10.0)
        parser.add_argument(
            "--warmup-seconds",
            type=float,
            default=None,
            help="Growth is counted from the first sample after this (default: a fifth of "
            "the run, at most 60 s).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        rate = options["rate"] or (options["capacity"] or 0) / 2
        if rate <= 0:
            raise CommandError("Give --rate (rounds per second) or --capacity (half of it).")
        seconds = options["minutes"] * 60
        warmup = options["warmup_seconds"]
        warmup = min(60.0, seconds / 5) if warmup is None else warmup
        expected = int(rate * seconds / options["players"]) + 1
        run_setup = benchmark.setup(options, rounds_per_player=expected)
        found = benchmark.server_processes(options)
        watched = {"web": found.web, "worker": found.worker}
        samples: list[dict[str, Any]] = []
        lock = threading.Lock()

        def sample(elapsed: float) -> None:
            try:
                taken = {
                    "t": round(elapsed, 1),
                    "rss_mb": {
                        f"{group} {pid}": _mb(processes.rss_bytes(pid))
                        for group, pids in watched.items()
                        for pid in pids
                    },
                    "db_connections": benchmark.database_connections(),
                }
            finally:
                connections.close_all()  # this thread's connection, not the server's
            with lock:
                samples.append(taken)

        quiet = logging.getLogger("httpx")
        level = quiet.level
        quiet.setLevel(logging.WARNING)
        try:
            run = asyncio.run(
                soak_run(
                    specs=run_setup.players,
                    plan=run_setup.plan,
                    rate=rate,
                    seconds=seconds,
                    sample_every=options["sample_seconds"],
                    sample=sample,
                )
            )
        finally:
            quiet.setLevel(level)
        summary = _summary(run, samples, rate=rate, warmup=warmup, run_setup=run_setup)
        summary |= benchmark.finish(run_setup, options)
        loadrun.report(self, summary, as_json=options["json"])

    def _print(self, s: dict[str, Any]) -> None:
        out = self.stdout.write
        out(
            f"Soak {s['tag']}: {s['players']} players, {s['rate']} rounds/s asked, "
            f"{s['rounds_played']} rounds in {s['seconds']} s = {s['rounds_per_s']} per second."
        )
        names = list(s["samples"][0]["rss_mb"]) if s["samples"] else []
        out(f"{'t (s)':>7}" + "".join(f"{name:>16}" for name in names) + f"{'db conns':>10}")
        for taken in s["samples"]:
            out(
                f"{taken['t']:>7}"
                + "".join(f"{_cell(taken['rss_mb'].get(name)):>16}" for name in names)
                + f"{_cell(taken['db_connections']):>10}"
            )
        out(f"RSS in MB; growth counted after {s['warmup_s']} s of warm-up:")
        for name, g in s["growth"].items():
            out(f"  {name}: {g['from_mb']} -> {g['to_mb']} MB ({g['percent']:+.1f} %)")
        if not names:
            out("  the server's processes were not found on this machine (--server-pids).")
        db = s["db_connections"]
        out(f"Database connections after warm-up: {db['min']} to {db['max']}.")
        for name, r in s["requests_ms"].items():
            out(
                f"  {name}: {r['count']} requests, p50 {benchmark.ms(r['p50'])} ms, "
                f"p99 {benchmark.ms(r['p99'])} ms"
            )
        loadrun.print_outcome(out, s)


def _summary(
    run: Any,
    samples: list[dict[str, Any]],
    *,
    rate: float,
    warmup: float,
    run_setup: benchmark.Setup,
) -> dict[str, Any]:
    samples = sorted(samples, key=lambda taken: taken["t"])
    after = [taken for taken in samples if taken["t"] >= warmup] or samples[-1:]
    growth = {}
    for name in samples[0]["rss_mb"] if samples else []:
        series = [taken["rss_mb"].get(name) for taken in after]
        known = [value for value in series if value is not None]
        if known:
            first, last = known[0], known[-1]
            growth[name] = {
                "from_mb": first,
                "to_mb": last,
                "max_mb": max(known),
                "percent": round((last - first) / first * 100, 2) if first else 0.0,
                "gone": series[-1] is None,
            }
    counts = [taken["db_connections"] for taken in after if taken["db_connections"] is not None]
    rounds = run.phases["rounds"]
    return {
        "tag": run_setup.tag,
        "base_url": run_setup.plan.base_url,
        "players": len(run_setup.players),
        "rate": round(rate, 2),
        "seconds": round(rounds.seconds, 1),
        "rounds_played": rounds.rounds,
        "rounds_per_s": round(rounds.rounds / rounds.seconds, 2),
        "warmup_s": warmup,
        "samples": samples,
        "growth": growth,
        "max_growth_percent": max((g["percent"] for g in growth.values()), default=None),
        "db_connections": {"min": min(counts, default=None), "max": max(counts, default=None)},
        "requests_ms": {name: percentiles(t) for name, t in sorted(rounds.times.items())},
        "errors": run.errors,
        "error_kinds": dict(run.error_kinds.most_common()),
        "error_samples": run.error_samples,
    }


def _mb(value: int | None) -> float | None:
    return None if value is None else round(value / MB, 1)


def _cell(value: Any) -> str:
    return "-" if value is None else str(value)
