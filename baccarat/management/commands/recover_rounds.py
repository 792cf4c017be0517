from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from baccarat import services


class Command(BaseCommand):
    help = "Finish rounds a crash left LOCKED, or BETTING past their deadline with stakes."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--grace",
            type=int,
            default=None,
            help="Only rounds locked at least this many seconds ago (default: settings).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        done = services.recover_rounds(grace_seconds=options["grace"])
        self.stdout.write(f"{len(done)} round(s) completed: {' '.join(map(str, done))}")
