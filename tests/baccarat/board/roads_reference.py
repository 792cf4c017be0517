"""The roads of a sequence of outcomes, written from the rules again, for the tests to
compare the product's roads with (issue 39): nothing here is imported from the product.

A road is a grid six rows high. The big road writes each Player or Banker win under the
last one while the side repeats, and starts a new column when it changes; a tie is marked
on the entry before it (or, before any entry, on the first one). A streak that meets the
bottom or an occupied cell runs to the right along its row (the dragon tail). The derived
roads (big eye boy 1, small road 2, cockroach pig 3) read the big road's streaks: an entry
that starts a streak compares the lengths of the two streaks before it, k apart (equal:
red); any other entry looks at the streak k before its own: red where that streak has an
entry in the same row or is two or more shorter, blue where it ends exactly one row above.
"""

from __future__ import annotations

ROWS = 6


def streaks(outcomes: list[str]) -> tuple[list[list[str]], list[int], int]:
    """The big road's streaks (sides), the ties on each entry in order, and the ties before
    the first entry."""
    columns: list[list[str]] = []
    ties: list[int] = []
    leading = 0
    for outcome in outcomes:
        if outcome == "T":
            if ties:
                ties[-1] += 1
            else:
                leading += 1
        elif columns and columns[-1][-1] == outcome:
            columns[-1].append(outcome)
            ties.append(0)
        else:
            columns.append([outcome])
            ties.append(0)
    if ties:
        ties[0] += leading
    return columns, ties, leading


def grid(columns: list[list[str]]) -> list[tuple[int, int, str]]:
    """Streaks laid on the grid: (column, row, value) per entry, in order."""
    occupied: dict[tuple[int, int], str] = {}
    placed = []
    first_free = 0
    for streak in columns:
        while (first_free, 0) in occupied:
            first_free += 1
        column, row, sideways = first_free, 0, False
        for index, value in enumerate(streak):
            if index > 0:
                below = (column, row + 1)
                if sideways or row + 1 >= ROWS or below in occupied:
                    sideways = True
                    column += 1
                else:
                    row += 1
            occupied[(column, row)] = value
            placed.append((column, row, value))
        first_free += 1
    return placed


def big_road(outcomes: list[str]) -> list[tuple[int, int, str, int]]:
    columns, ties, _leading = streaks(outcomes)
    return [(c, r, v, t) for (c, r, v), t in zip(grid(columns), ties, strict=True)]


def derived(outcomes: list[str], k: int) -> list[tuple[int, int, str]]:
    columns, _ties, _leading = streaks(outcomes)
    lengths = [len(column) for column in columns]
    marks: list[str] = []
    for c, length in enumerate(lengths):
        for r in range(length):
            if c < k or (c == k and r == 0):
                continue  # the road has not started
            if r == 0:
                marks.append("red" if lengths[c - 1] == lengths[c - 1 - k] else "blue")
            else:
                marks.append("blue" if lengths[c - k] == r else "red")
    runs: list[list[str]] = []
    for mark in marks:
        if runs and runs[-1][-1] == mark:
            runs[-1].append(mark)
        else:
            runs.append([mark])
    return grid(runs)


def bead_plate(outcomes: list[str]) -> list[tuple[int, int, str]]:
    return [(i // ROWS, i % ROWS, outcome) for i, outcome in enumerate(outcomes)]
