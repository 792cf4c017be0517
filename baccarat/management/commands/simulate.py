"""``manage.py simulate``: play many coups through real shoes and compare to exact odds."""

from __future__ import annotations

import math
import random
import secrets
import time
from argparse import ArgumentParser
from fractions import Fraction
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from baccarat.engine import CommissionMode, Outcome, RuleSet, exact_odds
from baccarat.engine.rules import DECK_COUNTS, TIE_PAYS
from baccarat.engine.simulation import SimulationTally, simulate


def z_score(observed: int, trials: int, probability: Fraction) -> float:
    """Standard score of ``observed`` successes in ``trials`` against ``probability``."""
    p = float(probability)
    return (observed - trials * p) / math.sqrt(trials * p * (1 - p))


class Command(BaseCommand):
    help = "Simulate coups through shuffled, cut and burned shoes; settle a unit on each bet."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("--hands", type=int, default=1_000_000)
        parser.add_argument("--decks", type=int, choices=DECK_COUNTS, default=8)
        parser.add_argument("--seed", type=int, default=None, help="Reproducible run.")
        parser.add_argument("--tie-pays", type=int, choices=TIE_PAYS, default=8)
        parser.add_argument("--banker-seven", action="store_true")

    def handle(self, *args: Any, **options: Any) -> None:
        hands: int = options["hands"]
        if hands < 1:
            raise CommandError("--hands must be at least 1")
        rules = RuleSet(
            decks=options["decks"],
            tie_pays=options["tie_pays"],
            commission=(
                CommissionMode.BANKER_SEVEN
                if options["banker_seven"]
                else CommissionMode.FIVE_PERCENT
            ),
        )
        seed = options["seed"]
        rng: random.Random = secrets.SystemRandom() if seed is None else random.Random(seed)
        started = time.perf_counter()
        tally = simulate(rules, hands=hands, rng=rng)
        elapsed = time.perf_counter() - started
        self._report(rules, tally, elapsed, seed)

    def _report(
        self, rules: RuleSet, tally: SimulationTally, elapsed: float, seed: int | None
    ) -> None:
        odds = exact_odds(rules.decks)
        n = tally.hands
        rows: list[tuple[str, int, Fraction]] = [
            (outcome.value, tally.outcomes[outcome], odds.probability(outcome))
            for outcome in (Outcome.BANKER, Outcome.PLAYER, Outcome.TIE)
        ]
        rows += [
            (
                "banker_three_card_seven",
                tally.banker_three_card_sevens,
                Fraction(odds.banker_three_card_seven, odds.total),
            ),
            ("player_pair", tally.player_pairs, odds.pair_probability),
            ("banker_pair", tally.banker_pairs, odds.pair_probability),
        ]
        self.stdout.write(
            f"{n:,} hands, {tally.shoes:,} shoes, {rules.decks} deck(s), "
            + ("secrets.SystemRandom" if seed is None else f"seed {seed}")
        )
        self.stdout.write(f"{'Event':<24} {'Count':>12} {'Frequency':>10} {'Exact':>10} {'z':>7}")
        for name, count, p in rows:
            self.stdout.write(
                f"{name:<24} {count:>12,} {count / n:>10.6f} {float(p):>10.6f} "
                f"{z_score(count, n, p):>7.2f}"
            )
        self.stdout.write("")
        self.stdout.write(f"{'Bet':<12} {'Return':>10} {'Exact RTP':>10}")
        for kind, staked in tally.staked.items():
            exact = odds.bet_odds(kind, commission=rules.commission, tie_pays=rules.tie_pays)
            self.stdout.write(
                f"{kind.value:<12} {tally.paid[kind] / staked:>10.4%} {exact.rtp_float:>10.4%}"
            )
        self.stdout.write("")
        self.stdout.write(f"{n / elapsed:,.0f} hands per second (deal + settle, one process)")
