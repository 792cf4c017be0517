"""``manage.py bench_statistics``: the server time of a player's statistics page with a long
history.

    python manage.py bench_statistics --rounds 100000

A throwaway player (``bench-statistics``) gets N settled rounds at two tables of their own
(8 decks with 5 % commission and pairs; 6 decks, banker three-card 7 pushes, tie 9 to
1), with their plays, bets and ledger postings (a stake and a settlement each, rebuys
when a stack runs low), spread over ``--days`` days (an evening sitting of a round every
15 s on five days out of seven), loaded with ``bulk_create`` in chunks. Its hours are
summed from nothing (:mod:`baccarat.protocol.hours`; the time is printed). The page is then
rendered through Django's test client as production runs it (DEBUG off) for a few
filters, ``--repeat`` times each: as the first view after the player's hours were summed
again ("hour": nothing read from them kept), as the view after a round of theirs
("round": the summed hours' figures kept, the last hour's counted) and with nothing moved
since the last view ("kept"). The median, p95 and slowest time per request and its SQL
statements are printed. Everything it created
is deleted afterwards (and before, if an earlier run was interrupted), unless ``--keep``;
``--reuse`` measures what a run with ``--keep`` left.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection, transaction
from django.db.models import F
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import timezone

from baccarat.models import (
    Bet,
    Play,
    Round,
    StatisticsBalance,
    StatisticsHour,
    StatisticsMark,
    Table,
)
from baccarat.protocol.hours import hours_summed
from baccarat.protocol.statistics import figures_key
from baccarat.protocol.statistics_form import StatisticsFilterForm
from casino.accounts.models import User
from wallet.models import Account, Entry, Transaction
from wallet.services import issuer_account

PLAYER = "bench-statistics"
SLUG = "bench-statistics-"
CHUNK = 5000
CARDS = "9HKD7C5S2C"
SECONDS_APART = 15
REBUY = 500_00


@dataclass
class Ledger:
    """The running balances of the throwaway player's accounts while loading."""

    wallet: Account
    stacks: dict[int, Account]  # by table id
    escrows: dict[int, Account]
    houses: dict[int, Account]

    def all(self) -> list[Account]:
        return [self.wallet, *self.stacks.values(), *self.escrows.values(), *self.houses.values()]


