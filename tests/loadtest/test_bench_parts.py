"""``manage.py bench_parts`` on a few rounds: it plays them as the page does, prints the
CPU of each part it wraps, puts every function back and leaves nothing at the table."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection

from baccarat.board import statistics
from baccarat.models import Play, Round, Table
from baccarat.single import views
from casino.accounts.models import User
from wallet.models import Account

pytestmark = pytest.mark.django_db


def test_bench_parts_plays_rounds_and_measures_each_part() -> None:
    drawing, big_road = views.render_fragment, statistics.big_road
    out = io.StringIO()
    call_command(
        "bench_parts", rounds=3, warmup=1, part=["baccarat.board.statistics:big_road"], stdout=out
    )
    text = out.getvalue()
    assert "3 rounds after 1 to warm up" in text and "DEAL with the layout" in text
    assert "CPU per round" in text
    figures = {
        line.split()[0]: line.split()[1:]
        for line in text.splitlines()
        if line.startswith(("baccarat.", "django."))
    }
    assert figures["baccarat.play.rounds:layout_deal"][1] == "1.0"  # one per round
    assert figures["baccarat.single.views:render_fragment"][1] == "1.0"  # the DEAL's answer
    assert figures["baccarat.play.betting:layout_edit"][1] == "0.0"  # no chip POST
    assert float(figures["baccarat.board.statistics:big_road"][1]) >= 1.0
    assert float(figures["baccarat.play.rounds:layout_deal"][0]) > 0
    assert "Statements per round" in text
    if connection.vendor == "postgresql":
        assert "PostgreSQL's CPU per round" in text
    # Every function is itself again.
    assert views.render_fragment is drawing and statistics.big_road is big_road
    # Five rounds settled (warm-up, measured, the one counted), the player left, closed.
    table = Table.objects.get(slug__startswith="bench-parts-")
    assert not table.is_active
    assert Round.objects.filter(table=table, state=Round.State.SETTLED).count() == 5
    player = User.objects.get(username="bench-parts")
    assert Play.objects.filter(table=table, player=player).count() == 5
    stacks = Account.objects.filter(owner=player, table=table, kind="stack")
    assert [stack.balance for stack in stacks] == [0]


def test_bench_parts_without_the_script_plays_a_chip_then_deal() -> None:
    out = io.StringIO()
    call_command("bench_parts", rounds=2, warmup=0, without_script=True, stdout=out)
    text = out.getvalue()
    assert "a chip POST, then DEAL" in text and "per chip" in text and "per DEAL" in text
    assert "Statements per chip" in text
    figures = {
        line.split()[0]: line.split()[1:]
        for line in text.splitlines()
        if line.startswith(("baccarat.", "django."))
    }
    assert figures["baccarat.play.betting:layout_edit"][1] == "1.0"
    assert figures["baccarat.single.views:render_fragment"][1] == "2.0"  # the chip's and the DEAL's
    table = Table.objects.get(slug__startswith="bench-parts-")
    assert Round.objects.filter(table=table, state=Round.State.SETTLED).count() == 3


def test_a_part_that_does_not_exist_is_refused_before_anything_is_written() -> None:
    with pytest.raises(CommandError, match="No such part"):
        call_command("bench_parts", rounds=1, part=["baccarat.single.views:no_such_function"])
    with pytest.raises(CommandError, match="module:attribute"):
        call_command("bench_parts", rounds=1, part=["render_fragment"])
    with pytest.raises(CommandError, match="not a function"):
        call_command("bench_parts", rounds=1, part=["baccarat.board.selectors:STATS_LENGTH"])
    assert not Table.objects.filter(slug__startswith="bench-parts-").exists()
