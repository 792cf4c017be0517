from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from baccarat import engine
from baccarat.models import Shoe, Table
from wallet import services as wallet


def make_player(username: str) -> Any:
    user = get_user_model().objects.create_user(username=username, password="pw-for-tests-1")
    wallet.wallet_open_for_new_player(player=user)
    return user


@pytest.fixture
def alice(db: None) -> Any:
    return make_player("alice")


@pytest.fixture
def bob(db: None) -> Any:
    return make_player("bob")


@pytest.fixture
def support(db: None) -> Any:
    return get_user_model().objects.create_user(
        username="support", password="pw-for-tests-1", is_staff=True
    )


@pytest.fixture
def table(db: None) -> Table:
    return Table.objects.create(name="Golden", slug="golden", decks=1)


@pytest.fixture
def cut_table(db: None) -> Table:
    return Table.objects.create(
        name="Shoe",
        slug="shoe",
        decks=8,
        reshuffle=Table.Reshuffle.CUT_CARD,
        burn=Table.Burn.FIRST_CARD,
    )


@pytest.fixture
def seated(alice: Any, table: Table) -> Any:
    """Alice with 100.00 on her stack at the single-player table."""
    wallet.wallet_rebuy(player=alice, table=table, amount=100_00, reference="test-rebuy")
    return alice


@pytest.fixture
def stack_of() -> Callable[[Any, Table], int]:
    def balance(player: Any, table: Table) -> int:
        return wallet.stack_account(player=player, table=table).balance

    return balance


@pytest.fixture
def rigged_shoe() -> Callable[..., Shoe]:
    """An open shoe row at a cut-card table that deals ``codes`` first: the player's own
    at a single-seat table, the table's shared one otherwise."""

    def make(table: Table, codes: str, player: Any = None) -> Shoe:
        order = [*engine.cards_from_codes(codes), *engine.fresh_cards(8)[:300]]
        shoe = engine.Shoe.from_cards(order, cut_card_index=len(order) - 10, decks=8)
        state = shoe.to_state()
        return Shoe.objects.create(
            table=table,
            player=player if table.seats == 1 else None,
            number=1,
            state=state,
            commitment=shoe.commitment(),
            cut_position=0,
        )

    return make
