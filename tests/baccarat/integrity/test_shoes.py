"""A card of a shoe is dealt to one round, once: reservation at lock, the cut card, the
burn, private and shared shoes, and the database's own guard."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from baccarat import engine, recovery
from baccarat.integrity import shoes
from baccarat.models import DealtCard, Round, Shoe, Table
from baccarat.play import betting, rounds
from tests.baccarat.conftest import make_player
from wallet import services as wallet


@pytest.fixture
def shared_table(db: None) -> Table:
    """A table with one shared 8-deck cut-card shoe (as a full table has), cut."""
    table = Table.objects.create(
        name="Shared",
        slug="shared",
        kind=Table.Kind.FULL,
        seats=8,
        decks=8,
        reshuffle=Table.Reshuffle.CUT_CARD,
        burn=Table.Burn.FIRST_CARD,
    )
    cut_open_shoe(table)
    return table


def cut_open_shoe(table: Table) -> Shoe:
    """A full table's new shoe waits for its cut (the croupier's ritual): cut it here."""
    shoe = shoes.shoe_open(table=table, player=None)
    if shoe.cut_position is None:
        shoes.shoe_cut(shoe=shoe, position=None, by=None)
    return shoe


def _players(table: Table, count: int) -> list[Any]:
    players = []
    for i in range(count):
        player = make_player(f"p{i}")
        wallet.wallet_rebuy(player=player, table=table, amount=100_00, reference=f"r{i}")
        players.append(player)
    return players


def _betting(table: Table, player: Any, amount: int = 500) -> Round:
    round = betting.round_open(table=table, player=player)
    betting.bet_place(round=round, player=player, kind="banker", amount=amount)
    return round


def _replayed(round: Round) -> str:
    """The round's cards re-drawn from its shoe's stored order at its positions."""
    assert round.shoe is not None and round.start_position is not None
    dealer = engine.Shoe.from_state(round.shoe.state)
    return engine.codes_of(dealer.dealing_order[round.start_position : round.end_position])


def test_two_rounds_locked_before_either_settles_get_different_cards(
    shared_table: Table,
) -> None:
    a_player, b_player = _players(shared_table, 2)
    a = _betting(shared_table, a_player)
    b = _betting(shared_table, b_player)
    rounds.round_lock(round_id=a.pk)
    rounds.round_lock(round_id=b.pk)
    rounds.round_play(round_id=b.pk)
    rounds.round_play(round_id=a.pk)
    a.refresh_from_db()
    b.refresh_from_db()
    assert a.shoe_id == b.shoe_id
    assert (a.hand_number, b.hand_number) == (1, 2)
    assert b.start_position == a.end_position
    assert a.reserved_cards != b.reserved_cards or a.start_position != b.start_position
    assert {a.reserved_cards, b.reserved_cards} == {_replayed(a), _replayed(b)}
    positions = list(DealtCard.objects.filter(round__in=[a, b]).values_list("position", flat=True))
    assert len(positions) == len(set(positions)) == len(a.reserved_cards + b.reserved_cards) // 2


def test_a_late_recovery_never_moves_the_shoe_back(shared_table: Table) -> None:
    c_player, d_player, e_player, f_player = _players(shared_table, 4)
    c = _betting(shared_table, c_player)
    rounds.round_lock(round_id=c.pk)  # what a crash right after the stake leaves
    for player in (d_player, e_player):
        rounds.round_play(round_id=_betting(shared_table, player).pk)
    shoe = Shoe.objects.get(table=shared_table, is_finished=False)
    position_before = shoe.state["position"]
    Round.objects.filter(pk=c.pk).update(locked_at=timezone.now() - timedelta(minutes=1))
    assert recovery.recover_rounds().completed == [c.pk]
    shoe.refresh_from_db()
    assert shoe.state["position"] == position_before
    f = _betting(shared_table, f_player)
    rounds.round_play(round_id=f.pk)
    f.refresh_from_db()
    assert f.start_position == position_before
    c.refresh_from_db()
    assert c.player_cards and engine.codes_of(
        engine.deal_cards(engine.cards_from_codes(c.reserved_cards)).dealt_order
    ) == _replayed(c)


def test_locked_cards_are_hidden_until_the_deal(shared_table: Table) -> None:
    (player,) = _players(shared_table, 1)
    round = _betting(shared_table, player)
    rounds.round_lock(round_id=round.pk)
    round.refresh_from_db()
    assert len(round.reserved_cards) in (8, 10, 12)
    assert (round.player_cards, round.banker_cards, round.outcome) == ("", "", "")
    assert round.player_total is None and round.dealt_at is None
    rounds.round_deal(round_id=round.pk)
    round.refresh_from_db()
    coup = engine.deal_cards(engine.cards_from_codes(round.reserved_cards))
    assert round.player_cards == " ".join(c.code for c in coup.player_cards)


def test_the_database_refuses_a_card_position_twice(shared_table: Table) -> None:
    (player,) = _players(shared_table, 1)
    round = _betting(shared_table, player)
    rounds.round_play(round_id=round.pk)
    round.refresh_from_db()
    with pytest.raises(IntegrityError), transaction.atomic():
        DealtCard.objects.create(shoe=round.shoe, position=round.start_position, round=round)


def test_burned_cards_are_recorded_and_never_dealt(shared_table: Table) -> None:
    shoe = shoes.shoe_open(table=shared_table, player=None)
    dealer = engine.Shoe.from_state(shoe.state)
    assert shoe.burned_count == len(dealer.burned) == 1 + (dealer.dealing_order[0].point or 10)
    assert shoe.burn_card == dealer.dealing_order[0].code
    burned = DealtCard.objects.filter(shoe=shoe, round__isnull=True)
    assert sorted(burned.values_list("position", flat=True)) == list(range(shoe.burned_count))
    (player,) = _players(shared_table, 1)
    round = _betting(shared_table, player)
    rounds.round_play(round_id=round.pk)
    round.refresh_from_db()
    assert round.start_position == shoe.burned_count


def test_the_cut_card_finishes_the_coup_and_the_next_round_starts_a_new_shoe(
    shared_table: Table,
) -> None:
    (player,) = _players(shared_table, 1)
    shoe = shoes.shoe_open(table=shared_table, player=None)
    dealer = engine.Shoe.from_state(shoe.state)
    # Two cards before the cut card: the next coup takes it out and still completes.
    dealer.position = dealer.cut_card_index - 2
    Shoe.objects.filter(pk=shoe.pk).update(state=dealer.to_state())
    last = _betting(shared_table, player)
    rounds.round_play(round_id=last.pk)
    last.refresh_from_db()
    shoe.refresh_from_db()
    assert last.shoe_id == shoe.pk and last.end_position > dealer.cut_card_index
    assert shoe.is_finished and shoe.revealed_at is not None
    following = _betting(shared_table, player)
    cut_open_shoe(shared_table)  # the next shoe is offered for the cut first
    rounds.round_play(round_id=following.pk)
    following.refresh_from_db()
    assert following.shoe_id != shoe.pk
    assert following.shoe.number == shoe.number + 1 and following.hand_number == 1


def test_each_player_has_a_shoe_of_their_own_at_a_single_player_table(
    cut_table: Table, alice: Any, bob: Any
) -> None:
    for player in (alice, bob):
        wallet.wallet_rebuy(player=player, table=cut_table, amount=50_00, reference=f"r{player}")
        rounds.round_play(round_id=_betting(cut_table, player).pk)
    mine = Round.objects.get(plays__player=alice)
    theirs = Round.objects.get(plays__player=bob)
    assert mine.shoe.player == alice and theirs.shoe.player == bob
    assert mine.shoe.number == theirs.shoe.number == 1
    assert mine.hand_number == theirs.hand_number == 1


def test_a_change_of_decks_replaces_the_open_shoe(cut_table: Table, alice: Any) -> None:
    wallet.wallet_rebuy(player=alice, table=cut_table, amount=50_00, reference="r")
    rounds.round_play(round_id=_betting(cut_table, alice).pk)
    old = Shoe.objects.get(table=cut_table, player=alice, is_finished=False)
    cut_table.decks = 6
    cut_table.save()
    rounds.round_play(round_id=_betting(cut_table, alice).pk)
    old.refresh_from_db()
    assert old.is_finished and old.revealed_at is not None
    latest = Round.objects.filter(plays__player=alice).latest("pk")
    assert latest.shoe.state["decks"] == 6 and latest.shoe.number == 2


def test_a_shoe_is_ready_before_the_first_bet(client: Any, alice: Any, table: Table) -> None:
    client.force_login(alice)
    page = client.get(f"/tables/{table.slug}/").content.decode()
    shoe = Shoe.objects.get(table=table, player=alice, is_finished=False)
    assert shoe.commitment in page
    wallet.wallet_rebuy(player=alice, table=table, amount=50_00, reference="r")
    round = _betting(table, alice)
    rounds.round_play(round_id=round.pk)
    round.refresh_from_db()
    assert round.shoe_id == shoe.pk  # dealt from the shoe committed before the bet


def test_a_lock_deals_from_the_shoe_the_layout_read_locked_by_its_id(alice: Any) -> None:
    """A single-seat table's layout brings the player's open shoe; the lock takes it by
    its id and reads it again under the lock. A shoe that has ended meanwhile (or was
    never the open one) is not dealt from: the open shoe is looked up as before."""
    table = Table.objects.create(
        name="Cut", slug="cut", decks=8, reshuffle=Table.Reshuffle.CUT_CARD
    )
    wallet.wallet_rebuy(player=alice, table=table, amount=100_00, reference="known")
    shoe = shoes.shoe_open(table=table, player=alice)
    stale = Shoe.objects.get(pk=shoe.pk)
    stale.state = {**stale.state}  # what the layout read: the same shoe, as it was then

    def lock(known: Shoe) -> Round:
        round = betting.round_open(table=table, player=alice)
        betting.bet_place(round=round, player=alice, kind="banker", amount=500)
        play = rounds.staked_plays(round)[0]
        with transaction.atomic():
            result = rounds.lock_betting_round(round, [play], escrowed=False, shoe=known)
        rounds.round_settle(round_id=round.pk)
        return result.round

    first = lock(stale)
    assert first.shoe.pk == shoe.pk
    # Read again under the lock: the next round, given the same stale copy, takes the
    # cards after the first round's, not the same ones.
    second = lock(stale)
    assert second.shoe.pk == shoe.pk and second.start_position == first.end_position
    # The shoe ends (as when the decks change); the stale copy names it still.
    Shoe.objects.filter(pk=shoe.pk).update(is_finished=True, finished_at=timezone.now())
    third = lock(stale)
    assert third.shoe.pk != shoe.pk and not third.shoe.is_finished
    # Every position up to the second round's end taken once: the burn, then the rounds.
    assert DealtCard.objects.filter(shoe=shoe).count() == second.end_position
