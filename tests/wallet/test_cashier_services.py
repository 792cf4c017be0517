from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from baccarat.models import Round
from tests.wallet.conftest import add_play, new_round
from wallet.cashier import (
    cashier_deposit,
    deposit_limit_effective,
    deposit_limit_set,
    deposit_limit_status,
)
from wallet.errors import DepositLimitReached, InvalidAmount, ReferenceConflict, RoundInPlay
from wallet.models import DepositLimit, Transaction
from wallet.services import wallet_account, wallet_rebuy, wallet_stake

pytestmark = pytest.mark.django_db

START = 1_000_00


@pytest.fixture(autouse=True)
def _cap(settings):
    settings.CASINO_DEPOSIT_CAP_PER_DAY = 5_000_00


def wallet_balance(player) -> int:
    return wallet_account(player=player).balance


def deposits() -> int:
    return Transaction.objects.filter(kind=Transaction.Kind.DEPOSIT).count()


def move_clock(monkeypatch, delta: timedelta) -> None:
    later = timezone.now() + delta
    monkeypatch.setattr(timezone, "now", lambda: later)


def test_deposit_credits_the_wallet(alice, ref):
    cashier_deposit(player=alice, amount=100_00, reference=ref())
    assert wallet_balance(alice) == START + 100_00


def test_deposit_replay_returns_original_even_when_limit_is_used_up(alice):
    first = cashier_deposit(player=alice, amount=5_000_00, reference="d1")
    again = cashier_deposit(player=alice, amount=5_000_00, reference="d1")
    assert again.pk == first.pk
    assert deposits() == 1
    assert wallet_balance(alice) == START + 5_000_00


def test_deposit_reference_conflict(alice):
    cashier_deposit(player=alice, amount=100_00, reference="d1")
    with pytest.raises(ReferenceConflict):
        cashier_deposit(player=alice, amount=200_00, reference="d1")
    assert wallet_balance(alice) == START + 100_00


def test_deposit_above_global_cap_is_refused(alice, ref):
    cashier_deposit(player=alice, amount=4_000_00, reference=ref())
    with pytest.raises(DepositLimitReached):
        cashier_deposit(player=alice, amount=1_000_01, reference=ref())
    assert deposits() == 1


def test_deposit_above_own_limit_is_refused(alice, ref):
    deposit_limit_set(player=alice, amount=200_00)
    cashier_deposit(player=alice, amount=150_00, reference=ref())
    with pytest.raises(DepositLimitReached):
        cashier_deposit(player=alice, amount=50_01, reference=ref())
    cashier_deposit(player=alice, amount=50_00, reference=ref())
    assert wallet_balance(alice) == START + 200_00


def test_deposits_older_than_24_hours_do_not_count(alice, ref):
    deposit_limit_set(player=alice, amount=200_00)
    cashier_deposit(player=alice, amount=200_00, reference=ref())
    Transaction.objects.filter(kind=Transaction.Kind.DEPOSIT).update(
        created_at=timezone.now() - timedelta(hours=24, seconds=1)
    )
    cashier_deposit(player=alice, amount=200_00, reference=ref())
    assert deposits() == 2


def test_other_players_deposits_do_not_count(alice, bob, ref):
    cashier_deposit(player=bob, amount=5_000_00, reference=ref())
    cashier_deposit(player=alice, amount=5_000_00, reference=ref())
    assert deposits() == 2


@pytest.mark.parametrize("amount", [0, -5, 2.5, True, "100"])
def test_deposit_invalid_amount(alice, ref, amount):
    with pytest.raises(InvalidAmount):
        cashier_deposit(player=alice, amount=amount, reference=ref())
    assert deposits() == 0


def test_deposit_refused_while_a_locked_round_has_a_play(alice, table, ref):
    add_play(new_round(table, Round.State.LOCKED), alice)
    with pytest.raises(RoundInPlay):
        cashier_deposit(player=alice, amount=100_00, reference=ref())
    assert wallet_balance(alice) == START


def test_deposit_refused_while_a_stake_is_escrowed_in_betting(alice, table, ref):
    wallet_rebuy(player=alice, table=table, amount=100_00, reference=ref())
    round = new_round(table)
    wallet_stake(player=alice, table=table, round=round, amount=10_00, reference=ref())
    with pytest.raises(RoundInPlay):
        cashier_deposit(player=alice, amount=100_00, reference=ref())
    Round.objects.filter(pk=round.pk).update(state=Round.State.VOID, void_reason="test")
    cashier_deposit(player=alice, amount=100_00, reference=ref())


def test_other_players_round_does_not_block(alice, bob, table, ref):
    add_play(new_round(table, Round.State.LOCKED), bob)
    cashier_deposit(player=alice, amount=100_00, reference=ref())
    assert deposits() == 1


def test_finished_round_does_not_block(alice, table, ref):
    add_play(new_round(table, Round.State.SETTLED), alice)
    cashier_deposit(player=alice, amount=100_00, reference=ref())


def test_default_limit_is_the_global_cap(alice):
    assert deposit_limit_effective(player=alice) == 5_000_00


def test_lowering_applies_at_once(alice):
    deposit_limit_set(player=alice, amount=300_00)
    assert deposit_limit_effective(player=alice) == 300_00
    limit = DepositLimit.objects.get(player=alice)
    assert limit.pending_amount is None


def test_raising_waits_24_hours(alice, monkeypatch):
    deposit_limit_set(player=alice, amount=300_00)
    deposit_limit_set(player=alice, amount=1_000_00)
    assert deposit_limit_effective(player=alice) == 300_00
    status = deposit_limit_status(player=alice)
    assert status.pending_amount == 1_000_00

    move_clock(monkeypatch, timedelta(hours=23, minutes=59))
    assert deposit_limit_effective(player=alice) == 300_00
    move_clock(monkeypatch, timedelta(hours=24, seconds=1))
    assert deposit_limit_effective(player=alice) == 1_000_00
    limit = DepositLimit.objects.get(player=alice)
    assert (limit.amount, limit.pending_amount, limit.pending_from) == (1_000_00, None, None)


def test_raise_pending_does_not_allow_bigger_deposits_yet(alice, ref):
    deposit_limit_set(player=alice, amount=100_00)
    deposit_limit_set(player=alice, amount=1_000_00)
    with pytest.raises(DepositLimitReached):
        cashier_deposit(player=alice, amount=100_01, reference=ref())


def test_asking_again_for_the_same_raise_keeps_its_time(alice):
    deposit_limit_set(player=alice, amount=100_00)
    first = deposit_limit_set(player=alice, amount=1_000_00).pending_from
    assert deposit_limit_set(player=alice, amount=1_000_00).pending_from == first


def test_lowering_cancels_a_pending_raise(alice):
    deposit_limit_set(player=alice, amount=300_00)
    deposit_limit_set(player=alice, amount=1_000_00)
    deposit_limit_set(player=alice, amount=200_00)
    limit = DepositLimit.objects.get(player=alice)
    assert (limit.amount, limit.pending_amount) == (200_00, None)


def test_limit_above_global_cap_is_refused(alice):
    with pytest.raises(InvalidAmount):
        deposit_limit_set(player=alice, amount=5_000_01)
    assert not DepositLimit.objects.filter(player=alice).exists()


@pytest.mark.parametrize("amount", [0, -1, 1.5, False])
def test_limit_invalid_amount(alice, amount):
    with pytest.raises(InvalidAmount):
        deposit_limit_set(player=alice, amount=amount)
