"""``Play.table`` required, and the index ``play_player_table_round``: a player's latest
plays at a table are one ordered index walk."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("baccarat", "0011_play_table"),
    ]

    operations = [
        migrations.AlterField(
            model_name="play",
            name="table",
            field=models.ForeignKey(
                db_index=False,
                editable=False,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to="baccarat.table",
            ),
        ),
        migrations.AddIndex(
            model_name="play",
            index=models.Index(
                fields=["player", "table", "round"], name="play_player_table_round"
            ),
        ),
    ]
