"""From a table's configuration, or a round's copy of it, to the engine's rule set."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from baccarat import engine

if TYPE_CHECKING:
    from baccarat.models import Round, Table


def rule_set_from_snapshot(rules: dict[str, Any]) -> engine.RuleSet:
    """The engine rule set of a rule snapshot (``Table.rule_snapshot()``)."""
    return engine.RuleSet(
        decks=rules["decks"],
        commission=engine.CommissionMode(rules["commission"]),
        tie_pays=rules["tie_pays"],
        pairs_enabled=rules["pairs_enabled"],
        allow_player_and_banker=rules["allow_player_and_banker"],
        penetration_permille=rules["penetration_percent"] * 10,
        burn=engine.BurnMode(rules["burn"]),
    )


def rules_of(round: Round) -> engine.RuleSet:
    """The engine rule set a round is played under (its own copy of the table's rules)."""
    return rule_set_from_snapshot(round.rules)


def chip_unit(table: Table) -> int:
    """The smallest chip in cents: every stake is a whole number of it."""
    return min(table.chip_values or [100])


def reshuffles_every_coup(rules: dict[str, Any]) -> bool:
    """Whether each coup is dealt from a fresh shoe (one deck always is)."""
    return bool(rules["reshuffle"] == "every_coup" or rules["decks"] == 1)
