from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from baccarat import engine, errors, recovery
from baccarat.models import Bet, Play, Round, Shoe, Table
from baccarat.play import betting, rounds
from wallet.models import Transaction


def _bet(round: Round, player: Any, kind: str = "player", amount: int = 500) -> Round:
    return betting.bet_place(round=round, player=player, kind=kind, amount=amount)


def test_open_reuses_the_betting_round(seated: Any, table: Table) -> None:
    first = betting.round_open(table=table, player=seated)
    assert betting.round_open(table=table, player=seated).pk == first.pk
    assert Round.objects.count() == 1


def test_bets_are_stored_without_moving_money(seated: Any, table: Table, stack_of: Any) -> None:
    round = betting.round_open(table=table, player=seated)
    _bet(round, seated, "player", 500)
    _bet(round, seated, "player", 100)
    _bet(round, seated, "tie", 100)
    play = Play.objects.get(round=round)
    assert {b.kind: b.stake for b in play.bets.all()} == {"player": 600, "tie": 100}
    assert play.stake_total == 700
    assert stack_of(seated, table) == 100_00
    betting.bet_remove(round=round, player=seated, kind="player", amount=100)
    betting.bets_clear(round=round, player=seated)
    assert not Bet.objects.exists()


def test_player_and_banker_together_refused(seated: Any, table: Table) -> None:
    round = betting.round_open(table=table, player=seated)
    _bet(round, seated, "player")
    with pytest.raises(engine.CombinationNotAllowed):
        _bet(round, seated, "banker")
    assert list(Bet.objects.values_list("kind", flat=True)) == ["player"]


def test_lock_deal_settle_are_idempotent(seated: Any, table: Table, stack_of: Any) -> None:
    round = betting.round_open(table=table, player=seated)
    _bet(round, seated, "banker", 1000)
    rounds.round_lock(round_id=round.pk)
    rounds.round_lock(round_id=round.pk)
    assert stack_of(seated, table) == 90_00
    dealt = rounds.round_deal(round_id=round.pk)
    again = rounds.round_deal(round_id=round.pk)
    assert (again.player_cards, again.banker_cards) == (dealt.player_cards, dealt.banker_cards)
    rounds.round_settle(round_id=round.pk)
    settled = rounds.round_settle(round_id=round.pk)
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
    round = betting.round_open(table=table, player=seated)
    _bet(round, seated, "player", 100)
    result = rounds.round_lock(round_id=round.pk)
    assert result.raised == ["player"]
    assert Bet.objects.get().stake == 500


def test_locked_round_blocks_a_new_one(seated: Any, table: Table) -> None:
    round = betting.round_open(table=table, player=seated)
    _bet(round, seated)
    rounds.round_lock(round_id=round.pk)
    with pytest.raises(errors.RoundError) as error:
        betting.round_open(table=table, player=seated)
    assert error.value.code == "round_in_play"
    with pytest.raises(errors.RoundError):
        _bet(round, seated)


def test_void_refunds_every_stake(seated: Any, support: Any, table: Table, stack_of: Any) -> None:
    round = betting.round_open(table=table, player=seated)
    _bet(round, seated, "tie", 2000)
    rounds.round_lock(round_id=round.pk)
    assert stack_of(seated, table) == 80_00
    rounds.round_void(round_id=round.pk, reason="card reader fault", by=support)
    rounds.round_void(round_id=round.pk, reason="card reader fault", by=support)
    round.refresh_from_db()
    assert round.state == Round.State.VOID
    assert round.void_reason == "card reader fault"
    assert stack_of(seated, table) == 100_00


def test_recover_deals_the_reserved_cards_and_never_moves_the_shoe(
    alice: Any, cut_table: Table, rigged_shoe: Any
) -> None:
    from wallet import services as wallet

    rigged_shoe(cut_table, "9S 3H 2D 4C 5H 6D", alice)
    wallet.wallet_rebuy(player=alice, table=cut_table, amount=50_00, reference="r")
    crashed = betting.round_open(table=cut_table, player=alice)
    _bet(crashed, alice)
    rounds.round_lock(round_id=crashed.pk)
    shoe = Shoe.objects.get()
    state_after_lock = dict(shoe.state)
    assert state_after_lock["position"] == 5  # the shoe moved past the coup at the lock
    Round.objects.filter(pk=crashed.pk).update(locked_at=timezone.now() - timedelta(seconds=60))
    report = recovery.recover_rounds()
    assert report.completed == [crashed.pk]
    crashed.refresh_from_db()
    assert crashed.state == Round.State.SETTLED
    assert crashed.completion == Round.Completion.SERVER
    assert (crashed.player_cards, crashed.banker_cards) == ("9S 2D 5H", "3H 4C")
    assert crashed.outcome == Round.Outcome.BANKER
    shoe.refresh_from_db()
    assert shoe.state == state_after_lock


def test_single_deck_table_gets_a_fresh_shoe_per_round(seated: Any, table: Table) -> None:
    for _ in range(2):
        round = betting.round_open(table=table, player=seated)
        _bet(round, seated)
        rounds.round_play(round_id=round.pk)
    # Two shoes dealt one coup each, ended and revealed; the next one already waits.
    assert (
        Shoe.objects.filter(table=table, is_finished=True, revealed_at__isnull=False).count() == 2
    )
    assert Shoe.objects.filter(table=table, is_finished=False, hands_dealt=0).count() == 1


def test_settle_reads_the_round_again_when_it_was_voided_after_its_lock(
    seated: Any, support: Any, table: Table, stack_of: Any
) -> None:
    """The settle after a lock uses the round the lock left only while its row is still
    LOCKED and undealt: voided in between, nothing is paid and the void stands."""
    round = betting.round_open(table=table, player=seated)
    _bet(round, seated, "banker", 1000)
    locked = rounds.round_lock(round_id=round.pk).round
    assert locked.state == Round.State.LOCKED
    rounds.round_void(round_id=round.pk, reason="card reader fault", by=support)
    settled = rounds.round_settle(round_id=round.pk, locked=locked)
    assert settled.state == Round.State.VOID and settled is not locked
    assert not Transaction.objects.filter(round=round, kind="settle").exists()
    assert stack_of(seated, table) == 100_00


def test_settle_reads_the_round_again_when_the_server_dealt_it(seated: Any, table: Table) -> None:
    round = betting.round_open(table=table, player=seated)
    _bet(round, seated, "banker", 1000)
    locked = rounds.round_lock(round_id=round.pk).round
    dealt = rounds.round_deal(round_id=round.pk)
    settled = rounds.round_settle(round_id=round.pk, locked=locked)
    assert settled is not locked and settled.state == Round.State.SETTLED
    assert (settled.player_cards, settled.banker_cards) == (dealt.player_cards, dealt.banker_cards)


def test_the_lock_leaves_the_next_shoe_on_the_round(seated: Any, table: Table) -> None:
    """What the board shows after the deal: the shoe a new round would be dealt from."""
    round = betting.round_open(table=table, player=seated)
    _bet(round, seated)
    locked = rounds.round_lock(round_id=round.pk).round
    assert locked.next_shoe == Shoe.objects.get(table=table, player=seated, is_finished=False)
    assert locked.next_shoe.pk != locked.shoe_id  # a one-deck table shuffles every coup
