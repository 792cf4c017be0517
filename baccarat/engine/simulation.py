"""Monte Carlo play through real shoes, for checking the engine against exact odds."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from .coup import deal_coup
from .enums import BetKind, Outcome
from .rules import RuleSet
from .settlement import settle
from .shoe import Shoe


@dataclass(slots=True)
class SimulationTally:
    """Counts and money totals of a simulation run."""

    hands: int = 0
    shoes: int = 0
    outcomes: dict[Outcome, int] = field(default_factory=lambda: dict.fromkeys(Outcome, 0))
    player_pairs: int = 0
    banker_pairs: int = 0
    banker_three_card_sevens: int = 0
    staked: dict[BetKind, int] = field(default_factory=dict)
    paid: dict[BetKind, int] = field(default_factory=dict)


def simulate(rules: RuleSet, *, hands: int, rng: random.Random, unit: int = 100) -> SimulationTally:
    """Deal ``hands`` coups through shuffled, cut and burned shoes, settling ``unit`` cents
    on every bet the table offers; a new shoe starts when the cut card has come out (or
    before every coup at a single-deck table)."""
    stakes = dict.fromkeys(rules.bet_kinds, unit)
    tally = SimulationTally(
        staked=dict.fromkeys(rules.bet_kinds, 0), paid=dict.fromkeys(rules.bet_kinds, 0)
    )
    outcomes = tally.outcomes
    paid = tally.paid
    every_coup = rules.reshuffle_every_coup
    shoe: Shoe | None = None
    player_pairs = banker_pairs = sevens = 0
    for _ in range(hands):
        if shoe is None or every_coup or shoe.needs_reshuffle:
            shoe = Shoe.shuffled(
                rules.decks,
                rng=rng,
                penetration_permille=rules.penetration_permille,
                burn=rules.burn,
            )
            tally.shoes += 1
        coup = deal_coup(shoe.draw)
        outcomes[coup.outcome] += 1
        player_pairs += coup.player_pair
        banker_pairs += coup.banker_pair
        sevens += coup.banker_three_card_seven
        for line in settle(rules, coup, stakes).lines:
            paid[line.kind] += line.returned + line.win - line.commission
    tally.hands = hands
    tally.player_pairs = player_pairs
    tally.banker_pairs = banker_pairs
    tally.banker_three_card_sevens = sevens
    tally.staked = {kind: unit * hands for kind in stakes}
    return tally
