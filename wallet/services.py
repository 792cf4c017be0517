"""Every balance change of the ledger. Nothing else writes to it.

Each service is one ``transaction.atomic`` block that locks the touched accounts
with ``select_for_update`` in primary-key order (so two transfers can never
deadlock), refuses to take a player account below zero, and is idempotent by
``reference``: a retry returns the original transaction and moves nothing; the
same reference with other amounts is refused.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.conf import settings
from django.db import IntegrityError, transaction

from wallet.errors import InsufficientFunds, InvalidAmount, ReferenceConflict
from wallet.models import Account, Entry, Transaction

if TYPE_CHECKING:
    from baccarat.models import Round, Table
    from casino.accounts.models import User

MAX_AMOUNT = 10**12  # cents; far above any play-money figure, far below BigInteger


@dataclass(frozen=True)
class Leg:
    account: Account
    amount: int


def check_amount(amount: object) -> int:
    """An amount in cents must be a positive ``int`` of sane size."""
    if isinstance(amount, bool) or not isinstance(amount, int):
        raise InvalidAmount()
    if amount <= 0 or amount > MAX_AMOUNT:
        raise InvalidAmount()
    return amount


# Accounts -------------------------------------------------------------------


def _get_or_create_account(**lookup: object) -> Account:
    account = Account.objects.filter(**lookup).first()
    if account is not None:
        return account
    try:
        with transaction.atomic():
            return Account.objects.create(**lookup)
    except IntegrityError:  # created by a concurrent request
        return Account.objects.get(**lookup)


def wallet_account(*, player: User) -> Account:
    return _get_or_create_account(kind=Account.Kind.WALLET, owner=player, table=None)


def stack_account(*, player: User, table: Table) -> Account:
    return _get_or_create_account(kind=Account.Kind.STACK, owner=player, table=table)


def escrow_account(*, table: Table) -> Account:
    return _get_or_create_account(kind=Account.Kind.ESCROW, owner=None, table=table)


def house_account(*, table: Table) -> Account:
    return _get_or_create_account(kind=Account.Kind.HOUSE, owner=None, table=table)


def issuer_account() -> Account:
    return _get_or_create_account(kind=Account.Kind.ISSUER, owner=None, table=None)


# The one writer -------------------------------------------------------------


def _fingerprint(pairs: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    merged: dict[int, int] = {}
    for account_id, amount in pairs:
        merged[account_id] = merged.get(account_id, 0) + amount
    return sorted((k, v) for k, v in merged.items() if v != 0)


def post(
    *,
    kind: str,
    reference: str,
    legs: Sequence[Leg],
    player: User | None = None,
    round: Round | None = None,
) -> Transaction:
    """Write one balanced transaction; the primitive every service uses."""
    if not reference or len(reference) > 120:
        raise ReferenceConflict()
    wanted = _fingerprint((leg.account.pk, leg.amount) for leg in legs)
    if sum(amount for _, amount in wanted) != 0:
        raise ValueError("ledger legs must sum to zero")
    if not wanted:
        raise InvalidAmount()
    account_ids = [account_id for account_id, _ in wanted]
    with transaction.atomic():
        # Locks first, in primary-key order: a concurrent retry with the same
        # reference waits here and then sees the committed original below.
        locked = {
            account.pk: account
            for account in Account.objects.select_for_update()
            .filter(pk__in=account_ids)
            .order_by("pk")
        }
        existing = Transaction.objects.filter(reference=reference).first()
        if existing is not None:
            done = _fingerprint(existing.entries.values_list("account_id", "amount"))
            if done != wanted or existing.kind != kind:
                raise ReferenceConflict()
            return existing
        for account_id, amount in wanted:
            account = locked[account_id]
            if account.kind in Account.NON_NEGATIVE_KINDS and account.balance + amount < 0:
                raise InsufficientFunds()
        txn = Transaction.objects.create(kind=kind, reference=reference, player=player, round=round)
        entries = []
        for account_id, amount in wanted:
            account = locked[account_id]
            account.balance += amount
            entries.append(
                Entry(
                    transaction=txn, account=account, amount=amount, balance_after=account.balance
                )
            )
        Entry.objects.bulk_create(entries)
        Account.objects.bulk_update(list(locked.values()), ["balance"])
    return txn


def _existing(reference: str, *, kind: str, player: User) -> Transaction | None:
    """The original of a retried "move everything" request, whose amount is not given."""
    existing = Transaction.objects.filter(reference=reference).first()
    if existing is not None and (existing.kind != kind or existing.player_id != player.pk):
        raise ReferenceConflict()
    return existing


# Services -------------------------------------------------------------------


def wallet_open_for_new_player(*, player: User) -> Transaction:
    """Credit a new player's wallet once with the starting chips."""
    return post(
        kind=Transaction.Kind.STARTING_CHIPS,
        reference=f"start:{player.pk}",
        legs=[
            Leg(issuer_account(), -settings.CASINO_STARTING_CHIPS),
            Leg(wallet_account(player=player), settings.CASINO_STARTING_CHIPS),
        ],
        player=player,
    )


