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


def own_index_dropped(model, name, field, table, column, index):
    """State: the field as given (``db_index=False``); database: its own index gone."""
    return migrations.SeparateDatabaseAndState(
        state_operations=[migrations.AlterField(model_name=model, name=name, field=field)],
        database_operations=[
            migrations.RunSQL(
                f'DROP INDEX IF EXISTS "{index}"',
                f'CREATE INDEX IF NOT EXISTS "{index}" ON "{table}" ("{column}")',
            )
        ],
    )


class Migration(migrations.Migration):
    dependencies = [
        ("baccarat", "0013_round_open_state"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        # one_bet_per_spot (play, kind)
        own_index_dropped(
            "bet",
            "play",
            models.ForeignKey(
                db_index=False,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="bets",
                to="baccarat.play",
            ),
            "baccarat_bet",
            "play_id",
            "baccarat_bet_play_id_751360ad",
        ),
        # card_dealt_once (shoe, position)
        own_index_dropped(
            "dealtcard",
            "shoe",
            models.ForeignKey(
                db_index=False,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="dealt_cards",
                to="baccarat.shoe",
            ),
            "baccarat_dealtcard",
            "shoe_id",
            "baccarat_dealtcard_shoe_id_b153c8af",
        ),
        # play_player_recent (player, -created_at)
        own_index_dropped(
            "play",
            "player",
            models.ForeignKey(
                db_index=False,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="plays",
                to=settings.AUTH_USER_MODEL,
            ),
            "baccarat_play",
            "player_id",
            "baccarat_play_player_id_cd1288d4",
        ),
        # one_play_per_player (round, player)
        own_index_dropped(
            "play",
            "round",
            models.ForeignKey(
                db_index=False,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="plays",
                to="baccarat.round",
            ),
            "baccarat_play",
            "round_id",
            "baccarat_play_round_id_d82b28ce",
        ),
        # round_table_recent (table, -created_at)
        own_index_dropped(
            "round",
            "table",
            models.ForeignKey(
                db_index=False,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="rounds",
                to="baccarat.table",
            ),
            "baccarat_round",
            "table_id",
            "baccarat_round_table_id_2455732e",
        ),
    ]
