"""The statistics page's charts, drawn on the server as inline SVG: no script is needed
to see them. Pure functions of the figures they draw, in the active language; every text
in them goes through ``format_html`` (escaped), and their colours come from the
stylesheet's ``.stats-*`` classes (the CSP allows no inline style).

Each chart is ``role="img"`` and named by the page's heading and sentence beside it
(``labelledby``): the picture adds nothing a reader of those would miss. Their
``viewBox`` scales them to the width of their box, a phone's too.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date, datetime

from django.utils.formats import date_format, number_format
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

from wallet.formatting import format_money, money_format

WIDTH = 560
LEFT = 90  # room for the values' axis
RIGHT = 10
TOP = 10
BOTTOM = 28  # room for the time axis


def num(value: float, places: int = 1) -> str:
    """A coordinate with ``places`` decimals (``format_html`` takes strings)."""
    return f"{value:.{places}f}"


def nice_step(span: int, count: int, *, least: int = 1) -> int:
    """The smallest of 1, 2 or 5 times a power of ten, at least ``least``, that divides
    ``span`` into at most ``count`` steps."""
    step = 1
    while True:
        for factor in (1, 2, 5):
            if step * factor >= least and span <= step * factor * count:
                return step * factor
        step *= 10


def ticks(low: int, high: int, *, count: int = 4, least: int = 1) -> list[int]:
    """Round values a step apart from at or below ``low`` to at or above ``high``, in at
    most ``count`` steps (about): the lines of a value axis."""
    if high <= low:
        high = low + least
    step = nice_step(high - low, count, least=least)
    first = (low // step) * step
    last = -((-high) // step) * step
    return list(range(first, last + 1, step))


def money_tick(cents: int) -> str:
    """An axis's amount: whole euros without their cents ("1.500 €"), else in full."""
    if cents % 100:
        return format_money(cents)
    parts = money_format()
    grouped = f"{abs(cents) // 100:,}".replace(",", parts["group"])
    minus = "−" if cents < 0 else ""
    return f"{minus}{parts['prefix']}{grouped}{parts['suffix']}"


def count_tick(value: int) -> str:
    return number_format(value, force_grouping=True)


def _svg(*, height: int, labelledby: str, css: str, body: SafeString) -> SafeString:
    return format_html(
        '<svg class="stats-chart {}" viewBox="0 0 {} {}" role="img" aria-labelledby="{}"'
        ' focusable="false" xmlns="http://www.w3.org/2000/svg">{}</svg>',
        css,
        WIDTH,
        height,
        labelledby,
        body,
    )


def _value_axis(
    values: Sequence[int], *, top: float, bottom: float, label: Callable[[int], str]
) -> SafeString:
    """Horizontal lines at ``values`` (the first at ``bottom``, the last at ``top``) with
    their labels at the left."""
    low, high = values[0], values[-1]
    lines = []
    for value in values:
        y = bottom - (value - low) / (high - low) * (bottom - top)
        lines.append(
            format_html(
                '<line class="stats-grid{}" x1="{}" x2="{}" y1="{}" y2="{}"/>'
                '<text class="stats-tick" x="{}" y="{}" text-anchor="end"'
                ' dominant-baseline="middle">{}</text>',
                " stats-zero" if value == 0 else "",
                LEFT,
                WIDTH - RIGHT,
                num(y),
                num(y),
                LEFT - 6,
                num(y),
                label(value),
            )
        )
    return mark_safe("".join(lines))  # noqa: S308 (each piece escaped by format_html)


def _time_axis(labels: Sequence[tuple[float, str]], *, y: float) -> SafeString:
    """Labels under the plot at x positions; the first starts there, the last ends."""
    parts = []
    for index, (x, text) in enumerate(labels):
        anchor = "middle"
        if index == 0:
            anchor = "start"
        elif index == len(labels) - 1:
            anchor = "end"
        inner = "" if anchor != "middle" else " stats-tick-inner"
        parts.append(
            format_html(
                '<text class="stats-tick{}" x="{}" y="{}" text-anchor="{}">{}</text>',
                inner,
                num(x),
                num(y),
                anchor,
                text,
            )
        )
    return mark_safe("".join(parts))  # noqa: S308 (each piece escaped by format_html)


def moment_label(when: datetime, *, short_span: bool) -> str:
    """A time axis's label: the date, or over two days or less the time of day too."""
    if short_span:
        return date_format(when, "SHORT_DATETIME_FORMAT")
    return date_format(when, "SHORT_DATE_FORMAT")


# The balance over time ------------------------------------------------------------------


@dataclass(frozen=True)
class Line:
    """A line of a chart over time: its values at the chart's moments, its CSS class."""

    css: str
    values: Sequence[int]


