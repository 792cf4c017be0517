"""``manage.py bench_parts``: where a single-player round's CPU goes, in one process.

    python manage.py bench_parts --rounds 300
    python manage.py bench_parts --rounds 300 --part baccarat.board.statistics:shoe_board

No server and no load: one player plays rounds through Django's test client as the page
sends them (DEAL with the layout laid out in the browser, with the deal form's fields from
the last answer; HTMX, form-encoded, CSRF checked, over https as behind the proxy), in the
configured database, at a table of its own like the bench's (one deck, a new shoe every
coup). ``--without-script`` plays them as the page without its script does: a chip on a
spot (a POST), then DEAL. Run it with the server's environment and DEBUG=0 to measure what
production runs.

It prints the CPU of a round (and without the script of its chip and DEAL; this process's,
so the database's own is not in it), the statements of each request (transaction
statements included), and per part (a
function wrapped for the run, counted once when it calls itself) its CPU and calls per
round. ``--part module:attribute`` adds one; the attribute is replaced where it is looked
up, so name the module the caller reads it from (``baccarat.single.views:render_fragment``, which
the views import by name). ``--profile N`` prints cProfile's N costliest functions by their
own CPU. The bench (``manage.py bench``) measures the whole machine over HTTP; this
measures the parts, and two runs of it, before and after a change, are an A/B.

Afterwards the player leaves the table (the stack back to the wallet) and the table is
closed; the player ``bench-parts`` is reused by the next run.
"""

from __future__ import annotations

import cProfile
import functools
import importlib
import inspect
import io
import pstats
import secrets
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from django.conf import settings
from django.contrib.auth.hashers import make_password
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection
from django.test import Client, override_settings
from django.test.utils import CaptureQueriesContext

from baccarat.models import Table
from loadtest import benchmark, loadrun, processes
from loadtest.bench import SPOTS
from loadtest.loadclient import form_fields, refusal

PLAYER = "bench-parts"
HOST = "testserver"
FORM = "application/x-www-form-urlencoded"
# The round's parts that the notes of issue 16 follow: the game's work, the drawing of the
# answers, and the reads every request makes.
PARTS = (
    "baccarat.play.betting:layout_edit",
    "baccarat.play.rounds:layout_deal",
    "baccarat.single.views:render_fragment",
    "baccarat.board.selectors:shoe_results",
    "baccarat.board.selectors:table_for_player",
    "django.contrib.auth:get_user",
    "django.contrib.sessions.backends.cached_db:SessionStore.load",
)


@dataclass
class Part:
    spec: str
    seconds: float = 0.0
    calls: int = 0


def _resolve(spec: str) -> tuple[Any, str]:
    """The object that holds the attribute ``spec`` names, and the attribute's name."""
    module_name, _, path = spec.partition(":")
    if not module_name or not path:
        raise CommandError(f"A part is module:attribute, not {spec!r}.")
    try:
        owner: Any = importlib.import_module(module_name)
        *outer, name = path.split(".")
        for step in outer:
            owner = getattr(owner, step)
        found = inspect.getattr_static(owner, name)
        if isinstance(found, (classmethod, staticmethod)) or not callable(found):
            raise CommandError(f"{spec} is not a function or a method of instances.")
    except (ImportError, AttributeError) as error:
        raise CommandError(f"No such part: {spec} ({error}).") from error
    return owner, name


@contextmanager
def _timed(parts: list[Part]) -> Iterator[None]:
    """Each part's function replaced, for the block, by one that adds up its CPU."""
    replaced: list[tuple[Any, str, Any]] = []

    def timer(part: Part, original: Callable[..., Any]) -> Callable[..., Any]:
        inside = False

        @functools.wraps(original)
        def timed(*args: Any, **kwargs: Any) -> Any:
            nonlocal inside
            if inside:
                return original(*args, **kwargs)
            inside = True
            began = time.process_time()
            try:
                return original(*args, **kwargs)
            finally:
                part.seconds += time.process_time() - began
                part.calls += 1
                inside = False

        return timed

    try:
        for part in parts:
            owner, name = _resolve(part.spec)
            own = name in vars(owner)  # else inherited (a class's): restored by deleting
            replaced.append((owner, name, vars(owner)[name] if own else None))
            setattr(owner, name, timer(part, getattr(owner, name)))
        yield
    finally:
        for owner, name, original in reversed(replaced):
            if original is None:
                delattr(owner, name)
            else:
                setattr(owner, name, original)


def _backend_pid() -> int | None:
    """The process of this connection's PostgreSQL server, when it runs on this machine."""
    if not benchmark.database_is_local():
        return None
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return int(cursor.fetchone()[0])


class Player:
    """One browser at the table: the test client with the page's headers."""

    def __init__(self, client: Client, slug: str) -> None:
        self.client = client
        self.page = f"/tables/{slug}/"
        self.spot = 0
        self.board = ""  # the last answer, whose deal fields the next DEAL sends

    def post(self, action: str, data: dict[str, str]) -> str:
        token = self.client.cookies[settings.CSRF_COOKIE_NAME].value
        answer = self.client.post(
            self.page + action,
            urlencode({**data, "csrfmiddlewaretoken": token}),
            content_type=FORM,
            secure=True,
            headers={"HX-Request": "true", "Origin": f"https://{HOST}"},
        )
        text = answer.content.decode()
        if answer.status_code != 200 or refusal(text):
            raise CommandError(f"{action} refused ({answer.status_code}): {refusal(text)}")
        self.board = text
        return text

    def chip(self) -> str:
        self.spot = 1 - self.spot  # alternate, as the bench: one chip staked per round
        return self.post("bet/", {"kind": SPOTS[self.spot], "amount": str(benchmark.CHIP)})

    def deal(self) -> str:
        """DEAL as the page without its script sends it: the layout is the server's."""
        return self.post("deal/", form_fields(self.board, "deal-form"))

    def deal_layout(self) -> str:
        """DEAL with the layout laid out in the browser: a round in one request."""
        self.spot = 1 - self.spot
        fields = form_fields(self.board, "deal-form")
        stake = {"layout": "on", f"stake_{SPOTS[self.spot]}": str(benchmark.CHIP)}
        return self.post("deal/", {**fields, **stake})

    def round(self, *, script: bool) -> None:
        if script:
            self.deal_layout()
        else:
            self.chip()
            self.deal()


