"""The roads of a shoe: bead plate, big road and the three derived roads.

Pure functions of the sequence of outcomes (``"P"``, ``"B"``, ``"T"``), as the big live
tables draw them:

* **Bead plate:** every coup in order, six to a column, ties included.
* **Big road:** Player and Banker only. A coup like the last one goes below it, another
  one starts a new column; a tie is marked on the entry before it (ties before the first
  entry are marked on the first). When a column reaches the sixth row, or the cell below
  is taken, it turns right: the dragon tail.
* **Derived roads** (big eye boy, small road, cockroach pig: ``k`` = 1, 2, 3) read the big
  road's shape, never its colours. For an entry in column ``c`` (counted from 0) at row
  ``r``: the first entry of a column compares the lengths of columns ``c - 1`` and
  ``c - 1 - k`` (equal: red, else blue); any other entry looks at column ``c - k``: an entry
  in the same row, or none in the row above either, is red; none in the same row but one
  in the row above is blue. A road starts at column ``k`` row 1, or column ``k + 1`` row 0.
  Red marks follow red marks down a column, a change of colour starts a new one, laid out
  like the big road.
* **Ask Player / Ask Banker:** what each derived road would show next if the next coup were
  a Player or a Banker win.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Final, Literal, NamedTuple

ROWS: Final = 6

Outcome = Literal["P", "B", "T"]
Mark = Literal["red", "blue"]
DERIVED: Final = {"big_eye_boy": 1, "small_road": 2, "cockroach_pig": 3}


class Cell(NamedTuple):
    """A mark's place in a road's grid (column, row, both from 0) and what it shows. A
    named tuple rather than a frozen dataclass: a DEAL's panel makes some two hundred of
    them, and a tuple is made in a third of the time."""

    column: int
    row: int
    value: str  # "P", "B" (big road, bead plate), "T" (bead plate), "red", "blue"
    ties: int = 0  # big road: ties marked on this entry


@dataclass
class BigRoad:
    """Logical columns (each a streak of one side, with ties per entry) and the cells."""

    columns: list[list[tuple[str, int]]] = field(default_factory=list)  # (side, ties)
    cells: list[Cell] = field(default_factory=list)
    leading_ties: int = 0  # ties before the first Player or Banker coup

    @property
    def entries(self) -> int:
        return sum(len(column) for column in self.columns)


def _clean(outcomes: Iterable[str]) -> list[str]:
    result = []
    for outcome in outcomes:
        if outcome not in ("P", "B", "T"):
            raise ValueError(f"outcome {outcome!r}")
        result.append(outcome)
    return result


def bead_plate(outcomes: Iterable[str]) -> list[Cell]:
    """Every coup in order, top to bottom, six to a column."""
    return [
        Cell(column=i // ROWS, row=i % ROWS, value=outcome)
        for i, outcome in enumerate(_clean(outcomes))
    ]


def _lay_out(columns: Sequence[Sequence[str]]) -> list[tuple[int, int]]:
    """Grid positions for streaks laid out as a road: down, then right at the sixth row
    or above a taken cell (the dragon tail). One position per mark, in order."""
    taken: set[tuple[int, int]] = set()
    positions: list[tuple[int, int]] = []
    start = -1
    for streak in columns:
        start += 1
        while (start, 0) in taken:
            start += 1
        column, row = start, 0
        turned = False  # once a streak turns right it runs along that row
        for i in range(len(streak)):
            if i:
                if not turned and row + 1 < ROWS and (column, row + 1) not in taken:
                    row += 1
                else:
                    turned = True
                    column += 1
            taken.add((column, row))
            positions.append((column, row))
    return positions


def big_road(outcomes: Iterable[str]) -> BigRoad:
    """The big road of a shoe's outcomes."""
    road = BigRoad()
    for outcome in _clean(outcomes):
        if outcome == "T":
            if not road.columns:
                road.leading_ties += 1
            else:
                side, ties = road.columns[-1][-1]
                road.columns[-1][-1] = (side, ties + 1)
            continue
        if road.columns and road.columns[-1][0][0] == outcome:
            road.columns[-1].append((outcome, 0))
        else:
            road.columns.append([(outcome, 0)])
    if road.columns and road.leading_ties:
        side, ties = road.columns[0][0]
        road.columns[0][0] = (side, ties + road.leading_ties)
    positions = _lay_out([[side for side, _ in column] for column in road.columns])
    entries = [entry for column in road.columns for entry in column]
    road.cells = [
        Cell(column=c, row=r, value=side, ties=ties)
        for (c, r), (side, ties) in zip(positions, entries, strict=True)
    ]
    return road


