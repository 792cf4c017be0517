from __future__ import annotations

import hashlib
import json
import math
import random
from collections import Counter

import pytest

from baccarat.engine import (
    BurnMode,
    Card,
    InvalidShoeState,
    Shoe,
    ShoeError,
    ShoeExhausted,
    cards_from_codes,
    codes_of,
    deal_coup,
    fresh_cards,
    verify_commitment,
)
from baccarat.engine.shoe import cut_range, shuffle_cards

NATURAL = "9S8HKDQC"  # a four-card coup


def seeded(seed: int = 7) -> random.Random:
    return random.Random(seed)


@pytest.mark.parametrize("decks", [1, 6, 8])
def test_shoe_holds_complete_decks(decks: int) -> None:
    shoe = Shoe.shuffled(decks, rng=seeded(), burn=BurnMode.NONE)
    cards = [shoe.draw() for _ in range(shoe.size)]
    assert len(cards) == 52 * decks
    assert Counter(c.rank for c in cards) == dict.fromkeys(range(1, 14), 4 * decks)
    assert Counter(cards) == Counter(fresh_cards(decks))


def test_eight_decks_have_416_cards_and_32_of_each_rank() -> None:
    shoe = Shoe.shuffled(8, rng=seeded())
    assert shoe.size == 416
    order = cards_from_codes(shoe.reveal()["order"])
    ranks = Counter(c.rank for c in order)
    assert set(ranks.values()) == {32}
    assert len(ranks) == 13


def test_same_seed_same_order_and_different_seed_different_order() -> None:
    a = Shoe.shuffled(8, rng=seeded(1)).to_state()
    assert a == Shoe.shuffled(8, rng=seeded(1)).to_state()
    assert a["order"] != Shoe.shuffled(8, rng=seeded(2)).to_state()["order"]


def test_cut_rotates_the_shuffled_order() -> None:
    uncut = Shoe.shuffled(1, rng=seeded(), cut_position=0, burn=BurnMode.NONE)
    cut = Shoe.shuffled(1, rng=seeded(), cut_position=10, burn=BurnMode.NONE)
    order = codes_of(uncut.dealing_order)
    assert codes_of(cut.dealing_order) == order[20:] + order[:20]
    # Both commit to the same shuffled order: the cut comes after the commitment.
    assert cut.reveal()["order"] == uncut.reveal()["order"] == order
    assert cut.commitment() == uncut.commitment()
    assert cut.reveal()["cut"] == 10


def test_a_prepared_shoe_deals_nothing_until_it_is_cut() -> None:
    shoe = Shoe.prepared(8, rng=seeded(), burn=BurnMode.FIRST_CARD)
    commitment = shoe.commitment()
    assert not shoe.is_cut
    with pytest.raises(ShoeError) as exc:
        shoe.draw()
    assert exc.value.code == "not_cut"
    state = Shoe.from_state(json.loads(json.dumps(shoe.to_state())))
    assert state.cut_position is None
    shoe.cut(100)
    assert shoe.is_cut and shoe.commitment() == commitment
    assert shoe.dealing_order[0] == cards_from_codes(shoe.reveal()["order"])[100]
    assert shoe.position == shoe.burned_count == 1 + (shoe.dealing_order[0].point or 10)
    assert shoe.cut_card_index == 416 * 89 // 100
    with pytest.raises(ShoeError) as again:
        shoe.cut(5)
    assert again.value.code == "already_cut"


def test_croupier_cuts_inside_the_cut_range() -> None:
    low, high = cut_range(416)
    assert (low, high) == (41, 375)
    cuts = {Shoe.shuffled(8, rng=seeded(seed)).cut_position for seed in range(200)}
    assert all(c is not None and low <= c <= high for c in cuts)
    assert len(cuts) > 150


