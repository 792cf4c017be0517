"""The statistics page's sections: the figures of :mod:`baccarat.protocol.statistics`
drawn by :mod:`baccarat.protocol.charts` and told in words and small tables, in the
reader's language and time zone."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from decimal import Decimal
from fractions import Fraction

from django.utils import dateformat, translation
from django.utils.formats import date_format, get_format, number_format
from django.utils.html import format_html_join
from django.utils.safestring import SafeString
from django.utils.timezone import localdate, localtime
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from baccarat.protocol import charts
from baccarat.protocol.hours import Scope
from baccarat.protocol.statistics import (
    Balance,
    BetResult,
    Day,
    activity,
    statistics_figures,
)
from wallet.formatting import format_money

UNIT_NOTES = {
    "hour": lambda: _("Each step is a balance at the end of an hour in which it moved."),
    "day": lambda: _("Each step is a balance at the end of a day on which it moved."),
    "week": lambda: _("Each step is a balance at the end of a week in which it moved."),
    "month": lambda: _("Each step is a balance at the end of a month in which it moved."),
}


def percent(value: Fraction) -> str:
    """A share as a percentage with two decimals in the active language ("1,06 %")."""
    hundredths = round(value * 10000)
    text = number_format(Decimal(hundredths) / 100, decimal_pos=2)
    spaced = (translation.get_language() or "en")[:2] in ("de", "nl")
    return f"{text}\u00a0%" if spaced else f"{text}%"


def counts() -> Callable[[int], str]:
    """Whole numbers with the active language's thousands separator ("1.234"), the
    separator looked up once."""
    separator = get_format("THOUSAND_SEPARATOR")
    return lambda value: f"{value:,}".replace(",", separator)


def durations() -> Callable[[int], str]:
    """Minutes as hours and minutes ("3 h 05 min") in the active language, its words
    looked up once."""
    count = counts()
    hours_text, minutes_text = _("%(hours)s h %(minutes)02d min"), _("%(minutes)s min")

    def duration(minutes: int) -> str:
        hours, rest = divmod(minutes, 60)
        if not hours:
            return minutes_text % {"minutes": rest}
        return hours_text % {"hours": count(hours), "minutes": rest}

    return duration


def duration(minutes: int) -> str:
    """Minutes as hours and minutes ("3 h 05 min")."""
    return durations()(minutes)


def day_text(when: datetime) -> str:
    return date_format(localtime(when), "SHORT_DATE_FORMAT")


@dataclass(frozen=True)
class BalanceRow:
    name: str  # at the start, at the end, lowest, highest
    wallet: str
    stacks: str


@dataclass(frozen=True)
class BalanceSection:
    chart: SafeString
    sentence: str
    note: str
    rows: list[BalanceRow]


def balance_section(balance: Balance | None, *, labelledby: str) -> BalanceSection | None:
    if balance is None:
        return None
    points = balance.points
    wallet = [point.wallet for point in points]
    stacks = [point.stacks for point in points]
    chart = charts.balance_chart(
        moments=[point.when for point in points],
        lines=[charts.Line("stats-line-stacks", stacks), charts.Line("stats-line-wallet", wallet)],
        labelledby=labelledby,
    )
    sentence = _(
        "From %(start)s to %(end)s your wallet went from %(wallet_from)s to %(wallet_to)s, "
        "your table stacks from %(stacks_from)s to %(stacks_to)s."
    ) % {
        "start": day_text(balance.start),
        "end": day_text(balance.end),
        "wallet_from": format_money(wallet[0]),
        "wallet_to": format_money(wallet[-1]),
        "stacks_from": format_money(stacks[0]),
        "stacks_to": format_money(stacks[-1]),
    }
    rows = [
        BalanceRow(name=name, wallet=format_money(pick(wallet)), stacks=format_money(pick(stacks)))
        for name, pick in (
            (_("At the start"), lambda values: values[0]),
            (_("At the end"), lambda values: values[-1]),
            (_("Lowest"), min),
            (_("Highest"), max),
        )
    ]
    return BalanceSection(
        chart=chart, sentence=sentence, note=UNIT_NOTES[balance.unit](), rows=rows
    )


@dataclass(frozen=True)
class BetRow:
    label: str
    bets: str
    staked: str
    result: str
    expected: str
    house_edge: str


@dataclass(frozen=True)
class ResultsSection:
    chart: SafeString
    sentence: str
    rows: list[BetRow]
    total: BetRow


def results_section(results: list[BetResult], *, labelledby: str) -> ResultsSection | None:
    if not results:
        return None
    staked = sum(found.staked for found in results)
    result = sum(found.result for found in results)
    expected_exact = sum((found.expected_exact for found in results), Fraction(0))
    expected = round(expected_exact)
    chart = charts.result_chart(
        rows=[charts.ResultRow(found.label, found.result, found.expected) for found in results],
        labelledby=labelledby,
    )
    sentence = _(
        "You staked %(staked)s; your result is %(result)s. By the exact odds, the same "
        "stakes at the same rules expect %(expected)s."
    ) % {
        "staked": format_money(staked),
        "result": format_money(result, sign=True),
        "expected": format_money(expected, sign=True),
    }
    rows = [
        BetRow(
            label=found.label,
            bets=number_format(found.bets, force_grouping=True),
            staked=format_money(found.staked),
            result=format_money(found.result, sign=True),
            expected=format_money(found.expected, sign=True),
            house_edge=percent(found.house_edge),
        )
        for found in results
    ]
    total = BetRow(
        label=_("All bets"),
        bets=number_format(sum(found.bets for found in results), force_grouping=True),
        staked=format_money(staked),
        result=format_money(result, sign=True),
        expected=format_money(expected, sign=True),
        house_edge=percent(-expected_exact / staked) if staked else "–",
    )
    return ResultsSection(chart=chart, sentence=sentence, rows=rows, total=total)


@dataclass(frozen=True)
class DayRow:
    day: str
    rounds: str
    time: str
    result: str


@dataclass(frozen=True)
class ActivitySection:
    weekly: bool
    rounds_chart: SafeString
    minutes_chart: SafeString
    rounds: str
    days: str
    time: str
    busiest: str
    rows: list[DayRow]  # the days with rounds, newest first

    @property
    def rows_html(self) -> SafeString:
        """The lines of the table of days (a long history has hundreds: drawn here, not
        by the template's loop, at a third of its cost)."""
        return format_html_join(
            "",
            '<tr><th scope="row">{}</th><td class="num">{}</td><td class="num">{}</td>'
            '<td class="num">{}</td></tr>',
            ((row.day, row.rounds, row.time, row.result) for row in self.rows),
        )


def activity_section(
    days: list[Day], *, scope: Scope, labelledby: tuple[str, str]
) -> ActivitySection | None:
    if not days:
        return None
    first = localdate(scope.start) if scope.start else days[0].day
    last = localdate(scope.end - timedelta(microseconds=1)) if scope.end else localdate()
    last = min(last, localdate())
    unit, bars = activity(days, first=first, last=max(last, first))
    moments = [bar.day for bar in bars]
    busiest = max(days, key=lambda day: (day.rounds, day.day))
    return ActivitySection(
        weekly=unit == "week",
        rounds_chart=charts.day_bars(
            days=moments,
            values=[bar.rounds for bar in bars],
            css="stats-bars-rounds",
            labelledby=labelledby[0],
        ),
        minutes_chart=charts.day_bars(
            days=moments,
            values=[bar.minutes for bar in bars],
            css="stats-bars-minutes",
            labelledby=labelledby[1],
        ),
        rounds=number_format(sum(day.rounds for day in days), force_grouping=True),
        days=number_format(len(days), force_grouping=True),
        time=duration(sum(day.minutes for day in days)),
        busiest=ngettext("%(day)s, %(count)s round", "%(day)s, %(count)s rounds", busiest.rounds)
        % {
            "day": date_format(busiest.day, "SHORT_DATE_FORMAT"),
            "count": number_format(busiest.rounds, force_grouping=True),
        },
        rows=day_rows(days),
    )


def day_rows(days: list[Day]) -> list[DayRow]:
    """The lines of the table under the day charts, newest first. A long history has a
    few hundred: the formats are looked up once, not once a line."""
    short_date = get_format("SHORT_DATE_FORMAT")
    count, time_played = counts(), durations()
    return [
        DayRow(
            day=dateformat.format(day.day, short_date),
            rounds=count(day.rounds),
            time=time_played(day.minutes),
            result=format_money(day.result, sign=True),
        )
        for day in reversed(days)
    ]


@dataclass(frozen=True)
class StatisticsPage:
    balance: BalanceSection | None
    results: ResultsSection | None
    activity: ActivitySection | None


def statistics_page(scope: Scope) -> StatisticsPage:
    """Every section of the page for ``scope``; ``None`` for a section with nothing to
    show. The ids the charts name are the template's."""
    figures = statistics_figures(scope)
    return StatisticsPage(
        balance=balance_section(
            figures.balance, labelledby="stats-balance-heading stats-balance-text"
        ),
        results=results_section(
            figures.bets, labelledby="stats-results-heading stats-results-text"
        ),
        activity=activity_section(
            figures.days,
            scope=scope,
            labelledby=(
                "stats-rounds-heading stats-activity-text",
                "stats-minutes-heading stats-activity-note",
            ),
        ),
    )
