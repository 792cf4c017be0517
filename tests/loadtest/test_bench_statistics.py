"""``manage.py bench_statistics`` on a few rounds: it loads a player's history, times the
statistics page for each filter with its statements, and leaves nothing behind."""

from __future__ import annotations

import io
import re

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from baccarat.models import (
    Bet,
    Play,
    Round,
    StatisticsBalance,
    StatisticsHour,
    StatisticsMark,
    Table,
)
from casino.accounts.models import User
from wallet.models import Account, Entry, Transaction

pytestmark = pytest.mark.django_db

MODELS = (
    User,
    Table,
    Round,
    Play,
    Bet,
    Account,
    Transaction,
    Entry,
    StatisticsHour,
    StatisticsBalance,
    StatisticsMark,
)


def test_bench_statistics_measures_every_filter_and_cleans_up(alice) -> None:
    before = {model: model.objects.count() for model in MODELS}
    issuer = list(Account.objects.filter(kind="issuer").values_list("balance", flat=True))
    out = io.StringIO()
    call_command("bench_statistics", rounds=60, days=20, repeat=2, stdout=out)
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("loaded 60 rounds over 20 days for bench-statistics")
    assert re.match(r"hours summed from nothing in \d+ ms: \d+ hours at tables", lines[1])
    figures = [line for line in lines if re.search(r"ms +\d+$", line)]
    assert len(figures) == 15  # each filter after a summing, after a round, kept
    assert [line[:30].strip() for line in figures[::3]] == [
        "all time, all tables",
        "last 30 days",
        "last 7 days",
        "one table, all time",
        "one table, 90 days by dates",
    ]
    for line, (state, most) in zip(
        figures, [("hour", 12), ("round", 10), ("kept", 4)] * 5, strict=True
    ):
        assert line[31:36].strip() == state
        median, p95, slowest, statements = re.findall(r"[\d.]+(?=ms)|\d+$", line)
        assert 0 < float(median) <= float(p95) <= float(slowest)
        assert 0 < int(statements) <= most
    assert {model: model.objects.count() for model in MODELS} == before
    assert list(Account.objects.filter(kind="issuer").values_list("balance", flat=True)) == issuer


def test_bench_statistics_refuses_nothing_to_load() -> None:
    with pytest.raises(CommandError):
        call_command("bench_statistics", rounds=0, stdout=io.StringIO())
