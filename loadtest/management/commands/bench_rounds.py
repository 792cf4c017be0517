"""How much a committed round costs on the embedded SQLite default, per durability mode.

    python manage.py bench_rounds --rounds 500

For each ``SQLITE_SYNCHRONOUS`` mode (FULL, NORMAL) it migrates a scratch database under
``var/bench/`` and plays single-player rounds through the services in a fresh process:
open, bet, lock, deal, settle, each step committed as the DEAL button does. It prints
rounds per second and the time per round (p50, p95) for each mode, side by side.
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

MODES = ("FULL", "NORMAL")


class Command(BaseCommand):
    help = "Time committed single-player rounds on scratch SQLite databases, per sync mode."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--rounds", type=int, default=500)
        parser.add_argument("--decks", type=int, default=8, choices=[1, 6, 8])
        parser.add_argument("--play", action="store_true", help=Command.play.__doc__)

    def handle(self, *args: Any, **options: Any) -> None:
        if options["play"]:
            self.play(options["rounds"], options["decks"])
            return
        scratch = Path(settings.VAR_DIR) / "bench"
        for mode in MODES:
            folder = scratch / mode.lower()
            shutil.rmtree(folder, ignore_errors=True)
            folder.mkdir(parents=True)
            env = {
                **os.environ,
                "DATABASE_URL": f"sqlite:///{folder / 'db.sqlite3'}",
                "SQLITE_SYNCHRONOUS": mode,
                "CASINO_VAR_DIR": str(folder),
            }
            manage = [sys.executable, str(Path(settings.BASE_DIR) / "manage.py")]
            for step in (["migrate", "--noinput", "-v", "0"], ["bench_rounds", "--play"]):
                extra = ["--rounds", str(options["rounds"]), "--decks", str(options["decks"])]
                result = subprocess.run(  # noqa: S603  (our own manage.py)
                    manage + step + (extra if "--play" in step else []),
                    env=env,
                    capture_output=True,
                    text=True,
                    check=False,
                )
                if result.returncode:
                    raise CommandError(result.stderr[-2000:])
            self.stdout.write(result.stdout.strip())

    def play(self, count: int, decks: int) -> None:
        """Play in the configured (scratch) database and print the timings."""
        from django.contrib.auth import get_user_model

        from baccarat.models import Table
        from baccarat.play import betting, rounds
        from wallet import services as wallet

        table = Table.objects.create(
            name="bench", slug="bench", decks=decks, reshuffle=Table.Reshuffle.CUT_CARD
        )
        player = get_user_model().objects.create_user(username="bench")
        wallet.wallet_open_for_new_player(player=player)
        wallet.wallet_rebuy(player=player, table=table, amount=500_00, reference="bench")
        timings: list[float] = []
        started = time.perf_counter()
        for _ in range(count):
            begin = time.perf_counter()
            round = betting.round_open(table=table, player=player)
            betting.bet_place(round=round, player=player, kind="banker", amount=100)
            rounds.round_play(round_id=round.pk)
            timings.append(time.perf_counter() - begin)
        elapsed = time.perf_counter() - started
        timings.sort()
        self.stdout.write(
            f"synchronous={settings.SQLITE_SYNCHRONOUS:<6} {count} rounds: "
            f"{count / elapsed:6.1f} rounds/s, "
            f"p50 {statistics.median(timings) * 1000:6.2f} ms, "
            f"p95 {timings[max(0, int(len(timings) * 0.95) - 1)] * 1000:6.2f} ms per round"
        )
