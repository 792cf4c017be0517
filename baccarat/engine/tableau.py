"""The fixed Punto Banco drawing rules (the tableau)."""

from __future__ import annotations

from typing import Final

# _BANKER_DRAWS[banker_total][player_third]; column 10 is "player stood".
_BANKER_DRAWS: Final[tuple[tuple[bool, ...], ...]] = tuple(
    tuple(
        banker_total <= 2
        or (banker_total == 3 and third != 8)
        or (banker_total == 4 and 2 <= third <= 7)
        or (banker_total == 5 and 4 <= third <= 7)
        or (banker_total == 6 and 6 <= third <= 7)
        if third < 10
        else banker_total <= 5
        for third in range(11)
    )
    for banker_total in range(10)
)
STOOD: Final = 10


def _check(name: str, value: int) -> None:
    if type(value) is not int or not 0 <= value <= 9:
        raise ValueError(f"{name} must be an int from 0 to 9, got {value!r}")


def player_draws(player_total: int) -> bool:
    """Whether the player hand (no natural on either side) draws a third card: on 0-5."""
    _check("player_total", player_total)
    return player_total <= 5


def banker_draws(banker_total: int, player_third: int | None) -> bool:
    """Whether the banker draws a third card.

    ``player_third`` is the point value (0-9) of the player's third card, or ``None`` if the
    player stood. Naturals are decided before this is asked.
    """
    _check("banker_total", banker_total)
    if player_third is None:
        return _BANKER_DRAWS[banker_total][STOOD]
    _check("player_third", player_third)
    return _BANKER_DRAWS[banker_total][player_third]
