from __future__ import annotations

import math
import time
from fractions import Fraction

import pytest

from baccarat.engine import BetKind, CommissionMode, Outcome, RuleSet, exact_odds, rule_set_odds

EIGHT = exact_odds(8)


def test_eight_deck_counts_match_published_figures() -> None:
    assert EIGHT.total == 4_998_398_275_503_360
    assert EIGHT.banker == 2_292_252_566_437_888
    assert EIGHT.player == 2_230_518_282_592_256
    assert EIGHT.tie == 475_627_426_473_216
    assert EIGHT.banker_three_card_seven == 112_633_011_329_024


@pytest.mark.parametrize("decks", [1, 6, 8])
def test_counts_sum_to_all_ordered_six_card_deals(decks: int) -> None:
    odds = exact_odds(decks)
    assert odds.total == math.perm(52 * decks, 6)
    assert odds.banker + odds.player + odds.tie == odds.total
    assert sum(odds.probability(outcome) for outcome in Outcome) == 1


@pytest.mark.parametrize(
    ("kind", "options", "edge"),
    [
        (BetKind.BANKER, {}, 0.010579),
        (BetKind.PLAYER, {}, 0.012351),
        (BetKind.TIE, {}, 0.143596),
        (BetKind.TIE, {"tie_pays": 9}, 0.048440),
        (BetKind.BANKER, {"commission": CommissionMode.BANKER_SEVEN}, 0.010183),
        (BetKind.PLAYER_PAIR, {}, 0.103614),
        (BetKind.BANKER_PAIR, {}, 0.103614),
    ],
)
def test_eight_deck_house_edges(kind: BetKind, options: dict[str, object], edge: float) -> None:
    exact = EIGHT.house_edge(kind, **options)  # type: ignore[arg-type]
    assert isinstance(exact, Fraction)
    assert round(float(exact), 6) == edge


def test_edges_are_exact_fractions_of_the_counts() -> None:
    assert EIGHT.house_edge(BetKind.PLAYER) == Fraction(EIGHT.banker - EIGHT.player, EIGHT.total)
    assert EIGHT.pair_probability == Fraction(13 * 32 * 31, 416 * 415)


def test_bet_odds_has_rtp_and_floats() -> None:
    banker = EIGHT.bet_odds(BetKind.BANKER)
    assert banker.rtp == 1 - banker.house_edge
    assert banker.house_edge_float == pytest.approx(0.010579, abs=5e-7)
    assert banker.rtp_float == pytest.approx(0.989421, abs=5e-7)


def test_rule_set_odds_follow_the_table() -> None:
    odds = rule_set_odds(
        RuleSet(decks=8, commission=CommissionMode.BANKER_SEVEN, tie_pays=9, pairs_enabled=False)
    )
    assert set(odds) == {BetKind.PLAYER, BetKind.BANKER, BetKind.TIE}
    assert round(odds[BetKind.BANKER].house_edge_float, 6) == 0.010183
    assert round(odds[BetKind.TIE].house_edge_float, 6) == 0.048440


def test_single_deck_pair_probability() -> None:
    assert exact_odds(1).pair_probability == Fraction(1, 17)


def test_eight_decks_enumerate_well_under_a_second() -> None:
    exact_odds.cache_clear()
    started = time.perf_counter()
    odds = exact_odds(8)
    assert time.perf_counter() - started < 0.5
    assert odds == EIGHT
    assert exact_odds(8) is odds


@pytest.mark.parametrize("decks", [0, -1, 1.5])
def test_invalid_deck_count(decks: object) -> None:
    with pytest.raises(ValueError):
        exact_odds(decks)