def test_version_one_state_reads_as_cut_at_zero() -> None:
    shoe = Shoe.from_cards(fresh_cards(1), burn=BurnMode.FIRST_CARD, salt="abc")
    state = shoe.to_state()
    old = {k: v for k, v in state.items() if k not in ("cut", "penetration")}
    old["version"] = 1
    copy = Shoe.from_state(old)
    assert copy.cut_position == 0
    assert copy.dealing_order == shoe.dealing_order
    assert copy.commitment() == shoe.commitment()


@pytest.mark.parametrize("position", [-1, 52])
def test_cut_position_must_be_inside_the_pack(position: int) -> None:
    with pytest.raises(ShoeError) as exc:
        Shoe.shuffled(1, rng=seeded(), cut_position=position)
    assert exc.value.code == "invalid_cut_position"


@pytest.mark.parametrize(("first", "face_down"), [("AS", 1), ("KH", 10), ("TD", 10), ("7C", 7)])
def test_burn_by_first_card(first: str, face_down: int) -> None:
    rest = fresh_cards(1)
    shoe = Shoe.from_cards([first, *rest], burn=BurnMode.FIRST_CARD)
    assert shoe.burned[0].code == first
    assert len(shoe.burned) == 1 + face_down
    assert shoe.burned[1:] == tuple(rest[:face_down])
    assert shoe.draw() == rest[face_down]


def test_burn_none_deals_the_first_card() -> None:
    shoe = Shoe.from_cards(["AS", "KH"])
    assert shoe.burned == ()
    assert shoe.draw().code == "AS"


def test_shuffled_shoe_burns_by_its_first_card() -> None:
    shoe = Shoe.shuffled(8, rng=seeded())
    first = shoe.burned[0]
    assert len(shoe.burned) == 1 + (first.point or 10)
    assert shoe.position == len(shoe.burned)


def test_cut_card_at_eighty_nine_percent() -> None:
    assert Shoe.shuffled(8, rng=seeded()).cut_card_index == 416 * 89 // 100
    assert Shoe.shuffled(6, rng=seeded(), penetration_permille=750).cut_card_index == 234


def test_cut_card_ends_the_shoe_after_the_coup_in_progress() -> None:
    # The cut card lies in front of card 6: the second coup's third card brings it out.
    shoe = Shoe.from_cards(cards_from_codes(NATURAL * 4), cut_card_index=6)
    deal_coup(shoe.draw)
    assert not shoe.needs_reshuffle
    deal_coup(shoe.draw)
    assert shoe.cut_card_out
    assert shoe.needs_reshuffle
    assert shoe.finished
    assert shoe.remaining == 8


def test_coup_ending_right_before_the_cut_card_leaves_one_more_coup() -> None:
    shoe = Shoe.from_cards(cards_from_codes(NATURAL * 4), cut_card_index=4)
    deal_coup(shoe.draw)
    assert not shoe.needs_reshuffle
    deal_coup(shoe.draw)
    assert shoe.needs_reshuffle


def test_real_shoe_is_dealt_to_the_cut_card_and_never_runs_dry() -> None:
    for seed in range(20):
        shoe = Shoe.shuffled(8, rng=seeded(seed))
        coups = 0
        while not shoe.needs_reshuffle:
            start = shoe.position
            deal_coup(shoe.draw)
            coups += 1
        assert start <= shoe.cut_card_index < shoe.position
        assert shoe.remaining >= 416 - 371 - 5
        assert 60 < coups < 80


def test_draw_from_an_empty_shoe_raises() -> None:
    shoe = Shoe.from_cards(["AS"])
    shoe.draw()
    with pytest.raises(ShoeExhausted) as exc:
        shoe.draw()
    assert exc.value.code == "shoe_exhausted"


