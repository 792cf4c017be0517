"""Each play keeps its round's table (``Play.table``): added empty and filled from the rounds
here, made required and indexed in 0012 (a migration of its own: on PostgreSQL the filled
rows' deferred foreign-key checks must be done before the column is altered)."""

import django.db.models.deletion
from django.db import migrations, models
from django.db.models import OuterRef, Subquery


def fill_tables(apps, schema_editor):
    Play = apps.get_model("baccarat", "Play")
    Round = apps.get_model("baccarat", "Round")
    table_of_round = Round.objects.filter(pk=OuterRef("round_id")).values("table_id")[:1]
    Play.objects.using(schema_editor.connection.alias).update(table_id=Subquery(table_of_round))


class Migration(migrations.Migration):
    dependencies = [
        ("baccarat", "0010_round_void_cause_not_completed"),
    ]

    operations = [
        migrations.AddField(
            model_name="play",
            name="table",
            field=models.ForeignKey(
                db_index=False,
                editable=False,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to="baccarat.table",
            ),
        ),
        migrations.RunPython(fill_tables, migrations.RunPython.noop, elidable=True),
    ]
