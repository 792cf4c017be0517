"""A shoe's statistics and roads for the pages, from the engine's pure roads.

:func:`shoe_board` turns the settled rounds of a shoe into what the statistics panel
shows: counts and shares, each coup with its cards, the five roads laid out for SVG, and
what each derived road would show next (Ask Player / Ask Banker). The panel is rendered
only with a page or when a coup ends, and cached per last settled round and language.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from baccarat.engine.roads import (
    DERIVED,
    ROWS,
    Cell,
    ShoeStatistics,
    bead_plate,
    big_road,
    derived_road,
    predictions,
    shoe_statistics,
)
from baccarat.full_state import shared_shoe_results
from baccarat.models import Round
from baccarat.selectors import shoe_results

LETTER = {"player": "P", "banker": "B", "tie": "T"}
CELL = 20  # SVG units per grid cell
MIN_COLUMNS = 12


@dataclass
class RoadView:
    name: str  # "bead", "big", "big_eye_boy", "small_road", "cockroach_pig"
    cells: list[Cell]
    description: str  # the text alternative
    # Big road: ties before the first Player or Banker coup, drawn in the first cell
    # until that coup comes (then they are marked on its entry).
    pending_ties: int = 0

    @property
    def columns(self) -> int:
        return max([MIN_COLUMNS, *(cell.column + 1 for cell in self.cells)])

    @property
    def width(self) -> int:
        return self.columns * CELL

    @property
    def height(self) -> int:
        return ROWS * CELL

    @property
    def grid_x(self) -> list[int]:
        return [i * CELL for i in range(self.columns + 1)]

    @property
    def grid_y(self) -> list[int]:
        return [i * CELL for i in range(ROWS + 1)]

    @property
    def marks(self) -> list[dict[str, Any]]:
        """Each cell with its SVG centre, for the template."""
        half = CELL // 2
        return [
            {
                "x": cell.column * CELL + half,
                "y": cell.row * CELL + half,
                "value": cell.value,
                "ties": cell.ties,
            }
            for cell in self.cells
        ]


@dataclass
class ShoeBoard:
    rounds: list[Round]
    stats: ShoeStatistics
    roads: list[RoadView] = field(default_factory=list)
    asks: dict[str, dict[str, str | None]] = field(default_factory=dict)

    @property
    def last_round_id(self) -> int:
        return self.rounds[-1].pk if self.rounds else 0

    def road(self, name: str) -> RoadView:
        return next(road for road in self.roads if road.name == name)

    @property
    def big(self) -> RoadView:
        return self.road("big")


def _pair(cards: str) -> bool:
    codes = cards.split()
    return len(codes) >= 2 and codes[0][0] == codes[1][0]


def _side(value: str) -> str:
    return {"P": _("Player"), "B": _("Banker"), "T": _("Tie")}[value]


def _describe_big(columns: list[list[tuple[str, int]]], pending_ties: int = 0) -> str:
    if pending_ties:
        return ngettext("%(count)d tie", "%(count)d ties", pending_ties) % {"count": pending_ties}
    if not columns:
        return _("No coups yet.")
    parts = []
    for column in columns:
        ties = sum(t for _side_, t in column)
        text = f"{_side(column[0][0])} {len(column)}"
        if ties:
            text += " (" + ngettext("%(count)d tie", "%(count)d ties", ties) % {"count": ties} + ")"
        parts.append(text)
    return ", ".join(parts)


def _describe_marks(cells: list[Cell]) -> str:
    if not cells:
        return _("No marks yet.")
    names = {"red": _("red"), "blue": _("blue")}
    return ", ".join(names[cell.value] for cell in cells)


def shoe_board(rounds: list[Round]) -> ShoeBoard:
    """The statistics panel of a shoe's settled rounds (oldest first)."""
    outcomes = [LETTER[r.outcome] for r in rounds if r.outcome in LETTER]
    stats = shoe_statistics(
        outcomes,
        naturals=[r.natural for r in rounds],
        pairs=[(_pair(r.player_cards), _pair(r.banker_cards)) for r in rounds],
    )
    road = big_road(outcomes)
    board = ShoeBoard(rounds=rounds, stats=stats)
    board.roads.append(
        RoadView(
            "bead",
            bead_plate(outcomes),
            ", ".join(_side(o) for o in outcomes) or _("No coups yet."),
        )
    )
    pending = 0 if road.columns else road.leading_ties
    board.roads.append(
        RoadView("big", road.cells, _describe_big(road.columns, pending), pending_ties=pending)
    )
    for name, k in DERIVED.items():
        cells = derived_road(road, k)
        board.roads.append(RoadView(name, cells, _describe_marks(cells)))
    board.asks = {side: dict(marks) for side, marks in predictions(outcomes).items()}
    return board


def results_context(rounds: list[Round] | None, *, key: str, just_dealt: bool) -> dict[str, Any]:
    """The statistics panel's context: the board of the shoe's rounds, and the board from
    before the coup just dealt (shown until its cards are turned)."""
    if rounds is None:
        return {"results": None}
    return {
        "results": rounds,
        "board": shoe_board(rounds),
        "board_before": shoe_board(rounds[:-1]) if just_dealt and rounds else None,
        "board_key": key,
    }


def lobby_roads(tables: list[Any], viewer: Any) -> dict[int, RoadView]:
    """Each table's big road for the lobby: a full table's shoe, or the viewer's own at a
    single-player table (nothing for a visitor who is not signed in)."""
    roads = {}
    for table in tables:
        if table.kind == "full":
            rounds = shared_shoe_results(table)
        elif viewer.is_authenticated:
            rounds = shoe_results(table=table, player=viewer)
        else:
            continue
        if rounds:
            roads[table.pk] = shoe_board(rounds).big
    return roads
