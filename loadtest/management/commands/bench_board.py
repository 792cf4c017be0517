"""``manage.py bench_board``: the CPU of drawing a shoe's statistics panel, by its coups.

    python manage.py bench_board --coups 60 120 --repeat 200

No database: a shoe of random coups (outcomes in their real proportions, some naturals and
pairs) is drawn as a DEAL's answer draws it: the five roads with their marks and Ask
previews, the counts, the asks and the table of coups. It prints the milliseconds per
panel for each size.
"""

from __future__ import annotations

import random
import time
from types import SimpleNamespace
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from baccarat.board.statistics import shoe_board

HANDS = ("2S 2H", "3S 4H 9C", "KC 7D", "AS 8D", "QC QD 6S", "4C 5D")


def random_coups(count: int, seed: int = 1) -> list[Any]:
    rng = random.Random(seed)
    return [
        SimpleNamespace(
            pk=i,
            hand_number=i + 1,
            outcome=rng.choices(("banker", "player", "tie"), (45.86, 44.62, 9.52))[0],
            natural=rng.random() < 0.34,
            player_cards=rng.choice(HANDS),
            banker_cards=rng.choice(HANDS),
            player_total=rng.randrange(10),
            banker_total=rng.randrange(10),
        )
        for i in range(count)
    ]


class Command(BaseCommand):
    help = "Milliseconds of CPU to draw a shoe's statistics panel, for shoes of N coups."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--coups", type=int, nargs="+", default=[60, 120])
        parser.add_argument("--repeat", type=int, default=200)

    def handle(self, *args: Any, coups: list[int], repeat: int, **options: Any) -> None:
        for count in coups:
            rounds = random_coups(count)
            started = time.process_time()
            for _ in range(repeat):
                board = shoe_board(rounds)
                "".join(str(road.figure("bench")) for road in board.roads)
                board.stats, board.asks, board.coup_rows()
            spent = (time.process_time() - started) / repeat * 1000
            self.stdout.write(f"{count:4d} coups: {spent:.2f} ms of CPU per panel")
