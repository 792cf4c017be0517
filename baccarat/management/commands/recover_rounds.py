from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from baccarat.recovery import recover_rounds


class Command(BaseCommand):
    help = "Finish rounds a crash or a lost connection left LOCKED (what beat runs)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--grace",
            type=int,
            default=None,
            help="Only rounds locked at least this many seconds ago (default: settings).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        report = recover_rounds(grace_seconds=options["grace"])
        self.stdout.write(
            f"{len(report.completed)} round(s) completed: {' '.join(map(str, report.completed))}"
        )
        if report.voided:
            self.stdout.write(f"{len(report.voided)} round(s) voided: {report.voided}")
        if report.failed:
            self.stdout.write(f"{len(report.failed)} round(s) failed: {report.failed}")
        if report.shoes_revealed:
            self.stdout.write(f"{report.shoes_revealed} shoe(s) revealed")
