from __future__ import annotations

import pytest

from baccarat.engine import Card, CardError, cards_from_codes, codes_of, fresh_cards, hand_total


def hand(codes: str) -> tuple[Card, ...]:
    return cards_from_codes(codes)


@pytest.mark.parametrize(
    ("code", "rank", "suit", "point"),
    [
        ("AS", 1, "S", 1),
        ("9H", 9, "H", 9),
        ("TD", 10, "D", 0),
        ("JC", 11, "C", 0),
        ("QS", 12, "S", 0),
        ("KC", 13, "C", 0),
    ],
)
def test_card_code_rank_suit_point(code: str, rank: int, suit: str, point: int) -> None:
    card = Card.from_code(code)
    assert (card.rank, card.suit, card.point, card.code) == (rank, suit, point, code)
    assert Card(rank, suit) == card


def test_from_code_accepts_ten_and_lower_case() -> None:
    assert Card.from_code("10h") == Card(10, "H")


@pytest.mark.parametrize("code", ["", "A", "1S", "AX", "ASS", "0H", "11S"])
def test_from_code_rejects_nonsense(code: str) -> None:
    with pytest.raises(CardError) as exc:
        Card.from_code(code)
    assert exc.value.code == "invalid_card"


@pytest.mark.parametrize(("rank", "suit"), [(0, "S"), (14, "S"), (1, ""), (1, "X"), (1, "SH")])
def test_card_rejects_bad_rank_or_suit(rank: int, suit: str) -> None:
    with pytest.raises(CardError):
        Card(rank, suit)


def test_codes_round_trip() -> None:
    deck = fresh_cards(1)
    assert len(deck) == 52
    assert len(set(deck)) == 52
    assert cards_from_codes(codes_of(deck)) == tuple(deck)


@pytest.mark.parametrize(
    ("codes", "total"),
    [("9S7H", 6), ("5S5H5D", 5), ("TS9H", 9), ("KSQH", 0), ("AS2H", 3), ("8C8D", 6)],
)
def test_hand_total_is_points_mod_ten(codes: str, total: int) -> None:
    assert hand_total(hand(codes)) == total
