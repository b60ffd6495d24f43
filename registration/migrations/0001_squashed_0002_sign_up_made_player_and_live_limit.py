# Squashed: replaces registration 0001_initial to 0002_sign_up_made_player_and_live_limit.
# A fresh database gets the same schema and rows as from the old chain, in far fewer state changes; a database
# part-way through the old chain goes on with the old files, which stay.

import django.db.models.deletion
import registration.models
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    replaces = [('registration', '0001_initial'), ('registration', '0002_sign_up_made_player_and_live_limit')]

    initial = True

    dependencies = [
        ('players', '0006_player_import_event'),
        ('tournament', '0020_standings_hidden_from_round'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='Registration',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('opens_at', models.DateTimeField(verbose_name='sign-ups open at')),
                ('closes_at', models.DateTimeField(verbose_name='sign-ups close at')),
                ('cap', models.PositiveIntegerField(help_text='Confirmed players at most; more sign-ups wait in order.', verbose_name='places')),
                ('approval', models.BooleanField(default=False, help_text='Each sign-up is pending until an organizer approves it.', verbose_name='organizer approves each sign-up')),
                ('asked', models.JSONField(default=registration.models.default_asked, verbose_name='fields asked')),
                ('required', models.JSONField(default=registration.models.default_required, verbose_name='fields required')),
                ('pending_per_email', models.PositiveSmallIntegerField(default=2, help_text='Live sign-ups (pending, waiting or confirmed) with one e-mail address, at most.', verbose_name='sign-ups per e-mail address')),
                ('checkin_opens_at', models.DateTimeField(blank=True, null=True, verbose_name='check-in opens at')),
                ('checkin_closed_at', models.DateTimeField(blank=True, editable=False, null=True, verbose_name='check-in closed at')),
                ('reminder_sent_at', models.DateTimeField(blank=True, editable=False, null=True, verbose_name='reminder sent at')),
                ('event', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='registration', to='tournament.event', verbose_name='event')),
            ],
            options={
                'verbose_name': 'registration',
                'verbose_name_plural': 'registrations',
            },
        ),
        migrations.CreateModel(
            name='SignUp',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('state', models.CharField(choices=[('pending', 'Pending (awaiting approval)'), ('confirmed', 'Confirmed'), ('waiting', 'Waiting list'), ('withdrawn', 'Withdrawn'), ('refused', 'Refused')], max_length=10, verbose_name='state')),
                ('rank', models.PositiveIntegerField(verbose_name='order')),
                ('name', models.CharField(max_length=80, verbose_name='name')),
                ('reading', models.CharField(blank=True, max_length=120, verbose_name='reading (kana or romaji)')),
                ('club', models.CharField(blank=True, max_length=120, verbose_name='club / affiliation')),
                ('country', models.CharField(blank=True, max_length=60, verbose_name='country')),
                ('external_id', models.CharField(blank=True, max_length=40, verbose_name='EMA number or other id')),
                ('email', models.EmailField(max_length=254, verbose_name='e-mail')),
                ('language', models.CharField(default='en', max_length=8, verbose_name='language')),
                ('nonce', models.CharField(editable=False, max_length=24)),
                ('checked_in_at', models.DateTimeField(blank=True, null=True, verbose_name='checked in at')),
                ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='signed up at')),
                ('entry', models.OneToOneField(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='sign_up', to='tournament.entry', verbose_name='entry')),
                ('event', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='sign_ups', to='tournament.event', verbose_name='event')),
                ('made_player', models.ForeignKey(blank=True, editable=False, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='players.player', verbose_name='player made at sign-up')),
            ],
            options={
                'verbose_name': 'sign-up',
                'verbose_name_plural': 'sign-ups',
                'ordering': ['event', 'rank'],
                'indexes': [models.Index(fields=['event', 'state', 'rank'], name='registratio_event_i_7babaa_idx'), models.Index(fields=['event', 'email'], name='registratio_event_i_5da2b4_idx')],
                'constraints': [models.UniqueConstraint(fields=('event', 'rank'), name='sign_up_rank_unique')],
            },
        ),
        migrations.CreateModel(
            name='SignUpChange',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('what', models.CharField(max_length=20, verbose_name='what')),
                ('state_before', models.CharField(blank=True, max_length=10, verbose_name='state before')),
                ('state_after', models.CharField(max_length=10, verbose_name='state after')),
                ('reason', models.CharField(blank=True, max_length=300, verbose_name='reason')),
                ('at', models.DateTimeField(auto_now_add=True, verbose_name='at')),
                ('by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, to=settings.AUTH_USER_MODEL, verbose_name='by')),
                ('sign_up', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='changes', to='registration.signup', verbose_name='sign-up')),
            ],
            options={
                'verbose_name': 'sign-up change',
                'verbose_name_plural': 'sign-up changes',
                'ordering': ['at', 'pk'],
            },
        ),
        migrations.CreateModel(
            name='SignUpMessage',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('kind', models.CharField(max_length=20, verbose_name='kind')),
                ('subject', models.CharField(max_length=200, verbose_name='subject')),
                ('body', models.TextField(verbose_name='body')),
                ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='written at')),
                ('sent_at', models.DateTimeField(blank=True, null=True, verbose_name='sent at')),
                ('sign_up', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='messages', to='registration.signup', verbose_name='sign-up')),
            ],
            options={
                'verbose_name': 'message',
                'verbose_name_plural': 'messages',
                'ordering': ['created_at', 'pk'],
            },
        ),
        migrations.CreateModel(
            name='BlockedEmail',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('email', models.EmailField(max_length=254, verbose_name='e-mail')),
                ('reason', models.CharField(blank=True, max_length=300, verbose_name='reason')),
                ('at', models.DateTimeField(auto_now_add=True, verbose_name='at')),
                ('by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, to=settings.AUTH_USER_MODEL, verbose_name='by')),
                ('event', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='blocked_emails', to='tournament.event', verbose_name='event')),
            ],
            options={
                'verbose_name': 'blocked address',
                'verbose_name_plural': 'blocked addresses',
                'constraints': [models.UniqueConstraint(fields=('event', 'email'), name='blocked_email_unique')],
            },
        ),
    ]
