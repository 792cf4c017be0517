"""Checking a set of bets against a table's rules."""

from __future__ import annotations

from collections.abc import Mapping

from .enums import BetKind, CommissionMode
from .errors import (
    CombinationNotAllowed,
    InvalidStake,
    NoBet,
    NonPositiveStake,
    PairsDisabled,
    StakeNotCommissionable,
    UnknownBetKind,
)
from .rules import RuleSet

# 5% of a multiple of 20 cents is a whole number of cents.
COMMISSION_STAKE_STEP = 20
_LAYOUT_ORDER = tuple(BetKind)
_PAIR_KINDS = frozenset({BetKind.PLAYER_PAIR, BetKind.BANKER_PAIR})


def validate_bets(
    rules: RuleSet, stakes: Mapping[BetKind, int] | Mapping[str, int]
) -> dict[BetKind, int]:
    """Check stakes (integer cents per bet kind) against ``rules``.

    Returns the stakes keyed by :class:`BetKind` in layout order. Raises a
    :class:`~baccarat.engine.errors.BetError` subclass naming the first problem found.
    Table limits (minimum and maximum per bet) belong to the table, not to the rules.
    """
    if not stakes:
        raise NoBet()
    checked: dict[BetKind, int] = {}
    for raw_kind, stake in stakes.items():
        if raw_kind.__class__ is BetKind:
            kind = raw_kind
        else:
            try:
                kind = BetKind(raw_kind)
            except ValueError:
                raise UnknownBetKind(f"{raw_kind!r}") from None
        if type(stake) is not int:
            raise InvalidStake(f"{stake!r}", kind=kind)
        if stake <= 0:
            raise NonPositiveStake(f"{stake}", kind=kind)
        if kind in _PAIR_KINDS and not rules.pairs_enabled:
            raise PairsDisabled(kind=kind)
        if (
            kind is BetKind.BANKER
            and rules.commission is CommissionMode.FIVE_PERCENT
            and stake % COMMISSION_STAKE_STEP
        ):
            raise StakeNotCommissionable(f"{stake}", kind=kind)
        checked[kind] = stake
    if (
        not rules.allow_player_and_banker
        and BetKind.PLAYER in checked
        and BetKind.BANKER in checked
    ):
        raise CombinationNotAllowed()
    return {kind: checked[kind] for kind in _LAYOUT_ORDER if kind in checked}
