from __future__ import annotations

from typing import Any

import pytest
from django.db.models import Max
from django.utils import timezone

from baccarat import engine
from baccarat.models import Round, Shoe, Table
from baccarat.play import betting, rounds
from wallet.services import wallet_rebuy

PLAYER_NATURAL = "9H 2C TD 3S"  # player 9 (natural) against banker 5: the player wins
BANKER_NATURAL = "2C 9H 3S TD"  # player 5 against banker 9 (natural): the banker wins


@pytest.fixture
def play_round():
    """Play one settled round for ``player`` with ``stakes`` (cents per spot)."""

    def play(player, table, stakes=None, *, settle=True) -> Round:
        reference = f"rebuy-{player.pk}-{Round.objects.count()}"
        wallet_rebuy(player=player, table=table, amount=50_00, reference=reference)
        round = betting.round_open(table=table, player=player)
        for kind, amount in (stakes or {"player": 500}).items():
            betting.bet_place(round=round, player=player, kind=kind, amount=amount)
        if settle:
            rounds.round_play(round_id=round.pk)
        else:
            rounds.round_lock(round_id=round.pk)
        round.refresh_from_db()
        return round

    return play


def rig_shoe(table: Table, player: Any, cards: str) -> Shoe:
    """The player's next shoe at an 8-deck single-seat table deals ``cards`` first."""
    shoes = Shoe.objects.filter(table=table, player=player)
    shoes.filter(is_finished=False).update(is_finished=True, finished_at=timezone.now())
    order = [*engine.cards_from_codes(cards), *engine.fresh_cards(8)[:300]]
    dealer = engine.Shoe.from_cards(order, cut_card_index=len(order) - 10, decks=8)
    return Shoe.objects.create(
        table=table,
        player=player,
        number=(shoes.aggregate(n=Max("number"))["n"] or 0) + 1,
        state=dealer.to_state(),
        commitment=dealer.commitment(),
        cut_position=0,
    )


@pytest.fixture
def shoe_table(db) -> Table:
    """A single-player table dealing from 8-deck shoes with a cut card (rigged below)."""
    return Table.objects.create(
        name="Shoe table", slug="shoe-table", decks=8, reshuffle=Table.Reshuffle.CUT_CARD
    )


@pytest.fixture
def rigged_round(shoe_table):
    """A round of ``player`` at the shoe table dealt from ``cards`` first: settled unless
    ``settle`` is false (then locked). ``buy_in`` goes to the stack first."""

    def play(
        player: Any,
        cards: str = PLAYER_NATURAL,
        stakes: dict[str, int] | None = None,
        *,
        buy_in: int = 50_00,
        settle: bool = True,
    ) -> Round:
        rig_shoe(shoe_table, player, cards)
        if buy_in:
            reference = f"rigged-{player.pk}-{Round.objects.count()}"
            wallet_rebuy(player=player, table=shoe_table, amount=buy_in, reference=reference)
        round = betting.round_open(table=shoe_table, player=player)
        for kind, amount in (stakes or {"player": 500}).items():
            betting.bet_place(round=round, player=player, kind=kind, amount=amount)
        if settle:
            rounds.round_play(round_id=round.pk)
        else:
            rounds.round_lock(round_id=round.pk)
        round.refresh_from_db()
        return round

    return play