def _mark(lengths: Sequence[int], column: int, row: int, k: int) -> Mark | None:
    """The derived road ``k``'s mark for the big road entry at (column, row), or None
    before the road starts."""
    if column < k or (column == k and row == 0):
        return None
    if row == 0:
        return "red" if lengths[column - 1] == lengths[column - 1 - k] else "blue"
    other = lengths[column - k]
    if other > row:  # an entry in the same row
        return "red"
    if other == row:  # none there, one in the row above
        return "blue"
    return "red"  # shorter by two or more


def derived_marks(road: BigRoad, k: int) -> list[Mark]:
    """The marks of derived road ``k`` (1 big eye boy, 2 small road, 3 cockroach pig)."""
    marks: list[Mark] = []
    lengths: list[int] = []
    for c, column in enumerate(road.columns):
        lengths.append(0)
        for r in range(len(column)):
            lengths[c] = r + 1
            mark = _mark(lengths, c, r, k)
            if mark is not None:
                marks.append(mark)
    return marks


def derived_road(road: BigRoad, k: int) -> list[Cell]:
    """Derived road ``k`` laid out: red follows red down a column, blue follows blue."""
    marks = derived_marks(road, k)
    streaks: list[list[str]] = []
    for mark in marks:
        if streaks and streaks[-1][0] == mark:
            streaks[-1].append(mark)
        else:
            streaks.append([mark])
    positions = _lay_out(streaks)
    return [Cell(column=c, row=r, value=m) for (c, r), m in zip(positions, marks, strict=True)]


def predictions(outcomes: Sequence[str]) -> dict[str, dict[str, Mark | None]]:
    """Ask Player / Ask Banker: each derived road's next mark if the next coup were a
    Player (``"P"``) or a Banker (``"B"``) win; None where the road would show nothing."""
    return road_predictions(big_road(outcomes))


def road_predictions(road: BigRoad) -> dict[str, dict[str, Mark | None]]:
    """:func:`predictions` from the big road as it stands. The derived roads read only the
    columns' lengths, and the next win either lengthens the last column (the same side)
    or starts a new one: no road is built again."""
    lengths = [len(column) for column in road.columns]
    result: dict[str, dict[str, Mark | None]] = {}
    for side in ("P", "B"):
        if road.columns and road.columns[-1][0][0] == side:
            grown = [*lengths[:-1], lengths[-1] + 1]
        else:
            grown = [*lengths, 1]
        column, row = len(grown) - 1, grown[-1] - 1
        result[side] = {name: _mark(grown, column, row, k) for name, k in DERIVED.items()}
    return result


@dataclass(frozen=True)
class ShoeStatistics:
    coups: int
    player: int
    banker: int
    tie: int
    naturals: int
    player_pairs: int
    banker_pairs: int

    def percent(self, count: int) -> int:
        """A share of the coups in whole percent, rounded half up."""
        return (count * 200 + self.coups) // (2 * self.coups) if self.coups else 0


def shoe_statistics(
    outcomes: Sequence[str],
    naturals: Sequence[bool] = (),
    pairs: Sequence[tuple[bool, bool]] = (),
) -> ShoeStatistics:
    """Counts of a shoe's results: wins per side, ties, naturals, player and banker pairs."""
    clean = _clean(outcomes)
    return ShoeStatistics(
        coups=len(clean),
        player=clean.count("P"),
        banker=clean.count("B"),
        tie=clean.count("T"),
        naturals=sum(1 for natural in naturals if natural),
        player_pairs=sum(1 for player, _banker in pairs if player),
        banker_pairs=sum(1 for _player, banker in pairs if banker),
    )
