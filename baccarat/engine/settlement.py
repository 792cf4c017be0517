"""Settling bets on a dealt coup, in integer cents."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import NamedTuple

from .bets import validate_bets
from .coup import Coup
from .enums import BetKind, CommissionMode, Outcome
from .rules import PAIR_PAYS, RuleSet


class LineResult(StrEnum):
    """How one bet ended."""

    WIN = "win"
    LOSE = "lose"
    PUSH = "push"


class SettlementLine(NamedTuple):
    """One settled bet. ``payout`` is what is credited back; ``net`` is the player's gain.

    A named tuple rather than a frozen dataclass: it is built several times per coup and
    tuple construction is several times cheaper.
    """

    kind: BetKind
    stake: int
    returned: int
    win: int
    commission: int
    result: LineResult

    @property
    def payout(self) -> int:
        """Stake returned plus winnings less commission."""
        return self.returned + self.win - self.commission

    @property
    def net(self) -> int:
        """Payout less stake: positive when the player gained."""
        return self.returned + self.win - self.commission - self.stake


@dataclass(frozen=True, slots=True)
class Settlement:
    """All settled bets of one player on one coup."""

    lines: tuple[SettlementLine, ...]

    @property
    def stake_total(self) -> int:
        """Sum of the stakes."""
        return sum(line.stake for line in self.lines)

    @property
    def payout_total(self) -> int:
        """Sum of what is credited back."""
        return sum(line.payout for line in self.lines)

    @property
    def commission_total(self) -> int:
        """Sum of the commission taken."""
        return sum(line.commission for line in self.lines)

    @property
    def net_total(self) -> int:
        """The player's gain (negative for a loss)."""
        return self.payout_total - self.stake_total

    @property
    def house_result(self) -> int:
        """The house's take: ``stake_total == payout_total + house_result``."""
        return self.stake_total - self.payout_total

    def line(self, kind: BetKind) -> SettlementLine | None:
        """The line of bet ``kind``, or ``None`` if it was not placed."""
        for line in self.lines:
            if line.kind is kind:
                return line
        return None


_WIN = LineResult.WIN
_LOSE = LineResult.LOSE
_PUSH = LineResult.PUSH


def settle_line(rules: RuleSet, coup: Coup, kind: BetKind, stake: int) -> SettlementLine:
    """Settle one already validated bet; :func:`settle` is the checked entry point."""
    outcome = coup.outcome
    if kind is BetKind.PLAYER:
        if outcome is Outcome.PLAYER:
            return SettlementLine(kind, stake, stake, stake, 0, _WIN)
    elif kind is BetKind.BANKER:
        if outcome is Outcome.BANKER:
            if rules.commission is CommissionMode.FIVE_PERCENT:
                # validate_bets guarantees a multiple of 20 cents: the 5% is exact.
                return SettlementLine(kind, stake, stake, stake, stake * 5 // 100, _WIN)
            if coup.banker_three_card_seven:
                return SettlementLine(kind, stake, stake, 0, 0, _PUSH)
            return SettlementLine(kind, stake, stake, stake, 0, _WIN)
    elif kind is BetKind.TIE:
        if outcome is Outcome.TIE:
            return SettlementLine(kind, stake, stake, stake * rules.tie_pays, 0, _WIN)
        return SettlementLine(kind, stake, 0, 0, 0, _LOSE)
    else:
        if coup.player_pair if kind is BetKind.PLAYER_PAIR else coup.banker_pair:
            return SettlementLine(kind, stake, stake, stake * PAIR_PAYS, 0, _WIN)
        return SettlementLine(kind, stake, 0, 0, 0, _LOSE)
    # A player or banker bet that did not win: a tie pushes it, otherwise it lost.
    if outcome is Outcome.TIE:
        return SettlementLine(kind, stake, stake, 0, 0, _PUSH)
    return SettlementLine(kind, stake, 0, 0, 0, _LOSE)


def settle(
    rules: RuleSet, coup: Coup, stakes: Mapping[BetKind, int] | Mapping[str, int]
) -> Settlement:
    """Validate ``stakes`` (integer cents per bet kind) and settle them on ``coup``.

    Player and banker bets push on a tie; banker bets pay 1:1 less 5% commission, or under
    Banker-7 push a three-card banker seven and pay other banker wins 1:1; tie pays
    ``rules.tie_pays``:1; pairs pay 11:1.
    """
    checked = validate_bets(rules, stakes)
    return Settlement(
        tuple([settle_line(rules, coup, kind, stake) for kind, stake in checked.items()])
    )
