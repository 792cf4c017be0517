"""Migration 0003: the stakes in a table's shared escrow move to their players' own."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.db.models import Sum

from baccarat.models import Round, Table
from tests.wallet.conftest import new_round
from wallet import services
from wallet.audit import audit_ledger
from wallet.models import Account, Entry, Transaction

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("wallet", "0002_transaction_take_back")]
AFTER = [("wallet", "0003_player_escrow_and_house")]


@pytest.fixture(autouse=True)
def _every_app_at_its_latest_migration() -> Iterator[None]:
    """Going back in the wallet also unapplies what depends on it in other apps (the
    baccarat migrations from 0018 on); the tests after this one need them all."""
    yield
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())


def _migrate(target: list[tuple[str, str]]) -> Any:
    """Migrate the wallet to ``target``; the models as they were there."""
    executor = MigrationExecutor(connection)
    executor.migrate(target)
    return executor.loader.project_state(target).apps


def _post(
    apps: Any, kind: str, reference: str, player: Any, round: Round | None, legs: Any
) -> None:
    """A balanced transaction as the code before the migration wrote it."""
    txn = apps.get_model("wallet", "Transaction").objects.create(
        kind=kind, reference=reference, player_id=player.pk, round_id=round and round.pk
    )
    for account, amount in legs:
        account.balance += amount
        account.save(update_fields=["balance"])
        apps.get_model("wallet", "Entry").objects.create(
            transaction=txn, account=account, amount=amount, balance_after=account.balance
        )


def test_stakes_in_a_tables_escrow_move_to_their_players_and_settle_from_there(
    alice: Any, bob: Any
) -> None:
    table = Table.objects.create(name="Old", slug="old")
    locked = new_round(table, Round.State.LOCKED)
    betting = new_round(table, Round.State.BETTING)
    settled = new_round(table, Round.State.SETTLED)
    old = _migrate(BEFORE)
    try:
        accounts = old.get_model("wallet", "Account").objects
        escrow = accounts.create(kind="escrow", table_id=table.pk)
        house = accounts.create(kind="house", table_id=table.pk)
        stacks = {
            p.pk: accounts.create(kind="stack", owner_id=p.pk, table_id=table.pk)
            for p in (alice, bob)
        }
        issuer = accounts.get(kind="issuer")
        for player in (alice, bob):
            _post(
                old,
                "practice_fund",
                f"in:{player.pk}",
                player,
                None,
                [(issuer, -100_00), (stacks[player.pk], 100_00)],
            )
        # A settled round left nothing in escrow; a locked one and a full table's
        # committed stake still hold theirs.
        _post(
            old, "stake", "stake:s:a", alice, settled, [(stacks[alice.pk], -3_00), (escrow, 3_00)]
        )
        _post(old, "settle", "settle:s:a", alice, settled, [(escrow, -3_00), (house, 3_00)])
        _post(
            old, "stake", "stake:l:a", alice, locked, [(stacks[alice.pk], -10_00), (escrow, 10_00)]
        )
        _post(old, "stake", "stake:b:b", bob, betting, [(stacks[bob.pk], -5_00), (escrow, 5_00)])
    finally:
        _migrate(AFTER)

    shared = Account.objects.get(kind="escrow", owner=None, table=table)
    assert shared.balance == 0
    assert services.escrow_account(player=alice, table=table).balance == 10_00
    assert services.escrow_account(player=bob, table=table).balance == 5_00
    moves = Transaction.objects.filter(kind=Transaction.Kind.ESCROW_MOVE).order_by("round_id")
    assert [(t.round_id, t.player_id) for t in moves] == [
        (locked.pk, alice.pk),
        (betting.pk, bob.pk),
    ]
    assert audit_ledger() == []

    # The code after the migration settles and refunds from the players' own escrow.
    services.wallet_settle(
        player=alice, table=table, round=locked, stake=10_00, payout=20_00, reference="settle:l:a"
    )
    services.wallet_refund(
        player=bob, table=table, round=betting, stake=5_00, reference="refund:b:b"
    )
    assert services.stack_account(player=alice, table=table).balance == 100_00 - 3_00 + 10_00
    assert services.stack_account(player=bob, table=table).balance == 100_00
    assert Account.objects.get(kind="house", owner=None, table=table).balance == 3_00
    assert services.house_account(player=alice, table=table).balance == -10_00
    per_round = (
        Entry.objects.filter(account__kind=Account.Kind.ESCROW)
        .values("transaction__round")
        .annotate(left=Sum("amount"))
        .exclude(left=0)
    )
    # Every round's escrow back to nothing, the rounds not marked finished here too (the
    # audit's own check looks at finished rounds only).
    assert not per_round
    assert audit_ledger() == []
