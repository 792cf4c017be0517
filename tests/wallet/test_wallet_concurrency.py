"""Real row locks under real threads: PostgreSQL only (SQLite serialises writers)."""

from __future__ import annotations

import threading
import uuid
from collections import Counter
from collections.abc import Callable

import pytest
from django.db import connection, transaction
from django.db.models import Sum

from baccarat.integrity.audit import audit_violations as audit_ledger
from baccarat.models import Round, Table
from wallet.cashier import cashier_deposit
from wallet.errors import InsufficientFunds
from wallet.models import Account, Transaction
from wallet.services import (
    escrow_account,
    house_account,
    stack_account,
    wallet_account,
    wallet_cash_out,
    wallet_practice_fund,
    wallet_rebuy,
    wallet_refund,
    wallet_settle,
    wallet_stake,
)

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def outcomes(results: list[object]) -> Counter[str]:
    return Counter(type(result).__name__ for result in results)


def new_table() -> Table:
    tag = uuid.uuid4().hex[:8]
    return Table.objects.create(name=f"Race {tag}", slug=f"race-{tag}")


def balance_of(account: Account) -> int:
    account.refresh_from_db()
    return account.balance


def assert_whole() -> None:
    assert audit_ledger() == []
    assert not Account.objects.filter(kind__in=Account.NON_NEGATIVE_KINDS, balance__lt=0).exists()
    assert Account.objects.aggregate(total=Sum("balance"))["total"] == 0


def test_concurrent_rebuys_take_exactly_what_the_wallet_holds(alice, racers):
    wallet = wallet_account(player=alice)
    for _ in range(20):
        table = new_table()
        affordable = balance_of(wallet) // 30_00
        results = racers.run(
            [
                lambda table=table: wallet_rebuy(
                    player=alice, table=table, amount=30_00, reference=f"r:{uuid.uuid4()}"
                )
            ]
            * 50
        )
        assert outcomes(results) == {
            "Transaction": affordable,
            "InsufficientFunds": 50 - affordable,
        }
        assert balance_of(stack_account(player=alice, table=table)) == affordable * 30_00
        assert_whole()
        wallet_cash_out(player=alice, table=table, reference=f"back:{uuid.uuid4()}")


