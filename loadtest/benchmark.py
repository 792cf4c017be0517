"""What ``manage.py bench`` and ``manage.py soak`` share: the run's table and players in
the server's database, the server's processes and their CPU, and the ledger audit.

The data stays, as with ``table_bots``: the ledger's entries reference the table and the
players. Each run makes its own single-player table ``bench-<tag>`` and closes it
afterwards (the recovery sweep gives the stacks back to the wallets). The players
``bench-<i>`` are reused from run to run: each run gives them a new random password and
tops their wallets up to the buy-in with a deposit of its own.
"""

from __future__ import annotations

import os
import secrets
import time
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.contrib.auth.hashers import make_password
from django.core.management.base import CommandError, CommandParser
from django.db import connection, transaction

from baccarat.integrity.audit import audit_all
from baccarat.models import Round, Table
from loadtest import loadrun, processes
from loadtest.bench import Plan, Player
from loadtest.loadclient import behind_proxy

CHIP = 500  # cents: one chip of 5 € per round


def buy_in_for(rounds: int) -> int:
    """Whole euros bought at the table for ``rounds`` rounds of one chip, and some over."""
    return min(rounds * CHIP // 100 + 100, settings.CASINO_MAX_LIMIT // 100)


def database_is_local() -> bool:
    """Whether the database is PostgreSQL on this machine (its processes can be measured)."""
    host = connection.settings_dict.get("HOST")
    return connection.vendor == "postgresql" and host in ("", "localhost", "127.0.0.1", "::1")


def add_common_arguments(parser: CommandParser) -> None:
    parser.add_argument("--base-url", required=True, help="The server, e.g. http://127.0.0.1:8000")
    parser.add_argument("--players", type=int, default=16, help="Concurrent players (16).")
    parser.add_argument("--decks", type=int, default=1, choices=[1, 6, 8])
    parser.add_argument(
        "--reshuffle",
        choices=[choice.value for choice in Table.Reshuffle],
        default=Table.Reshuffle.EVERY_COUP.value,
        help="As the demo's single-player tables: a new shoe every coup (default).",
    )
    parser.add_argument("--tag", default="", help="The run tag in the table's slug.")
    parser.add_argument("--keep", action="store_true", help="Leave the table open.")
    parser.add_argument(
        "--server-pids",
        default="",
        help="Comma list of web process ids (default: those listening on the URL's port).",
    )
    parser.add_argument(
        "--worker-pids",
        default="",
        help="Comma list of Celery worker process ids (default: runall's worker, if any).",
    )
    parser.add_argument("--json", action="store_true", help="Print one JSON object.")
    parser.add_argument(
        "--behind-proxy",
        action="store_true",
        default=None,
        help="Send X-Forwarded-Proto: https (default: when the settings trust it).",
    )


def pid_list(value: str) -> list[int]:
    try:
        return [int(part) for part in value.split(",") if part.strip()]
    except ValueError as error:
        raise CommandError(f"Process ids are numbers: {value!r}") from error


@dataclass
class Setup:
    tag: str
    table: Table
    plan: Plan
    players: list[Player]


def setup(options: dict[str, Any], *, rounds_per_player: int) -> Setup:
    """The run's table and its players with a fresh password and a funded wallet."""
    count = options["players"]
    if count < 1:
        raise CommandError("--players must be at least 1.")
    tag = options["tag"] or time.strftime("%Y%m%d%H%M%S")
    slug = f"bench-{tag}"
    if Table.objects.filter(slug=slug).exists():
        raise CommandError(f"The table of run {tag!r} exists already: choose another --tag.")
    buy_in = buy_in_for(rounds_per_player)
    password = secrets.token_urlsafe(18)
    hashed = make_password(password)  # hashed once: one slow hash for every player
    players = []
    with transaction.atomic():
        table = Table.objects.create(
            name=f"Bench {tag}",
            slug=slug,
            kind=Table.Kind.SINGLE,
            decks=options["decks"],
            reshuffle=options["reshuffle"],
            sort_order=900,
        )
        for i in range(1, count + 1):
            user = loadrun.funded_player(
                f"bench-{i}", hashed, buy_in=buy_in, reference=f"bench:{slug}"
            )
            players.append(Player(user.username, password))
    base_url = options["base_url"].rstrip("/")
    plan = Plan(
        base_url=base_url,
        table=slug,
        buy_in=buy_in,
        chip=CHIP,
        https_proxy=behind_proxy(options["behind_proxy"], base_url),
        csrf_cookie=settings.CSRF_COOKIE_NAME,
    )
    return Setup(tag, table, plan, players)


def finish(run_setup: Setup, options: dict[str, Any]) -> dict[str, Any]:
    """Close the run's table; what the database says about the run, and the audit."""
    table = run_setup.table
    settled = Round.objects.filter(table=table, state=Round.State.SETTLED).count()
    unfinished = Round.objects.filter(table=table, state=Round.State.LOCKED).count()
    if not options["keep"]:
        Table.objects.filter(pk=table.pk).update(is_active=False)
    report = audit_all()
    return {
        "rounds_settled": settled,
        "rounds_locked": unfinished,
        "ledger": {
            "clean": not report.violations,
            "transactions": report.transactions,
            "accounts": report.accounts,
            "rounds": report.rounds,
            "violations": report.violations,
        },
    }


def server_processes(options: dict[str, Any]) -> processes.Processes:
    """The server's processes, if it runs on this machine in processes of its own."""
    from urllib.parse import urlsplit

    port = urlsplit(options["base_url"]).port
    found = processes.discover(
        port=port,
        web=pid_list(options["server_pids"]) or None,
        worker=pid_list(options["worker_pids"]) or None,
        database=database_is_local(),
    )
    if os.getpid() in found.web:
        # A server in this very process (the tests'): its CPU would be the client's too.
        return processes.Processes()
    return found


@dataclass
class CpuMeter:
    """CPU seconds of each process group, and of this client, at each phase's edges; with
    several web processes, of each of them too (``web <pid>``): the processes share one
    listening socket, and one of them may have taken most of the connections."""

    groups: dict[str, list[int]]
    # Per group and process: its CPU seconds at each phase's edges.
    marks: dict[tuple[str, str], dict[str, dict[int, float]]] = field(default_factory=dict)

    def mark(self, phase: str, edge: str) -> None:
        if "database" in self.groups:
            # Backends come and go (a pool grows under load): the ones there now. One
            # opened during the phase counts from zero; one that ended counts in the
            # postmaster's time once it is reaped.
            self.groups["database"] = processes.postgres_pids()
        taken = {
            name: {pid: processes.cpu_seconds([pid]) for pid in pids}
            for name, pids in self.groups.items()
        }
        web = self.groups.get("web", [])
        if len(web) > 1:
            taken |= {f"web {pid}": {pid: taken["web"][pid]} for pid in web}
        taken["client"] = {os.getpid(): time.process_time()}
        self.marks[(phase, edge)] = taken

    def used(self, phase: str) -> dict[str, float]:
        start, end = self.marks.get((phase, "start")), self.marks.get((phase, "end"))
        if not start or not end:
            return {}
        return {
            name: sum(cpu - start.get(name, {}).get(pid, 0.0) for pid, cpu in taken.items())
            for name, taken in end.items()
        }


def database_connections() -> int | None:
    """Connections to this database, other than this one (PostgreSQL)."""
    if connection.vendor != "postgresql":
        return None
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        return int(cursor.fetchone()[0])


def ms(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}"
