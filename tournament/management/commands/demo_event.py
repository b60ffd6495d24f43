"""Loads demo data for trying Taikai locally: an organizer account and a field of players."""

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from players.models import Player

DEMO_USERNAME = "organizer"
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
]


class Command(BaseCommand):
    help = "Load the demo data (an organizer account and players). Local use only."

    def add_arguments(self, parser):
        parser.add_argument("--if-empty", action="store_true", help="do nothing when players already exist")

    @transaction.atomic
    def handle(self, *args, if_empty=False, **options):
        if getattr(settings, "PRODUCTION", False):
            raise CommandError("demo_refused: the demo data is for local use, not production mode")
        if if_empty and Player.objects.exists():
            self.stdout.write("Demo data already loaded.")
            return
        User = get_user_model()
        if not User.objects.filter(username=DEMO_USERNAME).exists():
            User.objects.create_superuser(DEMO_USERNAME, "organizer@example.org", DEMO_PASSWORD)
        for display, family, given, reading, club, country in DEMO_PLAYERS:
            Player.objects.get_or_create(
                display_name=display,
                defaults={"family_name": family, "given_name": given, "reading": reading, "club": club,
                          "country": country},
            )  # fmt: skip
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo loaded: {Player.objects.count()} players. Admin: http://127.0.0.1:8000/admin/ "
                f"(user {DEMO_USERNAME!r}, password {DEMO_PASSWORD!r})"
            )
        )
