"""A stake drawn as a stack of the table's chips: which chips, largest first."""

from __future__ import annotations

from collections.abc import Sequence

# A stack taller than this says no more: the amount is written beside it.
STACK_HEIGHT = 6


def chip_stack(cents: int, values: Sequence[int], *, height: int = STACK_HEIGHT) -> list[int]:
    """The chips that make ``cents``, taken greedily from the largest value down, as their
    places in ``values`` (1 for the first chip of the table's rack, as its ``chip-1`` class):
    bottom of the stack first, at most ``height`` of them. What no chip makes (a stake is
    a whole number of the smallest chip, so nothing) is left out.

    static/js/table.js (``casinoChipStack``) draws the same stack in the browser.
    """
    left = max(0, int(cents))
    stack: list[int] = []
    for place, value in sorted(enumerate(values, start=1), key=lambda pair: -pair[1]):
        if value <= 0:
            continue
        count, left = divmod(left, value)
        stack.extend([place] * count)
        if len(stack) >= height:
            return stack[:height]
    return stack
