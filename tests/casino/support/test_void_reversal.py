"""Voiding a round's money (seed 002: malfunctions void all pays and plays): stakes back,
a settled round's payouts taken back by new transactions, never below zero, what cannot
be taken back written off and recorded; the audit stays clean and catches a mismatch."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.urls import reverse

from baccarat.errors import RoundError
from baccarat.full import croupier, seats
from baccarat.integrity.audit import audit_violations
from baccarat.models import Play, Reversal, Round, Shoe, Table, TableEvent
from baccarat.play import betting, practice, rounds
from baccarat.protocol.notices import server_notices
from casino.support import voids
from casino.support.models import StaffAction
from tests.casino.support.conftest import BANKER_NATURAL, PLAYER_NATURAL, rig_shoe
from wallet import services as wallet
from wallet.models import Account, Entry, Transaction

pytestmark = pytest.mark.django_db

MALFUNCTION = Round.VoidCause.MALFUNCTION


def balance(player: Any, kind: str, table: Table | None = None) -> int:
    account = Account.objects.filter(owner=player, kind=kind, table=table).first()
    return account.balance if account else 0


def history(round: Round) -> list[tuple[str, int, int]]:
    """The round's ledger as it was written: every entry of every transaction."""
    return list(
        Entry.objects.filter(transaction__round=round)
        .order_by("pk")
        .values_list("transaction__reference", "account_id", "amount")
    )


def test_a_win_voided_for_a_malfunction_is_reversed_by_new_transactions(
    alice: Any, support_user: Any, shoe_table: Table, rigged_round: Any
) -> None:
    round = rigged_round(alice)  # 5.00 on the player, who wins with a natural
    play = Play.objects.get(round=round)
    assert (play.stake_total, play.payout_total) == (500, 1000)
    assert balance(alice, "stack", shoe_table) == 50_00 + 500
    wallet_before = balance(alice, "wallet")
    before = history(round)

    rounds.round_void(round_id=round.pk, reason="Reader froze", by=support_user, cause=MALFUNCTION)

    round.refresh_from_db()
    assert round.state == Round.State.VOID and round.void_cause == MALFUNCTION
    assert round.settled_at is not None and round.player_cards  # history kept
    assert history(round)[: len(before)] == before  # nothing rewritten
    added = Transaction.objects.filter(round=round).exclude(
        reference__in=[reference for reference, _a, _b in before]
    )
    assert sorted(added.values_list("reference", flat=True)) == [
        f"void-refund:{round.pk}:{alice.pk}",
        f"void-take-back:{round.pk}:{alice.pk}",
    ]
    assert balance(alice, "stack", shoe_table) == 50_00  # as before the round
    assert balance(alice, "wallet") == wallet_before
    reversal = Reversal.objects.get(round=round)
    assert (reversal.stake_refunded, reversal.payout_paid) == (500, 1000)
    assert (reversal.taken_from_stack, reversal.taken_from_wallet, reversal.written_off) == (
        1000,
        0,
        0,
    )
    assert Play.objects.get(pk=play.pk).payout_total == 1000  # the play's history stays
    assert audit_violations() == []


def test_a_lost_round_voided_gets_its_stake_back(
    alice: Any, support_user: Any, shoe_table: Table, rigged_round: Any
) -> None:
    round = rigged_round(alice, BANKER_NATURAL)  # 5.00 on the player, the banker wins
    assert balance(alice, "stack", shoe_table) == 50_00 - 500
    rounds.round_void(round_id=round.pk, reason="Fault", by=support_user, cause=MALFUNCTION)
    assert balance(alice, "stack", shoe_table) == 50_00
    assert not Transaction.objects.filter(reference__startswith="void-take-back:").exists()
    reversal = Reversal.objects.get(round=round)
    assert (reversal.stake_refunded, reversal.payout_paid, reversal.written_off) == (500, 0, 0)
    assert audit_violations() == []


def test_a_payout_cashed_out_is_taken_back_from_the_wallet(
    alice: Any, support_user: Any, shoe_table: Table, rigged_round: Any
) -> None:
    round = rigged_round(alice, buy_in=5_00)  # the stack is 5.00, all of it staked
    wallet.wallet_cash_out(player=alice, table=shoe_table, reference="out")  # 10.00 won
    wallet_before = balance(alice, "wallet")
    rounds.round_void(round_id=round.pk, reason="Fault", by=support_user, cause=MALFUNCTION)
    reversal = Reversal.objects.get(round=round)
    # The refunded stake is in the stack again and pays half; the wallet the rest.
    assert (reversal.taken_from_stack, reversal.taken_from_wallet, reversal.written_off) == (
        500,
        500,
        0,
    )
    assert balance(alice, "stack", shoe_table) == 0
    assert balance(alice, "wallet") == wallet_before - 500
    assert audit_violations() == []


