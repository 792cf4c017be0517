"""The player's stack at a table: rebuy from the wallet, and leaving with it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from baccarat.betting import bets_clear
from baccarat.errors import RoundError
from baccarat.models import PracticeSession, Round, Table
from baccarat.practice import practice_finish
from wallet import services as wallet
from wallet.models import Account, Transaction

if TYPE_CHECKING:
    from casino.accounts.models import User


def table_rebuy(*, player: User, table: Table, amount: int, reference: str) -> None:
    """Move ``amount`` cents from the wallet to the player's stack at ``table``."""
    if table.kind == Table.Kind.PRACTICE:
        raise RoundError("session_over")
    wallet.wallet_rebuy(player=player, table=table, amount=amount, reference=reference)


def table_exit(*, player: User, table: Table) -> int:
    """Leave the table: withdraw open bets and cash the stack out (practice: end it).

    Returns the cents that went back to the wallet.
    """
    mine = Round.objects.filter(table=table, plays__player=player)
    if mine.filter(state=Round.State.LOCKED).exists():
        raise RoundError("round_in_play")
    for round in mine.filter(state=Round.State.BETTING):
        bets_clear(round=round, player=player)
    if table.kind == Table.Kind.PRACTICE:
        session = PracticeSession.objects.filter(table=table, player=player).first()
        if session is not None:
            practice_finish(session_id=session.pk)
        return 0
    count = Transaction.objects.filter(player=player, kind=Transaction.Kind.CASH_OUT).count()
    cash_out = wallet.wallet_cash_out(
        player=player, table=table, reference=f"cashout:{table.pk}:{player.pk}:{count}"
    )
    if cash_out is None:
        return 0
    entries = getattr(cash_out, "posted_entries", None) or cash_out.entries.select_related(
        "account"
    )
    return sum(entry.amount for entry in entries if entry.account.kind == Account.Kind.WALLET)
