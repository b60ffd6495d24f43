# Squashed: replaces seasons 0001_initial to 0002_series_events_waiting.
# A fresh database gets the same schema and rows as from the old chain, in far fewer state changes; a database
# part-way through the old chain goes on with the old files, which stay.

import django.db.models.deletion
import tournament.fields
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    replaces = [('seasons', '0001_initial'), ('seasons', '0002_series_events_waiting')]

    initial = True

    dependencies = [
        ('players', '0006_player_import_event'),
        ('tournament', '0023_teamswap'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='Series',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('name', models.CharField(max_length=160, verbose_name='name')),
                ('slug', models.SlugField(max_length=80, unique=True, verbose_name='slug')),
                ('rule', models.CharField(choices=[('sum', 'sum of points'), ('best_n', "best N events' points"), ('place_points', 'points by place')], default='sum', max_length=16, verbose_name='rule')),
                ('best_n', models.PositiveSmallIntegerField(blank=True, help_text="With the best N rule: how many of each player's events count.", null=True, verbose_name='best N')),
                ('place_points', models.JSONField(blank=True, default=list, help_text='With points by place: the points of 1st, 2nd, 3rd … place, e.g. [25, 18, 15, 12, 10].', verbose_name='points by place')),
                ('is_public', models.BooleanField(default=True, verbose_name='is public')),
                ('computed_at', models.DateTimeField(blank=True, editable=False, null=True, verbose_name='computed at')),
                ('as_of', models.DateField(blank=True, editable=False, null=True, verbose_name='ratings as of')),
                ('standings_count', models.PositiveIntegerField(default=0, editable=False)),
                ('ema_count', models.PositiveIntegerField(default=0, editable=False)),
                ('elo_count', models.PositiveIntegerField(default=0, editable=False)),
                ('events_counted', models.JSONField(default=list, editable=False)),
                ('owner', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='owner')),
            ],
            options={
                'verbose_name': 'series',
                'verbose_name_plural': 'series',
                'ordering': ['name'],
            },
        ),
        migrations.CreateModel(
            name='SeriesEvent',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('event', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='tournament.event', verbose_name='event')),
                ('series', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='series_events', to='seasons.series')),
            ],
            options={
                'verbose_name': 'event of the series',
                'verbose_name_plural': 'events of the series',
                'constraints': [models.UniqueConstraint(fields=('series', 'event'), name='series_event_once')],
            },
        ),
        migrations.AddField(
            model_name='series',
            name='events',
            field=models.ManyToManyField(related_name='series', through='seasons.SeriesEvent', to='tournament.event', verbose_name='events'),
        ),
        migrations.CreateModel(
            name='SeriesRating',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('kind', models.CharField(choices=[('ema', 'EMA ranking projection'), ('elo', 'Elo by placement')], max_length=3)),
                ('position', models.PositiveIntegerField()),
                ('rank', models.PositiveIntegerField()),
                ('name', models.CharField(max_length=120)),
                ('value', models.CharField(max_length=60)),
                ('shown', models.CharField(max_length=20)),
                ('count', models.PositiveIntegerField(default=0)),
                ('detail', models.JSONField(default=dict)),
                ('player', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='players.player')),
                ('series', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='ratings', to='seasons.series')),
            ],
            options={
                'ordering': ['series_id', 'kind', 'position'],
                'constraints': [models.UniqueConstraint(fields=('series', 'kind', 'position'), name='series_rating_position_once')],
            },
        ),
        migrations.CreateModel(
            name='SeriesStanding',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('position', models.PositiveIntegerField()),
                ('rank', models.PositiveIntegerField()),
                ('name', models.CharField(max_length=120)),
                ('total', tournament.fields.FractionField()),
                ('events', models.PositiveIntegerField(default=0)),
                ('results', models.JSONField(default=list)),
                ('player', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='players.player')),
                ('series', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='standings', to='seasons.series')),
            ],
            options={
                'ordering': ['series_id', 'position'],
                'constraints': [models.UniqueConstraint(fields=('series', 'position'), name='series_standing_position_once')],
            },
        ),
        migrations.AddField(
            model_name='series',
            name='events_waiting',
            field=models.JSONField(default=list, editable=False),
        ),
    ]
