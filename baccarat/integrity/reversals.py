"""The money of a void round: stakes go back, and a settled round's payouts come back.

A round voided before its settlement still holds its stakes in escrow: each goes back to
its player's stack. A settled round can be voided only for a malfunction (seed 002:
"malfunctions void all pays and plays"); its history stays as it was, and two new
transactions per player undo it: the stake back from the house, then the payout back
to the house.

Taking a payout back can find the money gone: cashed out, or lost in later rounds. The
payout is taken from the table stack first (where it was paid), then from the wallet
(where a cash-out took it), never below zero; what neither holds is written off: the
house bears it, the player keeps it, and the :class:`~baccarat.models.Reversal` row
records it for support. Play money carries no debt, so nothing is owed afterwards.

Every function here runs inside the void's transaction, under the round's row lock
(:func:`baccarat.play.rounds.round_void`), and writes through the wallet's ``post`` with a
reference per round and player, so a retry moves nothing twice.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q

from baccarat.models import Play, Reversal, Round, Table
from wallet import services as wallet
from wallet.models import Account, Transaction

TAKE_BACK_KIND = Transaction.Kind.TAKE_BACK


@dataclass(frozen=True)
class TakeBack:
    from_stack: int
    from_wallet: int
    written_off: int


def take_back_split(*, amount: int, stack: int, wallet: int) -> TakeBack:
    """Take ``amount`` from the stack first, then the wallet, never below zero; what
    neither holds is written off."""
    from_stack = min(amount, max(stack, 0))
    from_wallet = min(amount - from_stack, max(wallet, 0))
    return TakeBack(from_stack, from_wallet, amount - from_stack - from_wallet)


def _staked_plays(round: Round) -> list[Play]:
    """The plays whose stake reached escrow (a bet never committed moved no money)."""
    escrowed = set(
        Transaction.objects.filter(round=round, kind=Transaction.Kind.STAKE).values_list(
            "player_id", flat=True
        )
    )
    plays = Play.objects.filter(round=round, stake_total__gt=0).select_related("player")
    return [play for play in plays.order_by("seat", "pk") if play.player_id in escrowed]


def _uses_wallet(round: Round) -> bool:
    """A practice table's chips never touch the wallet, so nothing is taken from it."""
    return round.table.kind != Table.Kind.PRACTICE


def reversal_preview(*, round: Round) -> list[Reversal]:
    """What voiding ``round`` now would do, per player (unsaved rows): for the
    confirmation. The balances may still change before the void runs."""
    settled = round.state == Round.State.SETTLED
    plays = _staked_plays(round)
    balances = {
        (account.owner_id, account.kind): account.balance
        for account in Account.objects.filter(owner__in=[play.player_id for play in plays]).filter(
            Q(kind=Account.Kind.STACK, table=round.table_id) | Q(kind=Account.Kind.WALLET)
        )
    }
    lines = []
    for play in plays:
        line = Reversal(round=round, play=play, player=play.player, stake_refunded=play.stake_total)
        if settled and play.payout_total:
            stack = balances.get((play.player_id, Account.Kind.STACK), 0)
            purse = balances.get((play.player_id, Account.Kind.WALLET), 0)
            split = take_back_split(
                amount=play.payout_total,
                stack=stack + play.stake_total,
                wallet=purse if _uses_wallet(round) else 0,
            )
            line.payout_paid = play.payout_total
            line.taken_from_stack = split.from_stack
            line.taken_from_wallet = split.from_wallet
            line.written_off = split.written_off
        lines.append(line)
    return lines


def round_refund_stakes(*, round: Round) -> list[Reversal]:
    """A round not settled: each escrowed stake back to its player's stack."""
    reversals = []
    for play in _staked_plays(round):
        wallet.wallet_refund(
            player=play.player,
            table=round.table,
            round=round,
            stake=play.stake_total,
            reference=f"refund:{round.pk}:{play.player_id}",
        )
        reversals.append(
            Reversal(round=round, play=play, player=play.player, stake_refunded=play.stake_total)
        )
    return Reversal.objects.bulk_create(reversals)


def round_reverse_settled(*, round: Round) -> list[Reversal]:
    """A settled round: per player, the stake back from the house, then the payout back
    to the house as far as the stack and the wallet hold it (the rest written off)."""
    table = round.table
    plays = _staked_plays(round)
    houses = {  # a push may never have opened one
        play.player_id: wallet.house_account(player=play.player, table=table) for play in plays
    }
    stacks = {
        play.player_id: wallet.stack_account(player=play.player, table=table) for play in plays
    }
    purses = (
        {play.player_id: wallet.wallet_account(player=play.player) for play in plays}
        if _uses_wallet(round)
        else {}
    )
    # Every account the void touches, locked at once in primary-key order (as the
    # wallet's ``post`` locks): no cash-out or rebuy can spend from them until the void
    # commits, and none can deadlock with it.
    ids = [a.pk for accounts in (houses, stacks, purses) for a in accounts.values()]
    locked = {
        account.pk: account
        for account in Account.objects.select_for_update().filter(pk__in=ids).order_by("pk")
    }
    reversals = []
    for play in plays:
        player = play.player
        stake, payout = play.stake_total, play.payout_total
        house = locked[houses[player.pk].pk]
        stack = locked[stacks[player.pk].pk]
        purse = locked[purses[player.pk].pk] if purses else None
        split = take_back_split(
            amount=payout,
            stack=stack.balance + stake,
            wallet=purse.balance if purse is not None else 0,
        )
        wallet.post(
            kind=Transaction.Kind.REFUND,
            reference=f"void-refund:{round.pk}:{player.pk}",
            legs=[wallet.Leg(house, -stake), wallet.Leg(stack, stake)],
            player=player,
            round=round,
        )
        legs = []
        if split.from_stack:
            legs.append(wallet.Leg(stack, -split.from_stack))
        if split.from_wallet and purse is not None:
            legs.append(wallet.Leg(purse, -split.from_wallet))
        if legs:
            legs.append(wallet.Leg(house, split.from_stack + split.from_wallet))
            wallet.post(
                kind=TAKE_BACK_KIND,
                reference=f"void-take-back:{round.pk}:{player.pk}",
                legs=legs,
                player=player,
                round=round,
            )
        reversals.append(
            Reversal(
                round=round,
                play=play,
                player=player,
                stake_refunded=stake,
                payout_paid=payout,
                taken_from_stack=split.from_stack,
                taken_from_wallet=split.from_wallet,
                written_off=split.written_off,
            )
        )
    return Reversal.objects.bulk_create(reversals)
