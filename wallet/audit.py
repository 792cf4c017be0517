"""Proof that the ledger is whole, on any database.

``audit_ledger()`` returns one line per violation (an empty list means clean);
``manage.py audit_ledger`` prints them. Every check is an aggregate query, so the
audit stays cheap as the ledger grows.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from django.db.models import F, OuterRef, Q, Subquery, Sum, Window

from wallet.models import Account, Entry, Transaction


@dataclass
class AuditReport:
    transactions: int = 0
    accounts: int = 0
    rounds: int = 0
    violations: list[str] = field(default_factory=list)


def audit_ledger() -> list[str]:
    """Every violation of the ledger's invariants, as readable lines."""
    return audit_ledger_report().violations


def audit_ledger_report() -> AuditReport:
    report = AuditReport(
        transactions=Transaction.objects.count(),
        accounts=Account.objects.count(),
    )
    report.violations += _unbalanced_transactions()
    report.violations += _stale_balances()
    report.violations += _broken_running_balances()
    report.violations += _negative_player_accounts()
    rounds, round_violations = _round_checks()
    report.rounds = rounds
    report.violations += round_violations
    return report


def _unbalanced_transactions() -> list[str]:
    rows = (
        Transaction.objects.annotate(total=Sum("entries__amount"))
        .filter(Q(total__isnull=True) | ~Q(total=0))
        .values_list("pk", "reference", "total")
        .order_by("pk")
    )
    return [
        f"transaction {pk} ({reference}): entries sum to {total or 0}, not 0"
        + (" (no entries)" if total is None else "")
        for pk, reference, total in rows
    ]


def _stale_balances() -> list[str]:
    last_balance = Entry.objects.filter(account=OuterRef("pk")).order_by("-id")
    rows = (
        Account.objects.annotate(
            total=Sum("entries__amount"),
            last_after=Subquery(last_balance.values("balance_after")[:1]),
        )
        .values_list("pk", "kind", "balance", "total", "last_after")
        .order_by("pk")
    )
    violations = []
    for pk, kind, balance, total, last_after in rows:
        if balance != (total or 0):
            violations.append(
                f"account {pk} ({kind}): cached balance {balance} != sum of entries {total or 0}"
            )
        if last_after is not None and balance != last_after:
            violations.append(
                f"account {pk} ({kind}): cached balance {balance} != last balance_after "
                f"{last_after}"
            )
    return violations


def _broken_running_balances() -> list[str]:
    """Each entry's ``balance_after`` is the running sum of its account's entries."""
    broken = (
        Entry.objects.annotate(
            running=Window(Sum("amount"), partition_by=[F("account_id")], order_by=F("id").asc())
        )
        .exclude(balance_after=F("running"))
        .values_list("pk", "account_id", "balance_after", "running")
        .order_by("pk")
    )
    return [
        f"entry {pk} on account {account_id}: balance_after {after} != running sum {total}"
        for pk, account_id, after, total in broken
    ]


def _negative_player_accounts() -> list[str]:
    kinds = list(Account.NON_NEGATIVE_KINDS)
    accounts = Account.objects.filter(kind__in=kinds, balance__lt=0).values_list(
        "pk", "kind", "balance"
    )
    entries = Entry.objects.filter(account__kind__in=kinds, balance_after__lt=0).values_list(
        "pk", "account_id", "balance_after"
    )
    return [f"account {pk} ({kind}) is below zero: {balance}" for pk, kind, balance in accounts] + [
        f"entry {pk} took account {account_id} below zero: {after}"
        for pk, account_id, after in entries
    ]


def _round_checks() -> tuple[int, list[str]]:
    from baccarat.models import Bet, Play, Round  # the wallet does not need the game to import

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
    rounds_checked = Round.objects.filter(state__in=finished).count()
    return rounds_checked, violations


def _settled_sums(kind: str, account_kind: str) -> defaultdict[tuple[int, int], int]:
    """Per (round, player) of settled rounds: the sum moved on ``account_kind`` by ``kind``."""
    sums: defaultdict[tuple[int, int], int] = defaultdict(int)
    rows = (
        Entry.objects.filter(
            transaction__kind=kind,
            transaction__round__state="settled",  # Round.State.SETTLED
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
