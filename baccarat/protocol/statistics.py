"""Reads for a player's statistics page: the balance over time from the ledger, the result
by bet beside what the exact odds expect of the same stakes, and the rounds and the time
played per day.

The hours that are over come summed (:mod:`baccarat.protocol.hours`: a row per hour
played); only the last hour or so is counted from the rounds and the ledger, in grouped
rows, never a row per round brought into Python, so the page costs a handful of
statements and a few hundred rows whatever the player's history. Practice sessions are
left out: their chips are issued for the session and are not the player's money. Only
settled rounds with a stake count; a void round gave every stake back.

The times are the player's: a round counts on the day the player joined it
(``Play.created_at``, which the index play_player_recent orders), in the active time
zone.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import date, datetime, time, timedelta, tzinfo
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from django.core.cache import cache
from django.db.models import Count, OuterRef, Q, QuerySet, Subquery, Sum
from django.db.models.functions import TruncDate, TruncMinute
from django.utils import timezone

from baccarat.board.selectors import table_label
from baccarat.db import player_tables
from baccarat.engine.enums import BetKind, CommissionMode
from baccarat.engine.odds import exact_odds
from baccarat.models import (
    Bet,
    Play,
    StatisticsBalance,
    StatisticsHour,
    StatisticsMark,
    Table,
    hour_floor,
)
from baccarat.protocol.hours import (
    COUNTED_KINDS,
    EDGE_RULES,
    Scope,
    balance_moves,
    bet_groups,
    bet_row,
    counted,
    hours_summed,
)
from wallet.models import Account, Transaction

if TYPE_CHECKING:
    from casino.accounts.models import User

# At most this many points on the balance line: the unit of time is the smallest of
# BALANCE_UNITS that gives no more (a year in days, seven days in hours).
MAX_POINTS = 400
BALANCE_UNITS: tuple[tuple[str, timedelta], ...] = (
    ("hour", timedelta(hours=1)),
    ("day", timedelta(days=1)),
    ("week", timedelta(weeks=1)),
    ("month", timedelta(days=31)),
)


def statistics_tables(player: User) -> list[tuple[int, str]]:
    """The tables of the page's filter: (id, name for people) of every table the player
    played at but their practice sessions'."""
    return [
        (pk, table_label(name, kind))
        for pk, name, kind in player_tables(player_id=player.pk)
        if kind != Table.Kind.PRACTICE
    ]


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


def stretch_start(hour: datetime, unit: str, zone: tzinfo) -> datetime:
    """The start, in ``zone``, of the hour, day, week (from Monday) or month that the hour
    beginning at ``hour`` is in."""
    local = hour.astimezone(zone)
    if unit == "hour":
        return local
    day = local.date()
    if unit == "week":
        day -= timedelta(days=day.weekday())
    elif unit == "month":
        day = day.replace(day=1)
    return datetime.combine(day, time(), tzinfo=zone)


def balance_over_time(
    scope: Scope,
    *,
    accounts: list[tuple[int, str]],
    summed: Summed,
    span: tuple[datetime, datetime],
    summed_to: datetime,
    split: datetime,
) -> Balance | None:
    """The wallet and the table stacks (``accounts``: the scope's, as (id, kind)) from
    the span's start to its end: their balances at the end of each hour, day, week or
    month (:func:`balance_unit`) in which they moved. ``None`` when the player has no
    account to show.

    The summed hours give the balances before ``summed_to`` and the moves before
    ``split`` (``summed``); the ledger the rest: at most the last hour or so.
    """
    if not accounts:
        return None
    start, end = span
    ids = [pk for pk, _kind in accounts]
    wallet_ids = {pk for pk, kind in accounts if kind == Account.Kind.WALLET}
    balances = dict.fromkeys(ids, 0)
    if scope.start is not None:  # else from the first posting, when all were empty
        balances.update(summed.before)
        for _hour, account, balance in balance_moves(scope.player, summed_to, start, accounts=ids):
            balances[account] = balance
    moves = [*summed.moves, *balance_moves(scope.player, max(start, split), end, accounts=ids)]

    unit = balance_unit(start, end)

    def point(when: datetime) -> BalancePoint:
        wallet = sum(balances[pk] for pk in wallet_ids)
        return BalancePoint(when=when, wallet=wallet, stacks=sum(balances.values()) - wallet)

    points = [point(start)]
    zone = timezone.get_current_timezone()
    starts: dict[datetime, datetime] = {}  # by hour: the accounts often share one
    stretches = [
        starts.get(hour) or starts.setdefault(hour, stretch_start(hour, unit, zone))
        for hour, _account, _balance in moves
    ]
    for index, (_hour, account, balance) in enumerate(moves):
        balances[account] = balance
        when = stretches[index]
        if index + 1 == len(moves) or stretches[index + 1] != when:
            points.append(point(max(start, min(stretch_end(when, unit), end))))
    points.append(point(end))
    return Balance(start=start, end=end, unit=unit, points=points)


