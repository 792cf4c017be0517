"""The indexes the migrations leave: every foreign key still leads one (PROTECT's checks
and the joins find their rows by it), the own indexes of those a composite index starts
with are gone, and the constraints the game relies on survive beside them."""

from __future__ import annotations

import pytest
from django.apps import apps
from django.db import connection, models

pytestmark = pytest.mark.django_db

APPS = ("baccarat", "wallet", "accounts", "support")


def _indexes(table: str) -> dict[str, list[str]]:
    with connection.cursor() as cursor:
        found = connection.introspection.get_constraints(cursor, table)
    return {
        name: info["columns"]
        for name, info in found.items()
        if (info["index"] or info["unique"] or info["primary_key"]) and info["columns"]
    }


@pytest.mark.postgres  # SQLite's introspection cannot read some of the tables' SQL
def test_every_foreign_key_leads_an_index() -> None:
    missing = []
    for config in APPS:
        for model in apps.get_app_config(config).get_models():
            indexes = _indexes(model._meta.db_table)
            leading = {columns[0] for columns in indexes.values()}
            for field in model._meta.concrete_fields:
                if isinstance(field, models.ForeignKey) and field.column not in leading:
                    missing.append(f"{model._meta.db_table}.{field.column}")
    # Play.table was never indexed on its own: PROTECT's check on deleting a table is
    # refused by the table's rounds first (baccarat.models.Play).
    assert missing == ["baccarat_play.table_id"]


@pytest.mark.parametrize(
    ("table", "column", "own"),
    [
        ("baccarat_bet", "play_id", "baccarat_bet_play_id_751360ad"),
        ("baccarat_dealtcard", "shoe_id", "baccarat_dealtcard_shoe_id_b153c8af"),
        ("baccarat_play", "player_id", "baccarat_play_player_id_cd1288d4"),
        ("baccarat_play", "round_id", "baccarat_play_round_id_d82b28ce"),
        ("baccarat_round", "table_id", "baccarat_round_table_id_2455732e"),
        ("wallet_entry", "account_id", "wallet_entry_account_id_0bb0fd0f"),
        ("wallet_transaction", "player_id", "wallet_transaction_player_id_fd65e4a1"),
    ],
)
def test_a_foreign_key_a_composite_index_starts_with_has_none_of_its_own(
    table: str, column: str, own: str
) -> None:
    indexes = _indexes(table)
    assert own not in indexes
    assert any(columns[0] == column and len(columns) > 1 for columns in indexes.values())


def test_the_constraints_beside_the_dropped_indexes_are_there() -> None:
    assert "one_open_round_per_full_table" in _indexes("baccarat_round")
    assert "one_play_per_player" in _indexes("baccarat_play")
    assert _indexes("wallet_transaction").get("txn_reference_unique") == ["reference"]
    like = [name for name in _indexes("wallet_transaction") if name.endswith("_like")]
    assert like == []
