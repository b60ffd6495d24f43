# Squashed: replaces accounts 0001_account_preference to 0004_language_choices_six.
# A fresh database gets the same schema and rows as from the old chain, in far fewer state changes; a database
# part-way through the old chain goes on with the old files, which stay.

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    replaces = [('accounts', '0001_account_preference'), ('accounts', '0002_signin_lockouts_and_codes'), ('accounts', '0003_signin_addresses'), ('accounts', '0004_language_choices_six')]

    initial = True

    dependencies = [
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='AccountPreference',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('language', models.CharField(choices=[('ja', '日本語'), ('en', 'English'), ('zh-hans', '简体中文'), ('ko', '한국어'), ('de', 'Deutsch'), ('fr', 'Français')], max_length=8, verbose_name='language')),
                ('updated_at', models.DateTimeField(auto_now=True, verbose_name='updated at')),
                ('user', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='preference', to=settings.AUTH_USER_MODEL, verbose_name='account')),
            ],
            options={
                'verbose_name': 'account preference',
                'verbose_name_plural': 'account preferences',
            },
        ),
        migrations.CreateModel(
            name='SignInLockout',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('kind', models.CharField(choices=[('pair', 'an account from one address'), ('address', 'an address, for every account')], max_length=8, verbose_name='kind')),
                ('username', models.CharField(blank=True, max_length=150, verbose_name='account name tried')),
                ('address', models.CharField(max_length=64, verbose_name='address')),
                ('started_at', models.DateTimeField(auto_now_add=True, verbose_name='started at')),
                ('until', models.DateTimeField(verbose_name='until')),
            ],
            options={
                'verbose_name': 'sign-in lockout',
                'verbose_name_plural': 'sign-in lockouts',
                'ordering': ('-started_at',),
            },
        ),
        migrations.CreateModel(
            name='SignInCode',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('digest', models.CharField(max_length=64, unique=True)),
                ('issued_at', models.DateTimeField(auto_now_add=True, verbose_name='issued at')),
                ('expires_at', models.DateTimeField(verbose_name='expires at')),
                ('wrong_tries', models.PositiveSmallIntegerField(default=0, verbose_name='wrong tries')),
                ('used_at', models.DateTimeField(blank=True, null=True, verbose_name='used at')),
                ('used_from', models.CharField(blank=True, max_length=64, verbose_name='used from')),
                ('void_at', models.DateTimeField(blank=True, null=True, verbose_name='void at')),
                ('issued_by', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='signin_codes_issued', to=settings.AUTH_USER_MODEL, verbose_name='issued by')),
                ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='signin_codes', to=settings.AUTH_USER_MODEL, verbose_name='account')),
            ],
            options={
                'verbose_name': 'one-time sign-in code',
                'verbose_name_plural': 'one-time sign-in codes',
                'ordering': ('-issued_at',),
            },
        ),
        migrations.CreateModel(
            name='SignInAddress',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('address', models.CharField(max_length=64, verbose_name='address')),
                ('first_at', models.DateTimeField(auto_now_add=True, verbose_name='first sign-in')),
                ('last_at', models.DateTimeField(verbose_name='last sign-in')),
                ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='account')),
            ],
            options={
                'verbose_name': 'sign-in address',
                'verbose_name_plural': 'sign-in addresses',
                'constraints': [models.UniqueConstraint(fields=('user', 'address'), name='one_row_per_signin_address')],
            },
        ),
    ]