def wallet_deposit(*, player: User, amount: int, reference: str) -> Transaction:
    """Free play money from the cashier into the wallet (limits checked by the caller's
    service ``cashier_deposit``)."""
    amount = check_amount(amount)
    return post(
        kind=Transaction.Kind.DEPOSIT,
        reference=reference,
        legs=[Leg(issuer_account(), -amount), Leg(wallet_account(player=player), amount)],
        player=player,
    )


def wallet_rebuy(*, player: User, table: Table, amount: int, reference: str) -> Transaction:
    """Move money from the wallet to the player's stack at a table."""
    amount = check_amount(amount)
    return post(
        kind=Transaction.Kind.REBUY,
        reference=reference,
        legs=[
            Leg(wallet_account(player=player), -amount),
            Leg(stack_account(player=player, table=table), amount),
        ],
        player=player,
    )


def wallet_cash_out(
    *, player: User, table: Table, reference: str, amount: int | None = None
) -> Transaction | None:
    """Move the stack (or part of it) back to the wallet. ``None`` if the stack is empty."""
    stack = stack_account(player=player, table=table)
    if amount is None:
        # A retry of "cash out everything" returns the original even when the
        # stack has changed since; recomputing the amount would be a conflict.
        existing = _existing(reference, kind=Transaction.Kind.CASH_OUT, player=player)
        if existing is not None:
            return existing
        stack.refresh_from_db(fields=["balance"])
        if stack.balance == 0:
            return None
        amount = stack.balance
    amount = check_amount(amount)
    return post(
        kind=Transaction.Kind.CASH_OUT,
        reference=reference,
        legs=[Leg(stack, -amount), Leg(wallet_account(player=player), amount)],
        player=player,
    )


def wallet_stake(
    *, player: User, table: Table, round: Round, amount: int, reference: str
) -> Transaction:
    """Escrow a committed stake: the player's stack to the table's escrow."""
    amount = check_amount(amount)
    return post(
        kind=Transaction.Kind.STAKE,
        reference=reference,
        legs=[
            Leg(stack_account(player=player, table=table), -amount),
            Leg(escrow_account(table=table), amount),
        ],
        player=player,
        round=round,
    )


def wallet_settle(
    *, player: User, table: Table, round: Round, stake: int, payout: int, reference: str
) -> Transaction:
    """Empty the escrowed ``stake``: ``payout`` to the stack, the difference to the house.

    The house pays when the payout is above the stake, and keeps losses and
    commission when it is below.
    """
    stake = check_amount(stake)
    if isinstance(payout, bool) or not isinstance(payout, int) or not 0 <= payout <= MAX_AMOUNT:
        raise InvalidAmount()
    stack = stack_account(player=player, table=table)
    legs = [Leg(escrow_account(table=table), -stake)]
    if payout:
        legs.append(Leg(stack, payout))
    if stake != payout:
        legs.append(Leg(house_account(table=table), stake - payout))
    return post(
        kind=Transaction.Kind.SETTLE, reference=reference, legs=legs, player=player, round=round
    )


def wallet_refund(
    *, player: User, table: Table, round: Round, stake: int, reference: str
) -> Transaction:
    """Give an escrowed stake back, for a void round."""
    stake = check_amount(stake)
    return post(
        kind=Transaction.Kind.REFUND,
        reference=reference,
        legs=[
            Leg(escrow_account(table=table), -stake),
            Leg(stack_account(player=player, table=table), stake),
        ],
        player=player,
        round=round,
    )


def wallet_practice_fund(*, player: User, table: Table, amount: int, reference: str) -> Transaction:
    """Issue practice chips straight to a practice table's stack; the wallet is untouched."""
    amount = check_amount(amount)
    return post(
        kind=Transaction.Kind.PRACTICE_FUND,
        reference=reference,
        legs=[
            Leg(issuer_account(), -amount),
            Leg(stack_account(player=player, table=table), amount),
        ],
        player=player,
    )


def wallet_practice_return(*, player: User, table: Table, reference: str) -> Transaction | None:
    """Take a finished practice session's chips back to the issuer."""
    stack = stack_account(player=player, table=table)
    existing = _existing(reference, kind=Transaction.Kind.PRACTICE_RETURN, player=player)
    if existing is not None:
        return existing
    stack.refresh_from_db(fields=["balance"])
    if stack.balance == 0:
        return None
    return post(
        kind=Transaction.Kind.PRACTICE_RETURN,
        reference=reference,
        legs=[Leg(stack, -stack.balance), Leg(issuer_account(), stack.balance)],
        player=player,
    )
