"""Responsible play: the limits a player sets on their own play, breaks and
self-exclusion, and the reality check. Enforced by the server on every money path:
each of them calls :func:`protection_check` before it bets, buys in or deposits.

What every request must know at once is kept on the player's row, which every request
reads anyway (``play_blocked_until``, ``has_play_limits``, ``reality_check_minutes``,
``reality_checked_at``): a player without limits, not on a break and not due for a
reality check costs no query more. The rest is read from the ledger only when needed:
the losses of a day or week (the player's table stacks, practice aside), and the time
played (from the player's stakes: each counts the time since the one before, at most
five minutes, so that a pause is not play).

A day runs from midnight, a week from Monday, in ``TIME_ZONE``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from itertools import pairwise
from typing import TYPE_CHECKING

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Sum
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from wallet.errors import WalletError
from wallet.formatting import format_money
from wallet.models import Account, Entry, PlayBreak, PlayLimit, Transaction

if TYPE_CHECKING:
    from casino.accounts.models import User

RAISE_DELAY = timedelta(hours=24)
# A stake counts the time since the player's stake before it, at most this long.
STAKE_TIME_CAP = timedelta(minutes=5)
# A visit (what the reality check sums up) ends after this long without a stake.
VISIT_GAP = timedelta(minutes=30)
BREAKS = {
    PlayBreak.Kind.BREAK: (timedelta(days=1), timedelta(days=7), timedelta(days=30)),
    PlayBreak.Kind.EXCLUSION: (timedelta(days=183), timedelta(days=365), timedelta(days=1826)),
}
# What moves a stack in play: a stake, its settlement, a void's refund and take-back.
PLAY_KINDS = (
    Transaction.Kind.STAKE,
    Transaction.Kind.SETTLE,
    Transaction.Kind.REFUND,
    Transaction.Kind.TAKE_BACK,
)


class PlayRefused(WalletError):
    """A bet, buy-in, deposit or chat message the player's own protection refuses."""

    code = "play_refused"


class RealityCheckDue(PlayRefused):
    code = "reality_check_due"


# Reads ------------------------------------------------------------------------------


def day_start(now: datetime) -> datetime:
    local = timezone.localtime(now)
    return local.replace(hour=0, minute=0, second=0, microsecond=0)


def week_start(now: datetime) -> datetime:
    return day_start(now) - timedelta(days=timezone.localtime(now).weekday())


def _window(kind: str, now: datetime) -> tuple[datetime, datetime]:
    """The day or the week the limit ``kind`` counts in: its start and its end."""
    if kind.endswith("_day"):
        start = day_start(now)
        return start, day_start(start + timedelta(hours=36))
    start = week_start(now)
    return start, week_start(start + timedelta(days=7, hours=12))


def net_result(*, player: User, since: datetime) -> int:
    """What the player won (positive) or lost in play since ``since``, in cents, at every
    table but practice ones (whose chips are not the player's)."""
    total = (
        Entry.objects.filter(
            account__owner=player,
            account__kind=Account.Kind.STACK,
            transaction__kind__in=PLAY_KINDS,
            transaction__created_at__gte=since,
        )
        .exclude(account__table__kind="practice")
        .aggregate(total=Sum("amount"))["total"]
    )
    return int(total or 0)


def _stake_times(player: User, since: datetime) -> list[datetime]:
    return list(
        Transaction.objects.filter(
            player=player, kind=Transaction.Kind.STAKE, created_at__gte=since
        )
        .order_by("created_at")
        .values_list("created_at", flat=True)
    )


def played_seconds(*, player: User, since: datetime, now: datetime) -> int:
    """How long the player has played since ``since`` (at every table, practice too)."""
    times = _stake_times(player, since - STAKE_TIME_CAP)
    total = timedelta()
    for before, at in pairwise(times):
        if at >= since:
            total += min(at - max(before, since), STAKE_TIME_CAP)
    return int(total.total_seconds())


def visit_start(*, player: User, now: datetime) -> datetime | None:
    """When the player's current visit began: the first stake after a pause of
    ``VISIT_GAP``; ``None`` when the last stake is older than that."""
    times = _stake_times(player, now - timedelta(days=2))
    if not times or now - times[-1] > VISIT_GAP:
        return None
    start = times[-1]
    for earlier in reversed(times[:-1]):
        if start - earlier > VISIT_GAP:
            break
        start = earlier
    return start


