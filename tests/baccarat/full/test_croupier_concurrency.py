"""Eight players at once, with real threads on PostgreSQL: eight sits on one seat give
eight different seats; eight Deal presses in the same instant give one deal."""

from __future__ import annotations

from collections import Counter
from datetime import timedelta
from typing import Any

import pytest

from baccarat.full import croupier, seats
from baccarat.integrity.audit import audit_violations
from baccarat.models import Play, Round, Seat, Shoe, Table, TableEvent
from tests.baccarat.conftest import make_player
from wallet.models import Transaction

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def salon(db: None) -> Table:
    return Table.objects.create(
        name="Race salon",
        slug="race-salon",
        kind=Table.Kind.FULL,
        seats=8,
        decks=8,
        reshuffle=Table.Reshuffle.CUT_CARD,
    )


def seated_round(salon: Table, count: int, name: str) -> tuple[list[Any], Round]:
    """``count`` players seated in seats 1, 2, ..., the shoe cut by the croupier, a round
    taking bets."""
    players = []
    for i in range(count):
        player = make_player(f"{name}{i}")
        seats.seat_take(
            table=salon, player=player, number=i + 1, buy_in=50_00, reference=f"{name}{i}"
        )
        players.append(player)
    croupier.table_tick(table_id=salon.pk)
    shoe = Shoe.objects.get(table=salon, is_finished=False)
    croupier.table_tick(table_id=salon.pk, now=shoe.cut_offer_until + timedelta(seconds=1))
    round = croupier.open_round(salon)
    assert round is not None
    return players, round


def test_eight_players_sitting_on_one_seat_get_eight_seats(salon: Table, racers: Any) -> None:
    players = [make_player(f"sitter{i}") for i in range(8)]
    results = racers.run(
        [
            lambda p=p: seats.seat_take(
                table=salon, player=p, number=4, buy_in=50_00, reference=f"sit:{p.pk}"
            )
            for p in players
        ]
    )
    assert not [r for r in results if isinstance(r, Exception)], results
    numbers = sorted(Seat.objects.filter(table=salon).values_list("number", flat=True))
    assert numbers == list(range(1, 9))
    assert Counter(TableEvent.objects.filter(table=salon).values_list("kind", flat=True)) == {
        "sit": 8
    }
    assert audit_violations() == []


def test_eight_deal_presses_and_four_ticks_at_once_make_one_deal(salon: Table, racers: Any) -> None:
    players, round = seated_round(salon, 8, "dealer")
    for player in players:
        croupier.full_bet(table=salon, player=player, kind="banker", amount=500, take_back=False)
    results = racers.run(
        [lambda p=p: croupier.full_decide(table=salon, player=p, deal=True) for p in players]
    )
    assert not [r for r in results if isinstance(r, Exception)], results
    round.refresh_from_db()
    assert round.state == Round.State.BETTING  # every Deal answered; the croupier deals
    # The tick sent by the last Deal, the sweep's and a redelivered one, all at once.
    ticks = racers.run([lambda: croupier.table_tick(table_id=salon.pk) for _ in range(4)])
    assert not [r for r in ticks if isinstance(r, Exception)], ticks
    round.refresh_from_db()
    assert round.state == Round.State.SETTLED
    assert Round.objects.filter(table=salon, shared=True).count() == 1
    assert set(Play.objects.filter(round=round).values_list("decision", flat=True)) == {"deal"}
    kinds = Counter(TableEvent.objects.filter(table=salon).values_list("kind", flat=True))
    assert kinds["result"] == 1 and kinds["decision"] == 8
    assert kinds["card"] == len(round.reserved_cards) // 2
    seqs = sorted(TableEvent.objects.filter(table=salon).values_list("seq", flat=True))
    assert seqs == list(range(1, len(seqs) + 1))
    assert audit_violations() == []


