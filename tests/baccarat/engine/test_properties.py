from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from baccarat.engine import (
    BetKind,
    BurnMode,
    Card,
    CommissionMode,
    Outcome,
    RuleSet,
    Shoe,
    banker_draws,
    deal_coup,
    hand_total,
    settle,
)

cards = st.builds(Card, st.integers(1, 13), st.sampled_from("SHDC"))
six_cards = st.lists(cards, min_size=6, max_size=6)
rule_sets = st.builds(
    RuleSet,
    decks=st.sampled_from([1, 6, 8]),
    commission=st.sampled_from(list(CommissionMode)),
    tie_pays=st.sampled_from([8, 9]),
)
stakes = st.dictionaries(
    st.sampled_from(list(BetKind)), st.integers(1, 10_000).map(lambda u: u * 100), min_size=1
)


@given(six_cards)
def test_coup_obeys_the_tableau(dealt: list[Card]) -> None:
    coup = deal_coup(iter(dealt).__next__)
    assert 0 <= coup.player_total <= 9
    assert 0 <= coup.banker_total <= 9
    assert 2 <= len(coup.player_cards) <= 3
    assert 2 <= len(coup.banker_cards) <= 3
    assert list(coup.dealt_order) == dealt[: len(coup.dealt_order)]
    assert coup.player_total == hand_total(coup.player_cards)
    assert coup.banker_total == hand_total(coup.banker_cards)
    first_player = hand_total(coup.player_cards[:2])
    first_banker = hand_total(coup.banker_cards[:2])
    assert coup.natural == (max(first_player, first_banker) >= 8)
    if coup.natural:
        assert len(coup.dealt_order) == 4
    else:
        assert (len(coup.player_cards) == 3) == (first_player <= 5)
        third = coup.player_cards[2].point if len(coup.player_cards) == 3 else None
        assert (len(coup.banker_cards) == 3) == banker_draws(first_banker, third)
    expected = (
        Outcome.BANKER
        if coup.banker_total > coup.player_total
        else Outcome.PLAYER
        if coup.player_total > coup.banker_total
        else Outcome.TIE
    )
    assert coup.outcome is expected


@given(six_cards, rule_sets, stakes)
def test_settlement_conserves_money(
    dealt: list[Card], rules: RuleSet, bets: dict[BetKind, int]
) -> None:
    coup = deal_coup(iter(dealt).__next__)
    settlement = settle(rules, coup, bets)
    assert settlement.stake_total == sum(bets.values())
    assert settlement.stake_total == settlement.payout_total + settlement.house_result
    assert settlement.net_total == -settlement.house_result
    for line in settlement.lines:
        assert line.payout >= 0
        assert line.commission >= 0
        assert line.returned in (0, line.stake)
        assert line.payout == line.stake + line.net


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**64), st.sampled_from([1, 6, 8]), st.sampled_from(list(BurnMode)))
def test_shoe_deals_to_the_cut_card_without_running_dry(
    seed: int, decks: int, burn: BurnMode
) -> None:
    import random

    shoe = Shoe.shuffled(decks, rng=random.Random(seed), burn=burn)
    seen = list(shoe.burned)
    while not shoe.needs_reshuffle:
        seen += deal_coup(shoe.draw).dealt_order
    assert seen == list(shoe.burned) + list(shoe.dealt)
    assert shoe.remaining >= 0
    assert Shoe.from_state(shoe.to_state()).to_state() == shoe.to_state()