@dataclass(frozen=True)
class LimitState:
    kind: str
    amount: int  # in force now
    used: int  # lost (cents) or played (minutes) in its day or week
    resets_at: datetime
    pending_amount: int | None
    pending_remove: bool
    pending_from: datetime | None

    @property
    def reached(self) -> bool:
        return self.used >= self.amount

    @property
    def is_loss(self) -> bool:
        return self.kind.startswith("loss")

    @property
    def label(self) -> str:
        return str(PlayLimit.Kind(self.kind).label)


def _apply_due(limit: PlayLimit, now: datetime) -> PlayLimit | None:
    """The limit as it stands now: a raise or removal whose 24 hours are over applies."""
    if limit.pending_from is None or limit.pending_from > now:
        return limit
    if limit.pending_remove:
        limit.delete()
        return None
    assert limit.pending_amount is not None
    limit.amount = limit.pending_amount
    limit.pending_amount, limit.pending_from = None, None
    limit.save(update_fields=["amount", "pending_amount", "pending_from", "updated_at"])
    return limit


def limits_status(*, player: User, now: datetime | None = None) -> list[LimitState]:
    """Every limit of the player in force, with what its day or week has used of it."""
    now = now or timezone.now()
    states = []
    for row in PlayLimit.objects.filter(player=player).order_by("kind"):
        limit = _apply_due(row, now)
        if limit is None:
            continue
        start, end = _window(limit.kind, now)
        if limit.kind.startswith("loss"):
            used = max(0, -net_result(player=player, since=start))
        else:
            used = played_seconds(player=player, since=start, now=now) // 60
        states.append(
            LimitState(
                kind=limit.kind,
                amount=limit.amount,
                used=used,
                resets_at=end,
                pending_amount=limit.pending_amount,
                pending_remove=limit.pending_remove,
                pending_from=limit.pending_from,
            )
        )
    if not states and player.has_play_limits:
        _flag_limits(player, False)
    return states


def active_break(*, player: User, now: datetime | None = None) -> PlayBreak | None:
    now = now or timezone.now()
    return PlayBreak.objects.filter(player=player, ends_at__gt=now).order_by("-ends_at").first()


def is_blocked(player: User, now: datetime | None = None) -> bool:
    """On a break or self-excluded now (the player's row says so: no query)."""
    until = getattr(player, "play_blocked_until", None)
    return until is not None and until > (now or timezone.now())


# The check on every money path --------------------------------------------------------


def blocked_message(player: User) -> str:
    """What a player on a break or self-excluded is told when they try to play."""
    return _("You are taking a break from play (until %(until)s).") % {
        "until": _until(player.play_blocked_until)  # type: ignore[arg-type]
    }


def _until(at: datetime) -> str:
    return date_format(timezone.localtime(at), "DATETIME_FORMAT")


def protection_check(
    *, player: User, bet: bool = True, deal: bool = False, now: datetime | None = None
) -> None:
    """Refuse what the player's protection forbids now (:class:`PlayRefused`, with the
    reason and until when): on a break or self-excluded, anything that puts money or
    chips in play, or a chat message; with a limit reached, a bet (``bet``); with a
    reality check due, a deal (``deal``: the round in play finished first)."""
    now = now or timezone.now()
    if is_blocked(player, now):
        raise PlayRefused(blocked_message(player))
    if bet and player.has_play_limits:
        for state in limits_status(player=player, now=now):
            if state.reached:
                message = (
                    _("You have reached your loss limit of %(limit)s.")
                    % {"limit": format_money(state.amount)}
                    if state.is_loss
                    else _("You have reached your play time limit of %(minutes)s minutes.")
                    % {"minutes": state.amount}
                )
                raise PlayRefused(
                    message
                    + " "
                    + _("You can bet again from %(until)s.") % {"until": _until(state.resets_at)}
                )
    if deal and reality_check_due(player=player, now=now):
        raise RealityCheckDue(_("Please answer the reality check first."))


# The reality check --------------------------------------------------------------------


