"""A shoe's statistics and roads for the pages, from the engine's pure roads.

:func:`shoe_board` turns the settled rounds of a shoe into what the statistics panel
shows: counts and shares, each coup with its cards, the five roads laid out for SVG, and
what each derived road would show next (Ask Player / Ask Banker). The panel is rendered
only with a page or when a coup ends; at a full table, whose browsers all draw the same
board, its fragments are cached per what they show (the coups, their cards) and language.
"""

from __future__ import annotations

import hashlib
import html
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from baccarat.board.card_names import card_names, cards_named
from baccarat.board.fragments import active_gettext
from baccarat.board.selectors import (
    RANK_LABELS,
    SUIT_SYMBOLS,
    shared_shoe_results,
    shoe_results,
    stats_window,
)
from baccarat.engine.roads import (
    DERIVED,
    ROWS,
    BigRoad,
    Cell,
    ShoeStatistics,
    bead_plate,
    big_road,
    derived_road,
    road_predictions,
    shoe_statistics,
)
from baccarat.models import Round

LETTER = {"player": "P", "banker": "B", "tie": "T"}
MARK_VALUES = frozenset({"P", "B", "T", "red", "blue"})  # what the roads write: no escaping
CELL = 20  # SVG units per grid cell
# A hand in the table of coups: its cards as cards (rank and suit), the same in words for
# a screen reader, the total.
HAND_CELL = (
    '<td><span aria-hidden="true">{}</span><span class="visually-hidden">{}</span> ({})</td>'
)
CARD_TEXT = '<span class="card-text{}">{}{}</span>'


def cards_shown(codes: str) -> str:
    """A hand's codes (``"TH 9S"``) as the cards read on the felt, ``10♥ 9♠``: HTML with
    the red suits marked; nothing of ``codes`` but known ranks and suits goes into it."""
    shown = []
    for code in codes.split():
        rank, suit = code[:-1].upper(), code[-1:].upper()
        red = " red" if suit in "HD" else ""
        label = html.escape(RANK_LABELS.get(rank, rank))
        shown.append(CARD_TEXT.format(red, label, SUIT_SYMBOLS.get(suit, "?")))
    return " ".join(shown)


COUP_ROW = '<tr><td class="num">{}</td>' + HAND_CELL * 2 + "<td>{}{}</td></tr>"
MIN_COLUMNS = 12
# One road: a grid drawn by a pattern, the marks over it; the text alternative is its desc.
# The picture scrolls sideways in its own box (.road-scroll) under a caption that stays.
FIGURE = (
    '<figure class="road road-{name}">\n'
    "  <figcaption>{caption}</figcaption>\n"
    '  <div class="road-scroll">'
    '<svg role="img" viewBox="0 0 {width} {height}" width="{width}" height="{height}"'
    ' aria-labelledby="{ref}-desc">\n'
    '    <desc id="{ref}-desc">{description}</desc>\n'
    '    <defs><pattern id="{ref}-cell" width="20" height="20" patternUnits="userSpaceOnUse">'
    '<path class="grid-line" d="M 20 0 L 0 0 0 20"></path></pattern></defs>\n'
    '    <rect class="grid" aria-hidden="true" width="{width}" height="{height}"'
    ' fill="url(#{ref}-cell)"></rect>\n'
    '    <g aria-hidden="true">{marks}</g>\n'
    "  </svg></div>\n"
    "</figure>\n"
)


