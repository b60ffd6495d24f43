"""The event 大会: its rules, its entry mode, its seating, its clock, its finals and its team rule."""

from __future__ import annotations

import secrets
import zoneinfo

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from scoring.models import Ruleset
from scoring.yaku_names import BILINGUAL, STYLE_CHOICES
from tournament.engine.standings import PRECEDENCE_KEYS
from tournament.options import standings_precedence


def default_time_zone() -> str:
    return settings.TIME_ZONE


def draw_seed_new() -> int:
    """A new event's draw seed: every random choice of the event (seating by lot, ties by lot) follows from it."""
    return secrets.randbelow(2**31)


class Event(models.Model):
    class Status(models.TextChoices):
        # Translators: the status of an event being prepared (not yet open for registration)
        DRAFT = "draft", _("Draft")
        REGISTRATION = "registration", _("Registration")
        # Translators: the status of an event (or of a seating job) under way
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")

    class EntryMode(models.TextChoices):
        HANDS = "hands", _("Hand by hand")
        FINAL_SCORES = "final_scores", _("Final scores only")

    class SeatingMethod(models.TextChoices):
        SWISS = "swiss", _("Swiss (similar standing together)")
        RANDOM = "random", _("Random, no repeats")
        INTERVAL = "interval", _("Interval (fixed step)")

    class Remainder(models.TextChoices):
        THREE = "three", _("Three-player tables")
        BYE = "bye", _("Byes")

    name = models.CharField(verbose_name=_("name"), max_length=160)
    slug = models.SlugField(verbose_name=_("slug"), max_length=80, unique=True)
    starts_on = models.DateField(verbose_name=_("starts on"), null=True, blank=True)
    ends_on = models.DateField(verbose_name=_("ends on"), null=True, blank=True)
    venue = models.CharField(verbose_name=_("venue"), max_length=200, blank=True)
    ruleset = models.ForeignKey(Ruleset, verbose_name=_("ruleset"), on_delete=models.PROTECT, related_name="events")
    table_size = models.PositiveSmallIntegerField(
        verbose_name=_("table size"), choices=[(4, _("Four players")), (3, _("Three players"))], default=4
    )
    planned_rounds = models.PositiveSmallIntegerField(verbose_name=_("planned rounds"), default=4)
    entry_mode = models.CharField(
        verbose_name=_("entry mode"), max_length=12, choices=EntryMode.choices, default=EntryMode.HANDS
    )
    advancing_places = models.PositiveSmallIntegerField(
        verbose_name=_("advancing places"),
        default=1,
        help_text=_("Places at a table that count as advancing 勝ち進み (1: the table's winner)."),
    )
    standings_precedence = models.JSONField(
        verbose_name=_("standings precedence"),
        default=list,
        blank=True,
        help_text=_('Ordered keys; empty means ["advances", "total_points"] (art. 41).'),
    )
    status = models.CharField(verbose_name=_("status"), max_length=12, choices=Status.choices, default=Status.DRAFT)
    is_public = models.BooleanField(verbose_name=_("is public"), default=True)
    imported = models.BooleanField(
        verbose_name=_("imported"),
        default=False,
        editable=False,
        help_text=_("Read from an archive (Import an archive…): a copy, private until its organizer makes it public."),
    )
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("owner"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="owned_events",
        help_text=_("The organizer who created the event; co-organizers and referees are its roles."),
    )
    seating_method = models.CharField(
        verbose_name=_("seating method"),
        max_length=10,
        choices=SeatingMethod.choices,
        default=SeatingMethod.SWISS,
    )
    seating_remainder = models.CharField(
        verbose_name=_("seating remainder"), max_length=6, choices=Remainder.choices, default=Remainder.THREE
    )
    penalty_unit = models.PositiveIntegerField(verbose_name=_("penalty unit (art. 37)"), default=100)
    tournament_play = models.BooleanField(verbose_name=_("tournament play (art. 43)"), default=True)
    overtime_enabled = models.BooleanField(verbose_name=_("overtime 延長戦 (art. 39)"), default=False)
    clock_bank_seconds = models.PositiveIntegerField(
        verbose_name=_("time bank per hand (art. 38)"), null=True, blank=True
    )
    clock_increment_seconds = models.PositiveIntegerField(verbose_name=_("Fischer increment per move"), default=0)
    time_zone = models.CharField(
        verbose_name=_("time zone"),
        max_length=64,
        default=default_time_zone,
        help_text=_("Times on the event's pages are shown in this zone (an IANA name such as Asia/Tokyo)."),
    )
    standings_hidden_from_round = models.PositiveSmallIntegerField(
        verbose_name=_("hide the standings from round"),
        null=True,
        blank=True,
        help_text=_(
            "From this round on, the public standings stop at the round before it and say so (the last rounds "
            "before the final stay a surprise); organizers still see the full standings. Empty: never hidden."
        ),
    )
    results_after_check = models.BooleanField(
        verbose_name=_("publish results once checked"),
        default=False,
        help_text=_(
            "A round's results reach the public pages, the live pages, read tokens and exports only once a "
            "referee has checked the round; until then the public sees it as being checked. Staff see everything."
        ),
    )
    yaku_names = models.CharField(
        verbose_name=_("yaku names"),
        max_length=12,
        choices=STYLE_CHOICES,
        default=BILINGUAL,
        help_text=_(
            "How the event's pages name yaku: as its referees do (Japanese, romaji, EMA or WRC English). "
            "A reader who chose their own naming sees theirs."
        ),
    )
    late_absent_minutes = models.PositiveSmallIntegerField(
        verbose_name=_("late players absent after (minutes)"),
        null=True,
        blank=True,
        help_text=_(
            "This many minutes after a round's announced start, a seated player not checked in at their table is "
            "marked absent (art. 42); the table's referee is warned a minute before and can hold it. Empty: off."
        ),
    )
    round_minutes = models.PositiveSmallIntegerField(
        verbose_name=_("minutes per round"),
        default=90,
        help_text=_("The round timer of the venue screen counts these down."),
    )
    finals_mode = models.CharField(
        verbose_name=_("finals (art. 40)"),
        max_length=16,
        choices=[
            ("elimination", _("Eliminate the overall last (40 ①–④)")),
            ("no_elimination", _("No eliminations (40 ⑤)")),
        ],
        default="elimination",
    )
    final_games = models.PositiveSmallIntegerField(
        verbose_name=_("games in the final (art. 40 ①)"),
        default=1,
        help_text=_(
            "規定対局: the final's decision (overtime, elimination, champion) comes after the last of "
            "these games; the finalists play them all first."
        ),
    )
    champion = models.ForeignKey(
        "Entry",
        verbose_name=_("champion"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text=_("Decided by the final."),
    )
    schedule = models.JSONField(
        verbose_name=_("fixed schedule"),
        default=dict,
        blank=True,
        editable=False,
        help_text=_("A whole schedule imported or planned in advance: each round's tables, seated from it."),
    )  # {"rounds": [[[entry ids]]], "winds", "report", "by", "at"}
    team_rule = models.CharField(
        verbose_name=_("team standings 団体戦"),
        max_length=10,
        blank=True,
        default="",
        choices=[
            ("sum", _("Sum of every member's points")),
            ("best", _("Best members' points each round")),
            ("placement", _("Team placement points each round")),
        ],
        help_text=_("A team event: how a team's score is made from its members' points (empty: no team standings)."),
    )
    team_best = models.PositiveSmallIntegerField(
        verbose_name=_("members counted per round"),
        default=2,
        help_text=_("Under the best members' rule: how many members' points count each round."),
    )
    draw_seed = models.BigIntegerField(
        verbose_name=_("draw seed"),
        default=draw_seed_new,
        help_text=_(
            "Every draw by lot 抽選 of the event (random seating, ties broken by lot) follows from this number: "
            "each round's seed is derived from it and the round's number, so anyone can draw again and compare."
        ),
    )
    created_at = models.DateTimeField(verbose_name=_("created at"), auto_now_add=True)

    class Meta:
        ordering = ["-starts_on", "name"]
        verbose_name = _("event")
        verbose_name_plural = _("events")

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("tournament:event", args=[self.slug])

    @property
    def precedence(self) -> tuple[str, ...]:
        return standings_precedence(self)

    def clean(self) -> None:
        keys = self.standings_precedence or []
        if not isinstance(keys, list) or any(k not in PRECEDENCE_KEYS for k in keys) or len(set(keys)) != len(keys):
            raise ValidationError(
                {
                    "standings_precedence": ValidationError(
                        _("an ordered list of distinct keys from %(keys)s"),
                        code="invalid",
                        params={"keys": ", ".join(PRECEDENCE_KEYS)},
                    )
                }
            )
        if self.starts_on and self.ends_on and self.ends_on < self.starts_on:
            raise ValidationError(
                {"ends_on": ValidationError(_("the event cannot end before it starts"), code="invalid")}
            )
        try:
            zoneinfo.ZoneInfo(self.time_zone)
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):
            raise ValidationError(
                {
                    "time_zone": ValidationError(
                        _("an IANA time zone such as Asia/Tokyo or Europe/Paris"), code="invalid"
                    )
                }
            ) from None
        if self.advancing_places < 1 or self.advancing_places >= self.table_size:
            raise ValidationError(
                {"advancing_places": ValidationError(_("between 1 and the table size − 1"), code="invalid")}
            )
        if self.final_games < 1:
            raise ValidationError(
                {"final_games": ValidationError(_("a final lasts at least one game"), code="invalid")}
            )
