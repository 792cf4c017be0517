from __future__ import annotations

from baccarat.board.chips import chip_stack

RACK = [100, 500, 2500, 10000, 50000]


def test_a_stake_is_made_of_the_largest_chips_first():
    assert chip_stack(3700, RACK) == [3, 2, 2, 1, 1]


def test_a_single_chip():
    assert chip_stack(50000, RACK) == [5]


def test_a_tall_stack_stops_at_six_chips_from_the_bottom():
    assert chip_stack(9900, RACK) == [3, 3, 3, 2, 2, 2]


def test_nothing_for_no_stake():
    assert chip_stack(0, RACK) == []


def test_the_places_follow_the_rack_whatever_its_order():
    assert chip_stack(600, [500, 100]) == [1, 2]