@dataclass
class RoadView:
    name: str  # "bead", "big", "big_eye_boy", "small_road", "cockroach_pig"
    cells: list[Cell]
    description: str  # the text alternative
    # Big road: ties before the first Player or Banker coup, drawn in the first cell
    # until that coup comes (then they are marked on its entry).
    pending_ties: int = 0
    # Bead plate and big road: each cell's coup's (player pair, banker pair, natural).
    dots: list[tuple[bool, bool, bool]] | None = None
    # Where the next coup's mark would go and what it would be if it were a Player
    # ("P") or a Banker ("B") win: Ask Player / Ask Banker, drawn on the road.
    asks: dict[str, Cell] | None = None

    @cached_property
    def columns(self) -> int:
        asks = (self.asks or {}).values()
        return max([MIN_COLUMNS, *(cell.column + 1 for cell in (*self.cells, *asks))])

    @property
    def width(self) -> int:
        return self.columns * CELL

    @property
    def height(self) -> int:
        return ROWS * CELL

    def caption(self) -> str:
        """The road's name in the active language."""
        if self.name == "bead":
            return _("Bead plate")
        if self.name == "big":
            return _("Big road")
        if self.name == "big_eye_boy":
            return _("Big eye boy")
        if self.name == "small_road":
            return _("Small road")
        return _("Cockroach pig")

    def figure(self, key: str) -> SafeString:
        """The road as an SVG image with its caption and text alternative; ``key`` makes
        its ids unique on the page (a table, a board). Written out here rather than in a
        template: a DEAL draws five of them, and the template cost more than the marks."""
        name, width, height = self.name, self.width, self.height
        ref = f"road-{name}-{html.escape(key)}"
        return mark_safe(  # noqa: S308  (numbers, known names and escaped text only)
            FIGURE.format(
                name=name,
                caption=html.escape(self.caption()),
                width=width,
                height=height,
                ref=ref,
                description=html.escape(self.description),
                marks=self.svg_marks(),
            )
        )

    def svg_marks(self) -> SafeString:
        """The marks as SVG elements. Built here, not in a template loop: a shoe's five
        roads hold hundreds of marks, and each deal draws them anew. Marks carry letters
        or shapes besides colour: red solid, blue with a dot."""
        half = CELL // 2
        name = self.name
        marks = [
            (
                column * CELL + half,
                row * CELL + half,
                ties,
                value if value in MARK_VALUES else html.escape(value),
            )
            for column, row, value, ties in self.cells
        ]
        parts = []
        for x, y, ties, value in marks:
            parts.append(_shape(name, x, y, value))
            if ties and name == "big":
                parts.append(_tie_mark(x, y, ties))
        if self.pending_ties:
            parts.append(_tie_mark(half, half, self.pending_ties))
        # Pairs and naturals: a red dot at the top left for a banker pair, a blue one at
        # the bottom right for a player pair, a gold one at the top right for a natural.
        for (x, y, _ties, _value), (player_pair, banker_pair, natural) in zip(
            marks, self.dots or (), strict=False
        ):
            if banker_pair:
                parts.append(f'<circle class="pair-dot pair-B" cx="{x - 6}" cy="{y - 6}" r="3">')
                parts.append("</circle>")
            if player_pair:
                parts.append(f'<circle class="pair-dot pair-P" cx="{x + 6}" cy="{y + 6}" r="3">')
                parts.append("</circle>")
            if natural:
                parts.append(f'<circle class="natural-dot" cx="{x + 6}" cy="{y - 6}" r="3">')
                parts.append("</circle>")
        for side, cell in (self.asks or {}).items():
            x, y = cell.column * CELL + half, cell.row * CELL + half
            parts.append(f'<g class="ask-preview ask-{side}">{_shape(name, x, y, cell.value)}</g>')
        return mark_safe("".join(parts))  # noqa: S308  (numbers and escaped values only)


def _shape(name: str, x: int, y: int, value: str) -> str:
    """A road's mark at (x, y): letters or shapes besides colour (red solid, blue with a
    dot on the small road, a slash on the cockroach pig)."""
    if name == "bead":
        return (
            f'<circle class="bead bead-{value}" cx="{x}" cy="{y}" r="8.5"></circle>'
            f'<text class="bead-letter" x="{x}" y="{y + 4}" text-anchor="middle">{value}</text>'
        )
    if name == "big":
        return (
            f'<circle class="big big-{value}" cx="{x}" cy="{y}" r="7.5"></circle>'
            f'<text class="big-letter big-letter-{value}" x="{x}" y="{y + 3}" '
            f'text-anchor="middle">{value}</text>'
        )
    if name == "cockroach_pig":
        shape = (
            f'<line class="roach roach-{value}" x1="{x - 6}" y1="{y + 6}" '
            f'x2="{x + 6}" y2="{y - 6}"></line>'
        )
    else:
        kind = "eye" if name == "big_eye_boy" else "small"
        shape = f'<circle class="{kind} {kind}-{value}" cx="{x}" cy="{y}" r="6"></circle>'
    if value == "blue":
        light = " dot-light" if name == "small_road" else ""
        shape += f'<circle class="dot{light}" cx="{x}" cy="{y}" r="1.8"></circle>'
    return shape


def _tie_mark(x: int, y: int, ties: int) -> str:
    """A tie on a big road entry: a slash, and the count when more than one."""
    mark = f'<line class="tie-mark" x1="{x - 7}" y1="{y + 7}" x2="{x + 7}" y2="{y - 7}"></line>'
    if ties > 1:
        mark += f'<text class="tie-count" x="{x + 6}" y="{y - 3}">{ties}</text>'
    return mark


