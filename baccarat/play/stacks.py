"""The player's stack at a table: rebuy from the wallet, and leaving with it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from baccarat.errors import RoundError
from baccarat.models import PracticeSession, Round, Table
from baccarat.play.betting import bets_clear
from baccarat.play.practice import practice_finish
from wallet import protection
from wallet import services as wallet
from wallet.models import Account, Transaction

if TYPE_CHECKING:
    from casino.accounts.models import User


def table_rebuy(*, player: User, table: Table, amount: int, reference: str) -> None:
    """Move ``amount`` cents from the wallet to the player's stack at ``table``."""
    protection.protection_check(player=player, bet=False)
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
    return cashed_out(wallet.wallet_cash_out_all(player=player, table=table))


def stacks_release_closed(*, table: Table | None = None) -> int:
    """Bring the chips at closed tables back to their players' wallets; returns how many
    stacks came back. Closing a table calls it at once and the recovery sweep every few
    seconds, so no closed table keeps anyone's chips: open bets are taken back; a stack
    whose round is still in play follows once recovery has finished that round, a seat
    at a full table once the croupier has stood its player up (``croupier``).
    """
    stacks = Account.objects.filter(
        kind=Account.Kind.STACK, balance__gt=0, table__is_active=False
    ).exclude(table__kind=Table.Kind.PRACTICE)
    if table is not None:
        stacks = stacks.filter(table=table)
    released = 0
    for stack in stacks.select_related("owner", "table"):
        closed, player = stack.table, stack.owner
        if closed is None or player is None:
            continue
        if closed.kind == Table.Kind.FULL and closed.seats_taken.filter(player=player).exists():
            continue  # the croupier stands them up (and cashes out) between rounds
        try:
            released += bool(table_exit(player=player, table=closed))
        except RoundError:
            continue  # a round in play: recovery finishes it, the next sweep releases
    return released


def cashed_out(cash_out: Transaction | None) -> int:
    """The cents a cash-out brought back to the wallet (0 for none)."""
    if cash_out is None:
        return 0
    entries = getattr(cash_out, "posted_entries", None) or cash_out.entries.select_related(
        "account"
    )
    return sum(entry.amount for entry in entries if entry.account.kind == Account.Kind.WALLET)
