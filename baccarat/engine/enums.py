"""String enums shared across the engine; their values are stable codes."""

from __future__ import annotations

from enum import StrEnum


class Outcome(StrEnum):
    """Which hand won a coup."""

    PLAYER = "player"
    BANKER = "banker"
    TIE = "tie"


class BetKind(StrEnum):
    """The bet spots of a Punto Banco layout, in settlement order."""

    PLAYER = "player"
    BANKER = "banker"
    TIE = "tie"
    PLAYER_PAIR = "player_pair"
    BANKER_PAIR = "banker_pair"


class CommissionMode(StrEnum):
    """How the house takes its edge on banker bets."""

    FIVE_PERCENT = "five_percent"
    BANKER_SEVEN = "banker_seven"


class BurnMode(StrEnum):
    """How cards are burned at the start of a shoe."""

    FIRST_CARD = "first_card"
    NONE = "none"
