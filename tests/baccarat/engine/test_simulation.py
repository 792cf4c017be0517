from __future__ import annotations

import random

from baccarat.engine import BetKind, Outcome, RuleSet
from baccarat.engine.simulation import simulate


def test_simulation_counts_every_hand_and_reshuffles() -> None:
    tally = simulate(RuleSet(), hands=500, rng=random.Random(3))
    assert sum(tally.outcomes.values()) == 500
    assert 6 <= tally.shoes <= 8
    assert tally.staked == dict.fromkeys(BetKind, 500 * 100)
    assert tally.paid[BetKind.TIE] == 900 * tally.outcomes[Outcome.TIE]
    assert tally.paid[BetKind.PLAYER_PAIR] == 1200 * tally.player_pairs


def test_single_deck_simulation_uses_a_shoe_per_coup() -> None:
    tally = simulate(RuleSet(decks=1, pairs_enabled=False), hands=50, rng=random.Random(3))
    assert tally.shoes == 50
    assert set(tally.staked) == {BetKind.PLAYER, BetKind.BANKER, BetKind.TIE}


def test_simulation_is_reproducible_with_a_seed() -> None:
    first = simulate(RuleSet(), hands=200, rng=random.Random(9))
    assert first == simulate(RuleSet(), hands=200, rng=random.Random(9))
