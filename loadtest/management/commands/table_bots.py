"""``manage.py table_bots``: bots play full tables over HTTP; what the server did, measured.

    python manage.py table_bots --tables 10 --seats 8 --rounds 20 \\
        --base-url http://127.0.0.1:8790

It creates N full tables and N x S bot players in the configured database (which must be
the server's), runs every bot at once (:mod:`loadtest.bots`: real sessions, real event
streams), then prints per-metric p50/p95/p99/max, the rounds per minute, every error, and
the ledger audit; it exits non-zero on any error or violation.

The data stays: the ledger's entries reference the tables and players, so deleting them
would break the audit trail. Each run makes its own tables, ``bots-<tag>-<i>`` (the run tag
is a timestamp unless ``--tag`` names it), and closes them afterwards unless ``--keep``.
The players ``bot-<i>-<j>`` are reused from run to run: each run gives them a new random
password and tops their wallets up to the buy-in with a deposit of its own.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from argparse import BooleanOptionalAction
from collections import defaultdict
from typing import Any

from django.conf import settings
from django.contrib.auth.hashers import make_password
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from baccarat import engine
from baccarat.integrity.audit import audit_all
from baccarat.models import Seat, Table
from loadtest import benchmark, loadrun
from loadtest.bots import CHIP, BotSpec, Metrics, Plan, bots_run
from loadtest.loadclient import behind_proxy as _behind_proxy
from loadtest.loadclient import percentiles as _percentiles

DECKS = 8
ERRORS_SHOWN = 20


class Command(BaseCommand):
    help = "Play full tables with bots over HTTP; measure events, requests, rounds, ledger."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--tables", type=int, default=1)
        parser.add_argument("--seats", type=int, default=8)
        parser.add_argument("--rounds", type=int, default=10, help="Results each bot waits for.")
        parser.add_argument(
            "--base-url",
            action="append",
            required=True,
            help="The server, e.g. http://127.0.0.1:8000. Given more than once (web groups "
            "on other ports or machines sharing the database and Redis), each table's bots "
            "are spread over them seat by seat.",
        )
        parser.add_argument(
            "--arrival-seconds",
            type=float,
            default=10.0,
            help="The bots sit down over this many seconds, once all are signed in.",
        )
        parser.add_argument(
            "--think-seconds",
            type=float,
            default=4.0,
            help="A bot pauses up to this long before a round's first chip (0: never).",
        )
        parser.add_argument("--betting-seconds", type=int, default=15)
        parser.add_argument("--cycle-seconds", type=int, default=5)
        parser.add_argument("--json", action="store_true", help="Print one JSON object.")
        parser.add_argument("--keep", action="store_true", help="Leave the tables open.")
        parser.add_argument("--tag", default="", help="The run tag in the table slugs.")
        parser.add_argument("--seed", type=int, default=None, help="Reproducible bot choices.")
        parser.add_argument("--timeout", type=float, default=None, help="Seconds per bot.")
        parser.add_argument(
            "--board",
            action=BooleanOptionalAction,
            default=False,
            help="Also fetch the board after each burst of events, as the page does.",
        )
        parser.add_argument(
            "--behind-proxy",
            action=BooleanOptionalAction,
            default=None,
            help="Send X-Forwarded-Proto: https (default: when the settings trust it).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        tables, seats, rounds = options["tables"], options["seats"], options["rounds"]
        if tables < 1 or not 1 <= seats <= max(Seat.NUMBERS) or rounds < 1:
            raise CommandError("--tables and --rounds must be at least 1, --seats 1 to 8.")
        tag = options["tag"] or time.strftime("%Y%m%d%H%M%S")
        slugs = [f"bots-{tag}-{i}" for i in range(1, tables + 1)]
        if Table.objects.filter(slug__in=slugs).exists():
            raise CommandError(f"Tables of run {tag!r} exist already: choose another --tag.")
        betting, cycle = options["betting_seconds"], options["cycle_seconds"]
        given = options["base_url"]
        base_urls = [url.rstrip("/") for url in ([given] if isinstance(given, str) else given)]
        specs = _setup(slugs, seats, rounds, betting=betting, cycle=cycle, base_urls=base_urls)
        plan = Plan(
            base_url=base_urls[0],
            rounds=rounds,
            cut_range=engine.cut_range(DECKS * 52),
            timeout=options["timeout"] or 120 + rounds * (betting + cycle + 15) * 2,
            csrf_cookie=settings.CSRF_COOKIE_NAME,
            https_proxy=_behind_proxy(options["behind_proxy"], base_urls[0]),
            refresh_board=options["board"],
            seed=options["seed"],
            arrival_seconds=max(0.0, options["arrival_seconds"]),
            think_seconds=max(0.0, options["think_seconds"]),
        )
        meter = benchmark.CpuMeter(_server_groups(options, base_urls))
        quiet = logging.getLogger("httpx")  # it logs every request at INFO
        level = quiet.level
        quiet.setLevel(logging.WARNING)
        try:
            metrics = asyncio.run(
                bots_run(specs=specs, plan=plan, on_play=lambda: meter.mark("play", "start"))
            )
        finally:
            quiet.setLevel(level)
        meter.mark("play", "end")
        if not options["keep"]:
            Table.objects.filter(slug__in=slugs).update(is_active=False)
        summary = _summary(metrics, plan, tag=tag, tables=tables, seats=seats)
        summary["base_urls"] = base_urls
        summary["cpu_ms"] = _cpu(meter.used("play"), summary, metrics)
        loadrun.report(self, summary, as_json=options["json"])

    def _rows(self, rows: list[tuple[str, dict[str, Any]]]) -> None:
        for label, stats in rows:
            self.stdout.write(
                f"{label:36}{stats['count']:>7}"
                + "".join(f"{_ms(stats[p]):>9}" for p in ("p50", "p95", "p99", "max"))
            )

    def _print(self, s: dict[str, Any]) -> None:
        out = self.stdout.write
        out(
            f"Run {s['tag']}: {s['tables']} table(s) x {s['seats']} bots, {s['rounds']} results "
            f"each, against {', '.join(s['base_urls'])} ({len(s['web_processes'])} web "
            f"process(es) served the streams), {s['duration_s']} s."
        )
        out(f"{'':36}{'count':>7}{'p50':>9}{'p95':>9}{'p99':>9}{'max':>9}  (ms)")
        rows = [
            ("propagation, commit -> subscriber", s["propagation_ms"]),
            ("propagation, commit -> all at table", s["propagation_all_ms"]),
            *((f"request {name}", stats) for name, stats in s["requests_ms"].items()),
            ("the bots' own wait before sending", s["queued_ms"]),
            ("the bots' event loop, late by", s["loop_late_ms"]),
        ]
        self._rows(rows)
        play = s["in_play"]
        out(
            "In play, the tables' opening left out (events after a table's first result, "
            "requests after the bot's):"
        )
        self._rows(
            [
                ("propagation, commit -> all at table", play["propagation_all_ms"]),
                *((f"request {name}", stats) for name, stats in play["requests_ms"].items()),
                ("the bots' own wait before sending", play["queued_ms"]),
                ("the bots' event loop, late by", play["loop_late_ms"]),
            ]
        )
        out(
            f"Rounds: {s['rounds_played']} in {s['play_s']} s of play = "
            f"{s['rounds_per_minute']} per minute ({s['rounds_per_minute_per_table']} per table)."
        )
        for name, cpu in s["cpu_ms"].items():
            out(
                f"CPU, {name}: {cpu['per_round']} ms per round, {cpu['per_request']} ms per "
                f"request, {cpu['per_event']} ms per event delivered."
            )
        out(f"Errors: {s['errors']}")
        for kind, count in s["error_kinds"].items():
            out(f"  {count:>5} x {kind}")
        for sample in s["error_samples"]:
            out(f"  {sample}")
        ledger = s["ledger"]
        verdict = (
            "clean" if not ledger["violations"] else f"{len(ledger['violations'])} violation(s)"
        )
        out(
            f"Ledger: {verdict} ({ledger['transactions']} transactions, {ledger['accounts']} "
            f"accounts, {ledger['rounds']} finished rounds checked)."
        )
        for violation in ledger["violations"][:ERRORS_SHOWN]:
            out(f"  {violation}")


def _setup(
    slugs: list[str], seats: int, rounds: int, *, betting: int, cycle: int, base_urls: list[str]
) -> list[BotSpec]:
    """The run's tables and its players with a fresh password and a funded wallet; each
    table's seats spread over the servers in turn."""
    password = secrets.token_urlsafe(18)
    hashed = make_password(password)  # hashed once: one slow hash for every bot
    buy_in = min(max(100, 3 * CHIP // 100 * rounds), settings.CASINO_MAX_LIMIT // 100)
    specs = []
    with transaction.atomic():
        for i, slug in enumerate(slugs, start=1):
            Table.objects.create(
                name=f"Bots {slug.removeprefix('bots-')}",
                slug=slug,
                kind=Table.Kind.FULL,
                seats=8,
                decks=DECKS,
                reshuffle=Table.Reshuffle.CUT_CARD,
                burn=Table.Burn.FIRST_CARD,
                min_player=100,
                min_banker=100,
                min_tie=100,
                betting_seconds=betting,
                cycle_seconds=cycle,
                sort_order=900,
            )
            for j in range(1, seats + 1):
                user = loadrun.funded_player(
                    f"bot-{i}-{j}", hashed, buy_in=buy_in, reference=f"bots:{slug}"
                )
                server = base_urls[(j - 1) % len(base_urls)]
                specs.append(BotSpec(user.username, password, slug, j, buy_in, server))
    return specs


def _server_groups(options: dict[str, Any], base_urls: list[str]) -> dict[str, list[int]]:
    """The processes of every server named (found by their ports), grouped: web, worker,
    beat, database. Empty when the server runs in this process (the tests')."""
    groups: dict[str, set[int]] = defaultdict(set)
    for base_url in base_urls:
        found = benchmark.server_processes(
            {"base_url": base_url, "server_pids": "", "worker_pids": ""}
        )
        for name, pids in found.groups().items():
            groups[name] |= set(pids)
    return {name: sorted(pids) for name, pids in groups.items()}


def _cpu(used: dict[str, float], summary: dict[str, Any], metrics: Metrics) -> dict[str, Any]:
    """Each group's CPU while the bots played (from the moment every bot had signed in),
    per round dealt, per request (sign-ins not counted) and per event delivered; the
    bots' own (this process) as "client"."""
    rounds = summary["rounds_played"] or 1
    requests = sum(
        len(times)
        for name, times in metrics.requests.items()
        if name not in ("login", "login_form", "page")
    )
    events = len(metrics.deliveries) or 1
    shown = {}
    for name, seconds in used.items():
        if name.startswith("web ") or name == "beat":
            continue
        shown[name] = {
            "per_round": round(seconds * 1000 / rounds, 2),
            "per_request": round(seconds * 1000 / max(1, requests), 2),
            "per_event": round(seconds * 1000 / events, 3),
        }
    return shown


def _ms(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}"


def _summary(metrics: Metrics, plan: Plan, *, tag: str, tables: int, seats: int) -> dict[str, Any]:
    live = [d for d in metrics.deliveries if d.live]
    latest: defaultdict[tuple[str, int], float] = defaultdict(float)
    sent: dict[tuple[str, int], float] = {}
    for d in live:
        latest[(d.table, d.seq)] = max(latest[(d.table, d.seq)], d.received)
        sent[(d.table, d.seq)] = d.at
    # In play: a table's events once it had dealt its first coup (the opening left out:
    # every seat taken in the same seconds, the shoe offered for the cut and burnt).
    first_result = {t: min(results.values()) for t, results in metrics.results.items() if results}
    in_play = {
        key: at for key, at in sent.items() if key[0] in first_result and at > first_result[key[0]]
    }
    every_table_played = max(first_result.values(), default=0.0)
    played = sum(len(results) for results in metrics.results.values())
    starts = [min(opened.values()) for opened in metrics.opened.values() if opened]
    ends = [max(results.values()) for results in metrics.results.values() if results]
    play = max(ends) - min(starts) if starts and ends else 0.0
    per_table = [
        len(metrics.results[t]) / (max(metrics.results[t].values()) - min(opened.values())) * 60
        for t, opened in metrics.opened.items()
        if opened and metrics.results.get(t) and len(metrics.results[t]) > 1
    ]
    report = audit_all()
    return {
        "tag": tag,
        "base_url": plan.base_url,
        "tables": tables,
        "seats": seats,
        "rounds": plan.rounds,
        "duration_s": round(metrics.finished - metrics.started, 1),
        "web_processes": sorted(metrics.web_processes),
        "propagation_ms": _percentiles([d.received - d.at for d in live]),
        "propagation_all_ms": _percentiles([latest[key] - at for key, at in sent.items()]),
        "backlog_events": len(metrics.deliveries) - len(live),
        "requests_ms": {name: _percentiles(t) for name, t in sorted(metrics.requests.items())},
        "queued_ms": _percentiles(metrics.queued),
        "loop_late_ms": _percentiles([late for _at, late in metrics.loop_late]),
        "in_play": {
            "propagation_all_ms": _percentiles([latest[key] - at for key, at in in_play.items()]),
            "queued_ms": _percentiles(metrics.in_play_queued),
            "loop_late_ms": _percentiles(
                [late for at, late in metrics.loop_late if at > every_table_played]
            ),
            "requests_ms": {name: _percentiles(t) for name, t in sorted(metrics.in_play.items())},
        },
        "rounds_played": played,
        "play_s": round(play, 1),
        "rounds_per_minute": round(played / play * 60, 1) if play else 0.0,
        "rounds_per_minute_per_table": (
            round(sum(per_table) / len(per_table), 1) if per_table else 0.0
        ),
        "results_per_bot": metrics.results_seen,
        "errors": len(metrics.errors),
        "error_kinds": dict(metrics.error_kinds.most_common()),
        "error_samples": metrics.errors[:ERRORS_SHOWN],
        "ledger": {
            "clean": not report.violations,
            "transactions": report.transactions,
            "accounts": report.accounts,
            "rounds": report.rounds,
            "violations": report.violations,
        },
    }
