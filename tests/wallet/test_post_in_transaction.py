"""``post`` inside a caller's transaction runs without a savepoint of its own."""

from __future__ import annotations

from typing import Any
from unittest import mock

import pytest
from django.db import connection, transaction

from wallet import services
from wallet.errors import InsufficientFunds, ReferenceConflict
from wallet.models import Entry, Transaction


def test_refusal_leaves_the_callers_transaction_usable(alice: Any, table: Any) -> None:
    with transaction.atomic():
        with pytest.raises(InsufficientFunds):
            services.wallet_rebuy(player=alice, table=table, amount=10**11, reference="big")
        services.wallet_rebuy(player=alice, table=table, amount=100, reference="small")
        with pytest.raises(ReferenceConflict):
            services.wallet_rebuy(player=alice, table=table, amount=200, reference="small")
        assert not transaction.get_connection().needs_rollback
    assert list(Transaction.objects.filter(kind="rebuy").values_list("reference", flat=True)) == [
        "small"
    ]
    assert services.stack_account(player=alice, table=table).balance == 100


def test_failure_after_the_first_write_dooms_the_callers_transaction(
    alice: Any, table: Any
) -> None:
    if connection.vendor == "postgresql":  # one statement writes it all: fail right after
        real = services._write_at_once

        def written_then_boom(*args: Any) -> None:
            real(*args)
            raise RuntimeError("boom")

        failing = mock.patch.object(services, "_write_at_once", side_effect=written_then_boom)
    else:  # the transaction is inserted, then its entries fail
        failing = mock.patch.object(Entry.objects, "bulk_create", side_effect=RuntimeError("boom"))
    with transaction.atomic():
        with failing, pytest.raises(RuntimeError):
            services.wallet_rebuy(player=alice, table=table, amount=100, reference="half")
        assert transaction.get_connection().needs_rollback  # rolled back on leaving
    assert not Transaction.objects.filter(reference="half").exists()


def test_replay_carries_the_original_entries(alice: Any, table: Any) -> None:
    first = services.wallet_rebuy(player=alice, table=table, amount=100, reference="again")
    again = services.wallet_rebuy(player=alice, table=table, amount=100, reference="again")
    assert again.pk == first.pk
    assert sorted((e.account.kind, e.amount, e.balance_after) for e in again.posted_entries) == (
        sorted((e.account.kind, e.amount, e.balance_after) for e in first.posted_entries)
    )


def _locked_rows(sql_params: tuple[str, list[Any]]) -> list[dict[str, Any]]:
    with connection.cursor() as cursor:
        cursor.execute(*sql_params)
        names = [column[0] for column in cursor.description]
        return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]


def test_a_posting_on_the_callers_locking_read_writes_what_its_own_would(
    alice: Any, table: Any, django_assert_num_queries: Any
) -> None:
    """A round's step runs :func:`accounts_lock` with its own writes and hands the rows to
    the posting, which then reads nothing: the same entries and balances as a posting
    that locks for itself; an account the read did not find (a table's first round: no
    escrow yet) is opened and the lock taken again."""
    from tests.wallet.conftest import new_round

    round_, next_round = new_round(table), new_round(table)
    services.wallet_rebuy(player=alice, table=table, amount=50_00, reference="r-a")
    with transaction.atomic():
        rows = _locked_rows(services.accounts_lock(table=table, players=[alice], house=False))
        assert {row["kind"] for row in rows} == {"stack"}  # no escrow yet
        services.wallet_stake(
            player=alice, table=table, round=round_, amount=700, reference="s-a", locked=rows
        )
    with transaction.atomic():
        rows = _locked_rows(services.accounts_lock(table=table, players=[alice], house=False))
        assert {row["kind"] for row in rows} == {"stack", "escrow"}
        with django_assert_num_queries(1 if connection.vendor == "postgresql" else 3):
            services.wallet_stake(
                player=alice,
                table=table,
                round=next_round,
                amount=300,
                reference="s-b",
                first=True,
                locked=rows,
            )
    assert services.stack_account(player=alice, table=table).balance == 50_00 - 700 - 300
    assert services.escrow_account(player=alice, table=table).balance == 1000
    entries = Entry.objects.filter(transaction__reference="s-b")
    assert {(e.account.kind, e.amount, e.balance_after) for e in entries} == {
        ("stack", -300, 50_00 - 700 - 300),
        ("escrow", 300, 1000),
    }
