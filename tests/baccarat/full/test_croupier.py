"""The full table's croupier: seats, the cut offer and the burn, Deal or Pass, the betting
timer, and the events that tell every browser what happened."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest
from django.utils import timezone

from baccarat import engine, recovery
from baccarat.errors import RoundError
from baccarat.full import croupier, seats
from baccarat.integrity.audit import audit_violations
from baccarat.integrity.fairness import shoe_verification
from baccarat.models import Play, Round, Seat, Shoe, Table, TableEvent
from tests.baccarat.conftest import make_player, ready, sit

pytestmark = pytest.mark.django_db


def kinds(table: Table) -> list[str]:
    return list(
        TableEvent.objects.filter(table=table).order_by("seq").values_list("kind", flat=True)
    )


def test_sitting_takes_the_next_free_seat_and_the_buy_in(salon: Table, stack_of: Any) -> None:
    anna = sit(salon, "anna", 3)
    ben = sit(salon, "ben", 3)  # taken meanwhile: the next free seat
    assert Seat.objects.get(player=anna).number == 3
    assert Seat.objects.get(player=ben).number == 4
    assert stack_of(anna, salon) == 100_00
    again = seats.seat_take(table=salon, player=anna, number=7, buy_in=0, reference="again")
    assert again.number == 3 and Seat.objects.filter(player=anna).count() == 1
    for i, number in enumerate([1, 2, 5, 6, 7, 8]):
        sit(salon, f"p{i}", number)
    late = make_player("late")
    with pytest.raises(RoundError) as full:
        seats.seat_take(table=salon, player=late, number=1, buy_in=100_00, reference="late")
    assert full.value.code == "table_full"
    assert stack_of(late, salon) == 0  # the buy-in went back with the refusal
    assert kinds(salon).count("sit") == 8


def test_a_seat_needs_chips(salon: Table) -> None:
    player = make_player("empty")
    with pytest.raises(RoundError) as error:
        seats.seat_take(table=salon, player=player, number=1, buy_in=0, reference="x")
    assert error.value.code == "buy_in_needed"


def test_the_cut_is_offered_in_seat_order_then_the_croupier_cuts(salon: Table) -> None:
    anna, ben = sit(salon, "anna", 2), sit(salon, "ben", 5)
    croupier.table_tick(table_id=salon.pk)
    shoe = Shoe.objects.get(table=salon, is_finished=False)
    assert shoe.cut_position is None and shoe.cut_offer_seat == 2
    assert croupier.open_round(salon) is None  # no round before the cut
    with pytest.raises(RoundError):
        croupier.cut_decide(table=salon, player=ben, accept=True, position=100)
    croupier.cut_decide(table=salon, player=anna, accept=False)
    shoe.refresh_from_db()
    assert shoe.cut_offer_seat == 5
    croupier.table_tick(table_id=salon.pk, now=shoe.cut_offer_until + timedelta(seconds=1))
    shoe.refresh_from_db()
    assert shoe.cut_position is not None and shoe.cut_by is None  # the croupier cut
    dealer = engine.Shoe.from_state(shoe.state)
    assert shoe.burned_count == 1 + (dealer.dealing_order[0].point or 10)
    assert kinds(salon)[-5:] == ["cut_declined", "cut_offer", "cut", "burn", "round_open"]


def test_a_player_places_the_cut_card(salon: Table) -> None:
    anna = sit(salon, "anna", 1)
    croupier.table_tick(table_id=salon.pk)
    with pytest.raises(RoundError) as outside:
        croupier.cut_decide(table=salon, player=anna, accept=True, position=5)
    assert outside.value.code == "cut_outside"
    croupier.cut_decide(table=salon, player=anna, accept=True, position=200)
    shoe = Shoe.objects.get(table=salon, is_finished=False)
    assert (shoe.cut_position, shoe.cut_by) == (200, anna)
    order = engine.cards_from_codes(shoe.state["order"])
    assert engine.Shoe.from_state(shoe.state).dealing_order[0] == order[200]
    assert shoe.commitment == engine.commitment_of(order, shoe.state["salt"])


def test_deal_and_pass_then_the_cards(salon: Table, stack_of: Any) -> None:
    anna, ben, cara = sit(salon, "anna", 1), sit(salon, "ben", 2), sit(salon, "cara", 3)
    round = ready(salon)
    croupier.full_bet(table=salon, player=anna, kind="banker", amount=1000, take_back=False)
    croupier.full_bet(table=salon, player=ben, kind="player", amount=500, take_back=False)
    croupier.full_bet(table=salon, player=cara, kind="tie", amount=500, take_back=False)
    croupier.full_decide(table=salon, player=anna, deal=True)
    assert stack_of(anna, salon) == 90_00  # the stake is committed at once
    croupier.full_decide(table=salon, player=cara, deal=False)
    assert stack_of(cara, salon) == 100_00
    round.refresh_from_db()
    assert round.state == Round.State.BETTING  # ben has not decided
    croupier.full_decide(table=salon, player=ben, deal=True)
    round.refresh_from_db()
    assert round.state == Round.State.BETTING  # the last Deal leaves the cards to the croupier
    croupier.table_tick(table_id=salon.pk)  # the croupier's step deals
    round.refresh_from_db()
    assert round.state == Round.State.SETTLED
    plays = {p.player_id: p for p in Play.objects.filter(round=round)}
    assert plays[cara.pk].decision == Play.Decision.PASS and plays[cara.pk].stake_total == 0
    assert stack_of(anna, salon) == 90_00 + plays[anna.pk].payout_total
    events = kinds(salon)
    assert events.count("card") == len(round.reserved_cards) // 2
    assert events[-2:] == ["result", "payouts"]
    payouts = TableEvent.objects.filter(table=salon, kind="payouts").get().data["seats"]
    assert set(payouts) == {"1", "2"}
    assert audit_violations() == []


def test_the_last_decision_sends_the_croupiers_step_for_now_and_deals_nothing(
    salon: Table, settings: Any, monkeypatch: Any, django_capture_on_commit_callbacks: Any
) -> None:
    """The last Deal answers as any other: the dealing is a task of its own, sent to the
    next free worker at once (no ETA), after the decision commits."""
    anna, ben = sit(salon, "anna", 1), sit(salon, "ben", 2)
    round = ready(salon)
    settings.CASINO_TABLE_TICKS = True
    sent: list[tuple[str, tuple[Any, ...], dict[str, Any]]] = []
    monkeypatch.setattr(
        croupier.current_app,
        "send_task",
        lambda name, args=(), **options: sent.append((name, tuple(args), options)),
    )
    for player in (anna, ben):
        croupier.full_bet(table=salon, player=player, kind="banker", amount=500, take_back=False)
    with django_capture_on_commit_callbacks(execute=True):
        assert croupier.full_decide(table=salon, player=anna, deal=True).last is False
    assert sent == []  # ben still decides: the tick at the deadline is on its way already
    with django_capture_on_commit_callbacks(execute=True):
        assert croupier.full_decide(table=salon, player=ben, deal=True).last is True
    [(name, args, options)] = sent
    assert (name, args, list(options)) == ("baccarat.tasks.table_tick", (salon.pk,), ["kwargs"])
    assert abs(datetime.fromisoformat(options["kwargs"]["at"]) - timezone.now()) < timedelta(
        seconds=5
    )
    round.refresh_from_db()
    assert round.state == Round.State.BETTING and kinds(salon)[-1] == "decision"
    croupier.table_tick(table_id=salon.pk)  # what the worker runs
    round.refresh_from_db()
    assert round.state == Round.State.SETTLED
    assert audit_violations() == []


def test_one_tick_is_on_its_way_for_each_moment_however_often_the_table_is_ticked(
    salon: Table, settings: Any, monkeypatch: Any, django_capture_on_commit_callbacks: Any
) -> None:
    """Unplanned ticks (the sweep's, a Deal's) send the next one only for a moment no tick
    is on its way for; the tick sent for a moment takes it over, early or late, and a
    tick that got lost is made up by the next tick after its moment."""
    Table.objects.filter(pk=salon.pk).update(cycle_seconds=60)  # the pause outlasts betting
    anna = sit(salon, "anna", 1)
    round = ready(salon)
    settings.CASINO_TABLE_TICKS = True
    sent: list[datetime] = []
    monkeypatch.setattr(
        croupier.current_app,
        "send_task",
        lambda name, args=(), kwargs=None, **options: sent.append(
            datetime.fromisoformat(kwargs["at"])
        ),
    )

    def tick(now: datetime, sent_for: datetime | None = None) -> None:
        with django_capture_on_commit_callbacks(execute=True):
            croupier.table_tick(table_id=salon.pk, now=now, sent_for=sent_for)

    deadline = round.deadline
    for _ in range(3):  # the sweep, three times while the round takes bets
        tick(timezone.now())
    assert sent == [deadline]
    tick(deadline - timedelta(milliseconds=5), sent_for=deadline)  # its own, a little early
    assert sent == [deadline, deadline]
    croupier.full_bet(table=salon, player=anna, kind="player", amount=500, take_back=False)
    croupier.full_decide(table=salon, player=anna, deal=True)
    tick(timezone.now())  # the last Deal's tick: dealt now, the next round planned
    round.refresh_from_db()
    assert round.state == Round.State.SETTLED
    starts = round.settled_at + timedelta(seconds=60)
    assert sent[2:] == [starts]
    tick(deadline, sent_for=deadline)  # the deadline's tick comes: nothing more to send
    tick(timezone.now())
    assert sent[2:] == [starts]
    # The tick for ``starts`` got lost: the sweep's first pass after it opens the round.
    tick(starts + timedelta(seconds=3))
    opened = croupier.open_round(salon)
    assert opened is not None and opened.state == Round.State.BETTING
    assert sent[2:] == [starts, opened.deadline]
    salon.refresh_from_db()
    assert salon.tick_due == opened.deadline


def test_the_timer_leaves_out_who_did_not_decide(salon: Table, stack_of: Any) -> None:
    anna, ben = sit(salon, "anna", 1), sit(salon, "ben", 2)
    round = ready(salon)
    croupier.full_bet(table=salon, player=anna, kind="banker", amount=1000, take_back=False)
    croupier.full_bet(table=salon, player=ben, kind="player", amount=1000, take_back=False)
    croupier.full_decide(table=salon, player=anna, deal=True)
    croupier.table_tick(table_id=salon.pk, now=round.deadline - timedelta(seconds=1))
    round.refresh_from_db()
    assert round.state == Round.State.BETTING
    croupier.table_tick(table_id=salon.pk, now=round.deadline)
    round.refresh_from_db()
    assert round.state == Round.State.SETTLED
    ben_play = Play.objects.get(round=round, player=ben)
    assert ben_play.decision == Play.Decision.TIMED_OUT and not ben_play.bets.exists()
    assert stack_of(ben, salon) == 100_00
    assert Seat.objects.get(player=ben).missed == 1
    assert Seat.objects.get(player=anna).missed == 0
    left_out = TableEvent.objects.get(table=salon, kind="betting_closed").data["left_out"]
    assert left_out == [2]


def test_three_rounds_without_a_decision_stand_a_player_up(salon: Table, stack_of: Any) -> None:
    sit(salon, "anna", 1)
    ben = sit(salon, "ben", 2)
    now = timezone.now()
    for _ in range(3):
        round = ready(salon)
        now = round.deadline + timedelta(seconds=salon.cycle_seconds + 1)
        croupier.table_tick(table_id=salon.pk, now=round.deadline)
        round.refresh_from_db()
        assert round.state == Round.State.CLOSED  # nobody played
        Round.objects.filter(pk=round.pk).update(settled_at=now - timedelta(minutes=1))
    assert not Seat.objects.filter(player=ben).exists() or Seat.objects.get(player=ben).missed == 3
    croupier.table_tick(table_id=salon.pk, now=now)
    assert not Seat.objects.filter(player=ben).exists()
    assert stack_of(ben, salon) == 0  # cashed out
    leave = TableEvent.objects.filter(table=salon, kind="leave").last()
    assert leave.data == {"seat": 2, "player": "ben", "reason": "missed"}


def test_a_player_who_sits_down_during_a_round_waits_for_the_next(salon: Table) -> None:
    anna = sit(salon, "anna", 1)
    Seat.objects.filter(player=anna).update(sat_at=timezone.now() - timedelta(minutes=1))
    round = ready(salon)
    ben = sit(salon, "ben", 2)
    with pytest.raises(RoundError) as error:
        croupier.full_bet(table=salon, player=ben, kind="player", amount=500, take_back=False)
    assert error.value.code == "sat_during_round"
    croupier.full_bet(table=salon, player=anna, kind="player", amount=500, take_back=False)
    # Anna's Deal is the round's last decision: ben does not play it.
    assert croupier.full_decide(table=salon, player=anna, deal=True).last is True
    croupier.table_tick(table_id=salon.pk)  # the croupier's step deals
    round.refresh_from_db()
    assert round.state == Round.State.SETTLED  # ben was not waited for


def test_a_stake_below_the_minimum_is_raised_at_deal(salon: Table) -> None:
    anna = sit(salon, "anna", 1)
    ready(salon)
    croupier.full_bet(table=salon, player=anna, kind="player", amount=100, take_back=False)
    assert croupier.full_decide(table=salon, player=anna, deal=True).raised == ["player"]
    play = Play.objects.get(player=anna)
    assert play.stake_total == 500


def test_stakes_raised_at_deal_reach_every_page_with_the_decision(salon: Table) -> None:
    anna = sit(salon, "anna", 1)
    sit(salon, "ben", 2)
    round = ready(salon)
    croupier.full_bet(table=salon, player=anna, kind="player", amount=100, take_back=False)
    croupier.full_bet(table=salon, player=anna, kind="tie", amount=500, take_back=False)
    croupier.full_decide(table=salon, player=anna, deal=True)
    last = TableEvent.objects.filter(table=salon).order_by("-seq").first()
    assert (last.kind, last.data) == (
        "decision",
        {"round": round.pk, "seat": 1, "decision": "deal", "stakes": {"player": 500, "tie": 500}},
    )
    # Nothing raised: the decision alone.
    ben = Seat.objects.get(number=2).player
    croupier.full_bet(table=salon, player=ben, kind="banker", amount=500, take_back=False)
    before = len(kinds(salon))
    croupier.full_decide(table=salon, player=ben, deal=True)
    assert kinds(salon)[before:] == ["decision"]


def test_no_bets_after_deciding_and_no_leaving_with_a_committed_stake(salon: Table) -> None:
    anna, _ben = sit(salon, "anna", 1), sit(salon, "ben", 2)
    ready(salon)
    croupier.full_bet(table=salon, player=anna, kind="player", amount=500, take_back=False)
    croupier.full_decide(table=salon, player=anna, deal=True)
    with pytest.raises(RoundError) as decided:
        croupier.full_bet(table=salon, player=anna, kind="tie", amount=500, take_back=False)
    assert decided.value.code == "already_decided"
    with pytest.raises(RoundError) as leaving:
        seats.seat_leave(table=salon, player=anna)
    assert leaving.value.code == "round_being_dealt"


def test_spectators_bet_nothing(salon: Table) -> None:
    sit(salon, "anna", 1)
    ready(salon)
    watcher = make_player("watcher")
    with pytest.raises(RoundError) as error:
        croupier.full_bet(table=salon, player=watcher, kind="player", amount=500, take_back=False)
    assert error.value.code == "not_seated"


def test_event_numbers_have_no_gaps(salon: Table) -> None:
    anna = sit(salon, "anna", 1)
    ready(salon)
    croupier.full_bet(table=salon, player=anna, kind="player", amount=500, take_back=False)
    with pytest.raises(RoundError):  # a refused action writes no event and uses no number
        croupier.full_bet(table=salon, player=anna, kind="player", amount=10**9, take_back=False)
    croupier.full_decide(table=salon, player=anna, deal=True)
    seqs = list(
        TableEvent.objects.filter(table=salon).order_by("seq").values_list("seq", flat=True)
    )
    assert seqs == list(range(1, len(seqs) + 1))
    salon.refresh_from_db()
    assert salon.event_seq == seqs[-1]


def test_the_cut_card_ends_the_shoe_and_the_next_round_waits_for_a_new_one(salon: Table) -> None:
    anna = sit(salon, "anna", 1)
    ready(salon)
    shoe = Shoe.objects.get(table=salon, is_finished=False)
    dealer = engine.Shoe.from_state(shoe.state)
    dealer.position = dealer.cut_card_index - 1
    Shoe.objects.filter(pk=shoe.pk).update(state=dealer.to_state())
    from baccarat.models import DealtCard

    DealtCard.objects.bulk_create(
        DealtCard(shoe=shoe, position=p) for p in range(shoe.burned_count, dealer.position)
    )
    croupier.full_bet(table=salon, player=anna, kind="player", amount=500, take_back=False)
    croupier.full_decide(table=salon, player=anna, deal=True)
    croupier.table_tick(table_id=salon.pk)  # the croupier's step deals
    shoe.refresh_from_db()
    assert shoe.is_finished and shoe.is_revealed
    last = Round.objects.filter(table=salon, state=Round.State.SETTLED).get()
    assert last.end_position > dealer.cut_card_index  # the coup in progress finished
    check = shoe_verification(shoe)
    assert check.commitment_matches and check.rounds[0].ok
    later = timezone.now() + timedelta(seconds=salon.cycle_seconds + 1)
    croupier.table_tick(table_id=salon.pk, now=later)
    new = Shoe.objects.get(table=salon, is_finished=False)
    assert new.number == shoe.number + 1 and new.cut_position is None
    assert croupier.open_round(salon) is None  # the new shoe is offered for the cut first
    assert kinds(salon)[-2:] == ["shoe_new", "cut_offer"]


def test_the_sweep_closes_betting_when_the_timer_task_never_ran(salon: Table) -> None:
    anna, ben = sit(salon, "anna", 1), sit(salon, "ben", 2)
    round = ready(salon)
    croupier.full_bet(table=salon, player=anna, kind="banker", amount=500, take_back=False)
    croupier.full_bet(table=salon, player=ben, kind="player", amount=500, take_back=False)
    croupier.full_decide(table=salon, player=ben, deal=True)  # escrowed; anna never decides
    Round.objects.filter(pk=round.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    report = recovery.recover_rounds()
    assert report.tables_ticked == 1
    round.refresh_from_db()
    assert round.state == Round.State.SETTLED
    assert Play.objects.get(round=round, player=anna).decision == Play.Decision.TIMED_OUT
    assert audit_violations() == []


def test_a_player_gone_after_deal_hears_of_the_result(salon: Table, client: Any) -> None:
    anna, ben = sit(salon, "anna", 1), sit(salon, "ben", 2)
    ready(salon)
    croupier.full_bet(table=salon, player=anna, kind="banker", amount=500, take_back=False)
    croupier.full_decide(table=salon, player=anna, deal=True)
    # Anna closed her browser after pressing Deal: her page has not been seen since.
    Seat.objects.filter(player=anna).update(last_seen=timezone.now() - timedelta(minutes=1))
    croupier.full_bet(table=salon, player=ben, kind="player", amount=500, take_back=False)
    croupier.full_decide(table=salon, player=ben, deal=True)
    croupier.table_tick(table_id=salon.pk)  # the croupier's step deals
    round = Round.objects.get(table=salon, state=Round.State.SETTLED)
    assert Play.objects.get(round=round, player=anna).server_notice
    assert not Play.objects.get(round=round, player=ben).server_notice
    client.force_login(anna)
    page = client.get("/").content.decode()
    assert f"Your round #{round.pk} at Salon was dealt while you were away" in page
    assert f"/protocol/{round.pk}/" in page


def test_every_protocol_row_of_full_table_rounds_matches_the_engine(
    salon: Table, stack_of: Any
) -> None:
    import random

    from baccarat.rules.rule_sets import rules_of
    from wallet.models import Entry, Transaction

    rng = random.Random(13)
    players = [sit(salon, f"audit{i}", i + 1, buy_in=500_00) for i in range(4)]
    now = timezone.now()
    for _ in range(12):
        round = croupier.open_round(salon) or ready(salon)
        for player in players:
            spots = rng.sample(["player", "banker", "tie"], k=rng.choice([1, 1, 2]))
            if "player" in spots and "banker" in spots:
                spots.remove("banker")
            for spot in spots:
                croupier.full_bet(
                    table=salon,
                    player=player,
                    kind=spot,
                    amount=rng.choice([100, 500, 2500]),
                    take_back=False,
                )
            choice = rng.random()
            if choice < 0.7:
                croupier.full_decide(table=salon, player=player, deal=True)
            elif choice < 0.85:
                croupier.full_decide(table=salon, player=player, deal=False)
        croupier.table_tick(table_id=salon.pk)  # all decided: the croupier's step deals
        round.refresh_from_db()
        if round.state == Round.State.BETTING:  # someone did not decide: the timer deals
            croupier.table_tick(table_id=salon.pk, now=round.deadline)
        now = timezone.now() + timedelta(seconds=salon.cycle_seconds + 1)
        Round.objects.filter(pk=round.pk).update(settled_at=now - timedelta(minutes=5))
        Seat.objects.filter(table=salon).update(missed=0)
        croupier.table_tick(table_id=salon.pk)

    checked = 0
    for round in Round.objects.filter(table=salon, state=Round.State.SETTLED):
        coup = engine.deal_cards(engine.cards_from_codes(round.reserved_cards))
        assert round.player_cards == " ".join(c.code for c in coup.player_cards)
        assert (round.player_total, round.banker_total, round.outcome) == (
            coup.player_total,
            coup.banker_total,
            coup.outcome.value,
        )
        for play in Play.objects.filter(round=round, stake_total__gt=0).prefetch_related("bets"):
            bets = {bet.kind: bet for bet in play.bets.all()}
            settlement = engine.settle(rules_of(round), coup, {k: b.stake for k, b in bets.items()})
            for kind, bet in bets.items():
                line = settlement.line(engine.BetKind(kind))
                assert (bet.payout, bet.commission) == (line.payout, line.commission)
            assert play.payout_total == settlement.payout_total
            moved = Entry.objects.filter(
                transaction__round=round,
                transaction__player=play.player,
                account__kind="stack",
            )
            stake = moved.filter(transaction__kind=Transaction.Kind.STAKE).get().amount
            paid = sum(
                moved.filter(transaction__kind=Transaction.Kind.SETTLE).values_list(
                    "amount", flat=True
                )
            )
            assert (-stake, paid) == (play.stake_total, play.payout_total)
            assert play.balance_after == play.balance_before - play.stake_total + play.payout_total
            checked += 1
    assert checked > 20
    assert audit_violations() == []


def test_rebet_puts_the_last_rounds_bets_on_again(salon: Table, stack_of: Any) -> None:
    anna = sit(salon, "anna", 1)
    ready(salon)
    with pytest.raises(RoundError) as nothing_yet:
        croupier.full_rebet(table=salon, player=anna)
    assert nothing_yet.value.code == "no_previous_bets"
    croupier.full_bet(table=salon, player=anna, kind="tie", amount=500, take_back=False)
    croupier.full_bet(table=salon, player=anna, kind="player", amount=1000, take_back=False)
    croupier.full_decide(table=salon, player=anna, deal=True)
    croupier.table_tick(table_id=salon.pk, now=timezone.now() + timedelta(minutes=1))
    round = croupier.open_round(salon)
    assert round is not None and round.state == Round.State.BETTING
    croupier.full_rebet(table=salon, player=anna)
    play = Play.objects.get(round=round, player=anna)
    assert {bet.kind: bet.stake for bet in play.bets.all()} == {"tie": 500, "player": 1000}
    last = TableEvent.objects.filter(table=salon).order_by("-seq").first()
    assert last.kind == "bets" and last.data["stakes"] == {"tie": 500, "player": 1000}


def test_the_tick_the_croupier_sends_by_name_is_the_task_the_worker_runs() -> None:
    from baccarat import tasks

    assert tasks.table_tick.name == croupier.TICK_TASK
