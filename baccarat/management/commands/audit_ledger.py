"""``manage.py audit_ledger``: prove the ledger balanced; exit non-zero if it is not."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from baccarat.integrity.audit import audit_all


class Command(BaseCommand):
    help = "Check every ledger invariant and list each violation."

    def handle(self, *args: Any, **options: Any) -> None:
        report = audit_all()
        self.stdout.write(
            f"Checked {report.transactions} transactions, {report.accounts} accounts, "
            f"{report.rounds} finished rounds."
        )
        if report.violations:
            for violation in report.violations:
                self.stderr.write(violation)
            raise CommandError(f"{len(report.violations)} ledger violation(s) found.")
        self.stdout.write(self.style.SUCCESS("Ledger is balanced."))
