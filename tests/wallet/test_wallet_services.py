from __future__ import annotations

import pytest
from django.db.models import Sum

from baccarat.models import Round
from tests.wallet.conftest import add_play, new_round
from wallet.audit import audit_ledger
from wallet.errors import InsufficientFunds, InvalidAmount, ReferenceConflict
from wallet.models import Account, Entry, Transaction
from wallet.services import (
    MAX_AMOUNT,
    escrow_account,
    house_account,
    stack_account,
    wallet_account,
    wallet_cash_out,
    wallet_deposit,
    wallet_open_for_new_player,
    wallet_practice_fund,
    wallet_practice_return,
    wallet_rebuy,
    wallet_refund,
    wallet_settle,
    wallet_stake,
)

pytestmark = pytest.mark.django_db

START = 1_000_00


def balance(account: Account) -> int:
    account.refresh_from_db()
    return account.balance


def ledger_snapshot() -> tuple[int, int, list[tuple[int, int]]]:
    return (
        Transaction.objects.count(),
        Entry.objects.count(),
        # An empty account opened on the way is not money moved.
        list(Account.objects.exclude(balance=0).order_by("pk").values_list("pk", "balance")),
    )


def test_new_player_gets_starting_chips_once(alice):
    wallet_open_for_new_player(player=alice)  # a retry
    assert balance(wallet_account(player=alice)) == START
    assert Transaction.objects.filter(kind=Transaction.Kind.STARTING_CHIPS).count() == 1


def test_deposit_credits_wallet_from_issuer(alice, ref):
    wallet_deposit(player=alice, amount=25_00, reference=ref())
    assert balance(wallet_account(player=alice)) == START + 25_00
    assert audit_ledger() == []


def test_rebuy_moves_wallet_to_stack(alice, table, ref):
    wallet_rebuy(player=alice, table=table, amount=300_00, reference=ref())
    assert balance(wallet_account(player=alice)) == START - 300_00
    assert balance(stack_account(player=alice, table=table)) == 300_00


def test_cash_out_all_moves_stack_back(alice, table, ref):
    wallet_rebuy(player=alice, table=table, amount=300_00, reference=ref())
    txn = wallet_cash_out(player=alice, table=table, reference=ref())
    assert txn is not None
    assert balance(stack_account(player=alice, table=table)) == 0
    assert balance(wallet_account(player=alice)) == START


def test_cash_out_part(alice, table, ref):
    wallet_rebuy(player=alice, table=table, amount=300_00, reference=ref())
    wallet_cash_out(player=alice, table=table, reference=ref(), amount=100_00)
    assert balance(stack_account(player=alice, table=table)) == 200_00


def test_cash_out_of_empty_stack_is_nothing(alice, table, ref):
    assert wallet_cash_out(player=alice, table=table, reference=ref()) is None


def test_cash_out_all_replay_after_new_rebuy_returns_original(alice, table, ref):
    wallet_rebuy(player=alice, table=table, amount=300_00, reference=ref())
    key = ref()
    first = wallet_cash_out(player=alice, table=table, reference=key)
    wallet_rebuy(player=alice, table=table, amount=50_00, reference=ref())
    assert wallet_cash_out(player=alice, table=table, reference=key) == first
    assert balance(stack_account(player=alice, table=table)) == 50_00


def test_stake_settle_win_pays_from_house(alice, table, ref):
    wallet_rebuy(player=alice, table=table, amount=100_00, reference=ref())
    round = new_round(table)
    wallet_stake(player=alice, table=table, round=round, amount=10_00, reference=ref())
    assert balance(escrow_account(player=alice, table=table)) == 10_00
    wallet_settle(
        player=alice, table=table, round=round, stake=10_00, payout=19_50, reference=ref()
    )
    assert balance(escrow_account(player=alice, table=table)) == 0
    assert balance(stack_account(player=alice, table=table)) == 109_50
    assert balance(house_account(player=alice, table=table)) == -9_50


def test_settle_loss_goes_to_house(alice, table, ref):
    wallet_rebuy(player=alice, table=table, amount=100_00, reference=ref())
    round = new_round(table)
    wallet_stake(player=alice, table=table, round=round, amount=10_00, reference=ref())
    wallet_settle(player=alice, table=table, round=round, stake=10_00, payout=0, reference=ref())
    assert balance(stack_account(player=alice, table=table)) == 90_00
    assert balance(house_account(player=alice, table=table)) == 10_00