class ShoeBoard:
    """What the statistics panel shows of a shoe's settled rounds (oldest first), each
    with the fields of :data:`~baccarat.board.selectors.STATS_FIELDS` (named rows read by
    :func:`~baccarat.board.selectors.coups`).

    Computed when first read: where the panel's fragments are cached (a full table), a
    cached panel needs nothing but its keys (``digest``, ``signature``).
    """

    def __init__(self, rounds: list[Any], *, sequence: bool = False) -> None:
        self.rounds = rounds
        # The player's own coups at a table that reshuffles before every coup (each one
        # the first of its shoe): numbered in their order, not by their hand.
        self.sequence = sequence

    @cached_property
    def digest(self) -> str:
        """A short digest of every coup with its cards: the key of the cached table of coups.
        Ids alone are not enough: a database restored or recreated hands the same round ids
        out again while the cache (Redis) still holds what the old ones showed."""
        shown = f"{self.sequence}|" + "|".join(
            f"{r.pk}:{r.hand_number}:{r.player_cards}:{r.banker_cards}" for r in self.rounds
        )
        return hashlib.blake2b(shown.encode(), digest_size=12).hexdigest()

    @cached_property
    def signature(self) -> str:
        """All the counts and roads depend on: each coup's outcome, natural and pairs.
        Boards with the same signature show the same counts and roads (most of all at a
        table with a new shoe every coup: a handful of one-coup boards)."""
        return "".join(
            f"{LETTER.get(r.outcome, '-')}{int(bool(r.natural))}"
            f"{int(_pair(r.player_cards))}{int(_pair(r.banker_cards))}"
            for r in self.rounds
        )

    @cached_property
    def _outcomes(self) -> list[str]:
        return [LETTER[r.outcome] for r in self.rounds if r.outcome in LETTER]

    @cached_property
    def stats(self) -> ShoeStatistics:
        return shoe_statistics(
            self._outcomes,
            naturals=[r.natural for r in self.rounds],
            pairs=[(_pair(r.player_cards), _pair(r.banker_cards)) for r in self.rounds],
        )

    @cached_property
    def _big_road(self) -> BigRoad:
        return big_road(self._outcomes)

    @cached_property
    def roads(self) -> list[RoadView]:
        outcomes = self._outcomes
        road = self._big_road
        pending = 0 if road.columns else road.leading_ties
        # The active language's catalogue, looked up once for the words of five roads.
        gettext = active_gettext()
        sides = {"P": gettext("Player"), "B": gettext("Banker"), "T": gettext("Tie")}
        dotted = [
            (r.outcome, (_pair(r.player_cards), _pair(r.banker_cards), bool(r.natural)))
            for r in self.rounds
            if r.outcome in LETTER
        ]
        bead_dots = [dots for _outcome, dots in dotted]
        big_dots = [dots for outcome, dots in dotted if outcome != "tie"]
        # The roads as they would stand after one more Player or Banker win: the cell each
        # would add is its Ask Player / Ask Banker mark.
        grown = {side: big_road([*outcomes, side]) for side in ("P", "B")}
        beads = bead_plate([*outcomes, "P"])
        views = [
            RoadView(
                "bead",
                bead_plate(outcomes),
                _describe_bead(outcomes, bead_dots, sides, gettext),
                dots=bead_dots,
                asks={side: beads[-1]._replace(value=side) for side in ("P", "B")},
            ),
            RoadView(
                "big",
                road.cells,
                _describe_big(road.columns, sides, pending),
                pending_ties=pending,
                dots=big_dots,
                asks={side: grown[side].cells[-1] for side in ("P", "B")},
            ),
        ]
        colours = {"red": gettext("red"), "blue": gettext("blue")}
        for name, k in DERIVED.items():
            cells = derived_road(road, k)
            description = ", ".join(colours[cell.value] for cell in cells)
            asks = {}
            for side, then in grown.items():
                after = derived_road(then, k)
                if len(after) > len(cells):
                    asks[side] = after[-1]
            views.append(RoadView(name, cells, description or gettext("No marks yet."), asks=asks))
        return views

    @cached_property
    def asks(self) -> dict[str, dict[str, str | None]]:
        return {side: dict(marks) for side, marks in road_predictions(self._big_road).items()}

    def coup_rows(self) -> SafeString:
        """The rows of the table of coups: hand (or, in a sequence, its place), each side's
        cards (as cards, and words for a screen reader) with its total, the result. Built
        here, not in a template loop: a whole shoe's rows drawn anew with every coup, with
        the words looked up once."""
        natural = " · " + html.escape(_("Natural"))
        outcomes = {value: html.escape(str(label)) for value, label in Round.Outcome.choices}
        names = card_names()
        rows = []
        for number, r in enumerate(self.rounds, start=1):
            rows.append(
                COUP_ROW.format(
                    number if self.sequence else r.hand_number,
                    cards_shown(r.player_cards),
                    html.escape(cards_named(r.player_cards, names)),
                    r.player_total,
                    cards_shown(r.banker_cards),
                    html.escape(cards_named(r.banker_cards, names)),
                    r.banker_total,
                    outcomes.get(r.outcome, ""),
                    natural if r.natural else "",
                )
            )
        return mark_safe("".join(rows))  # noqa: S308  (numbers and escaped values only)

    def road(self, name: str) -> RoadView:
        return next(road for road in self.roads if road.name == name)

    @property
    def big(self) -> RoadView:
        return self.road("big")


