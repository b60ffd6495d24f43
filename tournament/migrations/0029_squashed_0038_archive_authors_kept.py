# Squashed: replaces tournament 0029_queuedtask_to_core to 0038_archive_authors_kept. Left out: the draw seeds backfill of 0036,
# which only rewrites existing events and rounds (elidable).
# A fresh database gets the same schema and rows as from the old chain, in far fewer state changes; a database
# part-way through the old chain goes on with the old files, which stay.

import django.db.models.deletion
import tournament.models.events
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    replaces = [('tournament', '0029_queuedtask_to_core'), ('tournament', '0030_penalty_kind_chombo'), ('tournament', '0031_eventrole_head'), ('tournament', '0032_results_after_check'), ('tournament', '0033_event_yaku_names'), ('tournament', '0034_reseat'), ('tournament', '0035_late_players_round_guards'), ('tournament', '0036_draw_seeds'), ('tournament', '0037_rule_changes'), ('tournament', '0038_archive_authors_kept')]

    dependencies = [
        ('core', '0001_initial'),
        ('tournament', '0028_round_checks'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.DeleteModel(
                    name='QueuedTask',
                ),
            ],
        ),
        migrations.AlterField(
            model_name='penalty',
            name='kind',
            field=models.CharField(choices=[('art35_revealed_hand', 'Art. 35① hand revealed on purpose (手札公開) — loses ron for the hand'), ('art36_out_of_turn', 'Art. 36① draw or discard out of turn (手番外の取札・捨札) — loses claim and win for the hand'), ('art36_wrong_hand_size', 'Art. 36② wrong hand size after a wrong draw or discard (手札の過不足) — loses claim and win for the hand'), ('art36_wall_wrecked', 'Art. 36③ wall or river wrecked beyond recovery (山・川の崩壊) — hand replayed; the offender loses claim and win in the replay'), ('art37_deliberate_foul', 'Art. 37① deliberate foul (意図的な反則) — penalty points (unit × players)'), ('art38_clock_flag', 'Art. 38⑤ time bank exhausted (持ち時間切れ) — loses claim and win for the hand'), ('art43_egregious_conduct', 'Art. 43 egregious conduct judged by the director (著しく悪質な行動) — disqualification'), ('chombo', "chombo (錯和) — the ruleset's chombo points against the overall total; the game ends or the hand is replayed")], max_length=30, verbose_name='kind'),
        ),
        migrations.AddField(
            model_name='eventrole',
            name='head',
            field=models.BooleanField(default=False, help_text='Referees only: a head referee may also unlock a checked round, with a reason.', verbose_name='head referee'),
        ),
        migrations.AddField(
            model_name='event',
            name='results_after_check',
            field=models.BooleanField(default=False, help_text="A round's results reach the public pages, the live pages, read tokens and exports only once a referee has checked the round; until then the public sees it as being checked. Staff see everything.", verbose_name='publish results once checked'),
        ),
        migrations.AddField(
            model_name='standingssnapshot',
            name='checking_from_round',
            field=models.PositiveSmallIntegerField(blank=True, help_text='The public rows stop before this round because its results are not checked yet.', null=True, verbose_name='being checked from round'),
        ),
        migrations.AddField(
            model_name='event',
            name='yaku_names',
            field=models.CharField(choices=[('bilingual', "Japanese with the page's language (立直 Riichi)"), ('japanese', 'Japanese (立直)'), ('romaji', 'Romaji (Riichi)'), ('ema', 'EMA English (Robbing a Kong)'), ('wrc', 'WRC English (Robbing a Quad)')], default='bilingual', help_text="How the event's pages name yaku: as its referees do (Japanese, romaji, EMA or WRC English). A reader who chose their own naming sees theirs.", max_length=12, verbose_name='yaku names'),
        ),
        migrations.CreateModel(
            name='TableReseat',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('seats_before', models.JSONField(default=list, verbose_name='seats before')),
                ('seats_after', models.JSONField(default=list, verbose_name='seats after')),
                ('moved', models.JSONField(default=list, verbose_name='seats of the game moved')),
                ('hand_versions', models.JSONField(blank=True, default=list, verbose_name='hand versions written')),
                ('ruling', models.OneToOneField(null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='reseat', to='tournament.ruling', verbose_name='ruling')),
                ('table', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='reseats', to='tournament.table', verbose_name='table')),
            ],
            options={
                'verbose_name': 're-seat',
                'verbose_name_plural': 're-seats',
                'ordering': ['table', 'pk'],
            },
        ),
        migrations.AddField(
            model_name='event',
            name='late_absent_minutes',
            field=models.PositiveSmallIntegerField(blank=True, help_text="This many minutes after a round's announced start, a seated player not checked in at their table is marked absent (art. 42); the table's referee is warned a minute before and can hold it. Empty: off.", null=True, verbose_name='late players absent after (minutes)'),
        ),
        migrations.AddField(
            model_name='round',
            name='starts_at',
            field=models.DateTimeField(blank=True, help_text='When the round starts, as announced to the players; late players are marked absent from it.', null=True, verbose_name='announced start'),
        ),
        migrations.AddField(
            model_name='seat',
            name='arrived_at',
            field=models.DateTimeField(blank=True, null=True, verbose_name='checked in at the table at'),
        ),
        migrations.AddField(
            model_name='seat',
            name='arrived_how',
            field=models.CharField(blank=True, choices=[('referee', 'the referee'), ('player', "the player's own link")], max_length=8, verbose_name='checked in by'),
        ),
        migrations.AddField(
            model_name='seat',
            name='late_marked_at',
            field=models.DateTimeField(blank=True, null=True, verbose_name='marked absent as late at'),
        ),
        migrations.AddField(
            model_name='table',
            name='late_held_at',
            field=models.DateTimeField(blank=True, null=True, verbose_name="late players' clock held at"),
        ),
        migrations.AddField(
            model_name='table',
            name='late_held_by',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name="late players' clock held by"),
        ),
        migrations.AddField(
            model_name='table',
            name='late_warned_at',
            field=models.DateTimeField(blank=True, null=True, verbose_name="late players' warning announced at"),
        ),
        migrations.CreateModel(
            name='RoundGuardOverride',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('round_number', models.PositiveSmallIntegerField(verbose_name='round number')),
                ('guard', models.CharField(choices=[('previous_round_unfinished', 'a table of the previous round has no result'), ('check_in_open', 'check-in is still open')], max_length=32, verbose_name='guard')),
                ('refusal', models.TextField(blank=True, verbose_name='what the guard said')),
                ('reason', models.TextField(verbose_name='reason')),
                ('at', models.DateTimeField(auto_now_add=True, verbose_name='at')),
                ('by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='by')),
                ('by_token', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='tournament.apitoken', verbose_name='API token')),
                ('event', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='round_guard_overrides', to='tournament.event', verbose_name='event')),
                ('by_name', models.CharField(blank=True, max_length=150, verbose_name='by (name)')),
            ],
            options={
                'verbose_name': 'round guard override',
                'verbose_name_plural': 'round guard overrides',
                'ordering': ['event', 'round_number', 'at', 'id'],
            },
        ),
        migrations.AddField(
            model_name='event',
            name='draw_seed',
            field=models.BigIntegerField(null=True, verbose_name='draw seed'),
        ),
        migrations.AddField(
            model_name='round',
            name='draw_seed',
            field=models.BigIntegerField(blank=True, editable=False, help_text='The seed the seating was drawn with (empty: seated by hand or from a fixed schedule).', null=True, verbose_name='draw seed'),
        ),
        migrations.AddField(
            model_name='round',
            name='seating_request',
            field=models.JSONField(blank=True, default=dict, editable=False, verbose_name='seating request'),
        ),
        migrations.AlterField(
            model_name='event',
            name='draw_seed',
            field=models.BigIntegerField(default=tournament.models.events.draw_seed_new, help_text="Every draw by lot 抽選 of the event (random seating, ties broken by lot) follows from this number: each round's seed is derived from it and the round's number, so anyone can draw again and compare.", verbose_name='draw seed'),
        ),
        migrations.CreateModel(
            name='RuleChange',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('setting', models.CharField(choices=[('standings_precedence', 'standings order and tie-breaks'), ('seating_method', 'seating method'), ('seating_remainder', 'seating remainder'), ('draw_seed', 'draw seed')], max_length=32, verbose_name='setting')),
                ('before', models.JSONField(blank=True, null=True, verbose_name='before')),
                ('after', models.JSONField(blank=True, null=True, verbose_name='after')),
                ('reason', models.TextField(verbose_name='reason')),
                ('after_round', models.PositiveSmallIntegerField(help_text='The last round with a result when the setting changed.', verbose_name='after round')),
                ('by_name', models.CharField(blank=True, max_length=150, verbose_name='by (name)')),
                ('at', models.DateTimeField(auto_now_add=True, verbose_name='at')),
                ('by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='by')),
                ('event', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='rule_changes', to='tournament.event', verbose_name='event')),
            ],
            options={
                'verbose_name': 'rule change',
                'verbose_name_plural': 'rule changes',
                'ordering': ['event', 'at', 'id'],
            },
        ),
        migrations.AddField(
            model_name='table',
            name='late_held_by_name',
            field=models.CharField(blank=True, max_length=150, verbose_name="late players' clock held by (name)"),
        ),
    ]
