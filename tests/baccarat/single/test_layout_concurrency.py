"""A single-seat table's layout under the player's row lock, raced by real threads
(PostgreSQL): presses at the same moment run one after the other, none is lost and none
is played twice."""

from __future__ import annotations

from typing import Any

import pytest

from baccarat.integrity.audit import audit_violations
from baccarat.models import Play, Round, Table
from baccarat.play import betting, rounds
from tests.baccarat.conftest import make_player
from wallet import services as wallet
from wallet.models import Transaction

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def golden(db: None) -> Table:
    return Table.objects.create(name="Golden", slug="golden-race", decks=8)


def test_eight_chips_at_once_all_land_on_one_round(golden: Table, racers: Any) -> None:
    player = make_player("chips")
    wallet.wallet_rebuy(player=player, table=golden, amount=100_00, reference="chips")
    chip = betting.chip_edit(kind="banker", amount=500, take_back=False)
    results = racers.run([lambda: betting.layout_edit(table=golden, player=player, edit=chip)] * 8)
    assert not [r for r in results if isinstance(r, Exception)], results
    play = Play.objects.get(round__table=golden, player=player)
    assert play.round.state == Round.State.BETTING
    assert play.stake_total == 8 * 500
    assert {bet.kind: bet.stake for bet in play.bets.all()} == {"banker": 8 * 500}


def test_eight_deal_presses_at_once_play_the_round_once(golden: Table, racers: Any) -> None:
    player = make_player("presses")
    wallet.wallet_rebuy(player=player, table=golden, amount=100_00, reference="presses")
    chip = betting.chip_edit(kind="player", amount=500, take_back=False)
    round_id = betting.layout_edit(table=golden, player=player, edit=chip).round.pk
    results = racers.run(
        [lambda: rounds.layout_deal(table=golden, player=player, round_id=round_id, after=None)] * 8
    )
    assert not [r for r in results if isinstance(r, Exception)], results
    assert sum(result is not None for result in results) == 1  # the others: a double press
    assert Round.objects.get(pk=round_id).state == Round.State.SETTLED
    assert Round.objects.filter(table=golden).count() == 1
    for kind in (Transaction.Kind.STAKE, Transaction.Kind.SETTLE):
        assert Transaction.objects.filter(round_id=round_id, kind=kind).count() == 1
    assert audit_violations() == []


def test_eight_deals_with_the_layout_at_once_play_one_round(golden: Table, racers: Any) -> None:
    """A double click on DEAL as the page's script sends it (the layout, after the last
    round): one round is dealt with it, the other presses find it dealt."""
    player = make_player("layouts")
    wallet.wallet_rebuy(player=player, table=golden, amount=100_00, reference="layouts")
    first = rounds.layout_deal(
        table=golden, player=player, round_id=None, after=None, stakes={"tie": 100}
    )
    assert first is not None
    after = first.round.pk
    results = racers.run(
        [
            lambda: rounds.layout_deal(
                table=golden, player=player, round_id=None, after=after, stakes={"banker": 500}
            )
        ]
        * 8
    )
    assert not [r for r in results if isinstance(r, Exception)], results
    assert sum(result is not None for result in results) == 1
    dealt = Round.objects.filter(table=golden).exclude(pk=after).get()
    assert dealt.state == Round.State.SETTLED
    assert {bet.kind: bet.stake for bet in Play.objects.get(round=dealt).bets.all()} == {
        "banker": 500
    }
    assert Transaction.objects.filter(round_id=dealt.pk, kind=Transaction.Kind.STAKE).count() == 1
    assert audit_violations() == []