def balance_chart(
    *, moments: Sequence[datetime], lines: Sequence[Line], labelledby: str, height: int = 240
) -> SafeString:
    """Balances over time as steps: each value holds until the next moment. ``moments``
    ascend; every line has a value at each."""
    bottom = height - BOTTOM
    start, end = moments[0], moments[-1]
    span = (end - start).total_seconds() or 1.0
    everything = [value for line in lines for value in line.values]
    low, high = min(0, *everything), max(0, *everything)
    axis = ticks(low, high, least=100)
    low, high = axis[0], axis[-1]
    plot = WIDTH - LEFT - RIGHT

    def x(when: datetime) -> float:
        return LEFT + (when - start).total_seconds() / span * plot

    def y(value: int) -> float:
        return bottom - (value - low) / (high - low) * (bottom - TOP)

    xs = [x(when) for when in moments]
    paths = []
    for line in lines:
        steps = [f"M{xs[0]:.1f} {y(line.values[0]):.1f}"]
        for position, value in zip(xs[1:], line.values[1:], strict=True):
            steps.append(f"H{position:.1f}V{y(value):.1f}")
        paths.append(format_html('<path class="stats-line {}" d="{}"/>', line.css, "".join(steps)))
    short = (end - start).days < 2
    count = 3
    labels = [
        (LEFT + plot * n / count, moment_label(start + (end - start) * n / count, short_span=short))
        for n in range(count + 1)
    ]
    body = format_html(
        "{}{}{}",
        _value_axis(axis, top=TOP, bottom=bottom, label=money_tick),
        mark_safe("".join(paths)),  # noqa: S308 (each path escaped by format_html)
        _time_axis(labels, y=height - 6),
    )
    return _svg(height=height, labelledby=labelledby, css="stats-balance", body=body)


# Bars per day ---------------------------------------------------------------------------


def day_bars(
    *,
    days: Sequence[date],
    values: Sequence[int],
    css: str,
    labelledby: str,
    label: Callable[[int], str] = count_tick,
    height: int = 180,
) -> SafeString:
    """A bar per day (or per week) of ``values``, oldest at the left."""
    bottom = height - BOTTOM
    axis = ticks(0, max(values, default=0), count=3)
    high = axis[-1]
    plot = WIDTH - LEFT - RIGHT
    width = plot / max(len(values), 1)
    gap = width * 0.2 if width > 4 else 0
    # Numbers only: written out, with nothing to escape.
    bars = mark_safe(  # noqa: S308
        "".join(
            f'<rect class="stats-bar" x="{LEFT + index * width + gap / 2:.2f}"'
            f' y="{bottom - value / high * (bottom - TOP):.1f}" width="{width - gap:.2f}"'
            f' height="{value / high * (bottom - TOP):.1f}"/>'
            for index, value in enumerate(values)
            if value
        )
    )
    labels: list[tuple[float, str]] = []
    if days:
        chosen = sorted({0, len(days) // 2, len(days) - 1})
        labels = [
            (LEFT + (index + 0.5) * width, date_format(days[index], "SHORT_DATE_FORMAT"))
            for index in chosen
        ]
        if len(labels) > 1:  # the outer labels align with the plot's edges
            labels[0] = (LEFT, labels[0][1])
            labels[-1] = (WIDTH - RIGHT, labels[-1][1])
    body = format_html(
        '{}<g class="{}">{}</g>{}',
        _value_axis(axis, top=TOP, bottom=bottom, label=label),
        css,
        bars,
        _time_axis(labels, y=height - 6),
    )
    return _svg(height=height, labelledby=labelledby, css="stats-days", body=body)


# The result by bet ----------------------------------------------------------------------


@dataclass(frozen=True)
class ResultRow:
    """A bet's line of the results chart: its name, the player's result and what the
    exact odds expect, in cents."""

    label: str
    result: int
    expected: int


def result_chart(*, rows: Sequence[ResultRow], labelledby: str) -> SafeString:
    """For each bet, two bars from zero: the result (gain or loss) and the expectation
    (the page's legend tells which is which), each with its amount; the bet's name above
    them."""
    row_height = 84
    height = TOP + row_height * len(rows) + 4
    amounts = [value for row in rows for value in (row.result, row.expected)]
    low, high = min(0, *amounts), max(0, *amounts)
    if low == high:
        high = low + 100
    left, right = 8, WIDTH - 8
    # The amounts are written beside their bars' ends: keep room for them on both sides.
    room = 110
    span = high - low

    def x(value: int) -> float:
        inner_left = left + (room if low < 0 else 0)
        inner_right = right - (room if high > 0 else 0)
        return inner_left + (value - low) / span * (inner_right - inner_left)

    zero = x(0)
    parts = []
    for index, row in enumerate(rows):
        top = TOP + index * row_height
        parts.append(
            format_html(
                '<text class="stats-label" x="{}" y="{}">{}</text>', left, top + 18, row.label
            )
        )
        for offset, value, css in (
            (28, row.result, "stats-result"),
            (56, row.expected, "stats-expected"),
        ):
            end = x(value)
            sign = "stats-gain" if value > 0 else "stats-loss" if value < 0 else ""
            parts.append(
                format_html(
                    '<rect class="{} {}" x="{}" y="{}" width="{}" height="20"/>'
                    '<text class="stats-amount" x="{}" y="{}" text-anchor="{}"'
                    ' dominant-baseline="middle">{}</text>',
                    css,
                    sign,
                    num(min(zero, end)),
                    top + offset,
                    num(max(abs(end - zero), 1.0)),
                    num(end + (5 if value >= 0 else -5)),
                    top + offset + 10,
                    "start" if value >= 0 else "end",
                    format_money(value, sign=True),
                )
            )
    parts.append(
        format_html(
            '<line class="stats-grid stats-zero" x1="{}" x2="{}" y1="{}" y2="{}"/>',
            num(zero),
            num(zero),
            TOP + 20,
            height - 4,
        )
    )
    body = mark_safe("".join(parts))  # noqa: S308 (each piece escaped by format_html)
    return _svg(height=height, labelledby=labelledby, css="stats-results", body=body)
