"""The game checked against the ledger, on any database.

``audit_all()`` runs the wallet's own checks (``wallet.audit``) and these: every
finished round left nothing in escrow, each settled play staked and was paid in the
ledger exactly what its bets say, each void round gave back what its reversals say, and
every play names its round's table (the copy the hot reads walk, ``Play.table``).
``manage.py audit_ledger`` prints the result.
"""

from __future__ import annotations

from collections import defaultdict

from django.db.models import F, Q, Sum

from baccarat.models import Bet, Play, Reversal, Round
from wallet.audit import AuditReport, audit_ledger_report
from wallet.models import Account, Entry, Transaction


def audit_all() -> AuditReport:
    """The ledger's checks and the game's, in one report."""
    report = audit_ledger_report()
    report.rounds, violations = round_checks()
    report.violations += violations
    return report


def audit_violations() -> list[str]:
    """Every violation of the ledger's and the game's invariants (empty: clean)."""
    return audit_all().violations


def round_checks() -> tuple[int, list[str]]:
    """The ledger against the rounds: stakes escrowed, settled or refunded, paid as the
    bets say; the number of finished rounds checked and every violation."""
    finished = [Round.State.SETTLED, Round.State.VOID]
    violations: list[str] = []

    # Escrow must be empty once a round is over: every stake settled or refunded.
    escrow_left = (
        Entry.objects.filter(
            account__kind=Account.Kind.ESCROW, transaction__round__state__in=finished
        )
        .values("transaction__round")
        .annotate(left=Sum("amount"))
        .exclude(left=0)
        .order_by("transaction__round")
    )
    violations += [
        f"round {row['transaction__round']}: {row['left']} left in escrow after it ended"
        for row in escrow_left
    ]

    settled = Q(round__state=Round.State.SETTLED)
    staked = _settled_sums(Transaction.Kind.STAKE, Account.Kind.ESCROW)
    paid = _settled_sums(Transaction.Kind.SETTLE, Account.Kind.STACK)
    bets = {
        row["play"]: (row["stakes"] or 0, row["payouts"] or 0)
        for row in Bet.objects.filter(play__round__state=Round.State.SETTLED)
        .values("play")
        .annotate(stakes=Sum("stake"), payouts=Sum("payout"))
        .order_by()
    }
    plays = Play.objects.filter(settled).values_list(
        "pk", "round_id", "player_id", "stake_total", "payout_total"
    )
    seen: set[tuple[int, int]] = set()
    for play_id, round_id, player_id, stake_total, payout_total in plays:
        key = (round_id, player_id)
        seen.add(key)
        bet_stakes, bet_payouts = bets.get(play_id, (0, 0))
        if not staked[key] == stake_total == bet_stakes:
            violations.append(
                f"round {round_id}, player {player_id}: staked {staked[key]} in the ledger, "
                f"play says {stake_total}, bets say {bet_stakes}"
            )
        if not paid[key] == payout_total == bet_payouts:
            violations.append(
                f"round {round_id}, player {player_id}: paid {paid[key]} in the ledger, "
                f"play says {payout_total}, bets say {bet_payouts}"
            )
    for key in sorted((set(staked) | set(paid)) - seen):
        if staked.get(key) or paid.get(key):
            violations.append(
                f"round {key[0]}, player {key[1]}: money moved without a play in the round"
            )
    violations += void_checks()
    violations += [
        f"round {round_id}, player {player_id}: the play names table {table_id}, "
        f"the round table {round_table}"
        for round_id, player_id, table_id, round_table in Play.objects.exclude(
            table_id=F("round__table_id")
        )
        .values_list("round_id", "player_id", "table_id", "round__table_id")
        .order_by("round_id")
    ]
    rounds_checked = Round.objects.filter(state__in=finished).count()
    return rounds_checked, violations


def void_checks() -> list[str]:
    """Void rounds against the ledger and their reversals, per (round, player).

    Without a reversal row (a stake never escrowed, or a void from before reversals were
    recorded) every escrowed stake came back and nothing was paid. With one, the ledger
    staked, refunded, paid and took back exactly what the row says; the row itself
    accounts for every cent of the payout (a database constraint), so what the player
    kept of a void round is exactly what it wrote off.
    """
    player_side = [Account.Kind.STACK, Account.Kind.WALLET]
    rows = (
        Entry.objects.filter(transaction__round__state=Round.State.VOID)
        .values("transaction__round", "transaction__player")
        .annotate(
            staked=Sum(
                "amount",
                filter=Q(
                    transaction__kind=Transaction.Kind.STAKE, account__kind=Account.Kind.ESCROW
                ),
            ),
            refunded=Sum(
                "amount",
                filter=Q(
                    transaction__kind=Transaction.Kind.REFUND, account__kind=Account.Kind.STACK
                ),
            ),
            paid=Sum(
                "amount",
                filter=Q(
                    transaction__kind=Transaction.Kind.SETTLE,
                    account__kind__in=player_side,
                ),
            ),
            taken=Sum(
                "amount",
                filter=Q(
                    transaction__kind=Transaction.Kind.TAKE_BACK,
                    account__kind__in=player_side,
                ),
            ),
        )
        .order_by()
    )
    ledger = {
        (row["transaction__round"], row["transaction__player"]): (
            row["staked"] or 0,
            row["refunded"] or 0,
            row["paid"] or 0,
            -(row["taken"] or 0),
        )
        for row in rows
    }
    reversals = {
        (reversal.round_id, reversal.player_id): reversal
        for reversal in Reversal.objects.select_related("play").filter(
            round__state=Round.State.VOID
        )
    }
    violations: list[str] = []
    for key in sorted(set(ledger) | set(reversals)):
        staked, refunded, paid, taken = ledger.get(key, (0, 0, 0, 0))
        reversal = reversals.get(key)
        where = f"void round {key[0]}, player {key[1]}"
        if reversal is None:
            if refunded != staked or paid or taken:
                violations.append(
                    f"{where}: staked {staked}, refunded {refunded}, paid {paid}, "
                    f"took back {taken} without a reversal"
                )
            continue
        play = reversal.play
        if not staked == refunded == reversal.stake_refunded == play.stake_total:
            violations.append(
                f"{where}: staked {staked} and refunded {refunded} in the ledger, the "
                f"reversal says {reversal.stake_refunded}, the play {play.stake_total}"
            )
        if reversal.payout_paid and not paid == reversal.payout_paid == play.payout_total:
            violations.append(
                f"{where}: paid {paid} in the ledger, the reversal says "
                f"{reversal.payout_paid}, the play {play.payout_total}"
            )
        if not reversal.payout_paid and (paid or taken):
            violations.append(f"{where}: paid {paid}, took back {taken} before its settlement")
        if taken != reversal.payout_taken_back:
            violations.append(
                f"{where}: took back {taken} in the ledger, the reversal says "
                f"{reversal.payout_taken_back}"
            )
    return violations


def _settled_sums(kind: str, account_kind: str) -> defaultdict[tuple[int, int], int]:
    """Per (round, player) of settled rounds: the sum moved on ``account_kind`` by ``kind``."""
    sums: defaultdict[tuple[int, int], int] = defaultdict(int)
    rows = (
        Entry.objects.filter(
            transaction__kind=kind,
            transaction__round__state=Round.State.SETTLED,
            account__kind=account_kind,
        )
        .values_list("transaction__round", "transaction__player")
        .annotate(total=Sum("amount"))
        .values_list("transaction__round", "transaction__player", "total")
        .order_by()
    )
    for round_id, player_id, amount in rows:
        sums[(round_id, player_id)] = amount
    return sums