def test_what_cannot_be_taken_back_is_written_off_and_nothing_goes_below_zero(
    alice: Any, support_user: Any, shoe_table: Table, rigged_round: Any, single_table: Table
) -> None:
    round = rigged_round(alice, buy_in=5_00)
    wallet.wallet_cash_out(player=alice, table=shoe_table, reference="out")
    # Everything else went to another table, whose stack a void here does not touch.
    everything = balance(alice, "wallet")
    wallet.wallet_rebuy(player=alice, table=single_table, amount=everything, reference="all-in")
    action = voids.round_void_by_staff(
        round_id=round.pk, cause=MALFUNCTION, reason="Reader froze", by=support_user
    )
    reversal = Reversal.objects.get(round=round)
    assert (reversal.taken_from_stack, reversal.taken_from_wallet, reversal.written_off) == (
        500,
        0,
        500,
    )
    assert balance(alice, "stack", shoe_table) == 0 and balance(alice, "wallet") == 0
    assert balance(alice, "stack", single_table) == everything
    assert not Account.objects.filter(balance__lt=0, kind__in=["wallet", "stack", "escrow"])
    assert action is not None and action.details["reversals"] == [
        {
            "player": "alice",
            "player_id": alice.pk,
            "stake_refunded": 500,
            "payout_paid": 1000,
            "taken_from_stack": 500,
            "taken_from_wallet": 0,
            "written_off": 500,
        }
    ]
    assert audit_violations() == []


def test_the_player_is_told_what_was_taken_back_and_what_they_keep(
    alice: Any, support_user: Any, shoe_table: Table, rigged_round: Any, single_table: Table
) -> None:
    round = rigged_round(alice, buy_in=5_00)
    wallet.wallet_cash_out(player=alice, table=shoe_table, reference="out")
    wallet.wallet_rebuy(
        player=alice, table=single_table, amount=balance(alice, "wallet"), reference="all-in"
    )
    rounds.round_void(round_id=round.pk, reason="Fault", by=support_user, cause=MALFUNCTION)
    (notice,) = server_notices(alice)
    assert "voided because of a malfunction" in notice
    assert "your stake of €5.00 was returned and the payout of €10.00 taken back" in notice
    assert "€5.00 of the payout could no longer be taken back: it stays yours." in notice
    assert server_notices(alice) == []  # told once


def test_a_practice_payout_is_never_taken_from_the_wallet(alice: Any, support_user: Any) -> None:
    session = practice.practice_start(
        player=alice, decks=8, starting_chips=100_00, hands=10, tie_pays=8,
        pairs_enabled=False, commission="five_percent",
    )  # fmt: skip
    table = session.table
    rig_shoe(table, alice, PLAYER_NATURAL)
    round = betting.round_open(table=table, player=alice)
    betting.bet_place(round=round, player=alice, kind="player", amount=500)
    rounds.round_play(round_id=round.pk)
    wallet.wallet_practice_return(player=alice, table=table, reference="practice-over")
    wallet_before = balance(alice, "wallet")

    rounds.round_void(round_id=round.pk, reason="Fault", by=support_user, cause=MALFUNCTION)

    reversal = Reversal.objects.get(round=round)
    # Practice chips never touch the wallet: what the stack lacks is written off.
    assert (reversal.taken_from_stack, reversal.taken_from_wallet, reversal.written_off) == (
        500,
        0,
        500,
    )
    assert balance(alice, "wallet") == wallet_before
    assert audit_violations() == []


def test_voiding_twice_does_nothing_the_second_time(
    alice: Any, support_user: Any, rigged_round: Any
) -> None:
    round = rigged_round(alice)
    first = voids.round_void_by_staff(
        round_id=round.pk, cause=MALFUNCTION, reason="Fault", by=support_user
    )
    transactions = Transaction.objects.count()
    second = voids.round_void_by_staff(
        round_id=round.pk, cause=MALFUNCTION, reason="Fault", by=support_user
    )
    assert first is not None and second is None
    assert Transaction.objects.count() == transactions
    assert Reversal.objects.count() == 1
    assert StaffAction.objects.filter(kind=StaffAction.Kind.ROUND_VOIDED).count() == 1


@pytest.mark.parametrize(
    "cause",
    [Round.VoidCause.DEALING_ERROR, Round.VoidCause.COMPLAINT_UPHELD, Round.VoidCause.OTHER, ""],
)
def test_only_a_malfunction_voids_a_settled_round(
    alice: Any, support_user: Any, rigged_round: Any, cause: str
) -> None:
    round = rigged_round(alice)
    transactions = Transaction.objects.count()
    with pytest.raises(RoundError) as refused:
        voids.round_void_by_staff(round_id=round.pk, cause=cause, reason="x", by=support_user)
    assert refused.value.code == "round_final"
    round.refresh_from_db()
    assert round.state == Round.State.SETTLED
    assert Transaction.objects.count() == transactions
    assert not Reversal.objects.exists() and not StaffAction.objects.exists()


def test_a_round_not_settled_gives_the_escrow_back_and_records_it(
    alice: Any, support_user: Any, shoe_table: Table, rigged_round: Any
) -> None:
    round = rigged_round(alice, settle=False)
    assert balance(alice, "stack", shoe_table) == 50_00 - 500
    action = voids.round_void_by_staff(
        round_id=round.pk, cause=Round.VoidCause.DEALING_ERROR, reason="Misdeal", by=support_user
    )
    assert balance(alice, "stack", shoe_table) == 50_00
    reversal = Reversal.objects.get(round=round)
    assert (reversal.stake_refunded, reversal.payout_paid) == (500, 0)
    assert action is not None and action.subject == alice and action.reason == "Misdeal"
    assert action.details["cause"] == "dealing_error"
    assert action.details["after_settlement"] is False
    assert audit_violations() == []


