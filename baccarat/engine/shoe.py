"""The shoe: a shuffled card order, its position, cut card, burned cards and commitment."""

from __future__ import annotations

import hashlib
import hmac
import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final

from .cards import Card, card, cards_from_codes, codes_of, fresh_cards
from .enums import BurnMode
from .errors import CardError, InvalidShoeState, ShoeError, ShoeExhausted
from .rules import DECK_COUNTS

STATE_VERSION: Final = 1
# A coup never uses more than six cards; the cut card leaves at least that many behind.
MAX_COUP_CARDS: Final = 6
SALT_BITS: Final = 128


def shuffle_cards(cards: Sequence[Card], rng: random.Random) -> list[Card]:
    """An unbiased Fisher-Yates shuffle of ``cards`` using only ``rng.randrange``."""
    order = list(cards)
    for i in range(len(order) - 1, 0, -1):
        j = rng.randrange(i + 1)
        order[i], order[j] = order[j], order[i]
    return order


def cut_cards(cards: Sequence[Card], position: int) -> list[Card]:
    """Cut the pack: the cards from ``position`` on go to the front."""
    if type(position) is not int or not 0 <= position < len(cards):
        raise ShoeError(f"cut position {position!r}", code="invalid_cut_position")
    return [*cards[position:], *cards[:position]]


def burn_count(order: Sequence[Card], burn: BurnMode) -> int:
    """How many cards leave the shoe before the first coup.

    Burn by first card: the first card is turned face up and burned, followed by as many
    cards as its point value, with a ten or court card counting 10.
    """
    if burn is BurnMode.NONE or not order:
        return 0
    return 1 + (order[0].point or 10)


def commitment_of(order: Sequence[Card], salt: str) -> str:
    """SHA-256 hex digest committing to a shoe order; the salt defeats brute force."""
    return hashlib.sha256(f"{salt}:{codes_of(order)}".encode("ascii")).hexdigest()


def verify_commitment(commitment: str, order: str, salt: str) -> bool:
    """Check a revealed order (compact code string) and salt against a commitment."""
    expected = commitment_of(cards_from_codes(order), salt)
    return hmac.compare_digest(expected, commitment)


