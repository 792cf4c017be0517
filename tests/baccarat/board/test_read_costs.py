"""The reads a chip, a DEAL and the table page make cost the rows they show, not the
table's history, and need no planner statistics (this machine's PostgreSQL runs with
autovacuum off: a test database is never analyzed, nor is a fresh production one for its
first minutes). Measured as PostgreSQL's buffer touches under ``EXPLAIN ANALYZE``: the
reads through the round's table touched every round of the table."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection

from baccarat.board.selectors import STATS_FIELDS
from baccarat.db import player_coups, player_plays
from baccarat.models import Play, Round, Table
from baccarat.play import betting, rounds
from tests.baccarat.conftest import make_player
from wallet import services as wallet

pytestmark = pytest.mark.postgres

HISTORY = 4000  # other players' rounds at each table
BUDGET = 120  # buffers a read may touch; through the table's rounds it took several hundred


def play_rounds(player: Any, table: Table, count: int) -> None:
    for _ in range(count):
        round = betting.round_open(table=table, player=player)
        betting.bet_place(round=round, player=player, kind="banker", amount=100)
        rounds.round_play(round_id=round.pk)


def copy_history(table: Table, template: Play, players: list[Any]) -> None:
    """``HISTORY`` settled rounds at ``table``, copies of ``template``'s round, each with
    one play of one of ``players``, newer than the template."""
    round_columns = [
        f.column for f in Round._meta.concrete_fields if not f.primary_key and f.column
    ]
    play_columns = [
        f.column
        for f in Play._meta.concrete_fields
        if not f.primary_key and f.column not in ("round_id", "player_id")
    ]
    quote = connection.ops.quote_name
    names = ", ".join(quote(column) for column in round_columns)
    copied = ", ".join(quote(column) for column in play_columns)
    with connection.cursor() as cursor:
        cursor.execute(
            f"WITH r AS (INSERT INTO baccarat_round ({names})"  # noqa: S608  (our own names)
            f" SELECT {names} FROM baccarat_round, generate_series(1, %s)"
            " WHERE id = %s RETURNING id)"
            f" INSERT INTO baccarat_play (round_id, player_id, {copied})"
            f" SELECT r.id, (%s::bigint[])[1 + r.id %% %s], {copied}"
            " FROM r, baccarat_play WHERE baccarat_play.id = %s",
            [HISTORY, template.round_id, [p.pk for p in players], len(players), template.pk],
        )


def buffers(read: Callable[[], list[Any]]) -> tuple[int, list[Any]]:
    """The buffers PostgreSQL touched for the one statement ``read`` runs, and what
    ``read`` answered."""
    captured: list[tuple[str, Any]] = []

    def capture(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        captured.append((sql, params))
        return execute(sql, params, many, context)

    with connection.execute_wrapper(capture):
        answered = read()
    ((sql, params),) = captured
    with connection.cursor() as cursor:
        cursor.execute(f"EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) {sql}", params)
        answer = cursor.fetchone()[0]
    top = (json.loads(answer) if isinstance(answer, str) else answer)[0]["Plan"]
    return int(top.get("Shared Hit Blocks", 0)) + int(top.get("Shared Read Blocks", 0)), answered


@pytest.fixture
def history(seated: Any, table: Table, cut_table: Table) -> Any:
    """Alice's few rounds at a one-deck table and at a cut-card table, behind
    ``HISTORY`` rounds of other players at each, played after hers."""
    others = [make_player(f"other-{n}") for n in range(20)]
    wallet.wallet_rebuy(player=seated, table=cut_table, amount=100_00, reference="cut-rebuy")
    play_rounds(seated, table, 3)
    play_rounds(seated, cut_table, 3)
    for each in (table, cut_table):
        wallet.wallet_rebuy(player=others[0], table=each, amount=10_00, reference=f"o{each.pk}")
        play_rounds(others[0], each, 1)
        template = Play.objects.filter(player=others[0], table=each).latest("round_id")
        copy_history(each, template, others)
    betting.round_open(table=table, player=seated)  # and a round open for betting
    return seated


def test_the_layouts_read_costs_its_rows_not_the_tables_history(
    history: Any, table: Table, cut_table: Table
) -> None:
    for each in (table, cut_table):
        for lock in (False, True):
            touched, plays = buffers(
                lambda each=each, lock=lock: player_plays(
                    table=each, player_id=history.pk, count=3, lock_shoe=lock
                )
            )
            assert len(plays) == 3 and {p.player_id for p in plays} == {history.pk}
            assert touched < BUDGET, (each.slug, lock, touched)


@pytest.mark.parametrize("last_shoe", [False, True])
def test_the_statistics_read_costs_its_rows_not_the_tables_history(
    history: Any, table: Table, cut_table: Table, last_shoe: bool
) -> None:
    for each, shown in ((table, 1 if last_shoe else 3), (cut_table, 3)):
        touched, coups = buffers(
            lambda each=each: player_coups(
                table=each,
                player_id=history.pk,
                names=STATS_FIELDS,
                count=60,
                last_shoe=last_shoe,
            )
        )
        assert len(coups) == shown
        assert touched < BUDGET, (each.slug, last_shoe, touched)
