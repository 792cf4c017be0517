"""Reads for the cashier pages, always scoped to one player."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db.models import QuerySet

from wallet.models import Account, Entry

if TYPE_CHECKING:
    from casino.accounts.models import User


def wallet_balance(*, player: User) -> int:
    account = Account.objects.filter(kind=Account.Kind.WALLET, owner=player).first()
    return account.balance if account else 0


def player_stacks(*, player: User) -> QuerySet[Account]:
    """The player's stack at every table, with the table's name."""
    return (
        Account.objects.filter(kind=Account.Kind.STACK, owner=player)
        .select_related("table")
        .order_by("table__sort_order", "table__name")
    )


def player_entries(*, player: User) -> QuerySet[Entry]:
    """Every movement on the player's own accounts, newest first."""
    return (
        Entry.objects.filter(account__owner=player)
        .select_related("transaction", "account", "account__table")
        .order_by("-id")
    )
