"""Table rule variants."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from enum import StrEnum
from typing import Final

from .enums import BetKind, BurnMode, CommissionMode
from .errors import RuleError

DECK_COUNTS: Final = (1, 6, 8)
TIE_PAYS: Final = (8, 9)
PAIR_PAYS: Final = 11
MIN_PENETRATION_PERMILLE: Final = 500
MAX_PENETRATION_PERMILLE: Final = 950


def _is_int(value: object) -> bool:
    return type(value) is int


@dataclass(frozen=True, slots=True)
class RuleSet:
    """The rule variant a table plays; a round keeps a snapshot of it.

    Single-deck tables reshuffle before every coup; six- and eight-deck shoes are dealt to
    the cut card, placed after ``penetration_permille`` thousandths of the shoe.
    """

    decks: int = 8
    commission: CommissionMode = CommissionMode.FIVE_PERCENT
    tie_pays: int = 8
    pairs_enabled: bool = True
    allow_player_and_banker: bool = True
    penetration_permille: int = 890
    burn: BurnMode = BurnMode.FIRST_CARD

    def __post_init__(self) -> None:
        if not _is_int(self.decks) or self.decks not in DECK_COUNTS:
            raise RuleError(f"decks {self.decks!r}", code="invalid_decks")
        try:
            object.__setattr__(self, "commission", CommissionMode(self.commission))
        except ValueError:
            raise RuleError(f"{self.commission!r}", code="invalid_commission") from None
        try:
            object.__setattr__(self, "burn", BurnMode(self.burn))
        except ValueError:
            raise RuleError(f"{self.burn!r}", code="invalid_burn") from None
        if not _is_int(self.tie_pays) or self.tie_pays not in TIE_PAYS:
            raise RuleError(f"tie pays {self.tie_pays!r}", code="invalid_tie_pays")
        for flag in ("pairs_enabled", "allow_player_and_banker"):
            if type(getattr(self, flag)) is not bool:
                raise RuleError(flag, code="invalid_flag")
        if not _is_int(self.penetration_permille) or not (
            MIN_PENETRATION_PERMILLE <= self.penetration_permille <= MAX_PENETRATION_PERMILLE
        ):
            raise RuleError(f"{self.penetration_permille!r}", code="invalid_penetration")

    @property
    def reshuffle_every_coup(self) -> bool:
        """Whether the caller must start a fresh shoe before every coup (single deck)."""
        return self.decks == 1

    @property
    def bet_kinds(self) -> tuple[BetKind, ...]:
        """The bet spots this table offers, in layout order."""
        if self.pairs_enabled:
            return tuple(BetKind)
        return (BetKind.PLAYER, BetKind.BANKER, BetKind.TIE)

    def to_snapshot(self) -> dict[str, int | str | bool]:
        """A JSON-safe copy of every rule value, for storing with a round."""
        snapshot: dict[str, int | str | bool] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            snapshot[f.name] = value.value if isinstance(value, StrEnum) else value
        return snapshot

    @classmethod
    def from_snapshot(cls, data: Mapping[str, object]) -> RuleSet:
        """Rebuild a rule set from :meth:`to_snapshot`; every key must be present."""
        names = {f.name for f in fields(cls)}
        if set(data) != names:
            raise RuleError(f"keys {sorted(data)}", code="invalid_snapshot")
        return cls(**data)  # type: ignore[arg-type]
