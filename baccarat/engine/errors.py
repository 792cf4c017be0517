"""Errors raised by the engine.

Every error carries a stable ``code`` (snake case, never prose) that the Django side maps
to a translated message. The exception text is for developers and logs only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

if TYPE_CHECKING:
    from .enums import BetKind


class EngineError(Exception):
    """Base class of every error the engine raises on purpose."""

    default_code: ClassVar[str] = "engine_error"

    def __init__(self, detail: str = "", *, code: str | None = None) -> None:
        self.code: str = code or self.default_code
        self.detail = detail
        super().__init__(f"{self.code}: {detail}" if detail else self.code)


class CardError(EngineError):
    """A card or card code that does not exist."""

    default_code = "invalid_card"


class RuleError(EngineError):
    """A rule set that no table may be configured with."""

    default_code = "invalid_rules"


class CoupError(EngineError):
    """Cards that do not form a coup under the drawing rules."""

    default_code = "invalid_coup"


class ShoeError(EngineError):
    """Base class of shoe problems."""

    default_code = "shoe_error"


class ShoeExhausted(ShoeError):
    """A card was drawn from an empty shoe."""

    default_code = "shoe_exhausted"


class InvalidShoeState(ShoeError):
    """A stored shoe state that is inconsistent or malformed."""

    default_code = "invalid_shoe_state"


class BetError(EngineError):
    """Base class of bets a table refuses; ``kind`` names the offending bet if there is one."""

    default_code = "invalid_bet"

    def __init__(
        self, detail: str = "", *, code: str | None = None, kind: BetKind | None = None
    ) -> None:
        super().__init__(detail, code=code)
        self.kind = kind


class NoBet(BetError):
    """No stake at all."""

    default_code = "no_bet"


class UnknownBetKind(BetError):
    """A bet spot that does not exist."""

    default_code = "unknown_bet_kind"


class InvalidStake(BetError):
    """A stake that is not an integer amount of cents."""

    default_code = "invalid_stake"


class NonPositiveStake(BetError):
    """A stake of zero or less."""

    default_code = "non_positive_stake"


class PairsDisabled(BetError):
    """A pair bet at a table without pair bets."""

    default_code = "pairs_disabled"


class CombinationNotAllowed(BetError):
    """Player and banker together at a table that refuses it."""

    default_code = "combination_not_allowed"


class StakeNotCommissionable(BetError):
    """A banker stake whose 5% commission would not be a whole number of cents."""

    default_code = "stake_not_commissionable"
