"""Reads for a player's statistics page: the balance over time from the ledger, the result
by bet beside what the exact odds expect of the same stakes, and the rounds and the time
played per day.

Everything is counted in the database in grouped rows (a row per day, per bet and rule
set, per account and stretch of time), never a row per round brought into Python, so
the page costs a handful of statements whatever the player's history. Practice sessions
are left out: their chips are issued for the session and are not the player's money.
Only settled rounds with a stake count; a void round gave every stake back.

The times are the player's: a round counts on the day the player joined it
(``Play.created_at``, which the index play_player_recent orders), in the active time
zone.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from django.core.cache import cache
from django.db.models import Count, F, Max, OuterRef, Q, QuerySet, Subquery, Sum
from django.db.models.fields.json import KeyTextTransform
from django.db.models.functions import Trunc, TruncDate, TruncMinute
from django.utils import timezone

from baccarat.board.selectors import table_label
from baccarat.db import player_tables
from baccarat.engine.enums import BetKind, CommissionMode
from baccarat.engine.odds import exact_odds
from baccarat.models import Bet, Play, Round, Table
from wallet.models import Account, Entry, Transaction

if TYPE_CHECKING:
    from casino.accounts.models import User

# The tables whose rounds and stacks count: every kind but practice.
COUNTED_KINDS = (Table.Kind.SINGLE, Table.Kind.FULL)
# At most this many points on the balance line: the unit of time is the smallest of
# BALANCE_UNITS that gives no more (a year in days, seven days in hours).
MAX_POINTS = 400
BALANCE_UNITS: tuple[tuple[str, timedelta], ...] = (
    ("hour", timedelta(hours=1)),
    ("day", timedelta(days=1)),
    ("week", timedelta(weeks=1)),
    ("month", timedelta(days=31)),
)


@dataclass(frozen=True)
class Scope:
    """Whose figures, over which time (``start`` included, ``end`` excluded; ``None``:
    open) and at which table (``None``: all the player's tables)."""

    player: User
    start: datetime | None = None
    end: datetime | None = None
    table: int | None = None


def statistics_tables(player: User) -> list[tuple[int, str]]:
    """The tables of the page's filter: (id, name for people) of every table the player
    played at but their practice sessions'."""
    return [
        (pk, table_label(name, kind))
        for pk, name, kind in player_tables(player_id=player.pk)
        if kind != Table.Kind.PRACTICE
    ]


def counted(scope: Scope, to_play: str = "") -> Q:
    """The player's settled plays with a stake in the scope, practice left out, as a
    condition on plays, or on the rows ``to_play`` leads from to them ("play__")."""
    lookups: dict[str, Any] = {
        "player": scope.player,
        "stake_total__gt": 0,
        "round__state": Round.State.SETTLED,
        "table__kind__in": COUNTED_KINDS,
    }
    if scope.table is not None:
        lookups["table_id"] = scope.table
    if scope.start is not None:
        lookups["created_at__gte"] = scope.start
    if scope.end is not None:
        lookups["created_at__lt"] = scope.end
    return Q(**{f"{to_play}{name}": value for name, value in lookups.items()})


def counted_plays(scope: Scope) -> QuerySet[Play]:
    """The player's settled plays with a stake in the scope, practice left out."""
    return Play.objects.filter(counted(scope))


# The balance over time ------------------------------------------------------------------


@dataclass(frozen=True)
class BalancePoint:
    """The wallet and the sum of the table stacks at ``when`` (the end of a stretch of
    time), in cents."""

    when: datetime
    wallet: int
    stacks: int


@dataclass(frozen=True)
class Balance:
    start: datetime
    end: datetime
    unit: str  # the stretch each point closes: hour, day, week or month
    points: list[BalancePoint]  # the first at ``start``, the last at ``end``


def balance_unit(start: datetime, end: datetime) -> str:
    """The shortest stretch of time that draws ``start`` to ``end`` in at most
    :data:`MAX_POINTS` points."""
    span = end - start
    for unit, length in BALANCE_UNITS:
        if span <= length * MAX_POINTS:
            return unit
    return BALANCE_UNITS[-1][0]


def _balance_accounts(scope: Scope) -> QuerySet[Account]:
    stacks = Q(kind=Account.Kind.STACK, table__kind__in=COUNTED_KINDS)
    if scope.table is not None:
        stacks &= Q(table_id=scope.table)
    return Account.objects.filter(Q(kind=Account.Kind.WALLET) | stacks, owner=scope.player)


def stretch_end(when: datetime, unit: str) -> datetime:
    """The end of the hour, day, week or month that begins at ``when``."""
    if unit == "month":
        return when.replace(year=when.year + when.month // 12, month=when.month % 12 + 1)
    return when + dict(BALANCE_UNITS)[unit]


def balance_over_time(scope: Scope, *, now: datetime | None = None) -> Balance | None:
    """The wallet and the table stacks (at the scope's table, or all of them) from the
    scope's start (or the player's first posting) to its end (or now): their balances at
    the end of each hour, day, week or month (:func:`balance_unit`) in which they moved.
    ``None`` when the player has no account to show.

    Three statements: the first posting's time (an open start) or the accounts' balances
    before the start, the accounts, and the last entry of each account in each stretch of
    time (the database picks it: Python adds up a few hundred rows).
    """
    now = now or timezone.now()
    end = min(scope.end, now) if scope.end is not None else now
    accounts = _balance_accounts(scope)
    entries = Entry.objects.filter(transaction__created_at__lt=end)
    if scope.start is not None:
        start = min(scope.start, end)
        before = Entry.objects.filter(
            account=OuterRef("pk"), transaction__created_at__lt=start
        ).order_by("-id")
        rows = accounts.annotate(before=Subquery(before.values("balance_after")[:1]))
        found = list(rows.values_list("pk", "kind", "before"))
        entries = entries.filter(transaction__created_at__gte=start)
    else:  # from the player's first posting on, when every account was empty
        first = (
            Transaction.objects.filter(player=scope.player)
            .order_by("created_at")
            .values_list("created_at", flat=True)
            .first()
        )
        start = min(first, end) if first is not None else end
        found = [(pk, kind, None) for pk, kind in accounts.values_list("pk", "kind")]
    if not found:
        return None
    wallet_ids = {pk for pk, kind, _before in found if kind == Account.Kind.WALLET}
    balances = {pk: before or 0 for pk, _kind, before in found}

    unit = balance_unit(start, end)
    stretch = Trunc("transaction__created_at", unit)
    # The last entry of each account in each stretch: its balance_after is the account's
    # balance at the stretch's end.
    last_ids = (
        entries.filter(account_id__in=balances)
        .values(stretch=stretch, at=F("account_id"))
        .annotate(last=Max("id"))
        .values("last")
    )
    lasts: list[tuple[datetime, int, int, int]] = sorted(
        Entry.objects.filter(id__in=last_ids).values_list(
            stretch, "id", "account_id", "balance_after"
        )
    )

    def point(when: datetime) -> BalancePoint:
        wallet = sum(balances[pk] for pk in wallet_ids)
        return BalancePoint(when=when, wallet=wallet, stacks=sum(balances.values()) - wallet)

    points = [point(start)]
    for index, (when, _id, account, balance_after) in enumerate(lasts):
        balances[account] = balance_after
        if index + 1 == len(lasts) or lasts[index + 1][0] != when:
            points.append(point(max(start, min(stretch_end(when, unit), end))))
    points.append(point(end))
    return Balance(start=start, end=end, unit=unit, points=points)


# The result by bet ----------------------------------------------------------------------


@dataclass
class BetResult:
    """A bet spot's stakes and result, and what the exact odds expect of the same stakes
    under each round's rules: ``-(stake × house edge)``, exact until rounded to cents."""

    kind: str
    bets: int = 0
    staked: int = 0
    result: int = 0  # paid back minus staked, in cents
    expected_exact: Fraction = field(default_factory=Fraction)

    @property
    def label(self) -> str:
        return str(Bet.Kind(self.kind).label)

    @property
    def expected(self) -> int:
        """The expected result rounded to the cent (half to even)."""
        return round(self.expected_exact)

    @property
    def house_edge(self) -> Fraction:
        """The edge the stakes met, weighted by stake (the rules may differ by round)."""
        return -self.expected_exact / self.staked if self.staked else Fraction(0)


def house_edge(kind: str, rules: dict[str, Any]) -> Fraction:
    """The engine's exact house edge of ``kind`` under a round's rule values (``decks``,
    ``commission``, ``tie_pays``)."""
    return exact_odds(int(rules["decks"])).house_edge(
        BetKind(kind),
        commission=CommissionMode(rules["commission"]),
        tie_pays=int(rules["tie_pays"]),
    )


# The rule values that change a bet's edge; the rounds are grouped by them.
EDGE_RULES = ("decks", "commission", "tie_pays")


def bet_results(scope: Scope) -> list[BetResult]:
    """The result of each bet spot the player staked on, in layout order, beside its
    expectation. One statement: the bets grouped by spot and by the rule values that
    change the edge (:data:`EDGE_RULES`); the exact edge applied per group."""
    rules = {f"rule_{name}": KeyTextTransform(name, "play__round__rules") for name in EDGE_RULES}
    groups = (
        Bet.objects.filter(counted(scope, "play__"))
        .values("kind", **rules)
        .annotate(bets=Count("id"), staked=Sum("stake"), paid=Sum("payout"))
        .order_by()
    )
    by_kind: dict[str, BetResult] = {}
    # The stubs cannot type the rule values' aliases, built from EDGE_RULES.
    rows: list[dict[str, Any]] = list(groups)  # type: ignore[arg-type]
    for group in rows:
        kind = group["kind"]
        found = by_kind.setdefault(kind, BetResult(kind=kind))
        found.bets += group["bets"]
        found.staked += group["staked"]
        found.result += group["paid"] - group["staked"]
        snapshot = {name: group[f"rule_{name}"] for name in EDGE_RULES}
        found.expected_exact -= group["staked"] * house_edge(kind, snapshot)
    return [by_kind[kind] for kind in Bet.Kind.values if kind in by_kind]


# Rounds and time per day ----------------------------------------------------------------


@dataclass(frozen=True)
class Day:
    """A day's rounds, minutes played (each minute in which one of the player's rounds
    began counts once), stakes and result."""

    day: date
    rounds: int
    minutes: int
    staked: int
    result: int


def days_played(scope: Scope) -> list[Day]:
    """The days the player played in the scope, oldest first, in one grouped statement."""
    rows = (
        counted_plays(scope)
        .annotate(day=TruncDate("created_at"))
        .values("day")
        .annotate(
            rounds=Count("id"),
            minutes=Count(TruncMinute("created_at"), distinct=True),
            staked=Sum("stake_total"),
            paid=Sum("payout_total"),
        )
        .order_by("day")
    )
    return [
        Day(
            day=row["day"],
            rounds=row["rounds"],
            minutes=row["minutes"],
            staked=row["staked"],
            result=row["paid"] - row["staked"],
        )
        for row in rows
    ]


# More days than this are drawn a week a bar.
MAX_BARS = 400


def activity(days: Sequence[Day], *, first: date, last: date) -> tuple[str, list[Day]]:
    """A bar per day from ``first`` to ``last`` (the days without a round too), or, over
    more than :data:`MAX_BARS` days, per week (Monday to Sunday): ("day" or "week", the
    bars). A few hundred bars at most, added up in Python from ``days``."""
    unit, step = "day", 1
    if (last - first).days + 1 > MAX_BARS:
        unit, step = "week", 7
        first -= timedelta(days=first.weekday())
    bars: dict[date, list[int]] = {}
    start = first
    while start <= last:
        bars[start] = [0, 0, 0, 0]
        start += timedelta(days=step)
    for day in days:
        key = day.day - timedelta(days=day.day.weekday() if unit == "week" else 0)
        if key in bars:
            totals = bars[key]
            totals[0] += day.rounds
            totals[1] += day.minutes
            totals[2] += day.staked
            totals[3] += day.result
    return unit, [Day(key, *totals) for key, totals in bars.items()]


# The figures, kept until the ledger moves ------------------------------------------------

# How long a player's figures are kept at most: any posting of theirs (a round, a rebuy,
# a void's refund) makes new ones sooner, since its id is in the key.
CACHE_SECONDS = 3600


@dataclass(frozen=True)
class Figures:
    balance: Balance | None
    bets: list[BetResult]
    days: list[Day]


def figures_key(scope: Scope) -> str:
    """The cache key of ``scope``'s figures: the player, their newest posting (one probe
    of the index txn_player_recent), the scope, today and the time zone."""
    newest = (
        Transaction.objects.filter(player=scope.player)
        .order_by("-created_at")  # the index's order: no sort of the player's postings
        .values_list("id", flat=True)
        .first()
    )
    parts = (
        scope.player.pk,
        newest,
        scope.start.isoformat() if scope.start else "",
        scope.end.isoformat() if scope.end else "",
        scope.table or "",
        timezone.localdate().isoformat(),
        timezone.get_current_timezone_name(),
    )
    return "protocol-statistics:1:" + ":".join(str(part) for part in parts)


def statistics_figures(scope: Scope) -> Figures:
    """The balance, the results by bet and the days of ``scope``, counted once and then
    kept until the player's ledger moves (at most :data:`CACHE_SECONDS`): a long history
    costs its grouped reads once (about a second for 10^5 rounds on PostgreSQL), not on
    every visit. A kept balance line is drawn on to now."""
    key = figures_key(scope)
    found: Figures | None = cache.get(key)
    if found is None:
        found = Figures(
            balance=balance_over_time(scope), bets=bet_results(scope), days=days_played(scope)
        )
        cache.set(key, found, CACHE_SECONDS)
    elif found.balance is not None and scope.end is None:
        # Nothing moved since: the last balances hold until now.
        last = found.balance.points[-1]
        now = timezone.now()
        points = [*found.balance.points[:-1], BalancePoint(now, last.wallet, last.stacks)]
        found = Figures(
            balance=Balance(
                start=found.balance.start, end=now, unit=found.balance.unit, points=points
            ),
            bets=found.bets,
            days=found.days,
        )
    return found
