"""The roads: golden fixtures worked out by hand, and properties every shoe must have."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from baccarat.engine.roads import (
    DERIVED,
    Cell,
    bead_plate,
    big_road,
    derived_marks,
    derived_road,
    predictions,
    shoe_statistics,
)

# B B P P P B T P, then seven Banker wins (a dragon tail), then P.
SHOE = list("BBPPPBTP") + ["B"] * 7 + ["P"]


def cells(road: list[Cell]) -> list[tuple[int, int, str]]:
    return [(cell.column, cell.row, cell.value) for cell in road]


def test_bead_plate_fills_six_to_a_column_ties_included() -> None:
    plate = bead_plate(SHOE)
    assert [(c.column, c.row) for c in plate[:8]] == [
        (0, 0),
        (0, 1),
        (0, 2),
        (0, 3),
        (0, 4),
        (0, 5),
        (1, 0),
        (1, 1),
    ]
    assert [c.value for c in plate] == SHOE
    assert plate[6].value == "T"


def test_big_road_streaks_ties_and_the_dragon_tail() -> None:
    road = big_road(SHOE)
    assert [[side for side, _ in column] for column in road.columns] == [
        ["B", "B"],
        ["P", "P", "P"],
        ["B"],
        ["P"],
        ["B"] * 7,
        ["P"],
    ]
    assert road.columns[2] == [("B", 1)]  # the tie is marked on the Banker before it
    assert cells(road.cells) == [
        (0, 0, "B"),
        (0, 1, "B"),
        (1, 0, "P"),
        (1, 1, "P"),
        (1, 2, "P"),
        (2, 0, "B"),
        (3, 0, "P"),
        (4, 0, "B"),
        (4, 1, "B"),
        (4, 2, "B"),
        (4, 3, "B"),
        (4, 4, "B"),
        (4, 5, "B"),
        (5, 5, "B"),  # the seventh turns right along the bottom row
        (5, 0, "P"),
    ]
    assert [cell.ties for cell in road.cells][5] == 1


def test_ties_before_the_first_entry_are_marked_on_it() -> None:
    road = big_road("TTBP")
    assert road.leading_ties == 2
    assert road.columns == [[("B", 2)], [("P", 0)]]
    assert big_road("TTT").columns == [] and big_road("TTT").leading_ties == 3


def test_a_streak_turns_right_above_an_older_tail() -> None:
    road = big_road(["B"] * 8 + ["P"] + ["B"] * 6)
    assert cells(road.cells) == [
        (0, 0, "B"),
        (0, 1, "B"),
        (0, 2, "B"),
        (0, 3, "B"),
        (0, 4, "B"),
        (0, 5, "B"),
        (1, 5, "B"),
        (2, 5, "B"),
        (1, 0, "P"),
        (2, 0, "B"),
        (2, 1, "B"),
        (2, 2, "B"),
        (2, 3, "B"),
        (2, 4, "B"),
        (3, 4, "B"),  # the cell below holds the old tail: the new streak turns early
    ]


def test_big_eye_boy() -> None:
    road = big_road(SHOE)
    assert derived_marks(road, 1) == [
        "red",
        "blue",
        "blue",
        "blue",
        "red",
        "blue",
        "red",
        "red",
        "red",
        "red",
        "red",
        "blue",
    ]
    assert cells(derived_road(road, 1)) == [
        (0, 0, "red"),
        (1, 0, "blue"),
        (1, 1, "blue"),
        (1, 2, "blue"),
        (2, 0, "red"),
        (3, 0, "blue"),
        (4, 0, "red"),
        (4, 1, "red"),
        (4, 2, "red"),
        (4, 3, "red"),
        (4, 4, "red"),
        (5, 0, "blue"),
    ]


def test_small_road() -> None:
    assert derived_marks(big_road(SHOE), 2) == [
        "blue",
        "blue",
        "blue",
        "red",
        "red",
        "red",
        "red",
        "red",
        "blue",
    ]


def test_cockroach_pig() -> None:
    assert derived_marks(big_road(SHOE), 3) == [
        "blue",
        "red",
        "red",
        "blue",
        "red",
        "red",
        "red",
        "blue",
    ]


def test_ask_player_ask_banker() -> None:
    # After the last P (column 5), a Player continues column 5, a Banker starts column 6.
    asked = predictions(SHOE)
    # Player: column 5 row 1; column 4 (k=1) has 7 entries > 1: red; small road looks at
    # column 3 (1 entry == row 1): blue; cockroach pig at column 2 (1 entry == 1): blue.
    assert asked["P"] == {"big_eye_boy": "red", "small_road": "blue", "cockroach_pig": "blue"}
    # Banker: a new column 6; lengths of columns 5 and 4 (1, 7) differ: blue; 5 and 3
    # (1, 1): red; 5 and 2 (1, 1): red.
    assert asked["B"] == {"big_eye_boy": "blue", "small_road": "red", "cockroach_pig": "red"}
    assert predictions("B") == {
        "P": dict.fromkeys(DERIVED, None),
        "B": dict.fromkeys(DERIVED, None),
    }


@given(st.lists(st.sampled_from("PBT"), max_size=90))
def test_the_asks_are_the_next_coup_s_marks(outcomes: list[str]) -> None:
    """Each ask is what the derived roads show after the coup is added: the last mark of
    the road built with it, or none where that mark was not added."""
    asked = predictions(outcomes)
    for side in ("P", "B"):
        before, after = big_road(outcomes), big_road([*outcomes, side])
        for name, k in DERIVED.items():
            old, new = derived_marks(before, k), derived_marks(after, k)
            assert asked[side][name] == (new[-1] if len(new) > len(old) else None)


def test_statistics() -> None:
    stats = shoe_statistics(
        "BBPT", naturals=[True, False, True, False], pairs=[(True, False)] * 3 + [(True, True)]
    )
    assert (stats.coups, stats.player, stats.banker, stats.tie) == (4, 1, 2, 1)
    assert (stats.naturals, stats.player_pairs, stats.banker_pairs) == (2, 4, 1)
    assert (stats.percent(stats.banker), stats.percent(stats.player)) == (50, 25)
    assert shoe_statistics("").percent(0) == 0


OUTCOMES = st.lists(st.sampled_from("PBT"), max_size=90)


@given(OUTCOMES)
def test_derived_roads_have_as_many_marks_as_the_big_roads_shape_says(outcomes) -> None:
    road = big_road(outcomes)
    lengths = [len(column) for column in road.columns]
    for k in DERIVED.values():
        expected = sum(lengths[k:]) - (1 if len(lengths) > k else 0)
        assert len(derived_marks(road, k)) == expected


@given(OUTCOMES)
def test_a_mirrored_shoe_has_mirrored_roads(outcomes) -> None:
    swap = {"P": "B", "B": "P", "T": "T"}
    road, mirror = big_road(outcomes), big_road([swap[o] for o in outcomes])
    assert [(c.column, c.row, swap[c.value], c.ties) for c in road.cells] == [
        (c.column, c.row, c.value, c.ties) for c in mirror.cells
    ]
    for k in DERIVED.values():  # the derived roads read the shape only
        assert derived_road(road, k) == derived_road(mirror, k)


@given(OUTCOMES)
def test_no_two_marks_share_a_cell_and_rows_stay_on_the_grid(outcomes) -> None:
    road = big_road(outcomes)
    for layout in (road.cells, *(derived_road(road, k) for k in DERIVED.values())):
        places = [(cell.column, cell.row) for cell in layout]
        assert len(places) == len(set(places))
        assert all(0 <= row < 6 for _column, row in places)
    assert len(road.cells) == len([o for o in outcomes if o != "T"])


@given(OUTCOMES, st.sampled_from("PB"))
def test_a_prediction_is_the_next_mark(outcomes, side) -> None:
    asked = predictions(outcomes)[side]
    after = big_road([*outcomes, side])
    for name, k in DERIVED.items():
        before = derived_marks(big_road(outcomes), k)
        now = derived_marks(after, k)
        if asked[name] is None:
            assert now == before
        else:
            assert now == [*before, asked[name]]
