from __future__ import annotations

import pytest

from baccarat.engine import (
    BetKind,
    CommissionMode,
    Coup,
    LineResult,
    RuleSet,
    StakeNotCommissionable,
    deal_cards,
    settle,
)

PLAYER_WINS = deal_cards(["9S", "8H", "KD", "QC"])  # natural 9 against 8
BANKER_WINS_TWO_CARDS = deal_cards(["8S", "9H", "KD", "QC"])  # natural 9 against 8
BANKER_WINS_THREE_CARD_SEVEN = deal_cards(["2S", "AH", "2D", "2C", "7H", "4D"])  # 7 against 1
BANKER_WINS_THREE_CARD_EIGHT = deal_cards(["2S", "AH", "2D", "2C", "7H", "5D"])  # 8 against 1
TIE = deal_cards(["9S", "KH", "7D", "6C"])  # 6 against 6
BOTH_PAIRS_TIE = deal_cards(["4S", "4H", "4D", "4C"])  # natural 8 against 8
PLAYER_PAIR_ONLY = deal_cards(["KS", "9H", "KD", "QC"])  # banker natural 9

FIVE = RuleSet()
SEVEN = RuleSet(commission=CommissionMode.BANKER_SEVEN)
TIE_NINE = RuleSet(tie_pays=9)

W, L, P = LineResult.WIN, LineResult.LOSE, LineResult.PUSH

CASES = [
    # rules, coup, kind, stake, returned, win, commission, result
    (FIVE, PLAYER_WINS, BetKind.PLAYER, 1000, 1000, 1000, 0, W),
    (FIVE, BANKER_WINS_TWO_CARDS, BetKind.PLAYER, 1000, 0, 0, 0, L),
    (FIVE, TIE, BetKind.PLAYER, 1000, 1000, 0, 0, P),
    (SEVEN, TIE, BetKind.PLAYER, 1000, 1000, 0, 0, P),
    (FIVE, BANKER_WINS_TWO_CARDS, BetKind.BANKER, 1000, 1000, 1000, 50, W),
    (FIVE, BANKER_WINS_THREE_CARD_SEVEN, BetKind.BANKER, 2000, 2000, 2000, 100, W),
    (FIVE, BANKER_WINS_TWO_CARDS, BetKind.BANKER, 20, 20, 20, 1, W),
    (FIVE, PLAYER_WINS, BetKind.BANKER, 1000, 0, 0, 0, L),
    (FIVE, TIE, BetKind.BANKER, 1000, 1000, 0, 0, P),
    (SEVEN, BANKER_WINS_TWO_CARDS, BetKind.BANKER, 1000, 1000, 1000, 0, W),
    (SEVEN, BANKER_WINS_THREE_CARD_EIGHT, BetKind.BANKER, 1000, 1000, 1000, 0, W),
    (SEVEN, BANKER_WINS_THREE_CARD_SEVEN, BetKind.BANKER, 1000, 1000, 0, 0, P),
    (SEVEN, PLAYER_WINS, BetKind.BANKER, 1000, 0, 0, 0, L),
    (SEVEN, TIE, BetKind.BANKER, 1000, 1000, 0, 0, P),
    (SEVEN, BANKER_WINS_TWO_CARDS, BetKind.BANKER, 110, 110, 110, 0, W),
    (FIVE, TIE, BetKind.TIE, 500, 500, 4000, 0, W),
    (TIE_NINE, TIE, BetKind.TIE, 500, 500, 4500, 0, W),
    (FIVE, PLAYER_WINS, BetKind.TIE, 500, 0, 0, 0, L),
    (TIE_NINE, BANKER_WINS_TWO_CARDS, BetKind.TIE, 500, 0, 0, 0, L),
    (FIVE, BOTH_PAIRS_TIE, BetKind.PLAYER_PAIR, 100, 100, 1100, 0, W),
    (FIVE, BOTH_PAIRS_TIE, BetKind.BANKER_PAIR, 100, 100, 1100, 0, W),
    (FIVE, PLAYER_PAIR_ONLY, BetKind.PLAYER_PAIR, 100, 100, 1100, 0, W),
    (FIVE, PLAYER_PAIR_ONLY, BetKind.BANKER_PAIR, 100, 0, 0, 0, L),
    (SEVEN, PLAYER_WINS, BetKind.PLAYER_PAIR, 100, 0, 0, 0, L),
]


@pytest.mark.parametrize(
    ("rules", "coup", "kind", "stake", "returned", "win", "commission", "result"), CASES
)
def test_settle_line(
    rules: RuleSet,
    coup: Coup,
    kind: BetKind,
    stake: int,
    returned: int,
    win: int,
    commission: int,
    result: LineResult,
) -> None:
    settlement = settle(rules, coup, {kind: stake})
    (line,) = settlement.lines
    assert (line.kind, line.stake, line.returned, line.win, line.commission, line.result) == (
        kind,
        stake,
        returned,
        win,
        commission,
        result,
    )
    assert line.payout == returned + win - commission
    assert line.net == line.payout - stake


def test_totals_and_conservation_over_several_bets() -> None:
    stakes = {
        BetKind.BANKER: 2000,
        BetKind.PLAYER: 1000,
        BetKind.TIE: 500,
        BetKind.PLAYER_PAIR: 100,
        BetKind.BANKER_PAIR: 100,
    }
    settlement = settle(FIVE, BANKER_WINS_TWO_CARDS, stakes)
    assert settlement.stake_total == 3700
    assert settlement.commission_total == 100
    assert settlement.payout_total == 2000 + 2000 - 100
    assert settlement.net_total == 200
    assert settlement.house_result == -200
    assert settlement.stake_total == settlement.payout_total + settlement.house_result
    assert [line.kind for line in settlement.lines] == list(BetKind)
    player_line = settlement.line(BetKind.PLAYER)
    assert player_line is not None
    assert player_line.result is LineResult.LOSE


def test_missing_line_is_none() -> None:
    assert settle(FIVE, TIE, {"tie": 100}).line(BetKind.PLAYER) is None


def test_settle_validates_first() -> None:
    with pytest.raises(StakeNotCommissionable):
        settle(FIVE, BANKER_WINS_TWO_CARDS, {"banker": 130})


def test_settlement_is_integers_only() -> None:
    settlement = settle(FIVE, BANKER_WINS_TWO_CARDS, {"banker": 100_000_020})
    (line,) = settlement.lines
    assert line.commission == 5_000_001
    for value in (*line[1:5], line.payout, line.net, settlement.house_result):
        assert type(value) is int
