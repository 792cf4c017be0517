"""``post_all``: several new transactions at once (a round's settlement), exactly as one
``post`` each would write them, in a handful of statements."""

from __future__ import annotations

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from tests.wallet.conftest import new_round
from wallet.audit import audit_ledger
from wallet.errors import InsufficientFunds, InvalidAmount
from wallet.models import Account, Entry, Transaction
from wallet.services import (
    Leg,
    Posting,
    Settlement,
    escrow_account,
    escrowed_stakes,
    house_account,
    post_all,
    stack_account,
    wallet_account,
    wallet_rebuy,
    wallet_settle_all,
    wallet_stake,
)

pytestmark = pytest.mark.django_db


def staked(table, round, *stakes):
    """Each player buys in and stakes, as a round's lock does (the reference is new): the
    stakes' transactions, each with the statements it ran (savepoints left out)."""
    posted = []
    for player, amount in stakes:
        wallet_rebuy(player=player, table=table, amount=100_00, reference=f"in:{player.pk}")
        with CaptureQueriesContext(connection) as queries, transaction.atomic():
            txn = wallet_stake(
                player=player,
                table=table,
                round=round,
                amount=amount,
                reference=f"stake:{round.pk}:{player.pk}",
                first=True,
            )
        posted.append(
            (txn, [q["sql"] for q in queries.captured_queries if "SAVEPOINT" not in q["sql"]])
        )
    return posted


def settled(table, round, alice, bob):
    """Settle alice's 10.00 (paid 20.00) and bob's 20.00 (lost) in one go: the transactions,
    and the statements it ran (savepoints left out)."""
    with CaptureQueriesContext(connection) as queries, transaction.atomic():
        txns = wallet_settle_all(
            table=table,
            round=round,
            settlements=[
                Settlement(player=alice, stake=10_00, payout=20_00, reference="s:a"),
                Settlement(player=bob, stake=20_00, payout=0, reference="s:b"),
            ],
        )
    return txns, [q["sql"] for q in queries.captured_queries if "SAVEPOINT" not in q["sql"]]


def snapshot():
    return (
        Transaction.objects.count(),
        Entry.objects.count(),
        list(Account.objects.order_by("pk").values_list("pk", "balance")),
    )


def test_a_round_settles_for_every_player_in_one_go(alice, bob, table):
    round = new_round(table)
    staked(table, round, (alice, 10_00), (bob, 20_00))
    assert escrowed_stakes(round=round) == {alice.pk: 10_00, bob.pk: 20_00}
    for player in (alice, bob):  # opened before (on each player's first round here)
        house_account(player=player, table=table)
    txns, writes = settled(table, round, alice, bob)
    # Lock every account, insert the transactions, their entries, update the balances.
    assert len(writes) <= 6, writes
    assert [t.reference for t in txns] == ["s:a", "s:b"]
    assert stack_account(player=alice, table=table).balance == 110_00
    assert stack_account(player=bob, table=table).balance == 80_00
    assert escrow_account(player=alice, table=table).balance == 0
    assert escrow_account(player=bob, table=table).balance == 0
    # The house's side of each player's play: it paid alice 10.00 and won bob's 20.00.
    assert house_account(player=alice, table=table).balance == -10_00
    assert house_account(player=bob, table=table).balance == 20_00
    assert audit_ledger() == []


def test_postings_on_one_account_carry_its_running_balance_in_order(alice, table):
    wallet_rebuy(player=alice, table=table, amount=100_00, reference="in")
    purse, stack = wallet_account(player=alice), stack_account(player=alice, table=table)
    with transaction.atomic():
        txns = post_all(
            [
                Posting(
                    kind=Transaction.Kind.REBUY,
                    reference=f"more:{amount}",
                    legs=[Leg(purse, -amount), Leg(stack, amount)],
                    player=alice,
                )
                for amount in (5_00, 7_00)
            ]
        )
    running = [e.balance_after for t in txns for e in t.posted_entries if e.account_id == stack.pk]
    assert running == [105_00, 112_00]
    stored = list(
        Entry.objects.filter(account=stack, transaction__in=txns)
        .order_by("transaction_id")
        .values_list("balance_after", flat=True)
    )
    assert stored == running
    assert audit_ledger() == []


def test_one_refusal_writes_nothing(alice, bob, table):
    round = new_round(table)
    staked(table, round, (alice, 10_00))
    postings = [
        Posting(
            kind=Transaction.Kind.SETTLE,
            reference="ok",
            legs=[
                Leg(escrow_account(player=alice, table=table), -10_00),
                Leg(stack_account(player=alice, table=table), 10_00),
            ],
            player=alice,
        ),
        # Takes more out of the escrow than the first left in it.
        Posting(
            kind=Transaction.Kind.SETTLE,
            reference="too-much",
            legs=[
                Leg(escrow_account(player=alice, table=table), -1),
                Leg(house_account(player=alice, table=table), 1),
            ],
        ),
    ]
    before = snapshot()
    with pytest.raises(InsufficientFunds), transaction.atomic():
        post_all(postings)
    assert snapshot() == before
    with pytest.raises(InvalidAmount), transaction.atomic():
        post_all([Posting(kind=Transaction.Kind.SETTLE, reference="none", legs=[])])
    with pytest.raises(ValueError), transaction.atomic():
        post_all(
            [
                Posting(
                    kind=Transaction.Kind.SETTLE,
                    reference="unbalanced",
                    legs=[Leg(house_account(player=alice, table=table), 1)],
                )
            ]
        )
    assert snapshot() == before


@pytest.mark.django_db(transaction=True)
def test_it_runs_only_inside_the_callers_transaction(table):
    with pytest.raises(RuntimeError):
        post_all([])


def test_a_posting_writes_in_one_statement_after_its_lock_on_postgresql(alice, bob, table):
    """After the locking read, one statement on PostgreSQL (the transactions, their
    entries and the balances), three elsewhere. What the posting returns is what is
    stored, ids included."""
    round = new_round(table)
    for player in (alice, bob):  # opened by earlier rounds
        escrow_account(player=player, table=table), house_account(player=player, table=table)
    expected = 1 if connection.vendor == "postgresql" else 3
    posted = []
    for txn, writes in staked(table, round, (alice, 10_00), (bob, 20_00)):
        assert len(writes) == 1 + expected, writes  # the locking read, then the writes
        posted.append(txn)
    txns, writes = settled(table, round, alice, bob)
    posted += txns
    assert len(writes) == 1 + expected, writes
    for txn in posted:
        stored = Transaction.objects.get(pk=txn.pk)
        assert (stored.reference, stored.kind, stored.created_at) == (
            txn.reference,
            txn.kind,
            txn.created_at,
        )
        assert sorted(
            Entry.objects.filter(transaction=stored).values_list(
                "pk", "account_id", "amount", "balance_after"
            )
        ) == sorted(
            (e.pk, e.account_id, e.amount, e.balance_after)
            for e in txn.posted_entries
            if e.transaction_id == txn.pk
        )
        assert len(txn.posted_entries) == Entry.objects.filter(transaction=stored).count()
    assert escrow_account(player=alice, table=table).balance == 0
    assert stack_account(player=alice, table=table).balance == 110_00
    assert audit_ledger() == []
