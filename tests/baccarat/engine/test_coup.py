from __future__ import annotations

import pytest

from baccarat.engine import (
    Card,
    CoupError,
    Outcome,
    ShoeExhausted,
    cards_from_codes,
    coup_from_hands,
    deal_cards,
    deal_coup,
)


def codes(cards: tuple[Card, ...]) -> list[str]:
    return [c.code for c in cards]


def test_deal_order_is_player_banker_player_banker() -> None:
    coup = deal_cards(["9S", "8H", "KD", "QC"])
    assert codes(coup.player_cards) == ["9S", "KD"]
    assert codes(coup.banker_cards) == ["8H", "QC"]


def test_ten_and_nine_is_a_natural_nine_and_stops_the_coup() -> None:
    coup = deal_cards(["TS", "5H", "9D", "KC"])
    assert coup.natural
    assert (coup.player_total, coup.banker_total) == (9, 5)
    assert coup.outcome is Outcome.PLAYER
    assert len(coup.player_cards) == len(coup.banker_cards) == 2


def test_banker_natural_eight_stops_a_drawing_player() -> None:
    coup = deal_cards(["AS", "4H", "2D", "4C"])
    assert coup.natural
    assert (coup.player_total, coup.banker_total) == (3, 8)
    assert coup.outcome is Outcome.BANKER
    assert len(coup.dealt_order) == 4


def test_natural_tie() -> None:
    coup = deal_cards(["4S", "5H", "4D", "3C"])
    assert coup.natural
    assert coup.outcome is Outcome.TIE


def test_nine_and_seven_make_six_and_both_stand() -> None:
    coup = deal_cards(["9S", "KH", "7D", "6C"])
    assert (coup.player_total, coup.banker_total) == (6, 6)
    assert not coup.natural
    assert coup.outcome is Outcome.TIE
    assert len(coup.dealt_order) == 4


def test_five_five_five_makes_five() -> None:
    coup = deal_cards(["5S", "KH", "5D", "7C", "5H"])
    assert codes(coup.player_cards) == ["5S", "5D", "5H"]
    assert coup.player_total == 5
    assert coup.banker_total == 7
    assert coup.outcome is Outcome.BANKER


def test_banker_on_three_stands_against_a_player_eight() -> None:
    coup = deal_cards(["2S", "AH", "2D", "2C", "8H"])
    assert coup.player_total == 2
    assert codes(coup.banker_cards) == ["AH", "2C"]
    assert coup.banker_total == 3
    assert coup.outcome is Outcome.BANKER
    assert not coup.banker_three_card_seven


def test_banker_on_three_draws_against_a_player_seven() -> None:
    coup = deal_cards(["2S", "AH", "2D", "2C", "7H", "4D"])
    assert coup.player_total == 1
    assert codes(coup.banker_cards) == ["AH", "2C", "4D"]
    assert coup.banker_total == 7
    assert coup.outcome is Outcome.BANKER
    assert coup.banker_three_card_seven
    assert codes(coup.dealt_order) == ["2S", "AH", "2D", "2C", "7H", "4D"]


def test_banker_draws_when_player_stood_on_six() -> None:
    coup = deal_cards(["3S", "AH", "3D", "2C", "6H"])
    assert len(coup.player_cards) == 2
    assert codes(coup.banker_cards) == ["AH", "2C", "6H"]
    assert coup.banker_total == 9
    assert coup.outcome is Outcome.BANKER


def test_banker_stands_on_six_when_player_stood() -> None:
    coup = deal_cards(["3S", "3H", "4D", "3C"])
    assert (coup.player_total, coup.banker_total) == (7, 6)
    assert coup.outcome is Outcome.PLAYER


def test_pairs_need_equal_rank_not_equal_point() -> None:
    coup = deal_cards(["KS", "KH", "KD", "QC", "9S", "9H"])
    assert coup.player_pair
    assert not coup.banker_pair


def test_three_card_seven_only_counts_when_banker_wins() -> None:
    coup = deal_cards(["2S", "AH", "2D", "2C", "3H", "4D"])
    assert (coup.player_total, coup.banker_total) == (7, 7)
    assert coup.outcome is Outcome.TIE
    assert not coup.banker_three_card_seven


def test_two_card_seven_is_not_a_three_card_seven() -> None:
    coup = deal_cards(["2S", "3H", "4D", "4C"])
    assert (coup.player_total, coup.banker_total) == (6, 7)
    assert coup.outcome is Outcome.BANKER
    assert not coup.banker_three_card_seven


def test_deal_coup_takes_any_draw_callable() -> None:
    cards = iter(cards_from_codes("9S8HKDQC7S"))
    coup = deal_coup(cards.__next__)
    assert coup.player_total == 9
    assert next(cards).code == "7S"


def test_deal_cards_refuses_left_over_cards() -> None:
    with pytest.raises(CoupError) as exc:
        deal_cards(["9S", "8H", "KD", "QC", "7S"])
    assert exc.value.code == "cards_left_over"


def test_deal_cards_runs_out() -> None:
    with pytest.raises(ShoeExhausted):
        deal_cards(["2S", "AH", "2D", "2C"])


def test_coup_from_hands_rebuilds_the_same_coup() -> None:
    coup = deal_cards(["2S", "AH", "2D", "2C", "7H", "4D"])
    assert coup_from_hands(["2S", "2D", "7H"], ["AH", "2C", "4D"]) == coup


@pytest.mark.parametrize(
    ("player", "banker"),
    [
        (["2S", "2D"], ["AH", "2C"]),  # the player must draw on four
        (["9S", "KD", "2H"], ["AH", "2C"]),  # a natural does not draw
        (["2S", "2D", "8H"], ["AH", "2C", "4D"]),  # banker three stands on an eight
        (["2S"], ["AH", "2C"]),
    ],
)
def test_coup_from_hands_refuses_hands_the_rules_cannot_produce(
    player: list[str], banker: list[str]
) -> None:
    with pytest.raises(CoupError) as exc:
        coup_from_hands(player, banker)
    assert exc.value.code == "inconsistent_hands"
