"""Dealing one coup from a source of cards."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from .cards import Card, card
from .enums import Outcome
from .errors import CoupError, ShoeExhausted
from .tableau import _BANKER_DRAWS, STOOD


@dataclass(frozen=True, slots=True)
class Coup:
    """The result of one coup; built by :func:`deal_coup`, never by hand."""

    player_cards: tuple[Card, ...]
    banker_cards: tuple[Card, ...]
    player_total: int
    banker_total: int
    outcome: Outcome
    natural: bool
    player_pair: bool
    banker_pair: bool
    banker_three_card_seven: bool
    dealt_order: tuple[Card, ...]


def deal_coup(draw: Callable[[], Card]) -> Coup:
    """Deal one coup, taking cards from ``draw`` (e.g. ``shoe.draw``) in shoe order.

    Order: player, banker, player, banker, then the player's and the banker's third
    cards as the drawing rules demand.
    """
    p1 = draw()
    b1 = draw()
    p2 = draw()
    b2 = draw()
    player_total = (p1.point + p2.point) % 10
    banker_total = (b1.point + b2.point) % 10
    player_cards: tuple[Card, ...] = (p1, p2)
    banker_cards: tuple[Card, ...] = (b1, b2)
    dealt_order: tuple[Card, ...] = (p1, b1, p2, b2)
    natural = player_total >= 8 or banker_total >= 8
    if not natural:
        player_third = STOOD
        if player_total <= 5:
            p3 = draw()
            player_third = p3.point
            player_total = (player_total + player_third) % 10
            player_cards = (p1, p2, p3)
            dealt_order = (*dealt_order, p3)
        if _BANKER_DRAWS[banker_total][player_third]:
            b3 = draw()
            banker_total = (banker_total + b3.point) % 10
            banker_cards = (b1, b2, b3)
            dealt_order = (*dealt_order, b3)
    if banker_total > player_total:
        outcome = Outcome.BANKER
    elif player_total > banker_total:
        outcome = Outcome.PLAYER
    else:
        outcome = Outcome.TIE
    return Coup(
        player_cards=player_cards,
        banker_cards=banker_cards,
        player_total=player_total,
        banker_total=banker_total,
        outcome=outcome,
        natural=natural,
        player_pair=p1.rank == p2.rank,
        banker_pair=b1.rank == b2.rank,
        banker_three_card_seven=(
            outcome is Outcome.BANKER and banker_total == 7 and len(banker_cards) == 3
        ),
        dealt_order=dealt_order,
    )


def deal_cards(cards: Iterable[Card | str]) -> Coup:
    """Deal a coup from an explicit card sequence in shoe order (codes or cards).

    Every given card must be used: left-over cards raise ``CoupError("cards_left_over")``
    and too few raise ``ShoeExhausted``.
    """
    source = iter([card(c) for c in cards])

    def draw() -> Card:
        try:
            return next(source)
        except StopIteration:
            raise ShoeExhausted("explicit cards ran out") from None

    coup = deal_coup(draw)
    if next(source, None) is not None:
        raise CoupError(code="cards_left_over")
    return coup


def coup_from_hands(player_cards: Sequence[Card | str], banker_cards: Sequence[Card | str]) -> Coup:
    """Rebuild a coup from its two hands (e.g. as stored), checking the drawing rules."""
    player = [card(c) for c in player_cards]
    banker = [card(c) for c in banker_cards]
    if not (2 <= len(player) <= 3 and 2 <= len(banker) <= 3):
        raise CoupError(code="inconsistent_hands")
    order = [player[0], banker[0], player[1], banker[1], *player[2:], *banker[2:]]
    try:
        coup = deal_cards(order)
    except (CoupError, ShoeExhausted):
        raise CoupError(code="inconsistent_hands") from None
    if list(coup.player_cards) != player or list(coup.banker_cards) != banker:
        raise CoupError(code="inconsistent_hands")
    return coup
