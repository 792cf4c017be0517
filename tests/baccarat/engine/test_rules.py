from __future__ import annotations

from typing import Any

import pytest

from baccarat.engine import BetKind, BurnMode, CommissionMode, RuleError, RuleSet


def test_defaults_are_eight_decks_five_percent_tie_eight_pairs_on() -> None:
    rules = RuleSet()
    assert (rules.decks, rules.commission, rules.tie_pays) == (8, "five_percent", 8)
    assert rules.pairs_enabled
    assert rules.penetration_permille == 890
    assert rules.burn is BurnMode.FIRST_CARD


@pytest.mark.parametrize(
    ("changes", "code"),
    [
        ({"decks": 2}, "invalid_decks"),
        ({"decks": True}, "invalid_decks"),
        ({"commission": "ten_percent"}, "invalid_commission"),
        ({"tie_pays": 10}, "invalid_tie_pays"),
        ({"pairs_enabled": 1}, "invalid_flag"),
        ({"allow_player_and_banker": "yes"}, "invalid_flag"),
        ({"penetration_permille": 990}, "invalid_penetration"),
        ({"penetration_permille": 89.0}, "invalid_penetration"),
        ({"burn": "half"}, "invalid_burn"),
    ],
)
def test_invalid_rules_raise_with_a_code(changes: dict[str, Any], code: str) -> None:
    with pytest.raises(RuleError) as exc:
        RuleSet(**changes)
    assert exc.value.code == code


def test_string_values_become_enums() -> None:
    rules = RuleSet(commission="banker_seven", burn="none")  # type: ignore[arg-type]
    assert rules.commission is CommissionMode.BANKER_SEVEN
    assert rules.burn is BurnMode.NONE


def test_single_deck_reshuffles_every_coup() -> None:
    assert RuleSet(decks=1).reshuffle_every_coup
    assert not RuleSet(decks=6).reshuffle_every_coup
    assert not RuleSet(decks=8).reshuffle_every_coup


def test_bet_kinds_follow_pairs_setting() -> None:
    assert RuleSet().bet_kinds == tuple(BetKind)
    assert BetKind.PLAYER_PAIR not in RuleSet(pairs_enabled=False).bet_kinds


def test_snapshot_round_trip_is_plain_json() -> None:
    rules = RuleSet(decks=6, commission=CommissionMode.BANKER_SEVEN, tie_pays=9)
    snapshot = rules.to_snapshot()
    assert snapshot["commission"] == "banker_seven"
    assert type(snapshot["commission"]) is str
    assert RuleSet.from_snapshot(snapshot) == rules


def test_incomplete_snapshot_is_refused() -> None:
    snapshot = RuleSet().to_snapshot()
    del snapshot["tie_pays"]
    with pytest.raises(RuleError) as exc:
        RuleSet.from_snapshot(snapshot)
    assert exc.value.code == "invalid_snapshot"
