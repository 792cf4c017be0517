"""Eight players at once, with real threads on PostgreSQL: eight sits on one seat give
eight different seats; eight Deal presses in the same instant give one deal; presses
raced with the croupier's close, a void or the player's own standing up are each played
or refused whole, with no lock waiting on another and no stake left behind."""

from __future__ import annotations

from collections import Counter
from datetime import timedelta
from typing import Any

import pytest

from baccarat.engine.errors import EngineError
from baccarat.errors import RoundError
from baccarat.full import croupier, seats
from baccarat.integrity.audit import audit_violations
from baccarat.models import Play, Round, Seat, Shoe, Table, TableEvent
from baccarat.play import rounds
from tests.baccarat.conftest import make_player
from wallet.models import Account, Transaction

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
    assert events_in_order(salon)
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


def refused(result: object, *codes: str) -> bool:
    """Whether ``result`` is a press refused as a player is told (not a database error)."""
    return isinstance(result, RoundError | EngineError) and result.code in codes


def stakes_left_in_escrow(table: Table) -> list[int]:
    return list(
        Account.objects.filter(table=table, kind=Account.Kind.ESCROW)
        .exclude(balance=0)
        .values_list("balance", flat=True)
    )


def events_in_order(table: Table) -> bool:
    seqs = sorted(TableEvent.objects.filter(table=table).values_list("seq", flat=True))
    return seqs == list(range(1, len(seqs) + 1))


def test_deal_presses_raced_with_the_close_at_the_deadline_are_played_or_refused_whole(
    salon: Table, racers: Any
) -> None:
    """A press works under its seat's lock and the close locks every seat before the
    table: a Deal answered is dealt, one that came after the close is refused and its bets
    go back with the others left out; nothing waits on anything forever."""
    players, round = seated_round(salon, 8, "late")
    for player in players:
        croupier.full_bet(table=salon, player=player, kind="banker", amount=500, take_back=False)
    assert round.deadline is not None
    late = round.deadline + timedelta(milliseconds=1)
    presses = [lambda p=p: croupier.full_decide(table=salon, player=p, deal=True) for p in players]
    ticks = [lambda: croupier.table_tick(table_id=salon.pk, now=late)] * 2
    results = racers.run(presses + ticks)
    assert not [r for r in results[8:] if isinstance(r, Exception)], results
    answered = [not isinstance(r, Exception) for r in results[:8]]
    # Refused after the close: betting is over, or the next round (opened by the same
    # tick, as the test's clock is past the pause between rounds) has no bets yet.
    late_codes = ("betting_not_open", "no_bet")
    assert all(ok or refused(r, *late_codes) for ok, r in zip(answered, results, strict=False))
    round.refresh_from_db()
    assert round.state == (Round.State.SETTLED if any(answered) else Round.State.CLOSED)
    for player, ok in zip(players, answered, strict=True):
        play = Play.objects.get(round=round, player=player)
        assert play.decision == (Play.Decision.DEAL if ok else Play.Decision.TIMED_OUT)
        assert (play.stake_total > 0) == ok
    assert stakes_left_in_escrow(salon) == []
    assert events_in_order(salon)
    assert audit_violations() == []


def test_deal_presses_raced_with_a_void_leave_no_stake_behind(salon: Table, racers: Any) -> None:
    """Support voids the round while its players press Deal: a void locks every seat
    first, so each Deal is in before it (and its stake comes back) or refused after it."""
    players, round = seated_round(salon, 8, "void")
    for player in players:
        croupier.full_bet(table=salon, player=player, kind="player", amount=500, take_back=False)
    presses = [lambda p=p: croupier.full_decide(table=salon, player=p, deal=True) for p in players]

    def void() -> object:
        return rounds.round_void(round_id=round.pk, reason="test", by="support")

    results = racers.run([*presses[:4], void, *presses[4:]])
    voided = results.pop(4)
    assert not isinstance(voided, Exception), voided
    assert all(not isinstance(r, Exception) or refused(r, "betting_not_open") for r in results)
    round.refresh_from_db()
    assert round.state == Round.State.VOID
    decided = Play.objects.filter(round=round, decision="deal").count()
    assert decided == sum(not isinstance(r, Exception) for r in results)
    refunds = Transaction.objects.filter(round=round, kind=Transaction.Kind.REFUND).count()
    assert refunds == decided
    assert stakes_left_in_escrow(salon) == []
    assert events_in_order(salon)
    assert audit_violations() == []


def test_a_player_standing_up_while_pressing_deal_does_one_or_the_other(
    salon: Table, racers: Any
) -> None:
    """Four players each press Deal and stand up at the same moment (two tabs): both lock
    the player's seat first, so either the Deal plays and standing up waits for the deal,
    or the player leaves with the chips and the Deal finds no seat."""
    players, round = seated_round(salon, 4, "both")
    for player in players:
        croupier.full_bet(table=salon, player=player, kind="banker", amount=500, take_back=False)
    calls: list[Any] = []
    for player in players:
        calls.append(lambda p=player: croupier.full_decide(table=salon, player=p, deal=True))
        calls.append(lambda p=player: seats.seat_leave(table=salon, player=p))
    results = racers.run(calls)
    for player, press, leave in zip(players, results[::2], results[1::2], strict=True):
        seated = Seat.objects.filter(table=salon, player=player).exists()
        play = Play.objects.filter(round=round, player=player).first()
        if seated:  # the Deal came first: standing up waits until the round is dealt
            assert not isinstance(press, Exception), press
            assert refused(leave, "round_being_dealt"), leave
            assert play is not None and play.decision == "deal" and play.stake_total == 500
        else:  # standing up came first: the bets went back, the Deal found no seat
            assert isinstance(leave, int) and leave > 0, leave
            assert refused(press, "not_seated"), press
            assert play is None or (play.decision == "" and play.stake_total == 0)
            stack = Account.objects.filter(owner=player, table=salon, kind=Account.Kind.STACK)
            assert set(stack.values_list("balance", flat=True)) <= {0}
    assert events_in_order(salon)
    assert audit_violations() == []
