"""Cards, card codes and hand totals."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from .errors import CardError

SUITS: Final = "SHDC"
RANK_CODES: Final = "A23456789TJQK"
_SUIT_SET: Final = frozenset(SUITS)
# Indexed by rank; index 0 is unused.
_POINTS: Final = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 0, 0, 0)


@dataclass(frozen=True, slots=True)
class Card:
    """A playing card: rank 1..13 (A=1, J=11, Q=12, K=13) and suit in ``"SHDC"``."""

    rank: int
    suit: str

    def __post_init__(self) -> None:
        if type(self.rank) is not int or not 1 <= self.rank <= 13:
            raise CardError(f"rank {self.rank!r}")
        if not isinstance(self.suit, str) or self.suit not in _SUIT_SET:
            raise CardError(f"suit {self.suit!r}")

    @property
    def point(self) -> int:
        """Baccarat value: ace 1, two to nine face value, ten and court cards 0."""
        return _POINTS[self.rank]

    @property
    def code(self) -> str:
        """Two-character code such as ``"AS"``, ``"9H"``, ``"TD"`` or ``"KC"``."""
        return RANK_CODES[self.rank - 1] + self.suit

    @classmethod
    def from_code(cls, code: str) -> Card:
        """Parse a code like ``"AS"`` or ``"TD"`` (``"10D"`` and lower case are accepted)."""
        if not isinstance(code, str):
            raise CardError(f"code {code!r}")
        card = _BY_CODE.get(code.upper().replace("10", "T", 1))
        if card is None:
            raise CardError(f"code {code!r}")
        return card

    def __str__(self) -> str:
        return self.code


_BY_CODE: Final[dict[str, Card]] = {
    RANK_CODES[rank - 1] + suit: Card(rank, suit) for suit in SUITS for rank in range(1, 14)
}


def card(code: str | Card) -> Card:
    """Return ``code`` as a card; accepts a card or a card code."""
    return code if isinstance(code, Card) else Card.from_code(code)


def cards_from_codes(codes: str) -> tuple[Card, ...]:
    """Parse a compact string of two-character codes (``"AS9HTD"``); spaces are ignored."""
    compact = "".join(codes.split())
    if len(compact) % 2:
        raise CardError(f"odd length {len(compact)}")
    try:
        return tuple(_BY_CODE[compact[i : i + 2]] for i in range(0, len(compact), 2))
    except KeyError as exc:
        raise CardError(f"code {exc.args[0]!r}") from None


def codes_of(cards: Iterable[Card]) -> str:
    """The compact code string of ``cards``, the inverse of :func:`cards_from_codes`."""
    return "".join(c.code for c in cards)


def fresh_cards(decks: int) -> list[Card]:
    """``decks`` complete 52-card decks in a fixed, unshuffled order."""
    if type(decks) is not int or decks < 1:
        raise CardError(f"decks {decks!r}")
    deck = list(_BY_CODE.values())
    return deck * decks


def hand_total(cards: Iterable[Card]) -> int:
    """Baccarat total of a hand: the sum of the points modulo 10."""
    return sum(c.point for c in cards) % 10
