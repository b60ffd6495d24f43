"""Loads demo data for trying Taikai locally: an organizer account, 32 players, a finished event and
a running one, every game played hand by hand through the services (``tournament.simulation``)."""

import datetime
import os

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from players.models import Player
from scoring.models import Ruleset
from tournament.models import Event
from tournament.services.roles import ORGANIZERS_GROUP, role_grant, staff_groups_install
from tournament.simulation import event_create, event_simulate

DEMO_USERNAME = "organizer"
DEMO_REFEREE = "referee"
DEMO_PASSWORD = "taikai-demo"  # local demo only; the command refuses to run in production mode

DEMO_PLAYERS = [
    ("山田 太郎", "山田", "太郎", "やまだ たろう", "東京雀友会", "JP"),
    ("佐藤 花子", "佐藤", "花子", "さとう はなこ", "大阪麻雀連盟", "JP"),
    ("鈴木 一郎", "鈴木", "一郎", "すずき いちろう", "東京雀友会", "JP"),
    ("高橋 美咲", "高橋", "美咲", "たかはし みさき", "名古屋牌友会", "JP"),
    ("田中 健", "田中", "健", "たなか けん", "福岡麻雀クラブ", "JP"),
    ("伊藤 さくら", "伊藤", "さくら", "いとう さくら", "札幌雀荘連", "JP"),
    ("渡辺 翔", "渡辺", "翔", "わたなべ しょう", "大阪麻雀連盟", "JP"),
    ("中村 結衣", "中村", "結衣", "なかむら ゆい", "京都雀友会", "JP"),
    ("Anna Kowalska", "Kowalska", "Anna", "", "Warsaw Riichi Club", "PL"),
    ("Jean Dupont", "Dupont", "Jean", "", "Paris Mahjong", "FR"),
    ("Emma Schmidt", "Schmidt", "Emma", "", "Berlin Riichi", "DE"),
    ("Lars Nilsson", "Nilsson", "Lars", "", "Stockholm Mahjong", "SE"),
    ("Sofia Rossi", "Rossi", "Sofia", "", "Milano Riichi", "IT"),
    ("Oliver Smith", "Smith", "Oliver", "", "London Riichi", "GB"),
    ("Mia Novak", "Novak", "Mia", "", "Praha Mahjong", "CZ"),
    ("Daniel Kim", "Kim", "Daniel", "", "Seoul Riichi", "KR"),
    ("小林 大輔", "小林", "大輔", "こばやし だいすけ", "横浜麻雀倶楽部", "JP"),
    ("加藤 彩", "加藤", "彩", "かとう あや", "名古屋牌友会", "JP"),
    ("吉田 蓮", "吉田", "蓮", "よしだ れん", "仙台雀友会", "JP"),
    ("山本 陽菜", "山本", "陽菜", "やまもと ひな", "神戸麻雀会", "JP"),
    ("松本 拓海", "松本", "拓海", "まつもと たくみ", "広島牌友会", "JP"),
    ("井上 葵", "井上", "葵", "いのうえ あおい", "福岡麻雀クラブ", "JP"),
    ("木村 悠斗", "木村", "悠斗", "きむら ゆうと", "札幌雀荘連", "JP"),
    ("林 美月", "林", "美月", "はやし みづき", "京都雀友会", "JP"),
    ("Lucía García", "García", "Lucía", "", "Madrid Riichi", "ES"),
    ("João Silva", "Silva", "João", "", "Lisboa Mahjong", "PT"),
    ("Pieter de Vries", "de Vries", "Pieter", "", "Amsterdam Riichi", "NL"),
    ("Mikko Virtanen", "Virtanen", "Mikko", "", "Helsinki Mahjong", "FI"),
    ("Chloé Martin", "Martin", "Chloé", "", "Lyon Riichi", "FR"),
    ("Tomasz Nowak", "Nowak", "Tomasz", "", "Kraków Mahjong", "PL"),
    ("Nora Hansen", "Hansen", "Nora", "", "Oslo Riichi", "NO"),
    ("Lukas Müller", "Müller", "Lukas", "", "Wien Mahjong", "AT"),
]

# (slug, name, venue, days before today it started, players, planned rounds, rounds played, seed,
#  (tables finished, hands played at the next table) of the round in progress, or None)
DEMO_EVENTS = [
    ("spring-open", "Spring Open 春季大会", "Tokyo", 30, 16, 3, 3, 2024, None),
    ("autumn-cup", "Autumn Cup 秋季杯", "Osaka", 0, 32, 4, 1, 2025, (5, 4)),
]


class Command(BaseCommand):
    help = "Load the demo data (an organizer account, players, a finished and a running event). Local use only."

    def add_arguments(self, parser):
        parser.add_argument("--if-empty", action="store_true", help="do nothing when players or events already exist")

    @transaction.atomic
    def handle(self, *args, if_empty=False, **options):
        if getattr(settings, "PRODUCTION", False):
            message = _("the demo data is for local use, not production mode")
            raise CommandError(f"demo_refused: {message}")
        if if_empty and (Player.objects.exists() or Event.objects.exists()):
            self.stdout.write(_("Demo data already loaded."))
            return
        staff_groups_install()
        User = get_user_model()
        organizer = User.objects.filter(username=DEMO_USERNAME).first()
        if organizer is None:  # an organizer, not a superuser: the admin shows the events they own
            organizer = User.objects.create_user(DEMO_USERNAME, "organizer@example.org", DEMO_PASSWORD, is_staff=True)
            organizer.groups.add(Group.objects.get(name=ORGANIZERS_GROUP))
        referee = User.objects.filter(username=DEMO_REFEREE).first() or User.objects.create_user(
            DEMO_REFEREE, "referee@example.org", DEMO_PASSWORD
        )
        players = []
        for display, family, given, reading, club, country in DEMO_PLAYERS:
            player, _created = Player.objects.get_or_create(
                display_name=display,
                defaults={
                    "family_name": family,
                    "given_name": given,
                    "reading": reading,
                    "club": club,
                    "country": country,
                },
            )
            players.append(player)
        ruleset = Ruleset.objects.get(slug="standard")
        today = timezone.localdate()
        for slug, name, venue, days_ago, count, planned, played, seed, in_progress in DEMO_EVENTS:
            if Event.objects.filter(slug=slug).exists():
                continue
            starts_on = today - datetime.timedelta(days=days_ago)
            event = event_create(
                slug=slug,
                name=name,
                players=players[:count],
                ruleset=ruleset,
                planned_rounds=planned,
                is_public=True,
                organizer=organizer,
                venue=venue,
                starts_on=starts_on,
                ends_on=starts_on,
            )
            summary = event_simulate(event, rounds=played, seed=seed, user=organizer, in_progress=in_progress)
            if in_progress:
                role_grant(event=event, user=referee, kind="referee", by=organizer)
            self.stdout.write(summary.text())
        site = "http://" + os.environ.get("TAIKAI_ADDR", "127.0.0.1:8000")  # where bin/serve serves it
        self.stdout.write(
            self.style.SUCCESS(
                _(
                    "Demo loaded: %(count)s players. Admin: %(admin)s (user %(organizer)s, password %(password)s); "
                    "referee console: %(console)s (user %(referee)s, same password)"
                )
                % {
                    "count": Player.objects.count(),
                    "admin": f"{site}/admin/",
                    "organizer": repr(DEMO_USERNAME),
                    "password": repr(DEMO_PASSWORD),
                    "console": f"{site}/console/",
                    "referee": repr(DEMO_REFEREE),
                }
            )
        )
