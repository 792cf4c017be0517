"""The cashier: free play-money deposits within the player's own limits.

A deposit is refused above the player's 24-hour limit and the global cap
``CASINO_DEPOSIT_CAP_PER_DAY``, and while a registered check says the player has money
in play (the game registers one: a round being dealt).
Lowering a limit applies at once; raising it waits 24 hours, so a player can
never undo a limit in the heat of the moment.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from django.conf import settings
from django.db import transaction
from django.db.models import Sum
from django.utils import timezone

from wallet import protection
from wallet.errors import DepositLimitReached, InvalidAmount, RoundInPlay
from wallet.models import Account, DepositLimit, Transaction
from wallet.services import check_amount, issuer_account, wallet_account, wallet_deposit

if TYPE_CHECKING:
    from casino.accounts.models import User

LIMIT_WINDOW = timedelta(hours=24)
RAISE_DELAY = timedelta(hours=24)


@dataclass(frozen=True)
class LimitStatus:
    """What the cashier shows: the limit in force and a raise that is waiting."""

    amount: int
    pending_amount: int | None
    pending_from: datetime | None
    deposited: int  # in the last 24 hours

    @property
    def remaining(self) -> int:
        return max(0, self.amount - self.deposited)


def global_cap() -> int:
    return int(settings.CASINO_DEPOSIT_CAP_PER_DAY)


def _apply_due_raise(limit: DepositLimit, now: datetime) -> DepositLimit:
    if (
        limit.pending_amount is not None
        and limit.pending_from is not None
        and limit.pending_from <= now
    ):
        limit.amount = limit.pending_amount
        limit.pending_amount = None
        limit.pending_from = None
        limit.save(update_fields=["amount", "pending_amount", "pending_from", "updated_at"])
    return limit


def deposit_limit_effective(*, player: User, now: datetime | None = None) -> int:
    """The limit in force now (applying a raise that has come due), never above the cap."""
    now = now or timezone.now()
    limit = DepositLimit.objects.filter(player=player).first()
    if limit is None:
        return global_cap()
    return min(_apply_due_raise(limit, now).amount, global_cap())


def deposited_recently(*, player: User, now: datetime | None = None) -> int:
    """Sum of the player's deposits in the last 24 hours, in cents."""
    now = now or timezone.now()
    total = (
        Transaction.objects.filter(
            player=player,
            kind=Transaction.Kind.DEPOSIT,
            created_at__gt=now - LIMIT_WINDOW,
            entries__account__kind=Account.Kind.WALLET,
        ).aggregate(total=Sum("entries__amount"))["total"]
        or 0
    )
    return int(total)


def deposit_limit_status(*, player: User) -> LimitStatus:
    now = timezone.now()
    amount = deposit_limit_effective(player=player, now=now)
    limit = DepositLimit.objects.filter(player=player).first()
    return LimitStatus(
        amount=amount,
        pending_amount=limit.pending_amount if limit else None,
        pending_from=limit.pending_from if limit else None,
        deposited=deposited_recently(player=player, now=now),
    )


# Checks that a player has money in play somewhere (a round being dealt), registered by
# the rooms above the wallet: the wallet knows nothing of games, only that a deposit
# waits until no check says so (seed 002: deposits only at the start of a new game).
_in_play_checks: list[Callable[[User], bool]] = []


def register_in_play_check(check: Callable[[User], bool]) -> None:
    """Let a deposit wait while ``check(player)`` is true (registered once, at start-up)."""
    if check not in _in_play_checks:
        _in_play_checks.append(check)


def player_has_money_in_play(*, player: User) -> bool:
    return any(check(player) for check in _in_play_checks)


def _lock_player(player: User) -> None:
    """Serialise one player's cashier actions on their wallet row (with the issuer, in
    primary-key order like every ledger write), so two deposits cannot both pass the
    limit check."""
    ids = [wallet_account(player=player).pk, issuer_account().pk]
    list(Account.objects.select_for_update().filter(pk__in=ids).order_by("pk"))


def cashier_deposit(*, player: User, amount: int, reference: str) -> Transaction:
    """Credit free play money to the wallet, within the player's limit and the cap.

    Idempotent by ``reference``: a replay returns the original deposit even if the
    limit has been used up since.
    """
    amount = check_amount(amount)
    protection.protection_check(player=player, bet=False)
    with transaction.atomic():
        _lock_player(player)
        if Transaction.objects.filter(reference=reference).exists():
            # The ledger returns the original or raises ReferenceConflict.
            return wallet_deposit(player=player, amount=amount, reference=reference)
        if player_has_money_in_play(player=player):
            raise RoundInPlay()
        now = timezone.now()
        limit = deposit_limit_effective(player=player, now=now)
        if deposited_recently(player=player, now=now) + amount > limit:
            raise DepositLimitReached()
        return wallet_deposit(player=player, amount=amount, reference=reference)


def deposit_limit_set(*, player: User, amount: int) -> DepositLimit:
    """Set the player's own limit per 24 hours.

    Lower (or equal): applies at once and drops any pending raise. Higher: waits
    24 hours as ``pending_amount`` from ``pending_from``.
    """
    amount = check_amount(amount)
    if amount > global_cap():
        raise InvalidAmount()
    with transaction.atomic():
        _lock_player(player)
        now = timezone.now()
        current = deposit_limit_effective(player=player, now=now)
        limit, _created = DepositLimit.objects.get_or_create(
            player=player, defaults={"amount": current}
        )
        if amount <= current:
            limit.amount = amount
            limit.pending_amount = None
            limit.pending_from = None
        elif limit.pending_amount != amount:
            # Asking again for the same raise must not restart its waiting time.
            limit.amount = current
            limit.pending_amount = amount
            limit.pending_from = now + RAISE_DELAY
        limit.save()
        return limit