def test_state_round_trip_is_json_and_deals_the_same_cards() -> None:
    shoe = Shoe.shuffled(8, rng=seeded())
    deal_coup(shoe.draw)
    state = json.loads(json.dumps(shoe.to_state()))
    assert len(state["order"]) == 2 * 416
    copy = Shoe.from_state(state)
    assert copy.to_state() == shoe.to_state()
    assert copy.burned == shoe.burned
    assert [deal_coup(copy.draw) for _ in range(5)] == [deal_coup(shoe.draw) for _ in range(5)]


@pytest.mark.parametrize(
    "change",
    [
        {"version": 3},
        {"cut": "4"},
        {"penetration": None},
        {"order": "AS9"},
        {"order": "ZZ"},
        {"position": 10_000},
        {"position": "3"},
        {"burned": 0},
        {"burn": "half"},
        {"salt": None},
    ],
)
def test_bad_state_is_refused(change: dict[str, object]) -> None:
    state = {**Shoe.shuffled(1, rng=seeded()).to_state(), **change}
    with pytest.raises(InvalidShoeState):
        Shoe.from_state(state)


def test_missing_state_key_is_refused() -> None:
    state = Shoe.shuffled(1, rng=seeded()).to_state()
    del state["salt"]
    with pytest.raises(InvalidShoeState):
        Shoe.from_state(state)


def test_commitment_is_sha256_of_salt_and_order_and_stable() -> None:
    shoe = Shoe.shuffled(1, rng=seeded())
    revealed = shoe.reveal()
    expected = hashlib.sha256(f"{revealed['salt']}:{revealed['order']}".encode()).hexdigest()
    assert shoe.commitment() == expected
    deal_coup(shoe.draw)
    assert shoe.commitment() == expected
    assert Shoe.from_state(shoe.to_state()).commitment() == expected
    assert verify_commitment(expected, revealed["order"], revealed["salt"])
    assert not verify_commitment(expected, revealed["order"], "other salt")


def test_commitment_salt_comes_from_the_rng_and_is_long() -> None:
    a = Shoe.shuffled(1, rng=seeded(1), cut_position=0)
    b = Shoe.shuffled(1, rng=seeded(1), cut_position=0)
    assert len(a.salt) == 32
    assert a.commitment() == b.commitment()
    assert a.salt != Shoe.shuffled(1, rng=seeded(2)).salt


def _chi_square_99_critical(df: int) -> float:
    # Wilson-Hilferty approximation; z(0.99) = 2.3263.
    return df * (1 - 2 / (9 * df) + 2.3263 * math.sqrt(2 / (9 * df))) ** 3


def test_shuffle_puts_every_card_in_every_position_uniformly() -> None:
    rng = seeded(2024)
    deck = fresh_cards(1)
    index = {c: i for i, c in enumerate(deck)}
    shuffles = 6000
    counts = [[0] * 52 for _ in range(52)]
    for _ in range(shuffles):
        for position, c in enumerate(shuffle_cards(deck, rng)):
            counts[index[c]][position] += 1
    expected = shuffles / 52
    chi2 = sum((n - expected) ** 2 / expected for row in counts for n in row)
    assert chi2 < _chi_square_99_critical(51 * 51)


def test_chi_square_check_catches_a_biased_shuffle() -> None:
    rng = seeded(2024)
    deck = list(range(52))
    shuffles = 6000
    counts = [[0] * 52 for _ in range(52)]
    for _ in range(shuffles):
        order = list(deck)
        for i in range(len(order)):  # the classic mistake: j ranges over the whole pack
            j = rng.randrange(len(order))
            order[i], order[j] = order[j], order[i]
        for position, c in enumerate(order):
            counts[c][position] += 1
    expected = shuffles / 52
    chi2 = sum((n - expected) ** 2 / expected for row in counts for n in row)
    assert chi2 > _chi_square_99_critical(51 * 51)


def test_from_cards_accepts_codes_and_keeps_them_in_order() -> None:
    shoe = Shoe.from_cards(["9S", Card(8, "H"), "KD", "QC"])
    assert codes_of(shoe.draw() for _ in range(4)) == NATURAL
