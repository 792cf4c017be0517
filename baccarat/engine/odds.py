"""Exact odds by combinatorial enumeration, integers and fractions only."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from .enums import BetKind, CommissionMode, Outcome
from .rules import PAIR_PAYS, RuleSet
from .tableau import _BANKER_DRAWS

CARDS_PER_COUP = 6


@dataclass(frozen=True, slots=True)
class BetOdds:
    """House edge and return to player of one bet, exact and as floats."""

    kind: BetKind
    house_edge: Fraction

    @property
    def rtp(self) -> Fraction:
        """Return to player: one minus the house edge."""
        return 1 - self.house_edge

    @property
    def house_edge_float(self) -> float:
        """The house edge as a float fraction of the stake (0.010579 for 1.0579%)."""
        return float(self.house_edge)

    @property
    def rtp_float(self) -> float:
        """The return to player as a float fraction of the stake."""
        return float(self.rtp)


@dataclass(frozen=True, slots=True)
class Odds:
    """Outcome counts over all ordered six-card deals from a full shoe of ``decks`` decks.

    A coup that uses fewer than six cards is weighted by the arrangements of the unused
    cards, so ``total == N * (N-1) * ... * (N-5)`` for ``N`` cards.
    """

    decks: int
    total: int
    banker: int
    player: int
    tie: int
    banker_three_card_seven: int
    pair_probability: Fraction

    def probability(self, outcome: Outcome) -> Fraction:
        """Exact probability of ``outcome`` off the top of a full shoe."""
        return Fraction(getattr(self, outcome.value), self.total)

    def house_edge(
        self,
        kind: BetKind,
        *,
        commission: CommissionMode = CommissionMode.FIVE_PERCENT,
        tie_pays: int = 8,
    ) -> Fraction:
        """Expected loss per unit staked on ``kind`` (ties count as resolved pushes)."""
        if kind is BetKind.PLAYER:
            return Fraction(self.banker - self.player, self.total)
        if kind is BetKind.BANKER:
            if commission is CommissionMode.BANKER_SEVEN:
                paid = self.banker - self.banker_three_card_seven
                return Fraction(self.player - paid, self.total)
            return Fraction(self.player, self.total) - Fraction(self.banker * 95, self.total * 100)
        if kind is BetKind.TIE:
            return Fraction(self.total - (tie_pays + 1) * self.tie, self.total)
        return 1 - (PAIR_PAYS + 1) * self.pair_probability

    def bet_odds(
        self,
        kind: BetKind,
        *,
        commission: CommissionMode = CommissionMode.FIVE_PERCENT,
        tie_pays: int = 8,
    ) -> BetOdds:
        """:meth:`house_edge` wrapped with its return to player."""
        return BetOdds(kind, self.house_edge(kind, commission=commission, tie_pays=tie_pays))


def _falling(n: int, k: int) -> int:
    result = 1
    for i in range(k):
        result *= n - i
    return result


@lru_cache(maxsize=16)
def exact_odds(decks: int) -> Odds:
    """Exact outcome counts for a full shoe of ``decks`` decks (any positive number).

    Enumerates point values (ten classes; class 0 holds tens and court cards) with their
    multiplicities: the two player cards and the two banker cards as unordered pairs
    (ordered arrangements are symmetric), then the third cards.
    """
    if type(decks) is not int or decks < 1:
        raise ValueError(f"decks must be a positive int, got {decks!r}")
    n = 52 * decks
    rem = [16 * decks] + [4 * decks] * 9
    after4 = _falling(n - 4, 2)
    after5 = n - 5
    banker = player = tie = b7 = 0
    pairs = [(a, b) for a in range(10) for b in range(a, 10)]

    for p1, p2 in pairs:
        w = rem[p1]
        rem[p1] -= 1
        w *= rem[p2]
        rem[p2] -= 1
        if p1 != p2:
            w *= 2
        pt = (p1 + p2) % 10
        for b1, b2 in pairs:
            w4 = w * rem[b1]
            rem[b1] -= 1
            w4 *= rem[b2]
            rem[b2] -= 1
            if b1 != b2:
                w4 *= 2
            bt = (b1 + b2) % 10
            if pt >= 8 or bt >= 8 or (pt >= 6 and bt >= 6):
                # Naturals, or both hands standing: decided on four cards.
                weight = w4 * after4
                if bt > pt:
                    banker += weight
                elif pt > bt:
                    player += weight
                else:
                    tie += weight
            elif pt >= 6:
                # Player stands, banker (0-5) draws.
                for b3 in range(10):
                    weight = w4 * rem[b3] * after5
                    bf = (bt + b3) % 10
                    if bf > pt:
                        banker += weight
                        if bf == 7:
                            b7 += weight
                    elif pt > bf:
                        player += weight
                    else:
                        tie += weight
            else:
                draws = _BANKER_DRAWS[bt]
                for p3 in range(10):
                    w5 = w4 * rem[p3]
                    if not w5:
                        continue
                    pf = (pt + p3) % 10
                    if draws[p3]:
                        rem[p3] -= 1
                        for b3 in range(10):
                            weight = w5 * rem[b3]
                            bf = (bt + b3) % 10
                            if bf > pf:
                                banker += weight
                                if bf == 7:
                                    b7 += weight
                            elif pf > bf:
                                player += weight
                            else:
                                tie += weight
                        rem[p3] += 1
                    else:
                        weight = w5 * after5
                        if bt > pf:
                            banker += weight
                        elif pf > bt:
                            player += weight
                        else:
                            tie += weight
            rem[b1] += 1
            rem[b2] += 1
        rem[p1] += 1
        rem[p2] += 1

    per_rank = 4 * decks
    pair_probability = Fraction(13 * per_rank * (per_rank - 1), n * (n - 1))
    return Odds(
        decks=decks,
        total=banker + player + tie,
        banker=banker,
        player=player,
        tie=tie,
        banker_three_card_seven=b7,
        pair_probability=pair_probability,
    )


def rule_set_odds(rules: RuleSet) -> dict[BetKind, BetOdds]:
    """House edge and return to player of every bet the table offers, under its rules."""
    odds = exact_odds(rules.decks)
    return {
        kind: odds.bet_odds(kind, commission=rules.commission, tie_pays=rules.tie_pays)
        for kind in rules.bet_kinds
    }