class Command(BaseCommand):
    help = "Play single-player rounds in this process; CPU per chip, DEAL and part."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--rounds", type=int, default=300, help="Measured rounds (300).")
        parser.add_argument("--warmup", type=int, default=20, help="Rounds before (20).")
        parser.add_argument(
            "--part",
            action="append",
            default=[],
            metavar="MODULE:ATTRIBUTE",
            help="One more function to measure (repeatable).",
        )
        parser.add_argument(
            "--profile", type=int, default=0, metavar="N", help="cProfile's N costliest."
        )
        parser.add_argument(
            "--without-script",
            action="store_true",
            help="Rounds as the page without JavaScript plays them: a chip POST, then DEAL.",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["rounds"] < 1 or options["warmup"] < 0:
            raise CommandError("--rounds must be at least 1 and --warmup not negative.")
        parts = [Part(spec) for spec in dict.fromkeys([*PARTS, *options["part"]])]
        for part in parts:
            _resolve(part.spec)  # a wrong name fails before anything is written
        slug = f"bench-parts-{secrets.token_hex(4)}"
        table = Table.objects.create(
            name=f"Bench parts {slug[-8:]}",
            slug=slug,
            kind=Table.Kind.SINGLE,
            decks=1,
            reshuffle=Table.Reshuffle.EVERY_COUP,
            sort_order=900,
        )
        rounds = options["rounds"] + options["warmup"] + 1
        buy_in = benchmark.buy_in_for(rounds)
        # Only the test client signs this player in: a password nobody knows.
        user = loadrun.funded_player(
            PLAYER, make_password(None), buy_in=buy_in, reference=f"bench:{slug}"
        )
        hosts = [*settings.ALLOWED_HOSTS, HOST]
        # The table's rate limit (per player) would stop one player's loop: off, as the
        # bench's server runs (README, "Benchmark and soak").
        with override_settings(ALLOWED_HOSTS=hosts, CASINO_RATE_TABLE=""):
            client = Client(enforce_csrf_checks=True)
            client.force_login(user)
            player = Player(client, slug)
            try:
                client.get(player.page, secure=True)
                player.post("rebuy/", {"amount": str(buy_in), "token": secrets.token_hex(8)})
                self._measure(player, parts, options)
            finally:
                player.post("exit/", {"confirm": "1"})
                Table.objects.filter(pk=table.pk).update(is_active=False)

    def _measure(self, player: Player, parts: list[Part], options: dict[str, Any]) -> None:
        script = not options["without_script"]
        for _ in range(options["warmup"]):
            player.round(script=script)
        count = options["rounds"]
        chip_cpu = deal_cpu = 0.0
        profile = cProfile.Profile(time.process_time) if options["profile"] else None
        backend = _backend_pid()
        database_cpu = processes.cpu_seconds([backend]) if backend else 0.0
        with _timed(parts):
            if profile is not None:
                profile.enable()
            for _ in range(count):
                began = time.process_time()
                if script:
                    player.deal_layout()
                    middle = began
                else:
                    player.chip()
                    middle = time.process_time()
                    player.deal()
                chip_cpu += middle - began
                deal_cpu += time.process_time() - middle
            if profile is not None:
                profile.disable()
        if backend:
            database_cpu = processes.cpu_seconds([backend]) - database_cpu
        out = self.stdout.write
        played = "DEAL with the layout" if script else "a chip POST, then DEAL (no script)"
        out(
            f"{count} rounds after {options['warmup']} to warm up, one player, 1 deck, a new "
            f"shoe every coup, {played}; {connection.vendor}, DEBUG "
            f"{'on' if settings.DEBUG else 'off'}."
        )
        per_round = f"CPU per round {(chip_cpu + deal_cpu) / count * 1000:.2f} ms (this process)"
        if script:
            out(per_round + ".")
        else:
            out(
                f"{per_round}: per chip {chip_cpu / count * 1000:.2f} ms, per DEAL "
                f"{deal_cpu / count * 1000:.2f} ms."
            )
        if backend:
            out(
                f"PostgreSQL's CPU per round {database_cpu / count * 1000:.2f} ms (this "
                "connection's server process; commits' WAL writes by other processes not in it)."
            )
        if script:
            with CaptureQueriesContext(connection) as deal_queries:
                player.deal_layout()
            out(f"Statements per round {len(deal_queries)} (transaction statements included).")
        else:
            with CaptureQueriesContext(connection) as chip_queries:
                player.chip()
            with CaptureQueriesContext(connection) as deal_queries:
                player.deal()
            out(
                f"Statements per chip {len(chip_queries)}, per DEAL {len(deal_queries)} "
                "(transaction statements included)."
            )
        out(f"{'part':<64} {'ms/round':>8} {'calls/round':>11}")
        for part in parts:
            out(f"{part.spec:<64} {part.seconds / count * 1000:>8.3f} {part.calls / count:>11.1f}")
        if profile is not None:
            out("(Measured under cProfile: every figure above includes its overhead.)")
            report = io.StringIO()
            stats = pstats.Stats(profile, stream=report)
            stats.sort_stats("tottime").print_stats(options["profile"])
            out(report.getvalue().rstrip())
