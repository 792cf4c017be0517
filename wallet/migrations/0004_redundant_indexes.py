"""Indexes every posting wrote and nothing read: the entry's and the transaction's own
foreign-key indexes, which entry_account_recent (account, -id) and txn_player_recent
(player, -created_at) start with, and the LIKE index PostgreSQL gets with a unique
``CharField`` (the reference is unique by a constraint now; nothing searches it by
prefix). As in ``baccarat`` 0014 the foreign keys' side is written out, so that Django's
``AlterField`` drops nothing else on their columns."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

# (table, column, its own index), covered by entry_account_recent and txn_player_recent.
DROPPED = [
    ("wallet_entry", "account_id", "wallet_entry_account_id_0bb0fd0f"),
    ("wallet_transaction", "player_id", "wallet_transaction_player_id_fd65e4a1"),
]


class Migration(migrations.Migration):
    dependencies = [
        ("wallet", "0003_player_escrow_and_house"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="entry",
                    name="account",
                    field=models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="entries",
                        to="wallet.account",
                    ),
                ),
                migrations.AlterField(
                    model_name="transaction",
                    name="player",
                    field=models.ForeignKey(
                        blank=True,
                        db_index=False,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="ledger_transactions",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="player",
                    ),
                ),
            ],
            database_operations=[
                migrations.RunSQL(
                    f'DROP INDEX IF EXISTS "{index}"',
                    f'CREATE INDEX IF NOT EXISTS "{index}" ON "{table}" ("{column}")',
                )
                for table, column, index in DROPPED
            ],
        ),
        migrations.AlterField(
            model_name="transaction",
            name="reference",
            field=models.CharField(max_length=120, verbose_name="reference"),
        ),
        migrations.AddConstraint(
            model_name="transaction",
            constraint=models.UniqueConstraint(fields=("reference",), name="txn_reference_unique"),
        ),
    ]