def play_days(rounds: int, days: int) -> Iterator[datetime]:
    """When each round begins: an evening sitting (from 19:00, a round every 15 s) on five
    days out of seven over ``days`` days ending yesterday, the rounds shared evenly."""
    today = timezone.localdate()
    playing = [
        today - timedelta(days=days - n) for n in range(days) if (days - n) % 7 not in (2, 5)
    ] or [today - timedelta(days=1)]
    per_day = -(-rounds // len(playing))
    for index in range(rounds):
        day = playing[index // per_day]
        evening = timezone.make_aware(datetime(day.year, day.month, day.day, 19))
        yield evening + timedelta(seconds=SECONDS_APART * (index % per_day))


def spin(rng: random.Random, table: Table) -> tuple[dict[str, int], dict[str, int]]:
    """A round's bets (spot: stake) and what each paid back, from a random outcome in
    about the real proportions."""
    outcome = rng.choices(("banker", "player", "tie"), (45.86, 44.62, 9.52))[0]
    pair = rng.random() < 0.0747
    shape = rng.random()
    if shape < 0.45:
        bets = {"banker": rng.choice((5_00, 10_00, 25_00))}
    elif shape < 0.85:
        bets = {"player": rng.choice((5_00, 10_00, 25_00))}
    elif shape < 0.95 or not table.pairs_enabled:
        bets = {"banker": 10_00, "tie": 2_00}
    else:
        bets = {"player": 10_00, "player_pair": 1_00}
    paid = {}
    for kind, stake in bets.items():
        if kind == "tie":
            paid[kind] = stake * (table.tie_pays + 1) if outcome == "tie" else 0
        elif kind == "player_pair":
            paid[kind] = stake * 12 if pair else 0
        elif outcome == "tie":
            paid[kind] = stake  # player and banker stakes come back on a tie
        elif kind != outcome:
            paid[kind] = 0
        elif kind == "banker" and table.commission == Table.Commission.FIVE_PERCENT:
            paid[kind] = stake * 2 - stake // 20
        else:
            paid[kind] = stake * 2
    return bets, paid


@dataclass
class Statements:
    """An ``execute_wrapper`` that counts the statements run through it."""

    count: int = 0

    def __call__(self, execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        self.count += 1
        return execute(sql, params, many, context)


def _as_production() -> override_settings:
    """No per-query debug bookkeeping; the test client's host allowed."""
    return override_settings(DEBUG=False, ALLOWED_HOSTS=[*settings.ALLOWED_HOSTS, "testserver"])


class Command(BaseCommand):
    help = "Load a player's long history and time their statistics page."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--rounds", type=int, default=100_000)
        parser.add_argument("--days", type=int, default=365)
        parser.add_argument("--repeat", type=int, default=10)
        parser.add_argument("--keep", action="store_true", help="Keep the loaded history.")
        parser.add_argument(
            "--reuse", action="store_true", help="Measure the history an earlier --keep left."
        )

    def handle(self, *args: Any, rounds: int, days: int, repeat: int, **options: Any) -> None:
        if rounds < 1 or days < 1 or repeat < 1:
            raise CommandError("--rounds, --days and --repeat must be positive.")
        kept = User.objects.filter(username=PLAYER).first()
        if options["reuse"] and kept is not None:
            with _as_production():
                self._measure(player=kept, repeat=repeat)
            return
        self._cleanup()
        started = time.perf_counter()
        player = self._load(rounds=rounds, days=days)
        self.stdout.write(
            f"loaded {rounds:,} rounds over {days} days for {PLAYER} "
            f"in {time.perf_counter() - started:.1f} s ({connection.vendor})"
        )
        try:
            with _as_production():
                self._measure(player=player, repeat=repeat)
        finally:
            if not options["keep"]:
                self._cleanup()

    # Loading ----------------------------------------------------------------------------

    def _load(self, *, rounds: int, days: int) -> User:
        rng = random.Random(41)
        with transaction.atomic():
            player = User.objects.create_user(username=PLAYER, password=None)
            tables = [
                Table.objects.create(
                    name="Bench statistics 8",
                    slug=f"{SLUG}8",
                    decks=8,
                    pairs_enabled=True,
                    is_active=False,
                ),
                Table.objects.create(
                    name="Bench statistics 6",
                    slug=f"{SLUG}6",
                    decks=6,
                    commission=Table.Commission.BANKER_SEVEN,
                    tie_pays=9,
                    is_active=False,
                ),
            ]
            ledger = Ledger(
                wallet=Account.objects.create(kind=Account.Kind.WALLET, owner=player),
                **{
                    name: {
                        table.pk: Account.objects.create(kind=kind, owner=player, table=table)
                        for table in tables
                    }
                    for name, kind in (
                        ("stacks", Account.Kind.STACK),
                        ("escrows", Account.Kind.ESCROW),
                        ("houses", Account.Kind.HOUSE),
                    )
                },
            )
            moments = play_days(rounds, days)
            first_moment = next(play_days(rounds, days))
            self._deposit(
                player, ledger, max(10_000_00, rounds * 1_00), first_moment - timedelta(hours=1)
            )
            for first in range(0, rounds, CHUNK):
                count = min(CHUNK, rounds - first)
                self._chunk(player, tables, ledger, rng, [next(moments) for _ in range(count)])
            for account in ledger.all():
                account.save(update_fields=["balance"])
        if connection.vendor == "postgresql":
            # The rows were inserted dated now and then dated back: the versions left in
            # the indexes' newest range cost every read of the last hour (and the
            # planner's look at an index's end) until a vacuum, which production's
            # autovacuum runs and this machine's PostgreSQL does not. (Inside a test's
            # transaction, where no vacuum can run, the statistics only.)
            command = "ANALYZE" if connection.in_atomic_block else "VACUUM ANALYZE"
            with connection.cursor() as cursor:
                for model in (Round, Play, Bet, Transaction, Entry, Account):
                    cursor.execute(f"{command} {connection.ops.quote_name(model._meta.db_table)}")
        return player

    def _deposit(self, player: User, ledger: Ledger, amount: int, when: datetime) -> None:
        """Money into the wallet from the issuer for all the rebuys. The issuer's cached
        balance is left alone: its entry goes with the player's postings afterwards."""
        issuer = issuer_account()
        posting = Transaction.objects.create(
            kind=Transaction.Kind.DEPOSIT, reference=f"{PLAYER}-deposit", player=player
        )
        ledger.wallet.balance += amount
        Entry.objects.bulk_create(
            [
                Entry(
                    transaction=posting,
                    account=issuer,
                    amount=-amount,
                    balance_after=issuer.balance - amount,
                ),
                Entry(
                    transaction=posting,
                    account=ledger.wallet,
                    amount=amount,
                    balance_after=ledger.wallet.balance,
                ),
            ]
        )
        Transaction.objects.filter(pk=posting.pk).update(created_at=when)

    def _chunk(
        self,
        player: User,
        tables: list[Table],
        ledger: Ledger,
        rng: random.Random,
        moments: list[datetime],
    ) -> None:
        """A chunk of rounds with their plays, bets and postings, dated ``moments``
        (``created_at`` is set on insert, so the dates follow with ``bulk_update``)."""
        # A sitting at one table: the table changes with the day.
        at = [tables[when.toordinal() % len(tables)] for when in moments]
        spins = [spin(rng, table) for table in at]
        made = Round.objects.bulk_create(
            [
                Round(
                    table=table,
                    rules=table.rule_snapshot(),
                    state=Round.State.SETTLED,
                    completion=Round.Completion.PLAYED,
                    reserved_cards=CARDS,
                    outcome=Round.Outcome.BANKER,
                )
                for table in at
            ]
        )
        plays = Play.objects.bulk_create(
            [
                Play(
                    round=round,
                    player=player,
                    table=table,
                    stake_total=sum(bets.values()),
                    payout_total=sum(paid.values()),
                )
                for round, table, (bets, paid) in zip(made, at, spins, strict=True)
            ]
        )
        Bet.objects.bulk_create(
            [
                Bet(play=play, kind=kind, stake=stake, payout=paid[kind])
                for play, (bets, paid) in zip(plays, spins, strict=True)
                for kind, stake in bets.items()
            ]
        )
        dated: list[tuple[Transaction, datetime]] = []
        entries: list[Entry] = []

        def post(kind: str, round: Round | None, when: datetime, legs: Any) -> None:
            posting = Transaction(
                kind=kind,
                reference=f"{PLAYER}-{kind}-{len(dated)}-{when.timestamp()}",
                player=player,
                round=round,
            )
            dated.append((posting, when))
            for account, amount in legs:
                account.balance += amount
                entries.append(
                    Entry(
                        transaction=posting,
                        account=account,
                        amount=amount,
                        balance_after=account.balance,
                    )
                )

        for round, table, (bets, paid), when in zip(made, at, spins, moments, strict=True):
            stack, escrow = ledger.stacks[table.pk], ledger.escrows[table.pk]
            stake, payout = sum(bets.values()), sum(paid.values())
            if stack.balance < stake:
                post(Transaction.Kind.REBUY, None, when, [(ledger.wallet, -REBUY), (stack, REBUY)])
            post(Transaction.Kind.STAKE, round, when, [(stack, -stake), (escrow, stake)])
            settle = [(escrow, -stake)]
            if payout:
                settle.append((stack, payout))
            if payout != stake:
                settle.append((ledger.houses[table.pk], stake - payout))
            post(Transaction.Kind.SETTLE, round, when + timedelta(seconds=5), settle)
        Transaction.objects.bulk_create([posting for posting, _when in dated])
        Entry.objects.bulk_create(entries)
        for row, when in zip(made, moments, strict=True):
            row.created_at = row.locked_at = row.dealt_at = row.settled_at = when
        for play, when in zip(plays, moments, strict=True):
            play.created_at = when
        for posting, when in dated:
            posting.created_at = when
        fields = ["created_at", "locked_at", "dealt_at", "settled_at"]
        Round.objects.bulk_update(made, fields, batch_size=1000)
        Play.objects.bulk_update(plays, ["created_at"], batch_size=1000)
        Transaction.objects.bulk_update(
            [posting for posting, _when in dated], ["created_at"], batch_size=1000
        )

    # Measuring --------------------------------------------------------------------------

    def _measure(self, *, player: User, repeat: int) -> None:
        client = Client()
        client.force_login(player)
        url = reverse("baccarat:protocol_statistics")
        table = Table.objects.get(slug=f"{SLUG}8")
        today = timezone.localdate()
        cases = [
            ("all time, all tables", {}),
            ("last 30 days", {"period": "30"}),
            ("last 7 days", {"period": "7"}),
            ("one table, all time", {"table": str(table.pk)}),
            (
                "one table, 90 days by dates",
                {
                    "table": str(table.pk),
                    "date_from": (today - timedelta(days=90)).isoformat(),
                    "date_to": today.isoformat(),
                },
            ),
        ]
        # The player's hours summed from nothing: what their first visit would cost if
        # the hourly task (statistics_sum_hours) had not done it before.
        StatisticsHour.objects.filter(player=player).delete()
        StatisticsBalance.objects.filter(account__owner=player).delete()
        StatisticsMark.objects.filter(player=player).delete()
        began = time.perf_counter()
        hours_summed(player)
        self.stdout.write(
            f"hours summed from nothing in {(time.perf_counter() - began) * 1000:.0f} ms:"
            f" {StatisticsHour.objects.filter(player=player).count():,} hours at tables,"
            f" {StatisticsBalance.objects.filter(account__owner=player).count():,} balances"
        )
        client.get(url)  # warm: the exact odds' enumerations, the templates
        self.stdout.write(
            f"{'statistics page':<30} {'':>5} {'median':>9} {'p95':>9} {'max':>9} {'SQL':>4}"
        )
        for label, query in cases:
            key = figures_key(StatisticsFilterForm(query or None, player=player).scope())
            for state in ("hour", "round", "kept"):
                # Counted by a wrapper: the request's end closes the connection, and with
                # it the debug cursor's log.
                statements = Statements()
                client.get(url, query)
                self._forget(state, player=player, key=key)
                with connection.execute_wrapper(statements):
                    response = client.get(url, query)
                errors = (b'class="error" role="alert"', b'class="form-errors"')
                if response.status_code != 200 or any(e in response.content for e in errors):
                    raise CommandError(f"{label}: HTTP {response.status_code} or a filter error")
                timings = []
                for _ in range(repeat):
                    self._forget(state, player=player, key=key)
                    began = time.perf_counter()
                    client.get(url, query)
                    timings.append((time.perf_counter() - began) * 1000)
                timings.sort()
                p95 = timings[min(len(timings) - 1, int(len(timings) * 0.95))]
                self.stdout.write(
                    f"{label if state == 'hour' else '':<30} {state:>5}"
                    f" {statistics.median(timings):>7.1f}ms {p95:>7.1f}ms"
                    f" {timings[-1]:>7.1f}ms {statements.count:>4}"
                )

    @staticmethod
    def _forget(state: str, *, player: User, key: str) -> None:
        """What ``state`` keeps nothing of: "hour", the first view after the player's
        hours were summed again (a new revision: nothing read from them is kept);
        "round", after a round of theirs (the summed hours' figures kept); "kept", with
        nothing moved since the last view."""
        if state == "hour":
            StatisticsMark.objects.filter(player=player).update(revision=F("revision") + 1)
        if state != "kept":
            cache.delete(key)

    # Cleaning up ------------------------------------------------------------------------

    def _cleanup(self) -> None:
        """Delete the throwaway player's rows by statements (the ORM's delete would first
        fetch every row to collect what refers to it)."""
        player = User.objects.filter(username=PLAYER).first()
        tables = list(Table.objects.filter(slug__startswith=SLUG).values_list("pk", flat=True))
        if player is None and not tables:
            return
        quote = connection.ops.quote_name
        names = {
            model: quote(model._meta.db_table)
            for model in (
                StatisticsBalance,
                StatisticsHour,
                StatisticsMark,
                Entry,
                Transaction,
                Account,
                Bet,
                Play,
                Round,
            )
        }
        with transaction.atomic(), connection.cursor() as cursor:
            if player is not None:
                # Table names from the models; the ids as parameters. The summed hours;
                # the entries of the player's postings (the issuer's of the deposit
                # too), then any other.
                for model, owner in (
                    (StatisticsHour, "player_id"),
                    (StatisticsMark, "player_id"),
                ):
                    cursor.execute(
                        f"DELETE FROM {names[model]} WHERE {owner} = %s",  # noqa: S608
                        [player.pk],
                    )
                cursor.execute(
                    f"DELETE FROM {names[StatisticsBalance]} WHERE account_id IN"  # noqa: S608
                    f" (SELECT id FROM {names[Account]} WHERE owner_id = %s)",
                    [player.pk],
                )
                cursor.execute(
                    f"DELETE FROM {names[Entry]} WHERE transaction_id IN"  # noqa: S608
                    f" (SELECT id FROM {names[Transaction]} WHERE player_id = %s)",
                    [player.pk],
                )
                cursor.execute(
                    f"DELETE FROM {names[Entry]} WHERE account_id IN"  # noqa: S608
                    f" (SELECT id FROM {names[Account]} WHERE owner_id = %s)",
                    [player.pk],
                )
                cursor.execute(
                    f"DELETE FROM {names[Transaction]} WHERE player_id = %s",  # noqa: S608
                    [player.pk],
                )
                cursor.execute(
                    f"DELETE FROM {names[Bet]} WHERE play_id IN"  # noqa: S608
                    f" (SELECT id FROM {names[Play]} WHERE player_id = %s)",
                    [player.pk],
                )
                cursor.execute(f"DELETE FROM {names[Play]} WHERE player_id = %s", [player.pk])  # noqa: S608
                cursor.execute(f"DELETE FROM {names[Account]} WHERE owner_id = %s", [player.pk])  # noqa: S608
            for pk in tables:
                cursor.execute(f"DELETE FROM {names[Round]} WHERE table_id = %s", [pk])  # noqa: S608
            Table.objects.filter(pk__in=tables).delete()
            if player is not None:
                player.delete()
