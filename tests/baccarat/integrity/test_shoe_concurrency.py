"""Sixteen rounds locked at once on one shared 8-deck shoe, settled in random order, some
recovered late: no card position twice, the shoe only ever moves forward, and every
round's cards are a replay of the stored order. PostgreSQL with real threads."""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from baccarat import engine, recovery
from baccarat.integrity import shoes
from baccarat.integrity.audit import audit_violations
from baccarat.integrity.fairness import shoe_verification
from baccarat.models import DealtCard, Round, Shoe, Table
from baccarat.play import betting, rounds
from tests.baccarat.conftest import make_player
from wallet import services as wallet

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

ROUNDS = 16


def test_sixteen_concurrent_locks_on_one_shared_shoe(racers: Any) -> None:
    table = Table.objects.create(
        name="Race shoe",
        slug="race-shoe",
        kind=Table.Kind.FULL,
        seats=8,
        decks=8,
        reshuffle=Table.Reshuffle.CUT_CARD,
        burn=Table.Burn.FIRST_CARD,
    )
    betting_rounds = []
    for i in range(ROUNDS):
        player = make_player(f"racer{i}")
        wallet.wallet_rebuy(player=player, table=table, amount=100_00, reference=f"r{i}")
        round = betting.round_open(table=table, player=player)
        betting.bet_place(round=round, player=player, kind="player", amount=500)
        betting_rounds.append(round.pk)
    shoe = shoes.shoe_open(table=table, player=None)
    shoes.shoe_cut(shoe=shoe, position=None, by=None)
    shoe.refresh_from_db()
    start = shoe.state["position"]

    results = racers.run([lambda pk=pk: rounds.round_lock(round_id=pk) for pk in betting_rounds])
    assert not [r for r in results if isinstance(r, Exception)], results

    locked = list(Round.objects.filter(pk__in=betting_rounds).order_by("start_position"))
    assert [r.hand_number for r in locked] == list(range(1, ROUNDS + 1))
    # The ranges tile the shoe from where it stood, one after the other.
    position = start
    for round in locked:
        assert round.start_position == position
        position = round.end_position
    shoe.refresh_from_db()
    assert shoe.state["position"] == position

    order = list(betting_rounds)
    random.Random(2026).shuffle(order)
    late = set(order[:4])  # left for the sweep, as after a crash
    positions_seen = [shoe.state["position"]]
    results = racers.run(
        [lambda pk=pk: rounds.round_play(round_id=pk) for pk in order if pk not in late]
    )
    assert not [r for r in results if isinstance(r, Exception)], results
    shoe.refresh_from_db()
    positions_seen.append(shoe.state["position"])
    Round.objects.filter(pk__in=late).update(locked_at=timezone.now() - timedelta(minutes=1))
    report = recovery.recover_rounds()
    assert sorted(report.completed) == sorted(late)
    shoe.refresh_from_db()
    positions_seen.append(shoe.state["position"])
    assert positions_seen == sorted(positions_seen)  # the shoe never moved back

    dealer = engine.Shoe.from_state(shoe.state)
    taken = list(DealtCard.objects.filter(shoe=shoe).values_list("position", flat=True))
    assert len(taken) == len(set(taken))
    for round in Round.objects.filter(pk__in=betting_rounds):
        assert round.state == Round.State.SETTLED
        replay = engine.deal_cards(dealer.dealing_order[round.start_position : round.end_position])
        assert round.player_cards == " ".join(c.code for c in replay.player_cards)
        assert round.banker_cards == " ".join(c.code for c in replay.banker_cards)
        assert round.outcome == replay.outcome.value
    assert audit_violations() == []

    # End the shoe: its order is revealed and every round verifies against it.
    Shoe.objects.filter(pk=shoe.pk).update(is_finished=True, finished_at=timezone.now())
    recovery.recover_rounds()
    shoe.refresh_from_db()
    assert shoe.is_revealed
    assert shoe_verification(shoe).ok
