"""``manage.py verify_shoe ID [ID ...]``: re-derive revealed shoes; non-zero on a mismatch."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from baccarat.integrity.fairness import shoe_verification
from baccarat.models import Shoe

NOT_REVEALED_EXIT = 2


class Command(BaseCommand):
    help = (
        "Check revealed shoes: the commitment against the revealed order and salt, the burn, "
        "and every round's cards against the order. Exits 1 on any mismatch, 2 when a shoe "
        "is still in play (its order is secret until it ends)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("shoe_ids", nargs="*", type=int, help="Shoe ids to verify.")
        parser.add_argument(
            "--all", action="store_true", help="Verify every revealed shoe instead."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["all"]:
            shoes = list(Shoe.objects.filter(revealed_at__isnull=False).order_by("pk"))
        elif options["shoe_ids"]:
            shoes = list(Shoe.objects.filter(pk__in=options["shoe_ids"]).order_by("pk"))
            missing = set(options["shoe_ids"]) - {shoe.pk for shoe in shoes}
            if missing:
                raise CommandError(f"no such shoe: {sorted(missing)}")
        else:
            raise CommandError("name shoe ids, or --all")
        failed = secret = 0
        for shoe in shoes:
            report = shoe_verification(shoe)
            if not report.revealed:
                secret += 1
                self.stdout.write(f"shoe {shoe.pk}: still in play, its order is not revealed")
                continue
            self.stdout.write(
                f"shoe {shoe.pk} ({shoe.table.slug} #{shoe.number}): commitment "
                f"{'matches' if report.commitment_matches else 'DOES NOT MATCH'}, "
                f"cut {report.cut}, {len(report.burned)} burned, {len(report.rounds)} round(s)"
            )
            for check in report.rounds:
                status = "ok" if check.ok else "MISMATCH: " + "; ".join(check.problems)
                self.stdout.write(
                    f"  round {check.round_id} hand {check.hand_number} "
                    f"[{check.start}:{check.end}] {check.expected or '-'} {status}"
                )
            for problem in report.problems:
                self.stdout.write(f"  MISMATCH: {problem}")
            failed += not report.ok
        if failed:
            raise CommandError(f"{failed} shoe(s) do not verify")
        if secret:
            raise CommandError(
                f"{secret} shoe(s) still in play: nothing to verify yet",
                returncode=NOT_REVEALED_EXIT,
            )
        self.stdout.write(self.style.SUCCESS(f"{len(shoes)} shoe(s) verified"))
