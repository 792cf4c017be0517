from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from baccarat import engine, services
from baccarat.models import Bet, Play, Round, Shoe, Table
from wallet.models import Transaction


def _bet(round: Round, player: Any, kind: str = "player", amount: int = 500) -> Round:
    return services.bet_place(round=round, player=player, kind=kind, amount=amount)


def test_open_reuses_the_betting_round(seated: Any, table: Table) -> None:
    first = services.round_open(table=table, player=seated)
    assert services.round_open(table=table, player=seated).pk == first.pk
    assert Round.objects.count() == 1


def test_bets_are_stored_without_moving_money(seated: Any, table: Table, stack_of: Any) -> None:
    round = services.round_open(table=table, player=seated)
    _bet(round, seated, "player", 500)
    _bet(round, seated, "player", 100)
    _bet(round, seated, "tie", 100)
    play = Play.objects.get(round=round)
    assert {b.kind: b.stake for b in play.bets.all()} == {"player": 600, "tie": 100}
    assert play.stake_total == 700
    assert stack_of(seated, table) == 100_00
    services.bet_remove(round=round, player=seated, kind="player", amount=100)
    services.bets_clear(round=round, player=seated)
    assert not Bet.objects.exists()


def test_player_and_banker_together_refused(seated: Any, table: Table) -> None:
    round = services.round_open(table=table, player=seated)
    _bet(round, seated, "player")
    with pytest.raises(engine.CombinationNotAllowed):
        _bet(round, seated, "banker")
    assert list(Bet.objects.values_list("kind", flat=True)) == ["player"]


def test_lock_deal_settle_are_idempotent(seated: Any, table: Table, stack_of: Any) -> None:
    round = services.round_open(table=table, player=seated)
    _bet(round, seated, "banker", 1000)
    services.round_lock(round_id=round.pk)
    services.round_lock(round_id=round.pk)
    assert stack_of(seated, table) == 90_00
    dealt = services.round_deal(round_id=round.pk)
    again = services.round_deal(round_id=round.pk)
    assert (again.player_cards, again.banker_cards) == (dealt.player_cards, dealt.banker_cards)
    services.round_settle(round_id=round.pk)
    settled = services.round_settle(round_id=round.pk)
    assert settled.state == Round.State.SETTLED
    assert settled.completion == Round.Completion.PLAYED
    assert Transaction.objects.filter(round=round, kind="stake").count() == 1
    assert Transaction.objects.filter(round=round, kind="settle").count() == 1
    play = Play.objects.get(round=round)
    assert stack_of(seated, table) == 90_00 + play.payout_total
    assert play.balance_before == 100_00
    assert play.balance_after == stack_of(seated, table)


def test_lock_raises_stake_below_minimum(seated: Any, table: Table) -> None:
    table.min_player = 500
    table.save()
    round = services.round_open(table=table, player=seated)
    _bet(round, seated, "player", 100)
    result = services.round_lock(round_id=round.pk)
    assert result.raised == ["player"]
    assert Bet.objects.get().stake == 500


def test_locked_round_blocks_a_new_one(seated: Any, table: Table) -> None:
    round = services.round_open(table=table, player=seated)
    _bet(round, seated)
    services.round_lock(round_id=round.pk)
    with pytest.raises(services.RoundError) as error:
        services.round_open(table=table, player=seated)
    assert error.value.code == "round_in_play"
    with pytest.raises(services.RoundError):
        _bet(round, seated)


def test_void_refunds_every_stake(seated: Any, support: Any, table: Table, stack_of: Any) -> None:
    round = services.round_open(table=table, player=seated)
    _bet(round, seated, "tie", 2000)
    services.round_lock(round_id=round.pk)
    assert stack_of(seated, table) == 80_00
    services.round_void(round_id=round.pk, reason="card reader fault", by=support)
    services.round_void(round_id=round.pk, reason="card reader fault", by=support)
    round.refresh_from_db()
    assert round.state == Round.State.VOID
    assert round.void_reason == "card reader fault"
    assert stack_of(seated, table) == 100_00


def test_recover_completes_with_the_undisturbed_cards(
    alice: Any, bob: Any, cut_table: Table, rigged_shoe: Any
) -> None:
    from wallet import services as wallet

    rigged_shoe(cut_table, "9S 3H 2D 4C 5H 6D")
    rounds = []
    for player in (alice, bob):
        wallet.wallet_rebuy(player=player, table=cut_table, amount=50_00, reference=f"r{player.pk}")
    undisturbed = services.round_open(table=cut_table, player=alice)
    _bet(undisturbed, alice)
    services.round_lock(round_id=undisturbed.pk)
    shoe = Shoe.objects.get()
    state_before = dict(shoe.state)
    services.round_play(round_id=undisturbed.pk)
    rounds.append(Round.objects.get(pk=undisturbed.pk))
    # Replay the same shoe position for a round that crashed after locking.
    shoe.refresh_from_db()
    shoe.state = state_before
    shoe.hands_dealt = 0
    shoe.save()
    crashed = services.round_open(table=cut_table, player=bob)
    _bet(crashed, bob)
    services.round_lock(round_id=crashed.pk)
    Round.objects.filter(pk=crashed.pk).update(locked_at=timezone.now() - timedelta(seconds=60))
    assert services.recover_rounds() == [crashed.pk]
    crashed.refresh_from_db()
    assert crashed.state == Round.State.SETTLED
    assert crashed.completion == Round.Completion.SERVER
    assert (crashed.player_cards, crashed.banker_cards) == (
        rounds[0].player_cards,
        rounds[0].banker_cards,
    )
    assert crashed.player_cards.startswith("9S 2D")


def test_single_deck_table_gets_a_fresh_shoe_per_round(seated: Any, table: Table) -> None:
    for _ in range(2):
        round = services.round_open(table=table, player=seated)
        _bet(round, seated)
        services.round_play(round_id=round.pk)
    assert Shoe.objects.filter(table=table).count() == 2
    assert set(Shoe.objects.values_list("is_finished", flat=True)) == {True}
