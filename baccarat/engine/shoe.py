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

STATE_VERSION: Final = 2
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
    """SHA-256 hex digest committing to a shoe order; the salt defeats brute force.

    The digest is over the ASCII text ``<salt>:<order>``, where ``<order>`` is the
    shuffled order before the cut as two-character card codes run together
    (``"KD9S..."``): anyone can recompute it with any SHA-256 tool.
    """
    return hashlib.sha256(f"{salt}:{codes_of(order)}".encode("ascii")).hexdigest()


def verify_commitment(commitment: str, order: str, salt: str) -> bool:
    """Check a revealed order (compact code string) and salt against a commitment."""
    expected = commitment_of(cards_from_codes(order), salt)
    return hmac.compare_digest(expected, commitment)


def cut_range(size: int) -> tuple[int, int]:
    """The positions a player may cut a pack of ``size`` cards at (both included).

    Not too near either end, as at a real table: a tenth of the pack on each side.
    """
    margin = max(1, size // 10)
    return margin, size - margin


class Shoe:
    """A shoe of cards in a fixed order; drawing advances ``position``.

    The shuffled order is committed to (:meth:`commitment`) before anyone cuts it; the
    cut (by a player, or by the croupier at random) rotates it into the dealing order,
    then the burn takes cards off the front. ``position`` counts cards of the dealing
    order. The cut card lies in front of the card at ``cut_card_index``: when that card
    is drawn the cut card has come out, the coup in progress completes and then the
    shoe is finished (``needs_reshuffle``).

    A shoe from :meth:`prepared` waits for its cut (``is_cut`` is false, nothing can be
    drawn) until :meth:`cut` is called.
    """

    __slots__ = (
        "_committed",
        "_order",
        "burn",
        "burned_count",
        "cut_card_index",
        "cut_position",
        "decks",
        "penetration_permille",
        "position",
        "salt",
    )

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
        cut_position: int | None = 0,
        penetration_permille: int = 1000,
    ) -> None:
        n = len(order)
        if cut_position is not None and not 0 <= cut_position < max(n, 1):
            raise InvalidShoeState(f"cut position {cut_position}")
        if not 0 <= burned_count <= position <= n:
            raise InvalidShoeState(f"burned {burned_count}, position {position}, size {n}")
        if not 0 <= cut_card_index <= n:
            raise InvalidShoeState(f"cut card index {cut_card_index}")
        if not 0 < penetration_permille <= 1000:
            raise InvalidShoeState(f"penetration {penetration_permille}")
        self._committed: tuple[Card, ...] = tuple(order)
        self.cut_position = cut_position
        self._order: tuple[Card, ...] = (
            () if cut_position is None else tuple(cut_cards(order, cut_position) if n else ())
        )
        self.decks = decks
        self.cut_card_index = cut_card_index
        self.burn = burn
        self.burned_count = burned_count
        self.position = position
        self.salt = salt
        self.penetration_permille = penetration_permille

    # Construction -------------------------------------------------------------------

    @classmethod
    def prepared(
        cls,
        decks: int,
        *,
        rng: random.Random,
        penetration_permille: int = 890,
        burn: BurnMode = BurnMode.FIRST_CARD,
    ) -> Shoe:
        """Shuffle ``decks`` decks with ``rng`` (pass ``secrets.SystemRandom()``), uncut.

        The order and its commitment are fixed; :meth:`cut` then rotates and burns.
        """
        if type(decks) is not int or decks not in DECK_COUNTS:
            raise ShoeError(f"decks {decks!r}", code="invalid_decks")
        if type(penetration_permille) is not int or not 0 < penetration_permille <= 1000:
            raise ShoeError(f"{penetration_permille!r}", code="invalid_penetration")
        order = shuffle_cards(fresh_cards(decks), rng)
        salt = f"{rng.getrandbits(SALT_BITS):032x}"
        return cls(
            order,
            decks=decks,
            cut_card_index=0,
            burn=BurnMode(burn),
            burned_count=0,
            position=0,
            salt=salt,
            cut_position=None,
            penetration_permille=penetration_permille,
        )

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
        """Shuffle, cut and burn: a shoe ready to deal.

        ``cut_position`` rotates the shuffled order there; ``None`` lets the croupier
        cut at random within :func:`cut_range`.
        """
        shoe = cls.prepared(decks, rng=rng, penetration_permille=penetration_permille, burn=burn)
        if cut_position is None:
            low, high = cut_range(shoe.size)
            cut_position = low + rng.randrange(high - low + 1)
        shoe.cut(cut_position)
        return shoe

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

    def cut(self, position: int) -> None:
        """Cut the shuffled order at ``position``, then burn and place the cut card."""
        if self.cut_position is not None:
            raise ShoeError("already cut", code="already_cut")
        order = cut_cards(self._committed, position)
        burned = burn_count(order, self.burn)
        n = len(order)
        self.cut_position = position
        self._order = tuple(order)
        self.burned_count = burned
        self.position = burned
        self.cut_card_index = min(
            max(n * self.penetration_permille // 1000, burned), n - MAX_COUP_CARDS
        )

    # Dealing ------------------------------------------------------------------------

    @property
    def is_cut(self) -> bool:
        """Whether the shoe has been cut and can deal."""
        return self.cut_position is not None

    def draw(self) -> Card:
        """Take the next card; raises :class:`ShoeExhausted` when none is left."""
        if self.cut_position is None:
            raise ShoeError("the shoe has not been cut", code="not_cut")
        position = self.position
        if position >= len(self._order):
            raise ShoeExhausted()
        self.position = position + 1
        return self._order[position]

    @property
    def size(self) -> int:
        """Number of cards in the shoe, burned ones included."""
        return len(self._committed)

    @property
    def remaining(self) -> int:
        """Cards not yet drawn."""
        return len(self._order) - self.position

    @property
    def dealing_order(self) -> tuple[Card, ...]:
        """Every card in the order it leaves the shoe: the shuffled order after the cut."""
        return self._order

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
        """SHA-256 hex over salt and the shuffled order; publish it now, reveal later."""
        return commitment_of(self._committed, self.salt)

    def reveal(self) -> dict[str, Any]:
        """What opens :meth:`commitment`: the shuffled order, the salt, and the cut.

        Show only once the shoe has ended.
        """
        return {"order": codes_of(self._committed), "salt": self.salt, "cut": self.cut_position}

    # Persistence --------------------------------------------------------------------

    def to_state(self) -> dict[str, Any]:
        """A JSON-safe snapshot from which :meth:`from_state` rebuilds this exact shoe."""
        return {
            "version": STATE_VERSION,
            "decks": self.decks,
            "order": codes_of(self._committed),
            "cut": self.cut_position,
            "penetration": self.penetration_permille,
            "position": self.position,
            "cut_card_index": self.cut_card_index,
            "burn": self.burn.value,
            "burned": self.burned_count,
            "salt": self.salt,
        }

    @classmethod
    def from_state(cls, state: Mapping[str, Any]) -> Shoe:
        """Rebuild a shoe from :meth:`to_state`; raises :class:`InvalidShoeState`.

        Version 1 states stored the order after the cut (and committed to it): they
        read as cut at position 0.
        """
        try:
            version = state["version"]
            if version not in (1, STATE_VERSION):
                raise InvalidShoeState(f"version {version!r}")
            ints = {k: state[k] for k in ("decks", "position", "cut_card_index", "burned")}
            cut = 0 if version == 1 else state["cut"]
            penetration = 1000 if version == 1 else state["penetration"]
            if any(type(v) is not int for v in ints.values()) or not isinstance(state["salt"], str):
                raise InvalidShoeState("field types")
            if (cut is not None and type(cut) is not int) or type(penetration) is not int:
                raise InvalidShoeState("field types")
            order = cards_from_codes(state["order"])
            burn = BurnMode(state["burn"])
        except (KeyError, TypeError, ValueError, CardError) as exc:
            raise InvalidShoeState(repr(exc)) from None
        shoe = cls(
            order,
            decks=ints["decks"],
            cut_card_index=ints["cut_card_index"],
            burn=burn,
            burned_count=ints["burned"],
            position=ints["position"],
            salt=state["salt"],
            cut_position=cut,
            penetration_permille=penetration,
        )
        expected_burn = burn_count(shoe._order, burn) if shoe.is_cut else 0
        if ints["burned"] != expected_burn:
            raise InvalidShoeState("burned count does not match the burn card")
        return shoe

    def __repr__(self) -> str:
        return (
            f"Shoe(decks={self.decks}, size={self.size}, cut={self.cut_position}, "
            f"position={self.position}, cut_card_index={self.cut_card_index})"
        )