def test_concurrent_rebuys_and_cash_outs_against_one_wallet(alice, racers):
    wallet = wallet_account(player=alice)
    for _ in range(20):
        table_in, table_out = new_table(), new_table()
        # Chips straight from the issuer, so the wallet does not run dry over the rounds.
        wallet_practice_fund(
            player=alice, table=table_out, amount=400_00, reference=f"f:{uuid.uuid4()}"
        )
        start = balance_of(wallet)

        def rebuy(table_in: Table = table_in) -> object:
            return wallet_rebuy(
                player=alice, table=table_in, amount=30_00, reference=f"r:{uuid.uuid4()}"
            )

        def cash_out(table_out: Table = table_out) -> object:
            return wallet_cash_out(
                player=alice, table=table_out, amount=30_00, reference=f"c:{uuid.uuid4()}"
            )

        results = racers.run([rebuy, cash_out] * 25)
        rebuys = sum(isinstance(r, Transaction) for r in results[0::2])
        cash_outs = sum(isinstance(r, Transaction) for r in results[1::2])
        assert all(isinstance(r, Transaction | InsufficientFunds) for r in results)
        assert cash_outs == 13  # 400 // 30: only cash-outs drain that stack
        assert min(25, start // 30_00) <= rebuys <= 25
        assert balance_of(wallet) == start - rebuys * 30_00 + cash_outs * 30_00
        assert balance_of(stack_account(player=alice, table=table_out)) == 400_00 - 13 * 30_00
        assert_whole()


def test_twenty_identical_deposits_make_one_transaction(alice, racers):
    reference = f"d:{uuid.uuid4()}"
    results = racers.run(
        [lambda: cashier_deposit(player=alice, amount=100_00, reference=reference)] * 20
    )
    assert {getattr(r, "pk", r) for r in results} == {
        Transaction.objects.get(reference=reference).pk
    }
    assert balance_of(wallet_account(player=alice)) == 1_100_00
    assert_whole()


def test_opposite_transfers_never_deadlock(alice, bob, table, racers):
    wallet_rebuy(player=alice, table=table, amount=500_00, reference="a")
    wallet_rebuy(player=bob, table=table, amount=500_00, reference="b")
    round = Round.objects.create(table=table, rules={})
    loops = 170  # six threads: about a thousand transfers

    def repeat(make: Callable[[int], object]) -> Callable[[], object]:
        def run() -> object:
            done = 0
            for n in range(loops):
                try:
                    make(n)
                    done += 1
                except InsufficientFunds:
                    pass
            return done

        return run

    def ref(prefix: str, n: int) -> str:
        return f"{prefix}:{n}:{uuid.uuid4()}"

    results = racers.run(
        [
            # Same two rows, opposite directions: wallet -> stack and stack -> wallet.
            repeat(
                lambda n: wallet_rebuy(
                    player=alice, table=table, amount=1_00, reference=ref("ar", n)
                )
            ),
            repeat(
                lambda n: wallet_cash_out(
                    player=alice, table=table, amount=1_00, reference=ref("ac", n)
                )
            ),
            # Two players at one table, each through their own escrow, and the house.
            repeat(
                lambda n: wallet_stake(
                    player=alice, table=table, round=round, amount=1_00, reference=ref("as", n)
                )
            ),
            repeat(
                lambda n: wallet_stake(
                    player=bob, table=table, round=round, amount=1_00, reference=ref("bs", n)
                )
            ),
            repeat(
                lambda n: wallet_refund(
                    player=bob, table=table, round=round, stake=1_00, reference=ref("bf", n)
                )
            ),
            repeat(
                lambda n: wallet_settle(
                    player=alice,
                    table=table,
                    round=round,
                    stake=1_00,
                    payout=2_00,
                    reference=ref("ae", n),
                )
            ),
        ]
    )
    assert all(isinstance(done, int) for done in results), results
    assert sum(results) >= loops * 3  # rebuys and stakes from full stacks always go through
    assert_whole()


def test_players_at_one_table_never_wait_for_each_others_ledger_locks(alice, bob, racers):
    """A round moves money only between its players' own accounts (stack, escrow, house):
    while alice's stake and settlement hold their row locks, bob stakes and settles at
    the same table without waiting (with a table-wide escrow or house row he waited for
    her commit: here that is a lock timeout)."""
    table = new_table()
    for player in (alice, bob):
        wallet_rebuy(player=player, table=table, amount=100_00, reference=f"in:{player.pk}")
        escrow_account(player=player, table=table)  # opened by earlier rounds
        house_account(player=player, table=table)
    rounds = {player.pk: Round.objects.create(table=table, rules={}) for player in (alice, bob)}
    holding, done = threading.Event(), threading.Event()

    def play(player, payout):
        round = rounds[player.pk]
        wallet_stake(
            player=player, table=table, round=round, amount=10_00, reference=f"s:{round.pk}"
        )
        wallet_settle(
            player=player,
            table=table,
            round=round,
            stake=10_00,
            payout=payout,
            reference=f"e:{round.pk}",
        )

    def alice_holds() -> str:
        with transaction.atomic():
            play(alice, 0)
            holding.set()
            if not done.wait(10):
                return "bob never finished"
        return "alice"

    def bob_plays() -> str:
        try:
            if not holding.wait(10):
                return "alice never held"
            with transaction.atomic():
                with connection.cursor() as cursor:
                    cursor.execute("SET LOCAL lock_timeout = '2s'")
                play(bob, 20_00)
            return "bob"
        finally:
            done.set()

    assert racers.run([alice_holds, bob_plays]) == ["alice", "bob"]
    assert balance_of(stack_account(player=alice, table=table)) == 90_00
    assert balance_of(stack_account(player=bob, table=table)) == 110_00
    assert_whole()