def test_refund_returns_the_stake(alice, table, ref):
    wallet_rebuy(player=alice, table=table, amount=100_00, reference=ref())
    round = new_round(table)
    wallet_stake(player=alice, table=table, round=round, amount=10_00, reference=ref())
    wallet_refund(player=alice, table=table, round=round, stake=10_00, reference=ref())
    assert balance(stack_account(player=alice, table=table)) == 100_00
    assert balance(escrow_account(player=alice, table=table)) == 0


def test_practice_chips_leave_the_wallet_alone(alice, table, ref):
    wallet_practice_fund(player=alice, table=table, amount=500_00, reference=ref())
    assert balance(stack_account(player=alice, table=table)) == 500_00
    wallet_practice_return(player=alice, table=table, reference=ref())
    assert balance(stack_account(player=alice, table=table)) == 0
    assert balance(wallet_account(player=alice)) == START


def test_replay_returns_same_transaction_and_moves_nothing(alice, table):
    first = wallet_rebuy(player=alice, table=table, amount=100_00, reference="r1")
    before = ledger_snapshot()
    again = wallet_rebuy(player=alice, table=table, amount=100_00, reference="r1")
    assert again.pk == first.pk
    assert ledger_snapshot() == before


def test_same_reference_other_amount_is_a_conflict(alice, table):
    wallet_rebuy(player=alice, table=table, amount=100_00, reference="r1")
    before = ledger_snapshot()
    with pytest.raises(ReferenceConflict):
        wallet_rebuy(player=alice, table=table, amount=200_00, reference="r1")
    assert ledger_snapshot() == before


def test_same_reference_other_kind_is_a_conflict(alice, table):
    wallet_deposit(player=alice, amount=100_00, reference="r1")
    with pytest.raises(ReferenceConflict):
        wallet_cash_out(player=alice, table=table, reference="r1")


def test_insufficient_funds_moves_nothing(alice, table, ref):
    before = ledger_snapshot()
    with pytest.raises(InsufficientFunds):
        wallet_rebuy(player=alice, table=table, amount=START + 1, reference=ref())
    assert ledger_snapshot() == before


def test_spending_exactly_everything_leaves_zero_not_below(alice, table, ref):
    wallet_rebuy(player=alice, table=table, amount=START, reference=ref())
    assert balance(wallet_account(player=alice)) == 0
    with pytest.raises(InsufficientFunds):
        wallet_rebuy(player=alice, table=table, amount=1, reference=ref())
    assert balance(wallet_account(player=alice)) == 0


def test_stake_above_stack_is_refused(alice, table, ref):
    wallet_rebuy(player=alice, table=table, amount=10_00, reference=ref())
    with pytest.raises(InsufficientFunds):
        wallet_stake(
            player=alice, table=table, round=new_round(table), amount=10_01, reference=ref()
        )


@pytest.mark.parametrize("amount", [-1, 0, True, False, 2.5, 100.0, "100", None, MAX_AMOUNT + 1])
def test_invalid_amounts_are_refused(alice, table, ref, amount):
    before = ledger_snapshot()
    for call in (
        lambda: wallet_deposit(player=alice, amount=amount, reference=ref()),
        lambda: wallet_rebuy(player=alice, table=table, amount=amount, reference=ref()),
        lambda: (
            wallet_cash_out(player=alice, table=table, amount=amount, reference=ref())
            if amount is not None
            else (_ for _ in ()).throw(InvalidAmount())
        ),
    ):
        with pytest.raises(InvalidAmount):
            call()
    assert ledger_snapshot() == before


@pytest.mark.parametrize(
    ("stake", "payout"), [(0, 0), (-1, 0), (10_00, -1), (10_00, 1.5), (True, 0)]
)
def test_settle_refuses_invalid_amounts(alice, table, ref, stake, payout):
    with pytest.raises(InvalidAmount):
        wallet_settle(
            player=alice,
            table=table,
            round=new_round(table),
            stake=stake,
            payout=payout,
            reference=ref(),
        )


def test_every_transaction_sums_to_zero(alice, bob, table, ref):
    wallet_rebuy(player=alice, table=table, amount=100_00, reference=ref())
    round = new_round(table)
    add_play(round, alice, stake=10_00, payout=20_00)
    wallet_stake(player=alice, table=table, round=round, amount=10_00, reference=ref())
    wallet_settle(
        player=alice, table=table, round=round, stake=10_00, payout=20_00, reference=ref()
    )
    Round.objects.filter(pk=round.pk).update(state=Round.State.SETTLED, reserved_cards="9S8HKDQC")
    totals = Transaction.objects.annotate(total=Sum("entries__amount")).values_list(
        "total", flat=True
    )
    assert set(totals) == {0}
    assert audit_ledger() == []
