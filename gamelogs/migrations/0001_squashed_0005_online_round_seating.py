# Squashed: replaces gamelogs 0001_initial to 0005_online_round_seating.
# A fresh database gets the same schema and rows as from the old chain, in far fewer state changes; a database
# part-way through the old chain goes on with the old files, which stay.

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    replaces = [('gamelogs', '0001_initial'), ('gamelogs', '0002_online_league'), ('gamelogs', '0003_online_league_accepts_log_scoring'), ('gamelogs', '0004_confirmation_windows'), ('gamelogs', '0005_online_round_seating')]

    initial = True

    dependencies = [
        ('tournament', '0027_event_imported'),
        ('tournament', '0028_round_checks'),
        ('tournament', '0032_results_after_check'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='GameLogImport',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('platform', models.CharField(choices=[('tenhou', 'Tenhou 天鳳'), ('mahjongsoul', 'Mahjong Soul 雀魂')], max_length=16, verbose_name='platform')),
                ('game_id', models.CharField(blank=True, max_length=80, verbose_name='game id')),
                ('digest', models.CharField(max_length=64, verbose_name='digest (SHA-256)')),
                ('log_format', models.CharField(choices=[('tenhou_xml', 'Tenhou XML (mjlog)'), ('tenhou_json', 'tenhou.net/6 JSON')], max_length=16, verbose_name='format')),
                ('log', models.TextField(verbose_name='log')),
                ('players', models.JSONField(default=list, verbose_name='names in the log')),
                ('final_scores', models.JSONField(default=list, verbose_name='final scores in the log')),
                ('hands', models.PositiveSmallIntegerField(verbose_name='hands')),
                ('seating_before', models.JSONField(default=list, help_text="the table's entries from East as seated, before the log's seat order replaced it", verbose_name='seat order before the log')),
                ('imported_with', models.CharField(blank=True, max_length=120, verbose_name='imported with')),
                ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='imported at')),
                ('event', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='game_logs', to='tournament.event', verbose_name='event')),
                ('imported_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, to=settings.AUTH_USER_MODEL, verbose_name='imported by')),
                ('table', models.OneToOneField(on_delete=django.db.models.deletion.PROTECT, related_name='game_log', to='tournament.table', verbose_name='table')),
            ],
            options={
                'verbose_name': 'imported game log',
                'verbose_name_plural': 'imported game logs',
                'ordering': ['-created_at', '-id'],
                'constraints': [models.UniqueConstraint(fields=('event', 'digest'), name='game_log_once_per_event'), models.UniqueConstraint(condition=models.Q(('game_id', ''), _negated=True), fields=('event', 'platform', 'game_id'), name='game_log_id_once_per_event')],
            },
        ),
        migrations.CreateModel(
            name='Disagreement',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('hand_number', models.PositiveSmallIntegerField(verbose_name='hand')),
                ('winner_position', models.PositiveSmallIntegerField(blank=True, null=True, verbose_name="winner's seat")),
                ('log_scoring', models.JSONField(default=dict, verbose_name="the log's scoring")),
                ('engine_scoring', models.JSONField(default=dict, verbose_name="Taikai's scoring")),
                ('state', models.CharField(choices=[('open', 'open'), ('accepted', "the log's scoring accepted"), ('corrected', 'corrected')], default='open', max_length=10, verbose_name='state')),
                ('resolved_at', models.DateTimeField(blank=True, null=True, verbose_name='settled at')),
                ('resolved_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='settled by')),
                ('log_import', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='disagreements', to='gamelogs.gamelogimport', verbose_name='game log')),
            ],
            options={
                'verbose_name': 'disagreement',
                'verbose_name_plural': 'disagreements',
                'ordering': ['log_import', 'hand_number', 'winner_position'],
            },
        ),
        migrations.CreateModel(
            name='OnlineLeague',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('free_tables', models.BooleanField(default=False, help_text='Each log becomes a table of the round in play (a new round when one of its players has played in it); otherwise a log goes to the table of a seated round that seats its players.', verbose_name='free online league')),
                ('creates_players', models.BooleanField(default=False, help_text='A log naming someone unknown creates the player, their online account and their entry.', verbose_name='players from the logs')),
                ('lobby', models.CharField(blank=True, help_text="The platform's lobby the event's games are played in (Tenhou: its number); empty: any lobby.", max_length=40, verbose_name='lobby')),
                ('max_log_age_days', models.PositiveSmallIntegerField(blank=True, help_text='A log whose game was played longer ago than this is refused; empty: no limit.', null=True, verbose_name='oldest log (days)')),
                ('event', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='online_league', to='tournament.event', verbose_name='event')),
                ('accepts_log_scoring', models.BooleanField(default=False, help_text="Where Taikai's scoring of a hand differs from the log's, the log's is accepted at once and the table's result confirmed; otherwise the result waits for a referee to settle each disagreement.", verbose_name="accept the log's scoring")),
                ('unconfirmed', models.CharField(choices=[('left_out', 'left out of that round'), ('away', 'marked away (not seated until back)'), ('withdrawn', 'withdrawn from the event')], default='left_out', help_text="Where a round has a confirmation window: what becomes of a player who did not confirm by its close (always left out of that round's seating and marked absent for it).", max_length=10, verbose_name='a player who did not confirm')),
                ('lobby_adapter', models.CharField(default='manual', help_text='What starts the tables: manual (the seating says what to do; always works), or an adapter that calls the platform, once the site enables it (ONLINE_LOBBY_ADAPTERS).', max_length=30, verbose_name='lobby adapter')),
                ('platform', models.CharField(choices=[('tenhou', 'Tenhou 天鳳'), ('mahjongsoul', 'Mahjong Soul 雀魂')], default='tenhou', help_text="Where the event's games are played: the seating shows each player's name there.", max_length=16, verbose_name='platform')),
                ('table_start', models.CharField(choices=[('tournament_lobby', "the organizer starts each table in the event's tournament lobby"), ('friend_room', 'a player of each table hosts a friend room')], default='friend_room', max_length=20, verbose_name='how a table starts')),
            ],
            options={
                'verbose_name': 'online league',
                'verbose_name_plural': 'online leagues',
            },
        ),
        migrations.CreateModel(
            name='ConfirmationWindow',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('round_number', models.PositiveSmallIntegerField(verbose_name='round')),
                ('closes_at', models.DateTimeField(verbose_name='closes at')),
                ('closed_at', models.DateTimeField(blank=True, help_text='When the unconfirmed were marked absent; empty: not yet.', null=True, verbose_name='closed at')),
                ('event', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='confirmation_windows', to='tournament.event', verbose_name='event')),
            ],
            options={
                'verbose_name': 'confirmation window',
                'verbose_name_plural': 'confirmation windows',
                'ordering': ['event', 'round_number'],
                'constraints': [models.UniqueConstraint(fields=('event', 'round_number'), name='one_confirmation_window_a_round')],
            },
        ),
        migrations.CreateModel(
            name='PlayConfirmation',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('state', models.CharField(choices=[('confirmed', 'will play'), ('absent', 'absent (did not confirm)')], max_length=10, verbose_name='state')),
                ('at', models.DateTimeField(auto_now_add=True, verbose_name='at')),
                ('entry', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='play_confirmations', to='tournament.entry', verbose_name='entry')),
                ('window', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='answers', to='gamelogs.confirmationwindow', verbose_name='confirmation window')),
            ],
            options={
                'verbose_name': 'play confirmation',
                'verbose_name_plural': 'play confirmations',
                'ordering': ['window', 'entry'],
                'constraints': [models.UniqueConstraint(fields=('window', 'entry'), name='one_answer_a_window')],
            },
        ),
        migrations.CreateModel(
            name='OnlineTable',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='flagged at')),
                ('table', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='online', to='tournament.table', verbose_name='table')),
            ],
            options={
                'verbose_name': 'online table',
                'verbose_name_plural': 'online tables',
                'ordering': ['table'],
            },
        ),
    ]
