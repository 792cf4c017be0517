"""Proof that the ledger is whole, on any database.

These are the ledger's own invariants; the game adds its checks of rounds against the
ledger in ``baccarat.integrity.audit``, which ``manage.py audit_ledger`` runs together with these.

``audit_ledger()`` returns one line per violation (an empty list means clean);
``manage.py audit_ledger`` prints them. Every check is an aggregate query, so the
audit stays cheap as the ledger grows.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import F, OuterRef, Q, Subquery, Sum, Window

from wallet.models import Account, Entry, Transaction


@dataclass
class AuditReport:
    transactions: int = 0
    accounts: int = 0
    rounds: int = 0  # filled in by the game's own checks (``baccarat.integrity.audit``)
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
