"""Pure Punto Banco rules: cards, shoe, coup, settlement and exact odds.

No Django, no database, no clock, no global random state: randomness enters only through
the ``random.Random`` passed to :meth:`Shoe.shuffled`.
"""

from __future__ import annotations

from .bets import validate_bets
from .cards import Card, cards_from_codes, codes_of, fresh_cards, hand_total
from .coup import Coup, coup_from_hands, deal_cards, deal_coup
from .enums import BetKind, BurnMode, CommissionMode, Outcome
from .errors import (
    BetError,
    CardError,
    CombinationNotAllowed,
    CoupError,
    EngineError,
    InvalidShoeState,
    InvalidStake,
    NoBet,
    NonPositiveStake,
    PairsDisabled,
    RuleError,
    ShoeError,
    ShoeExhausted,
    StakeNotCommissionable,
    UnknownBetKind,
)
from .odds import BetOdds, Odds, exact_odds, rule_set_odds
from .rules import RuleSet
from .settlement import LineResult, Settlement, SettlementLine, settle
from .shoe import Shoe, commitment_of, cut_range, verify_commitment
from .tableau import banker_draws, player_draws

__all__ = [
    "BetError",
    "BetKind",
    "BetOdds",
    "BurnMode",
    "Card",
    "CardError",
    "CombinationNotAllowed",
    "CommissionMode",
    "Coup",
    "CoupError",
    "EngineError",
    "InvalidShoeState",
    "InvalidStake",
    "LineResult",
    "NoBet",
    "NonPositiveStake",
    "Odds",
    "Outcome",
    "PairsDisabled",
    "RuleError",
    "RuleSet",
    "Settlement",
    "SettlementLine",
    "Shoe",
    "ShoeError",
    "ShoeExhausted",
    "StakeNotCommissionable",
    "UnknownBetKind",
    "banker_draws",
    "cards_from_codes",
    "codes_of",
    "commitment_of",
    "coup_from_hands",
    "cut_range",
    "deal_cards",
    "deal_coup",
    "exact_odds",
    "fresh_cards",
    "hand_total",
    "player_draws",
    "rule_set_odds",
    "settle",
    "validate_bets",
    "verify_commitment",
]
