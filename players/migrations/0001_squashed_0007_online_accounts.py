# Squashed: replaces players 0001_initial to 0007_online_accounts. Kept: the trigram index of 0003 (PostgreSQL). Left out: the
# search text backfill of 0003, which only rewrites existing players (elidable).
# A fresh database gets the same schema and rows as from the old chain, in far fewer state changes; a database
# part-way through the old chain goes on with the old files, which stay.

import django.db.models.deletion
from django.conf import settings
from django.db import DatabaseError, migrations, models, transaction



def trigram_index(apps, schema_editor):
    """On PostgreSQL, a trigram index lets "find your table" match a name anywhere in ``search`` without
    reading every player; without the pg_trgm extension the search still works, by a scan."""
    if schema_editor.connection.vendor != "postgresql":
        return
    try:
        with transaction.atomic(using=schema_editor.connection.alias):
            schema_editor.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
            schema_editor.execute(
                "CREATE INDEX players_player_search_trgm ON players_player USING gin (search gin_trgm_ops)"
            )
    except DatabaseError:
        pass


def trigram_index_drop(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("DROP INDEX IF EXISTS players_player_search_trgm")


class Migration(migrations.Migration):

    replaces = [('players', '0001_initial'), ('players', '0002_translatable_labels'), ('players', '0003_player_search'), ('players', '0004_merged_labels'), ('players', '0005_player_import'), ('players', '0006_player_import_event'), ('players', '0007_online_accounts')]

    initial = True

    dependencies = [
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='Player',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('display_name', models.CharField(help_text='Name shown on standings and seatings.', max_length=120, verbose_name='display name')),
                ('family_name', models.CharField(blank=True, max_length=80, verbose_name='family name')),
                ('given_name', models.CharField(blank=True, max_length=80, verbose_name='given name')),
                ('reading', models.CharField(blank=True, help_text='Reading of the name in kana or romaji (読み), for sorting.', max_length=160, verbose_name='reading')),
                ('club', models.CharField(blank=True, max_length=120, verbose_name='club / affiliation')),
                ('country', models.CharField(blank=True, help_text='ISO 3166-1 alpha-2 code, e.g. JP.', max_length=2, verbose_name='country')),
                ('external_id', models.CharField(blank=True, help_text='An outside identifier such as an EMA number; unique when present.', max_length=40, null=True, verbose_name='external id')),
                ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='created at')),
                ('user', models.OneToOneField(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='player', to=settings.AUTH_USER_MODEL, verbose_name='user')),
                ('search', models.TextField(blank=True, editable=False, help_text='The name and its reading as people type them (kana, romaji).')),
            ],
            options={
                'ordering': ['display_name', 'id'],
                'indexes': [models.Index(fields=['display_name'], name='players_pla_display_584b62_idx'), models.Index(fields=['country'], name='players_pla_country_d6c639_idx')],
                'constraints': [models.UniqueConstraint(condition=models.Q(('external_id__isnull', False), models.Q(('external_id', ''), _negated=True)), fields=('external_id',), name='player_external_id_unique_when_present')],
                'verbose_name': 'player',
                'verbose_name_plural': 'players',
            },
        ),
        migrations.RunPython(
            code=trigram_index,
            reverse_code=trigram_index_drop,
        ),
        migrations.AlterField(
            model_name='player',
            name='search',
            field=models.TextField(blank=True, editable=False, help_text='The name and its reading as people type them (kana, romaji).', verbose_name='search'),
        ),
        migrations.CreateModel(
            name='PlayerImport',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('file_name', models.CharField(blank=True, max_length=200)),
                ('data', models.BinaryField(help_text='the file as uploaded, until it is imported')),
                ('lines', models.PositiveIntegerField(default=0)),
                ('state', models.CharField(choices=[('queued', 'Queued'), ('running', 'Running'), ('done', 'Done'), ('failed', 'Failed')], default='queued', max_length=8)),
                ('percent', models.PositiveSmallIntegerField(default=0)),
                ('message', models.TextField(blank=True)),
                ('problems', models.JSONField(blank=True, default=list)),
                ('imported', models.PositiveIntegerField(default=0)),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('updated_at', models.DateTimeField(auto_now=True)),
                ('requested_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('event_id', models.PositiveBigIntegerField(blank=True, null=True)),
            ],
            options={
                'ordering': ['-created_at'],
            },
        ),
        migrations.CreateModel(
            name='OnlineAccount',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('platform', models.CharField(choices=[('tenhou', 'Tenhou 天鳳'), ('mahjongsoul', 'Mahjong Soul 雀魂')], max_length=16, verbose_name='platform')),
                ('account_id', models.CharField(blank=True, help_text="Mahjong Soul's account id", max_length=40, verbose_name='account id')),
                ('name', models.CharField(blank=True, max_length=60, verbose_name='name on the platform')),
                ('server', models.CharField(blank=True, help_text='Mahjong Soul: Japan, Asia or China', max_length=16, verbose_name='server')),
                ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='created at')),
                ('player', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='online_accounts', to='players.player', verbose_name='player')),
            ],
            options={
                'verbose_name': 'online account',
                'verbose_name_plural': 'online accounts',
                'ordering': ['platform', 'name', 'id'],
                'constraints': [models.UniqueConstraint(condition=models.Q(('account_id', ''), _negated=True), fields=('platform', 'account_id'), name='online_account_id_unique_per_platform'), models.UniqueConstraint(condition=models.Q(('name', ''), _negated=True), fields=('platform', 'name'), name='online_account_name_unique_per_platform'), models.CheckConstraint(condition=models.Q(models.Q(('account_id', ''), _negated=True), models.Q(('name', ''), _negated=True), _connector='OR'), name='online_account_has_id_or_name')],
            },
        ),
    ]
