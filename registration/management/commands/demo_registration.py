"""Loads the demo's event still open for sign-ups: a registration with a waiting list, check-in open, some
players checked in. Local use only; ``bin/serve`` runs it after ``demo_event``."""

import datetime

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from registration import services
from registration.models import Registration, SignUp
from scoring.models import Ruleset
from tournament.models import Event
from tournament.services.rounds import round_publish
from tournament.services.seating import round_seat_next
from tournament.services.substitutes import substitute_seat
from tournament.simulation import event_create

SLUG = "winter-open"
PLACES = 8
# (name, reading, club, country, checked in at the door): the first 8 take the places, the rest wait
SIGN_UPS = [
    ("山田 太郎", "やまだ たろう", "東京雀友会", "JP", True),
    ("佐藤 花子", "さとう はなこ", "大阪麻雀連盟", "JP", True),
    ("Anna Kowalska", "", "Warsaw Riichi Club", "PL", True),
    ("鈴木 一郎", "すずき いちろう", "東京雀友会", "JP", True),
    ("Jean Dupont", "", "Paris Mahjong", "FR", True),
    ("高橋 美咲", "たかはし みさき", "名古屋牌友会", "JP", False),
    ("Emma Schmidt", "", "Berlin Riichi", "DE", True),
    ("田中 健", "たなか けん", "福岡麻雀クラブ", "JP", False),
    ("Lars Nilsson", "", "Stockholm Mahjong", "SE", False),
    ("伊藤 さくら", "いとう さくら", "札幌雀荘連", "JP", False),
]


class Command(BaseCommand):
    help = "Load the demo event open for sign-ups (a waiting list, check-in open). Local use only."

    def add_arguments(self, parser):
        parser.add_argument("--if-empty", action="store_true", help="do nothing when the demo event exists")

    @transaction.atomic
    def handle(self, *args, if_empty=False, **options):
        if getattr(settings, "PRODUCTION", False):
            raise CommandError(f"demo_refused: {_('the demo data is for local use, not production mode')}")
        if Event.objects.filter(slug=SLUG).exists():
            if not if_empty:
                self.stdout.write(_("Demo data already loaded."))
            return
        organizer = get_user_model().objects.filter(username="organizer").first()
        today = timezone.localdate() + datetime.timedelta(days=7)
        event = event_create(
            slug=SLUG,
            name="Winter Open 冬季大会",
            players=[],
            ruleset=Ruleset.objects.get(slug="standard"),
            planned_rounds=4,
            is_public=True,
            organizer=organizer,
            venue="Kyoto",
            starts_on=today,
            ends_on=today,
        )
        now = timezone.now()
        Registration.objects.create(
            event=event,
            opens_at=now - datetime.timedelta(days=3),
            closes_at=now + datetime.timedelta(days=6),
            cap=PLACES,
            checkin_opens_at=now - datetime.timedelta(minutes=30),
        )
        for n, (name, reading, club, country, here) in enumerate(SIGN_UPS):
            values = {
                "name": name,
                "reading": reading,
                "club": club,
                "country": country,
                "email": f"player{n}@example.org",
            }
            sign_up = services.sign_up_create(event=event, values=values, language="ja" if reading else "en")
            if here and sign_up.state == sign_up.State.CONFIRMED:
                services.sign_up_check_in(sign_up=sign_up)
        self._day_one(event, organizer)
        self.stdout.write(
            _("Demo registration: %(event)s, sign-ups at %(url)s, check-in desk at %(desk)s")
            % {
                "event": event.name,
                "url": reverse("registration:sign_up", args=[SLUG]),
                "desk": reverse("registration:desk", args=[SLUG]),
            }
        )

    def _day_one(self, event, organizer) -> None:
        """The day: check-in closed (those not checked in are away), a waiting player who came takes a free
        place, round 1 seated from those present, and a substitute 代走 playing one absent player's seat."""
        services.checkin_close(event=event, by=organizer)
        came = SignUp.objects.filter(event=event, state=SignUp.State.WAITING).order_by("rank").first()
        if came is not None:
            services.waiting_seat_at_venue(sign_up=came, by=organizer)
        round_ = round_publish(round_=round_seat_next(event=event, round_number=1))
        seat = round_.seats.order_by("table__number", "position").last()
        substitute_seat(seat=seat, name="控え 次郎", reason=_("demo: a player taken ill"), user=organizer)