class Shoe:
    """A shoe of cards in a fixed order; drawing advances ``position``.

    The cut card lies in front of the card at ``cut_card_index``. When that card is drawn
    the cut card has come out: the coup in progress completes and then the shoe is
    finished (``needs_reshuffle``).
    """

    __slots__ = ("_order", "burn", "burned_count", "cut_card_index", "decks", "position", "salt")

    def __init__(
        self,
        order: Sequence[Card],
        *,
        decks: int,
        cut_card_index: int,
        burn: BurnMode,
        burned_count: int,
        position: int,
        salt: str,
    ) -> None:
        n = len(order)
        if not 0 <= burned_count <= position <= n:
            raise InvalidShoeState(f"burned {burned_count}, position {position}, size {n}")
        if not 0 <= cut_card_index <= n:
            raise InvalidShoeState(f"cut card index {cut_card_index}")
        self._order: tuple[Card, ...] = tuple(order)
        self.decks = decks
        self.cut_card_index = cut_card_index
        self.burn = burn
        self.burned_count = burned_count
        self.position = position
        self.salt = salt

    # Construction -------------------------------------------------------------------

    @classmethod
    def shuffled(
        cls,
        decks: int,
        *,
        rng: random.Random,
        penetration_permille: int = 890,
        burn: BurnMode = BurnMode.FIRST_CARD,
        cut_position: int | None = None,
    ) -> Shoe:
        """Shuffle ``decks`` decks with ``rng`` (pass ``secrets.SystemRandom()``), cut, burn.

        ``cut_position`` rotates the shuffled order there; ``None`` cuts at random.
        """
        if type(decks) is not int or decks not in DECK_COUNTS:
            raise ShoeError(f"decks {decks!r}", code="invalid_decks")
        order = shuffle_cards(fresh_cards(decks), rng)
        if cut_position is None:
            cut_position = rng.randrange(len(order))
        order = cut_cards(order, cut_position)
        salt = f"{rng.getrandbits(SALT_BITS):032x}"
        return cls._prepared(order, decks, penetration_permille, BurnMode(burn), salt)

    @classmethod
    def from_cards(
        cls,
        cards: Iterable[Card | str],
        *,
        cut_card_index: int | None = None,
        burn: BurnMode = BurnMode.NONE,
        decks: int | None = None,
        salt: str = "",
    ) -> Shoe:
        """A shoe dealing exactly ``cards`` (cards or codes) in order, e.g. for tests.

        Without ``cut_card_index`` there is no cut card: the shoe runs to its end.
        """
        order = [card(c) for c in cards]
        burned = burn_count(order, BurnMode(burn))
        if burned > len(order):
            raise ShoeError("too few cards to burn", code="invalid_shoe_size")
        return cls(
            order,
            decks=decks if decks is not None else max(1, len(order) // 52),
            cut_card_index=len(order) if cut_card_index is None else cut_card_index,
            burn=BurnMode(burn),
            burned_count=burned,
            position=burned,
            salt=salt,
        )

    @classmethod
    def _prepared(
        cls, order: list[Card], decks: int, penetration_permille: int, burn: BurnMode, salt: str
    ) -> Shoe:
        if type(penetration_permille) is not int or not 0 < penetration_permille <= 1000:
            raise ShoeError(f"{penetration_permille!r}", code="invalid_penetration")
        burned = burn_count(order, burn)
        n = len(order)
        cut_card_index = min(max(n * penetration_permille // 1000, burned), n - MAX_COUP_CARDS)
        return cls(
            order,
            decks=decks,
            cut_card_index=cut_card_index,
            burn=burn,
            burned_count=burned,
            position=burned,
            salt=salt,
        )

    # Dealing ------------------------------------------------------------------------

    def draw(self) -> Card:
        """Take the next card; raises :class:`ShoeExhausted` when none is left."""
        position = self.position
        if position >= len(self._order):
            raise ShoeExhausted()
        self.position = position + 1
        return self._order[position]

    @property
    def size(self) -> int:
        """Number of cards in the shoe, burned ones included."""
        return len(self._order)

    @property
    def remaining(self) -> int:
        """Cards not yet drawn."""
        return len(self._order) - self.position

    @property
    def burned(self) -> tuple[Card, ...]:
        """Burned cards; with burn by first card the turned card comes first."""
        return self._order[: self.burned_count]

    @property
    def dealt(self) -> tuple[Card, ...]:
        """Cards dealt to coups so far, in order."""
        return self._order[self.burned_count : self.position]

    @property
    def cut_card_out(self) -> bool:
        """Whether the cut card has come out."""
        return self.position > self.cut_card_index

    @property
    def needs_reshuffle(self) -> bool:
        """Whether no further coup may be dealt from this shoe."""
        return self.position > self.cut_card_index or self.remaining < MAX_COUP_CARDS

    @property
    def finished(self) -> bool:
        """Same as :attr:`needs_reshuffle`: the shoe has ended."""
        return self.needs_reshuffle

    # Fairness -----------------------------------------------------------------------

    def commitment(self) -> str:
        """SHA-256 hex over salt and full order; publish it now, reveal the order later."""
        return commitment_of(self._order, self.salt)

    def reveal(self) -> dict[str, str]:
        """The order and salt that open :meth:`commitment` (show only once finished)."""
        return {"order": codes_of(self._order), "salt": self.salt}

    # Persistence --------------------------------------------------------------------

    def to_state(self) -> dict[str, Any]:
        """A JSON-safe snapshot from which :meth:`from_state` rebuilds this exact shoe."""
        return {
            "version": STATE_VERSION,
            "decks": self.decks,
            "order": codes_of(self._order),
            "position": self.position,
            "cut_card_index": self.cut_card_index,
            "burn": self.burn.value,
            "burned": self.burned_count,
            "salt": self.salt,
        }

    @classmethod
    def from_state(cls, state: Mapping[str, Any]) -> Shoe:
        """Rebuild a shoe from :meth:`to_state`; raises :class:`InvalidShoeState`."""
        try:
            if state["version"] != STATE_VERSION:
                raise InvalidShoeState(f"version {state['version']!r}")
            ints = {k: state[k] for k in ("decks", "position", "cut_card_index", "burned")}
            if any(type(v) is not int for v in ints.values()) or not isinstance(state["salt"], str):
                raise InvalidShoeState("field types")
            order = cards_from_codes(state["order"])
            burn = BurnMode(state["burn"])
        except (KeyError, TypeError, ValueError, CardError) as exc:
            raise InvalidShoeState(repr(exc)) from None
        if ints["burned"] != burn_count(order, burn):
            raise InvalidShoeState("burned count does not match the burn card")
        return cls(
            order,
            decks=ints["decks"],
            cut_card_index=ints["cut_card_index"],
            burn=burn,
            burned_count=ints["burned"],
            position=ints["position"],
            salt=state["salt"],
        )

    def __repr__(self) -> str:
        return (
            f"Shoe(decks={self.decks}, size={self.size}, position={self.position}, "
            f"cut_card_index={self.cut_card_index})"
        )