def reality_check_due(*, player: User, now: datetime | None = None) -> bool:
    """Whether the player has played ``reality_check_minutes`` since the last check (or
    since their visit began). Reads nothing while the last check is recent; when it is
    older, it moves to the start of a visit begun since (one write a visit)."""
    minutes = getattr(player, "reality_check_minutes", 0)
    if not minutes:
        return False
    now = now or timezone.now()
    interval = timedelta(minutes=minutes)
    checked = player.reality_checked_at
    if checked is not None and now - checked < interval:
        return False
    started = visit_start(player=player, now=now)
    if started is None:  # not playing: nothing to read again for an interval
        _set_checked(player, now)
        return False
    if checked is None or checked < started:
        _set_checked(player, started)
        return now - started >= interval
    return True


@dataclass(frozen=True)
class VisitSummary:
    started: datetime
    minutes: int
    net: int


def visit_summary(*, player: User, now: datetime | None = None) -> VisitSummary:
    """What the reality check tells: how long this visit has lasted, and its result."""
    now = now or timezone.now()
    started = visit_start(player=player, now=now) or now
    return VisitSummary(
        started=started,
        minutes=int((now - started).total_seconds() // 60),
        net=net_result(player=player, since=started),
    )


def reality_check_pending(*, player: User, now: datetime | None = None) -> VisitSummary | None:
    """The reality check's summary when one is due for the player now, else ``None``."""
    now = now or timezone.now()
    if not reality_check_due(player=player, now=now):
        return None
    return visit_summary(player=player, now=now)


def reality_check_answer(*, player: User, now: datetime | None = None) -> None:
    """The player answered the reality check: the next one comes an interval later."""
    _set_checked(player, now or timezone.now())


def _set_checked(player: User, at: datetime) -> None:
    player.reality_checked_at = at
    get_user_model().objects.filter(pk=player.pk).update(reality_checked_at=at)


def _flag_limits(player: User, flag: bool) -> None:
    player.has_play_limits = flag
    get_user_model().objects.filter(pk=player.pk).update(has_play_limits=flag)


# Setting limits and taking breaks -----------------------------------------------------


def play_limit_set(
    *, player: User, kind: str, amount: int | None, now: datetime | None = None
) -> PlayLimit | None:
    """Set (``amount``) or remove (``None``) a limit. A lower limit, or a first one,
    applies at once; a higher one, or a removal, after 24 hours (and a lower one set
    meanwhile cancels it)."""
    if kind not in PlayLimit.Kind.values:
        raise PlayRefused(_("There is no such limit."))
    if amount is not None and amount <= 0:
        raise PlayRefused(_("A limit must be above zero."))
    now = now or timezone.now()
    with transaction.atomic():
        row = PlayLimit.objects.select_for_update().filter(player=player, kind=kind).first()
        current = _apply_due(row, now) if row is not None else None
        if current is None:
            if amount is None:
                return None
            limit = PlayLimit.objects.create(player=player, kind=kind, amount=amount)
        elif amount is not None and amount <= current.amount:
            current.amount = amount
            current.pending_amount, current.pending_remove, current.pending_from = None, False, None
            current.save()
            limit = current
        else:
            current.pending_amount = amount
            current.pending_remove = amount is None
            current.pending_from = now + RAISE_DELAY
            current.save()
            limit = current
        _flag_limits(player, True)
    return limit


def play_break_take(
    *, player: User, kind: str, length: timedelta, now: datetime | None = None
) -> PlayBreak:
    """Start a break or a self-exclusion now, of one of the lengths :data:`BREAKS`
    offers. It ends only at its end; a longer one may be taken during it."""
    if kind not in BREAKS or length not in BREAKS[kind]:  # type: ignore[index]
        raise PlayRefused(_("Please choose one of the lengths offered."))
    now = now or timezone.now()
    with transaction.atomic():
        taken = PlayBreak.objects.create(
            player=player, kind=kind, started_at=now, ends_at=now + length
        )
        until = max(taken.ends_at, player.play_blocked_until or taken.ends_at)
        get_user_model().objects.filter(pk=player.pk).update(play_blocked_until=until)
        player.play_blocked_until = until
    return taken
