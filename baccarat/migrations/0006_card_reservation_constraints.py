from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("baccarat", "0005_reserve_existing_cards"),
    ]

    operations = [
        migrations.AddConstraint(
            model_name='round',
            constraint=models.CheckConstraint(condition=models.Q(('state', 'betting'), ('state', 'void'), models.Q(('reserved_cards', ''), _negated=True), _connector='OR'), name='locked_round_has_its_cards'),
        ),
        migrations.AddConstraint(
            model_name='round',
            constraint=models.CheckConstraint(condition=models.Q(('end_position__isnull', True), ('end_position__gt', models.F('start_position')), _connector='OR'), name='round_positions_ascend'),
        ),
        migrations.AddConstraint(
            model_name='shoe',
            constraint=models.UniqueConstraint(condition=models.Q(('player__isnull', True)), fields=('table', 'number'), name='shoe_number_per_table'),
        ),
        migrations.AddConstraint(
            model_name='shoe',
            constraint=models.UniqueConstraint(condition=models.Q(('player__isnull', False)), fields=('table', 'player', 'number'), name='shoe_number_per_player'),
        ),
        migrations.AddConstraint(
            model_name='shoe',
            constraint=models.UniqueConstraint(condition=models.Q(('is_finished', False), ('player__isnull', True)), fields=('table',), name='one_open_shoe_per_table'),
        ),
        migrations.AddConstraint(
            model_name='shoe',
            constraint=models.UniqueConstraint(condition=models.Q(('is_finished', False), ('player__isnull', False)), fields=('table', 'player'), name='one_open_shoe_per_player'),
        ),
        migrations.AddConstraint(
            model_name='shoe',
            constraint=models.CheckConstraint(condition=models.Q(('revealed_at__isnull', True), ('is_finished', True), _connector='OR'), name='shoe_revealed_only_when_finished'),
        ),
    ]
