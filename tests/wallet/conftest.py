"""Wallet fixtures: a table and rounds with plays, beside tests/conftest.py's players."""

from __future__ import annotations

import uuid
from collections.abc import Callable

import pytest

from baccarat.models import Bet, Play, Round, Table
from casino.accounts.models import User


@pytest.fixture
def table(single_table: Table) -> Table:
    return single_table


@pytest.fixture
def other_table(db) -> Table:
    return Table.objects.create(name="Silver Baccarat", slug="silver")


# A locked or settled round always holds its cards: a natural, player 9 to banker 8.
CARDS = "9S8HKDQC"


def new_round(table: Table, state: str = Round.State.BETTING) -> Round:
    cards = "" if state in (Round.State.BETTING, Round.State.VOID) else CARDS
    return Round.objects.create(table=table, rules={}, state=state, reserved_cards=cards)


def add_play(round: Round, player: User, *, stake: int = 0, payout: int = 0) -> Play:
    play = Play.objects.create(
        round=round, table=round.table, player=player, stake_total=stake, payout_total=payout
    )
    if stake:
        Bet.objects.create(play=play, kind=Bet.Kind.PLAYER, stake=stake, payout=payout)
    return play


@pytest.fixture
def ref() -> Callable[[], str]:
    return lambda: f"test:{uuid.uuid4()}"