def test_the_audit_catches_a_reversal_the_ledger_does_not_match(
    alice: Any, support_user: Any, rigged_round: Any
) -> None:
    round = rigged_round(alice)
    rounds.round_void(round_id=round.pk, reason="Fault", by=support_user, cause=MALFUNCTION)
    Reversal.objects.filter(round=round).update(taken_from_stack=900, written_off=100)
    (violation,) = audit_violations()
    assert f"void round {round.pk}, player {alice.pk}: took back 1000" in violation


def test_the_audit_catches_money_moved_for_a_void_round_without_a_reversal(
    alice: Any, support_user: Any, rigged_round: Any
) -> None:
    round = rigged_round(alice)
    rounds.round_void(round_id=round.pk, reason="Fault", by=support_user, cause=MALFUNCTION)
    Reversal.objects.filter(round=round).delete()
    violations = audit_violations()
    assert any("without a reversal" in line for line in violations), violations


# Full tables ------------------------------------------------------------------------


@pytest.fixture
def salon(db: None) -> Table:
    return Table.objects.create(
        name="Salon", slug="salon", kind=Table.Kind.FULL, seats=8, decks=8,
        reshuffle=Table.Reshuffle.CUT_CARD,
    )  # fmt: skip


def _open_round(table: Table) -> Round:
    """Let the croupier cut (nobody takes the offer) and open a round."""
    croupier.table_tick(table_id=table.pk)
    shoe = Shoe.objects.get(table=table, is_finished=False)
    if shoe.cut_position is None:
        later = shoe.cut_offer_until
        croupier.table_tick(table_id=table.pk, now=later + timedelta(seconds=1))
        croupier.table_tick(table_id=table.pk, now=later + timedelta(seconds=1))
    round = croupier.open_round(table)
    assert round is not None
    return round


def test_a_full_table_sees_the_void_at_once(
    client: Any, alice: Any, bob: Any, support_user: Any, salon: Table
) -> None:
    seats.seat_take(table=salon, player=alice, number=1, buy_in=50_00, reference="a")
    seats.seat_take(table=salon, player=bob, number=2, buy_in=50_00, reference="b")
    round = _open_round(salon)
    croupier.full_bet(table=salon, player=alice, kind="player", amount=500, take_back=False)
    croupier.full_decide(table=salon, player=alice, deal=True)  # bob has not decided yet
    assert balance(alice, "stack", salon) == 50_00 - 500

    voids.round_void_by_staff(
        round_id=round.pk, cause=MALFUNCTION, reason="Shuffler jam", by=support_user
    )

    assert balance(alice, "stack", salon) == 50_00
    event = TableEvent.objects.filter(table=salon).latest("seq")
    assert (event.kind, event.data) == ("round_void", {"round": round.pk})
    # The browsers refresh their board on the event, asking for the player's notices (as
    # full_table.js does after a round_void): alice's shows the notice.
    board_url = reverse("baccarat:table", args=["salon"])
    client.force_login(alice)
    board = client.get(board_url, {"notices": "1"}, HTTP_HX_REQUEST="true")
    assert f"Your round #{round.pk} at Salon was voided" in board.content.decode()
    client.force_login(bob)
    board = client.get(board_url, {"notices": "1"}, HTTP_HX_REQUEST="true")
    assert "voided" not in board.content.decode()  # bob staked nothing
    assert audit_violations() == []


def test_a_settled_full_table_round_is_reversed_for_every_player(
    alice: Any, bob: Any, support_user: Any, salon: Table
) -> None:
    seats.seat_take(table=salon, player=alice, number=1, buy_in=50_00, reference="a")
    seats.seat_take(table=salon, player=bob, number=2, buy_in=50_00, reference="b")
    round = _open_round(salon)
    croupier.full_bet(table=salon, player=alice, kind="player", amount=500, take_back=False)
    croupier.full_bet(table=salon, player=bob, kind="banker", amount=1000, take_back=False)
    croupier.full_decide(table=salon, player=alice, deal=True)
    croupier.full_decide(table=salon, player=bob, deal=True)  # everyone decided
    croupier.table_tick(table_id=salon.pk)  # the croupier's step deals
    round.refresh_from_db()
    assert round.state == Round.State.SETTLED

    action = voids.round_void_by_staff(
        round_id=round.pk, cause=MALFUNCTION, reason="Card reader", by=support_user
    )

    assert balance(alice, "stack", salon) == 50_00
    assert balance(bob, "stack", salon) == 50_00
    assert action is not None and action.subject is None  # two players: see the details
    assert {line["player"] for line in action.details["reversals"]} == {"alice", "bob"}
    assert Reversal.objects.filter(round=round).count() == 2
    assert audit_violations() == []