def _describe_bead(
    outcomes: list[str],
    dots: list[tuple[bool, bool, bool]],
    sides: dict[str, str],
    gettext: Any,
) -> str:
    """The bead plate in words: each coup's winner, with its pairs and natural."""
    if not outcomes:
        return str(gettext("No coups yet."))
    marks = (gettext("player pair"), gettext("banker pair"), gettext("natural"))
    words = []
    for outcome, flags in zip(outcomes, dots, strict=False):
        extra = [mark for mark, on in zip(marks, flags, strict=True) if on]
        words.append(f"{sides[outcome]} ({', '.join(extra)})" if extra else sides[outcome])
    return ", ".join(words)


def _pair(cards: str) -> bool:
    codes = cards.split()
    return len(codes) >= 2 and codes[0][0] == codes[1][0]


def _describe_big(
    columns: list[list[tuple[str, int]]], sides: dict[str, str], pending_ties: int = 0
) -> str:
    """The big road in words: each column's side and length, with its ties; ``sides``:
    the sides' names in the active language."""
    if pending_ties:
        return ngettext("%(count)d tie", "%(count)d ties", pending_ties) % {"count": pending_ties}
    if not columns:
        return _("No coups yet.")
    parts = []
    for column in columns:
        ties = sum(t for _side_, t in column)
        text = f"{sides[column[0][0]]} {len(column)}"
        if ties:
            text += " (" + ngettext("%(count)d tie", "%(count)d ties", ties) % {"count": ties} + ")"
        parts.append(text)
    return ", ".join(parts)


def shoe_board(rounds: list[Any], *, sequence: bool = False) -> ShoeBoard:
    """The statistics panel of a shoe's settled rounds (oldest first); ``sequence``: of
    a player's own last coups at a table that reshuffles before every coup."""
    return ShoeBoard(rounds, sequence=sequence)


def results_context(
    rounds: list[Any] | None,
    *,
    key: str,
    just_dealt: bool,
    window: int | None = None,
    before_on_page: bool = False,
    cached: bool = True,
) -> dict[str, Any]:
    """The statistics panel's context: the board of the shoe's rounds, and the board from
    before the coup just dealt (shown until its cards are turned).

    ``window``: show only the last so many rounds, ``rounds`` holding one more (the board
    before the coup is then the very board the previous deal showed, and its cached
    fragments are used again). ``before_on_page``: the page that asked holds the board
    from before the coup (it showed it until now), and the browser shows that one while
    the cards are turned: it is not drawn and sent again. ``cached``: keep the drawn
    fragments for the next to draw the same board (many browsers at a full table); a
    single-player board is drawn once for one browser and then changes with the coup.
    """
    if rounds is None:
        return {"results": None}
    shown = rounds[-window:] if window else rounds
    sequence = window is not None
    return {
        "results": shown,
        "sequence": sequence,
        "board": shoe_board(shown, sequence=sequence),
        "board_before": (
            shoe_board(rounds[:-1][-window:] if window else rounds[:-1], sequence=sequence)
            if just_dealt and rounds and not before_on_page
            else None
        ),
        "before_on_page": before_on_page,
        "board_key": key,
        "board_cache": "default" if cached else "uncached",
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
            window = stats_window(table)
            rounds = rounds[-window:] if window else rounds
        else:
            continue
        if rounds:
            roads[table.pk] = shoe_board(rounds).big
    return roads
