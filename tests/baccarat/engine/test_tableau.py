from __future__ import annotations

import pytest

from baccarat.engine import banker_draws, player_draws

# Rows: banker total 0-9. Columns: player's third card point 0-9. D = banker draws.
BANKER_TABLE = """
0 DDDDDDDDDD
1 DDDDDDDDDD
2 DDDDDDDDDD
3 DDDDDDDDSD
4 SSDDDDDDSS
5 SSSSDDDDSS
6 SSSSSSDDSS
7 SSSSSSSSSS
8 SSSSSSSSSS
9 SSSSSSSSSS
"""
# Banker total 0-9 when the player stood.
BANKER_WHEN_PLAYER_STOOD = "DDDDDDSSSS"


def _cells() -> list[tuple[int, int, bool]]:
    cells = []
    for line in BANKER_TABLE.split("\n"):
        if not line.strip():
            continue
        total, row = line.split()
        cells += [(int(total), third, mark == "D") for third, mark in enumerate(row)]
    return cells


def test_table_has_one_hundred_cells() -> None:
    assert len(_cells()) == 100


@pytest.mark.parametrize(("banker_total", "player_third", "draws"), _cells())
def test_banker_draws_after_player_third_card(
    banker_total: int, player_third: int, draws: bool
) -> None:
    assert banker_draws(banker_total, player_third) is draws


@pytest.mark.parametrize(
    ("banker_total", "draws"), [(t, mark == "D") for t, mark in enumerate(BANKER_WHEN_PLAYER_STOOD)]
)
def test_banker_draws_when_player_stood(banker_total: int, draws: bool) -> None:
    assert banker_draws(banker_total, None) is draws


@pytest.mark.parametrize(("total", "draws"), [(t, t <= 5) for t in range(10)])
def test_player_draws_on_zero_to_five(total: int, draws: bool) -> None:
    assert player_draws(total) is draws


@pytest.mark.parametrize(("banker_total", "third"), [(-1, 0), (10, 0), (0, 10), (0, -1)])
def test_out_of_range_totals_are_refused(banker_total: int, third: int) -> None:
    with pytest.raises(ValueError):
        banker_draws(banker_total, third)
