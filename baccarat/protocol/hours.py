"""A player's statistics summed by the hour, so the statistics page adds up a row per hour
played instead of counting every round of a long history again.

Each hour (UTC, :func:`~baccarat.models.hour_floor`) that is over gets, once, a
:class:`~baccarat.models.StatisticsHour` per table (the counted rounds begun in it, the
minutes they began in, stakes and payouts, their bets grouped by spot and edge rules) and
a :class:`~baccarat.models.StatisticsBalance` per wallet or stack that moved in it (its
balance at the hour's end). The player's
:class:`~baccarat.models.StatisticsMark` says how far: every hour before ``through``.
The page reads those rows for the hours before ``through`` and counts the rest, the last
hour or so, from the rounds and the ledger themselves (:mod:`baccarat.protocol.statistics`).

What keeps the rows true:

- An hour is summed only :data:`GRACE` after it ended: a round or a posting begun in it
  has been committed by then.
- A round begun in a summed hour that was not over then (a seat left with a round still
  open, a round the recovery finishes later) is kept in the mark's ``waiting`` list; once
  it is over, its hour and those after it are summed again.
- Voiding a settled round (support, for a malfunction) moves its players' marks back to
  the round's hour (:meth:`~baccarat.models.StatisticsMark.forget`, in the void's
  transaction), so its hour is summed again without it.
- The ledger only grows: a posting's hour never changes.

Hours are UTC; a day in the player's time zone is a run of whole hours wherever the
offset is whole hours (Europe/Berlin, the casino's). A range whose bounds are not on the
hour is counted from the rounds themselves.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Count, F, Max, Q, Sum
from django.db.models.fields.json import KeyTextTransform
from django.db.models.functions import Trunc, TruncMinute
from django.utils import timezone

from baccarat.models import (
    Bet,
    Play,
    Round,
    StatisticsBalance,
    StatisticsHour,
    StatisticsMark,
    Table,
    hour_floor,
)
from wallet.models import Account, Entry

if TYPE_CHECKING:
    from casino.accounts.models import User

HOUR = timedelta(hours=1)
# An hour is summed this long after its end: whatever began in it has committed.
GRACE = timedelta(minutes=10)
# Before anything the casino recorded: a new mark sums every hour from here.
BEGINNING = datetime(2000, 1, 1, tzinfo=UTC)
# The rule values that change a bet's edge; bets are grouped by them.
EDGE_RULES = ("decks", "commission", "tie_pays")
# The tables whose rounds and stacks count: every kind but practice.
COUNTED_KINDS = (Table.Kind.SINGLE, Table.Kind.FULL)


@dataclass(frozen=True)
class Scope:
    """Whose figures, over which time (``start`` included, ``end`` excluded; ``None``:
    open) and at which table (``None``: all the player's tables)."""

    player: User
    start: datetime | None = None
    end: datetime | None = None
    table: int | None = None


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


def in_hour(field: str) -> Trunc:
    """``field`` cut to its hour in UTC, whatever time zone is active."""
    return Trunc(field, "hour", tzinfo=UTC)


def hours_summed(player: User, *, now: datetime | None = None) -> StatisticsMark:
    """Sum the player's hours up to the last one that ended :data:`GRACE` ago (and again
    from the hour of a waiting round that is now over); returns the mark that says how
    far they are summed.
    Nothing to do costs one read (two while a round waits); otherwise it runs under the
    mark's row lock, so two requests never sum an hour twice."""
    target = hour_floor((now or timezone.now()) - GRACE)
    mark = StatisticsMark.objects.filter(player=player).first()
    if mark is not None and mark.through >= target:
        # A round left open at a single seat can wait for days: one look at it.
        over = Play.objects.filter(pk__in=mark.waiting, round__state__in=Round.FINAL_STATES)
        if not mark.waiting or not over.exists():
            return mark
    if mark is None:
        StatisticsMark.objects.get_or_create(player=player, defaults={"through": BEGINNING})
    with transaction.atomic():
        mark = StatisticsMark.objects.select_for_update().get(player=player)
        start = mark.through
        waiting: list[int] = list(mark.waiting)
        if waiting:
            still = set(
                Play.objects.filter(pk__in=waiting)
                .exclude(round__state__in=Round.FINAL_STATES)
                .values_list("pk", flat=True)
            )
            over = Play.objects.filter(pk__in=set(waiting) - still)
            begun = over.order_by("created_at").values_list("created_at", flat=True).first()
            if begun is not None:
                start = min(start, hour_floor(begun))
            waiting = [pk for pk in waiting if pk in still]
        end = max(mark.through, target)
        if start < end:
            _sum(player, start, end)
            waiting += _not_over(player, start, end)
            mark.revision += 1
        mark.through, mark.waiting = end, sorted(set(waiting))
        mark.save(update_fields=["through", "waiting", "revision"])
    return mark


def hours_summed_recent(*, now: datetime | None = None) -> int:
    """Sum the hours of every player who began a round in the last two hours, so that
    their next look at the statistics finds them summed (the hourly task
    ``statistics_sum_hours``); returns how many players. The rounds by their start
    (its index), then their plays."""
    since = (now or timezone.now()) - 2 * HOUR - GRACE
    players = (
        Play.objects.filter(round__created_at__gte=since, stake_total__gt=0)
        .values_list("player_id", flat=True)
        .distinct()
    )
    found = 0
    for player in get_user_model().objects.filter(pk__in=list(players)).iterator():
        hours_summed(player, now=now)
        found += 1
    return found


def _not_over(player: User, start: datetime, end: datetime) -> list[int]:
    """The player's plays begun in [start, end) at counted tables whose rounds are not
    over."""
    return list(
        Play.objects.filter(
            player=player,
            created_at__gte=start,
            created_at__lt=end,
            table__kind__in=COUNTED_KINDS,
        )
        .exclude(round__state__in=Round.FINAL_STATES)
        .values_list("pk", flat=True)
    )


def _sum(player: User, start: datetime, end: datetime) -> None:
    """Write the rows of every hour in [start, end) anew: four grouped reads of that
    stretch (the plays, the minutes they began in, the bets, the balances), two
    deletes, two inserts."""
    scope = Scope(player=player, start=start, end=end)
    hours: dict[tuple[int, datetime], StatisticsHour] = {}
    plays = (
        Play.objects.filter(counted(scope))
        .values("table_id", hour=in_hour("created_at"))
        .annotate(rounds=Count("id"), staked=Sum("stake_total"), paid=Sum("payout_total"))
        .order_by()
    )
    for row in plays:
        hours[row["table_id"], row["hour"]] = StatisticsHour(
            player=player,
            table_id=row["table_id"],
            hour=row["hour"],
            rounds=row["rounds"],
            minutes=0,
            staked=row["staked"],
            paid=row["paid"],
            bets=[],
        )
    begun = (
        Play.objects.filter(counted(scope))
        .values_list("table_id", in_hour("created_at"), TruncMinute("created_at", tzinfo=UTC))
        .distinct()
        .order_by()
    )
    for table_id, hour, minute in begun:
        hours[table_id, hour].minutes |= 1 << minute.minute
    for group in bet_groups(scope, by_hour=True):
        hours[group["table_id"], group["hour"]].bets.append(bet_row(group))
    balances = [
        StatisticsBalance(account_id=account, hour=hour, balance=balance)
        for hour, account, balance in balance_moves(player, start, end)
    ]
    StatisticsHour.objects.filter(player=player, hour__gte=start).delete()
    StatisticsBalance.objects.filter(account__owner=player, hour__gte=start).delete()
    StatisticsHour.objects.bulk_create(hours.values(), batch_size=1000)
    StatisticsBalance.objects.bulk_create(balances, batch_size=1000)


def bet_groups(scope: Scope, *, by_hour: bool = False) -> list[dict[str, Any]]:
    """The scope's bets grouped by spot and by the rule values that change the edge
    (:data:`EDGE_RULES`, as ``rule_<name>``), with ``bets``, ``staked`` and ``paid``;
    ``by_hour``: by table and hour too. One statement."""
    rules = {f"rule_{name}": KeyTextTransform(name, "play__round__rules") for name in EDGE_RULES}
    keys: dict[str, Any] = {"table_id": F("play__table_id"), "hour": in_hour("play__created_at")}
    groups = (
        Bet.objects.filter(counted(scope, "play__"))
        .values("kind", **rules, **(keys if by_hour else {}))
        .annotate(bets=Count("id"), staked=Sum("stake"), paid=Sum("payout"))
        .order_by()
    )
    return list(groups)  # type: ignore[arg-type]


def bet_row(group: dict[str, Any]) -> list[Any]:
    """A group of :func:`bet_groups` as an hour keeps it: ``[kind, decks, commission,
    tie_pays, bets, staked, paid]``, the rule values as text whatever the database."""
    rules = [str(group[f"rule_{name}"]) for name in EDGE_RULES]
    return [group["kind"], *rules, group["bets"], group["staked"], group["paid"]]


def balance_moves(
    player: User, start: datetime, end: datetime, *, accounts: Iterable[int] | None = None
) -> list[tuple[datetime, int, int]]:
    """(hour, account, balance at the hour's end) of the player's wallet and stacks at
    counted tables (or of ``accounts``) in each hour of [start, end) in which one moved,
    oldest first. Two statements: the last entry of each account in each hour, then their
    balances. Every posting names its player, so the player's postings of the stretch
    (txn_player_recent) lead to the entries. Nothing to read for an empty stretch."""
    if start >= end:
        return []
    entries = Entry.objects.filter(
        transaction__player=player,
        transaction__created_at__gte=start,
        transaction__created_at__lt=end,
    )
    if accounts is None:  # the wallet and the stacks at counted tables
        stacks = Q(account__kind=Account.Kind.STACK, account__table__kind__in=COUNTED_KINDS)
        entries = entries.filter(Q(account__kind=Account.Kind.WALLET) | stacks)
        entries = entries.filter(account__owner=player)
    else:
        entries = entries.filter(account_id__in=accounts)
    last = (
        entries.values(at=in_hour("transaction__created_at"), of=F("account_id"))
        .annotate(last=Max("id"))
        .values("last")
    )
    rows = Entry.objects.filter(id__in=last).values_list(
        in_hour("transaction__created_at"), "account_id", "balance_after", "id"
    )
    return [(hour, account, balance) for hour, account, balance, _id in sorted(rows)]
