from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from baccarat import engine
from baccarat.full import croupier, seats
from baccarat.models import PracticeSession, Round, Shoe, Table
from baccarat.play import practice
from wallet import services as wallet


def make_player(username: str) -> Any:
    user = get_user_model().objects.create_user(username=username, password="pw-for-tests-1")
    wallet.wallet_open_for_new_player(player=user)
    return user


def practice_for(player: Any) -> PracticeSession:
    """A practice session of ``player``: 8 decks, 1,000.00 in chips, ten hands."""
    return practice.practice_start(
        player=player,
        decks=8,
        starting_chips=1000_00,
        hands=10,
        tie_pays=8,
        pairs_enabled=False,
        commission=Table.Commission.FIVE_PERCENT,
    )


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
def client_alice(client: Any, seated: Any) -> Any:
    """The test client signed in as alice, seated at the single-player table."""
    client.force_login(seated)
    return client


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


# A full table of seeds 000/001 (8 decks, cut card, burn), its players and its rounds.


@pytest.fixture
def salon(db: None) -> Table:
    return Table.objects.create(
        name="Salon",
        slug="salon",
        kind=Table.Kind.FULL,
        seats=8,
        decks=8,
        reshuffle=Table.Reshuffle.CUT_CARD,
        burn=Table.Burn.FIRST_CARD,
        min_player=500,
        min_banker=500,
        min_tie=500,
        max_player=30000,
        max_banker=30000,
        max_tie=30000,
    )


def sit(table: Table, name: str, number: int, buy_in: int = 100_00) -> Any:
    player = make_player(name)
    seats.seat_take(table=table, player=player, number=number, buy_in=buy_in, reference=name)
    return player


def ready(table: Table) -> Round:
    """Let the croupier cut (nobody takes the offer) and open a round."""
    croupier.table_tick(table_id=table.pk)
    shoe = Shoe.objects.get(table=table, is_finished=False)
    if shoe.cut_position is None:
        croupier.table_tick(table_id=table.pk, now=shoe.cut_offer_until + timedelta(seconds=1))
        croupier.table_tick(table_id=table.pk, now=shoe.cut_offer_until + timedelta(seconds=1))
    round = croupier.open_round(table)
    assert round is not None and round.state == Round.State.BETTING
    return round