def balance_span(scope: Scope, now: datetime) -> tuple[datetime, datetime]:
    """The balance line's start and end: the scope's, or the player's first posting (an
    open start) and now (an open end)."""
    end = min(scope.end, now) if scope.end is not None else now
    if scope.start is not None:
        return min(scope.start, end), end
    first = (
        Transaction.objects.filter(player=scope.player)
        .order_by("created_at")
        .values_list("created_at", flat=True)
        .first()
    )
    return (min(first, end) if first is not None else end), end


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


def groups_added(groups: Iterable[Sequence[Any]]) -> list[list[Any]]:
    """Groups of bets as the hours keep them (:func:`~baccarat.protocol.hours.bet_row`),
    those of the same spot and rules added up."""
    totals: dict[tuple[str, ...], list[int]] = {}
    for kind, *rules, bets, staked, paid in groups:
        found = totals.setdefault((kind, *rules), [0, 0, 0])
        found[0] += bets
        found[1] += staked
        found[2] += paid
    return [[*key, *figures] for key, figures in totals.items()]


def bet_results(groups: Iterable[Sequence[Any]]) -> list[BetResult]:
    """The result of each bet spot the player staked on, in layout order, beside its
    expectation, from the bets grouped by spot and by the rule values that change the
    edge: the groups of the same rules added up, then the exact edge applied once to
    each."""
    by_kind: dict[str, BetResult] = {}
    for kind, *rules, bets, staked, paid in groups_added(groups):
        result = by_kind.setdefault(kind, BetResult(kind=kind))
        result.bets += bets
        result.staked += staked
        result.result += paid - staked
        edge = house_edge(kind, dict(zip(EDGE_RULES, rules, strict=True)))
        result.expected_exact -= staked * edge
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


def days_added(days: Iterable[Day]) -> list[Day]:
    """``days`` with the figures of each date added up, oldest first (a day's hours
    summed and its last hours counted, or the hours of one day at several tables)."""
    totals: dict[date, list[int]] = {}
    for day in days:
        found = totals.setdefault(day.day, [0, 0, 0, 0])
        found[0] += day.rounds
        found[1] += day.minutes
        found[2] += day.staked
        found[3] += day.result
    return [Day(when, *figures) for when, figures in sorted(totals.items())]


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
    return cache_key(
        "protocol-statistics:1",
        scope.player.pk,
        newest,
        scope.start,
        scope.end,
        scope.table,
        timezone.localdate(),
        timezone.get_current_timezone_name(),
    )


def cache_key(name: str, *parts: object) -> str:
    """``name`` and ``parts`` as a cache key: dates and times in ISO form, None as
    nothing."""
    texts = (
        part.isoformat() if isinstance(part, date) else "" if part is None else str(part)
        for part in parts
    )
    return ":".join([name, *texts])


def split_at(scope: Scope, through: datetime) -> datetime:
    """Where the scope's summed hours end and its rounds and postings are counted
    themselves: at ``through`` (how far the hours are summed) within the scope, or at
    its start when that is not on the hour."""
    split = through
    if scope.end is not None:
        split = min(split, hour_floor(scope.end))
    if scope.start is not None:
        if scope.start != hour_floor(scope.start):
            return scope.start
        split = max(split, scope.start)
    return split


@dataclass(frozen=True)
class Summed:
    """What the summed hours say of a scope before its split: the bets as the hours keep
    them, the days, the accounts' balances before the start and their moves after it.
    Read once for each summing of the player's hours (the mark's revision), then kept."""

    bets: list[list[Any]]
    days: list[Day]
    before: dict[int, int]
    moves: list[tuple[datetime, int, int]]


