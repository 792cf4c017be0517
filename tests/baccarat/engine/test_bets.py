from __future__ import annotations

from typing import Any

import pytest

from baccarat.engine import BetError, BetKind, CommissionMode, RuleSet, validate_bets


def error_of(rules: RuleSet, stakes: Any) -> BetError:
    with pytest.raises(BetError) as exc:
        validate_bets(rules, stakes)
    return exc.value


def test_valid_bets_come_back_in_layout_order() -> None:
    stakes = {"tie": 100, BetKind.PLAYER_PAIR: 200, "player": 500}
    assert list(validate_bets(RuleSet(), stakes).items()) == [
        (BetKind.PLAYER, 500),
        (BetKind.TIE, 100),
        (BetKind.PLAYER_PAIR, 200),
    ]


def test_no_bet() -> None:
    assert error_of(RuleSet(), {}).code == "no_bet"


@pytest.mark.parametrize("stake", [0, -100])
def test_non_positive_stake(stake: int) -> None:
    error = error_of(RuleSet(), {"tie": stake})
    assert (error.code, error.kind) == ("non_positive_stake", BetKind.TIE)


@pytest.mark.parametrize("stake", [1.5, "100", True, None])
def test_stake_must_be_integer_cents(stake: object) -> None:
    assert error_of(RuleSet(), {"player": stake}).code == "invalid_stake"


def test_unknown_bet_kind() -> None:
    assert error_of(RuleSet(), {"dragon": 100}).code == "unknown_bet_kind"


@pytest.mark.parametrize("kind", [BetKind.PLAYER_PAIR, BetKind.BANKER_PAIR])
def test_pairs_disabled(kind: BetKind) -> None:
    error = error_of(RuleSet(pairs_enabled=False), {kind: 100})
    assert (error.code, error.kind) == ("pairs_disabled", kind)


def test_player_and_banker_together_can_be_refused() -> None:
    rules = RuleSet(allow_player_and_banker=False)
    assert error_of(rules, {"player": 100, "banker": 100}).code == "combination_not_allowed"
    assert validate_bets(rules, {"player": 100, "tie": 100})
    assert validate_bets(RuleSet(), {"player": 100, "banker": 100})


def test_banker_stake_must_allow_exact_commission() -> None:
    assert error_of(RuleSet(), {"banker": 110}).code == "stake_not_commissionable"
    assert validate_bets(RuleSet(), {"banker": 120})
    assert validate_bets(RuleSet(commission=CommissionMode.BANKER_SEVEN), {"banker": 110})


def test_codes_are_machine_codes_not_words() -> None:
    error = error_of(RuleSet(), {})
    assert error.code.isidentifier()
    assert " " not in error.code