def test_four_deal_presses_with_one_key_at_once_decide_once(salon: Table, racers: Any) -> None:
    players = []
    for i in range(2):
        player = make_player(f"keyed{i}")
        seats.seat_take(table=salon, player=player, number=i + 1, buy_in=50_00, reference=f"k{i}")
        players.append(player)
    croupier.table_tick(table_id=salon.pk)
    shoe = Shoe.objects.get(table=salon, is_finished=False)
    croupier.table_tick(table_id=salon.pk, now=shoe.cut_offer_until + timedelta(seconds=1))
    round = croupier.open_round(salon)
    assert round is not None
    anna = players[0]
    croupier.full_bet(table=salon, player=anna, kind="banker", amount=500, take_back=False)
    results = racers.run(
        [lambda: croupier.full_decide(table=salon, player=anna, deal=True, token="press1")] * 4
    )
    assert not [r for r in results if isinstance(r, Exception)], results
    assert sum(r.mine is not None for r in results) == 1  # type: ignore[attr-defined]
    assert Play.objects.get(round=round, player=anna).decision == "deal"
    assert TableEvent.objects.filter(table=salon, kind="decision").count() == 1
    assert Transaction.objects.filter(round_id=round.pk, kind=Transaction.Kind.STAKE).count() == 1
    assert audit_violations() == []


def test_four_posts_of_one_chip_at_once_place_it_once(salon: Table, racers: Any) -> None:
    player = make_player("keyedchip")
    seats.seat_take(table=salon, player=player, number=1, buy_in=50_00, reference="kc")
    croupier.table_tick(table_id=salon.pk)
    shoe = Shoe.objects.get(table=salon, is_finished=False)
    croupier.table_tick(table_id=salon.pk, now=shoe.cut_offer_until + timedelta(seconds=1))
    round = croupier.open_round(salon)
    assert round is not None
    chip = {"table": salon, "player": player, "kind": "tie", "amount": 500, "take_back": False}
    results = racers.run([lambda: croupier.full_bet(**chip, token="chip1")] * 4)
    assert not [r for r in results if isinstance(r, Exception)], results
    play = Play.objects.get(round=round, player=player)
    assert play.stake_total == 500 and play.chip_keys == "chip1"
    assert TableEvent.objects.filter(table=salon, kind="bets").count() == 1


def test_four_sits_with_one_token_at_once_bring_the_chips_once(salon: Table, racers: Any) -> None:
    """The seat's token (issued with the form) raced: one seat, one buy-in."""
    player = make_player("sitonce")
    results = racers.run(
        [
            lambda: seats.seat_take(
                table=salon, player=player, number=2, buy_in=30_00, reference="sit:x:y:t1"
            )
        ]
        * 4
    )
    assert not [r for r in results if isinstance(r, Exception)], results
    assert Seat.objects.get(table=salon, player=player).number == 2
    assert Transaction.objects.filter(reference="sit:x:y:t1").count() == 1
    assert audit_violations() == []


def test_layouts_sent_on_a_pause_and_deals_with_the_next_ones_at_once(
    salon: Table, racers: Any
) -> None:
    """Each page sends its layout on a pause and, a moment later, Deal with the chips laid
    out since: whichever the table's lock takes first, Deal plays its own layout, once."""
    players, round = seated_round(salon, 4, "quick")
    calls = []
    for player in players:
        calls.append(
            lambda p=player: croupier.full_layout(
                table=salon, player=p, stakes={"banker": 500}, token=f"l{p.pk}"
            )
        )
        calls.append(
            lambda p=player: croupier.full_decide(
                table=salon, player=p, deal=True, token=f"d{p.pk}", stakes={"banker": 1500}
            )
        )
    results = racers.run(calls)
    assert not [r for r in results[1::2] if isinstance(r, Exception)], results
    for player in players:
        play = Play.objects.get(round=round, player=player)
        assert play.decision == Play.Decision.DEAL and play.stake_total == 1500
        assert dict(play.bets.values_list("kind", "stake")) == {"banker": 1500}
    stakes = Transaction.objects.filter(round=round, kind=Transaction.Kind.STAKE)
    assert stakes.count() == 4
    assert audit_violations() == []