def summed_figures(
    scope: Scope,
    *,
    mark: StatisticsMark,
    split: datetime,
    summed_to: datetime,
    start: datetime,
    accounts: list[int],
) -> Summed:
    """The summed hours of ``scope`` before ``split``, and the ``accounts``' balances
    before ``summed_to`` and moves from ``start`` on: four reads, kept (at most
    :data:`CACHE_SECONDS`) until the player's hours are summed again."""
    key = cache_key(
        "protocol-statistics-hours:1",
        scope.player.pk,
        mark.revision,
        mark.through,
        split,
        summed_to,
        start,
        scope.start,
        scope.table,
        ",".join(map(str, accounts)),
        timezone.get_current_timezone_name(),
    )
    found: Summed | None = cache.get(key)
    if found is not None:
        return found
    hours = StatisticsHour.objects.filter(player=scope.player, hour__lt=split)
    if scope.start is not None:
        hours = hours.filter(hour__gte=scope.start)
    if scope.table is not None:
        hours = hours.filter(table_id=scope.table)
    bets: list[list[Any]] = []
    days: list[Day] = []
    minutes: dict[datetime, int] = {}  # the hour's minutes at every table: counted once
    zone = timezone.get_current_timezone()
    for hour, rounds, begun, staked, paid, groups in hours.values_list(
        "hour", "rounds", "minutes", "staked", "paid", "bets"
    ):
        days.append(Day(hour.astimezone(zone).date(), rounds, 0, staked, paid - staked))
        minutes[hour] = minutes.get(hour, 0) | begun
        bets += groups
    days += (
        Day(hour.astimezone(zone).date(), 0, begun.bit_count(), 0, 0)
        for hour, begun in minutes.items()
    )
    before: dict[int, int] = {}
    if scope.start is not None:  # each account's last hour summed before the start
        last = StatisticsBalance.objects.filter(account=OuterRef("pk"), hour__lt=summed_to)
        latest = Account.objects.filter(pk__in=accounts).annotate(
            at=Subquery(last.order_by("-hour").values("balance")[:1])
        )
        before = {pk: at for pk, at in latest.values_list("pk", "at") if at is not None}
    moves = list(
        StatisticsBalance.objects.filter(
            account_id__in=accounts,
            hour__gte=scope.start if scope.start is not None else hour_floor(start),
            hour__lt=split,
        )
        .order_by("hour", "account_id")
        .values_list("hour", "account_id", "balance")
    )
    found = Summed(bets=groups_added(bets), days=days_added(days), before=before, moves=moves)
    cache.set(key, found, CACHE_SECONDS)
    return found


def counted_figures(scope: Scope, *, now: datetime | None = None) -> Figures:
    """The balance, the results by bet and the days of ``scope``: the player's hours
    summed up to the last one that is over (:func:`~baccarat.protocol.hours.hours_summed`),
    what they say before the split (:func:`summed_figures`), and the rounds and postings
    themselves after it."""
    now = now or timezone.now()
    mark = hours_summed(scope.player, now=now)
    split = split_at(scope, mark.through)
    accounts = list(_balance_accounts(scope).values_list("pk", "kind"))
    span = balance_span(scope, now)
    summed_to = min(hour_floor(span[0]), mark.through)  # on the hour: the rest is counted
    summed = summed_figures(
        scope,
        mark=mark,
        split=split,
        summed_to=summed_to,
        start=span[0],
        accounts=[pk for pk, _kind in accounts],
    )
    after = replace(scope, start=split)
    return Figures(
        balance=balance_over_time(
            scope, accounts=accounts, summed=summed, span=span, summed_to=summed_to, split=split
        ),
        bets=bet_results([*summed.bets, *map(bet_row, bet_groups(after))]),
        days=days_added([*summed.days, *days_played(after)]),
    )


def statistics_figures(scope: Scope) -> Figures:
    """The figures of ``scope`` (:func:`counted_figures`), then kept until the player's
    ledger moves (at most :data:`CACHE_SECONDS`). A kept balance line is drawn on to
    now."""
    key = figures_key(scope)
    found: Figures | None = cache.get(key)
    if found is None:
        found = counted_figures(scope)
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
