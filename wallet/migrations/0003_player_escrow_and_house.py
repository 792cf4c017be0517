"""Stakes in play and the house's side are kept per player and table, not per table.

Every round at a table wrote the table's one escrow row and its one house row, so every
player there waited for the others' row locks (at 16 players, 8 of 9 busy database
connections were waiting for them). Now a round moves money only between its players'
own accounts (``wallet.models``).

The shared escrow of a table holds the stakes of rounds still in play at the moment of
the migration (a locked round, a full table's committed stakes): each is moved to its
player's own escrow by a balanced transaction (``escrow_move``) of that round, so the
settlement or refund that follows finds it there and the audit's sums per round are
unchanged. The shared house rows keep what the house won before; they are no longer
written. Run it with the web processes and workers stopped (README, "Production").
"""

from django.db import migrations, models
from django.db.models import Q, Sum


def move_stakes_in_play(apps, schema_editor):
    db = schema_editor.connection.alias
    Account = apps.get_model("wallet", "Account")
    Entry = apps.get_model("wallet", "Entry")
    Transaction = apps.get_model("wallet", "Transaction")
    shared = (
        Account.objects.using(db)
        .select_for_update()
        .filter(kind="escrow", owner__isnull=True)
        .exclude(balance=0)
        .order_by("pk")
    )
    for escrow in shared:
        held = (
            Entry.objects.using(db)
            .filter(account=escrow)
            .values("transaction__round_id", "transaction__player_id")
            .annotate(amount=Sum("amount"))
            .exclude(amount=0)
            .order_by("transaction__round_id", "transaction__player_id")
        )
        for row in held:
            amount, round_id = row["amount"], row["transaction__round_id"]
            player_id = row["transaction__player_id"]
            own, _ = Account.objects.using(db).get_or_create(
                kind="escrow", owner_id=player_id, table_id=escrow.table_id
            )
            txn = Transaction.objects.using(db).create(
                kind="escrow_move",
                reference=f"escrow-move:{escrow.pk}:{round_id}:{player_id}",
                player_id=player_id,
                round_id=round_id,
            )
            escrow.balance -= amount
            own.balance += amount
            Entry.objects.using(db).bulk_create(
                [
                    Entry(
                        transaction=txn,
                        account=escrow,
                        amount=-amount,
                        balance_after=escrow.balance,
                    ),
                    Entry(transaction=txn, account=own, amount=amount, balance_after=own.balance),
                ]
            )
            own.save(update_fields=["balance"])
        if escrow.balance != 0:
            raise RuntimeError(
                f"escrow account {escrow.pk}: {escrow.balance} left that no round holds"
            )
        escrow.save(update_fields=["balance"])


class Migration(migrations.Migration):
    dependencies = [
        ("wallet", "0002_transaction_take_back"),
    ]

    operations = [
        migrations.AlterField(
            model_name="transaction",
            name="kind",
            field=models.CharField(
                choices=[
                    ("starting_chips", "Starting chips"),
                    ("deposit", "Deposit"),
                    ("rebuy", "Rebuy"),
                    ("cash_out", "Cash-out"),
                    ("stake", "Stake"),
                    ("settle", "Settlement"),
                    ("refund", "Refund"),
                    ("take_back", "Payout taken back (void)"),
                    ("practice_fund", "Practice chips issued"),
                    ("practice_return", "Practice chips returned"),
                    ("escrow_move", "Stake in play moved to the player's own account"),
                ],
                max_length=16,
                verbose_name="kind",
            ),
        ),
        migrations.RemoveConstraint(
            model_name="account",
            name="one_escrow_and_house_per_table",
        ),
        migrations.AddConstraint(
            model_name="account",
            constraint=models.UniqueConstraint(
                condition=Q(kind__in=["escrow", "house"]),
                fields=("kind", "owner", "table"),
                name="one_escrow_and_house_per_player_and_table",
            ),
        ),
        migrations.RunPython(move_stakes_in_play, migrations.RunPython.noop),
    ]
