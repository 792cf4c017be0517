"""Foreign keys whose own index a composite index already starts with lose it: every index
is written with every row (five dealt cards, a round twice, a play and a bet a coup), and
these answered nothing the composite ones do not.

The database side is written out: Django's ``AlterField`` to ``db_index=False`` also
drops every other index it finds on the column, here ``one_open_round_per_full_table``
(a unique partial index on the round's table), and does not make it again.
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

# (table, column, its own index): each covered by the index in the comment.
DROPPED = [
    ("baccarat_bet", "play_id", "baccarat_bet_play_id_751360ad"),  # one_bet_per_spot
    ("baccarat_dealtcard", "shoe_id", "baccarat_dealtcard_shoe_id_b153c8af"),  # card_dealt_once
    ("baccarat_play", "player_id", "baccarat_play_player_id_cd1288d4"),  # play_player_recent
    ("baccarat_play", "round_id", "baccarat_play_round_id_d82b28ce"),  # one_play_per_player
    ("baccarat_round", "table_id", "baccarat_round_table_id_2455732e"),  # round_table_recent
]


class Migration(migrations.Migration):
    dependencies = [
        ("baccarat", "0013_round_open_state"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="bet",
                    name="play",
                    field=models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="bets",
                        to="baccarat.play",
                    ),
                ),
                migrations.AlterField(
                    model_name="dealtcard",
                    name="shoe",
                    field=models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="dealt_cards",
                        to="baccarat.shoe",
                    ),
                ),
                migrations.AlterField(
                    model_name="play",
                    name="player",
                    field=models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="plays",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                migrations.AlterField(
                    model_name="play",
                    name="round",
                    field=models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="plays",
                        to="baccarat.round",
                    ),
                ),
                migrations.AlterField(
                    model_name="round",
                    name="table",
                    field=models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="rounds",
                        to="baccarat.table",
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
    ]
