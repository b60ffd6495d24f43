"""Events 大会, entries, rounds 回戦, tables 卓, seats, hands 局 (versioned) and table results."""

from __future__ import annotations

import functools
import secrets
import zoneinfo

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.urls import reverse
from django.utils import timezone
from django.utils.functional import lazy
from django.utils.translation import get_language, gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from players.models import Player
from scoring.models import Ruleset
from tournament.engine.penalties import PENALTY_EFFECTS
from tournament.engine.standings import PRECEDENCE_KEYS
from tournament.fields import FractionField
from tournament.options import standings_precedence, table_numbers_parse

WINDS = ("E", "S", "W", "N")
SEAT_WIND_CHOICES = [  # a seat's wind at the start of the game, as people read it (the codes stay WINDS)
    # Translators: East (東), the wind of a seat, in one letter
    (0, pgettext_lazy("seat wind", "E")),
    # Translators: South (南), the wind of a seat, in one letter
    (1, pgettext_lazy("seat wind", "S")),
    # Translators: West (西), the wind of a seat, in one letter
    (2, pgettext_lazy("seat wind", "W")),
    # Translators: North (北), the wind of a seat, in one letter
    (3, pgettext_lazy("seat wind", "N")),
]


AUTHOR_NAME_MAX_LENGTH = 150  # an account's name (Django's username) or "table card #n", "API token #n"


def author_name_field(verbose_name) -> models.CharField:
    """Who wrote a row, as the archive it was imported from named them, when no account here has that name
    (a table card, an API token or an account of the other database): kept as text, never entered by hand."""
    return models.CharField(
        verbose_name=verbose_name,
        max_length=AUTHOR_NAME_MAX_LENGTH,
        blank=True,
        editable=False,
        help_text=_("As named by the imported archive (no account here)."),
    )


class VersionedQuerySet(models.QuerySet):
    def current(self):
        """The version in force of each record; older versions stay for the audit trail."""
        return self.filter(is_current=True)


class VersionedRecord(models.Model):
    """One version of a record that is never edited in place: a correction adds the next version,
    marks it current and the one before not, and names who recorded it and when.

    The record it versions holds the head number (``Hand.current_version``, ``Table.result_version``):
    that is the row a writer locks and the optimistic check (``expected_version``) compares against.
    """

    version = models.PositiveIntegerField(verbose_name=_("version"))
    is_current = models.BooleanField(verbose_name=_("is current"), default=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("recorded by"),
        null=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    recorded_by_card = models.ForeignKey(
        "ScorekeeperKey",
        verbose_name=_("recorded by card"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text=_("Recorded by the table's scorekeeper, through this table card (no account)."),
    )
    recorded_by_token = models.ForeignKey(
        "ApiToken",
        verbose_name=_("recorded through API token"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text=_("Recorded by a program of the event's, through this API token."),
    )
    recorded_by_name = author_name_field(_("recorded by (name from an archive)"))
    # how the archive this version came from said it was recorded, when no account, card or token here has it
    recorded_via_archived = models.CharField(max_length=12, blank=True, default="", editable=False)
    recorded_at = models.DateTimeField(verbose_name=_("recorded at"), auto_now_add=True)

    objects = VersionedQuerySet.as_manager()

    class Meta:
        abstract = True

    @property
    def author(self) -> str:
        """Who recorded this version, for people: an account, a table card, an API token, the name an
        imported archive gave, or nobody (a simulation)."""
        if self.recorded_by_card_id:
            return gettext("table card #%(number)s") % {"number": self.recorded_by_card_id}
        if self.recorded_by_token_id:
            return gettext("API token #%(number)s") % {"number": self.recorded_by_token_id}
        return str(self.recorded_by or self.recorded_by_name)

    @property
    def recorded_via(self) -> str:
        """How this version was recorded, without naming anyone: account, table card, API token or ""."""
        if self.recorded_by_card_id:
            return "table card"
        if self.recorded_by_token_id:
            return "api token"
        return "account" if self.recorded_by_id else self.recorded_via_archived


def default_time_zone() -> str:
    return settings.TIME_ZONE


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


def personal_link_token() -> str:
    return secrets.token_urlsafe(24)


class RevocableRecord(models.Model):
    """A grant that can be revoked but is never deleted: revoking records who and when."""

    revoked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("revoked by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    revoked_at = models.DateTimeField(verbose_name=_("revoked at"), null=True, blank=True)

    class Meta:
        abstract = True

    def revoke(self, by) -> None:
        """Revoke it now (a row already revoked keeps its first revocation); ``by`` is a user or None."""
        if self.revoked_at is None:
            self.revoked_at, self.revoked_by = timezone.now(), by
            self.save(update_fields=["revoked_at", "revoked_by"])


class Team(models.Model):
    """A team of an event (団体戦): its members (and reserves) are entries of the event."""

    event = models.ForeignKey(Event, verbose_name=_("event"), on_delete=models.CASCADE, related_name="teams")
    name = models.CharField(verbose_name=_("name"), max_length=120)
    captain = models.ForeignKey(
        "Entry", verbose_name=_("captain"), on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        verbose_name = _("team")
        verbose_name_plural = _("teams")
        ordering = ["event", "name"]
        constraints = [models.UniqueConstraint(fields=["event", "name"], name="team_name_once_per_event")]

    def __str__(self) -> str:
        return self.name


class TeamMember(models.Model):
    class Role(models.TextChoices):
        MEMBER = "member", _("Member")
        RESERVE = "reserve", _("Reserve")

    team = models.ForeignKey(Team, verbose_name=_("team"), on_delete=models.CASCADE, related_name="members")
    entry = models.OneToOneField(
        "Entry", verbose_name=_("entry"), on_delete=models.CASCADE, related_name="team_member"
    )  # a player is in one team of an event at most
    role = models.CharField(verbose_name=_("role"), max_length=8, choices=Role.choices, default=Role.MEMBER)

    class Meta:
        verbose_name = _("team member")
        verbose_name_plural = _("team members")
        ordering = ["team", "role", "pk"]

    def __str__(self) -> str:
        return f"{self.team}: {self.entry}"


class TeamSwap(models.Model):
    """A reserve in for a member of their team for one round (団体戦の交代): the seating of that round seats the
    reserve and leaves the member out (``tournament.services.teams.team_reserve_in``)."""

    team = models.ForeignKey(Team, verbose_name=_("team"), on_delete=models.CASCADE, related_name="swaps")
    round_number = models.PositiveSmallIntegerField(verbose_name=_("round"))
    reserve = models.ForeignKey(
        "Entry", verbose_name=_("reserve"), on_delete=models.CASCADE, related_name="team_swaps_in"
    )
    member = models.ForeignKey(
        "Entry", verbose_name=_("member replaced"), on_delete=models.CASCADE, related_name="team_swaps_out"
    )
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("recorded by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    by_token = models.ForeignKey(
        "ApiToken",
        verbose_name=_("recorded through API token"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    at = models.DateTimeField(verbose_name=_("recorded at"), auto_now_add=True)

    class Meta:
        verbose_name = _("team swap")
        verbose_name_plural = _("team swaps")
        ordering = ["team", "round_number", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["reserve", "round_number"], name="team_swap_reserve_once_a_round"),
            models.UniqueConstraint(fields=["member", "round_number"], name="team_swap_member_once_a_round"),
        ]

    def __str__(self) -> str:
        return gettext("%(team)s, round %(round)s: %(reserve)s for %(member)s") % {
            "team": self.team,
            "round": self.round_number,
            "reserve": self.reserve,
            "member": self.member,
        }


class EventRole(RevocableRecord):
    """A person's role in one event: co-organizer or referee. Revoking keeps the row, with who and when."""

    class Kind(models.TextChoices):
        ORGANIZER = "organizer", _("Organizer")
        REFEREE = "referee", _("Referee")

    event = models.ForeignKey(Event, verbose_name=_("event"), on_delete=models.CASCADE, related_name="roles")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("user"), on_delete=models.CASCADE, related_name="event_roles"
    )
    kind = models.CharField(verbose_name=_("kind"), max_length=10, choices=Kind.choices)
    tables = models.CharField(
        verbose_name=_("tables"),
        max_length=200,
        blank=True,
        help_text=_("Referees only: the table numbers they cover, e.g. 1-8, 12. Empty: every table."),
    )
    granted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("granted by"),
        null=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    granted_at = models.DateTimeField(verbose_name=_("granted at"), auto_now_add=True)

    class Meta:
        ordering = ["event", "kind", "user__username"]
        verbose_name = _("event role")
        verbose_name_plural = _("event roles")
        constraints = [
            models.UniqueConstraint(
                fields=["event", "user", "kind"],
                condition=models.Q(revoked_at__isnull=True),
                name="event_role_once_while_held",
            )
        ]

    def __str__(self) -> str:
        return gettext("%(user)s — %(kind)s of %(event)s") % {
            "user": self.user,
            "kind": self.get_kind_display(),
            "event": self.event,
        }

    def clean(self) -> None:
        try:
            table_numbers_parse(self.tables)
        except ValueError as exc:
            raise ValidationError({"tables": str(exc)}) from exc
        if self.tables.strip() and self.kind == self.Kind.ORGANIZER:
            raise ValidationError({"tables": ValidationError(_("an organizer covers the whole event"), code="invalid")})

    @property
    def table_numbers(self) -> frozenset[int] | None:
        """The tables a referee covers, or None for every table."""
        return table_numbers_parse(self.tables) or None


class Entry(models.Model):
    """A player's place in an event."""

    class Status(models.TextChoices):
        ACTIVE = "active", _("Active")
        AWAY = "away", _("Away (not seated until back)")
        WITHDRAWN = "withdrawn", _("Withdrawn")
        DISQUALIFIED = "disqualified", _("Disqualified")

    event = models.ForeignKey(Event, verbose_name=_("event"), on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, verbose_name=_("player"), on_delete=models.PROTECT, related_name="entries")
    status = models.CharField(verbose_name=_("status"), max_length=12, choices=Status.choices, default=Status.ACTIVE)
    substitute_for = models.ForeignKey(
        "self",
        verbose_name=_("substitute for"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="substitutes",
    )
    status_reason = models.CharField(verbose_name=_("status reason"), max_length=200, blank=True)
    disqualified_by_penalty = models.ForeignKey(
        "Penalty",
        verbose_name=_("disqualified by penalty"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text=_(
            "Disqualified automatically by this penalty (art. 43); cancelling it lifts the "
            "disqualification unless an organizer confirmed it. Empty: a director's decision."
        ),
    )
    disqualification_confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("disqualification confirmed by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    disqualification_confirmed_by_name = author_name_field(_("disqualification confirmed by (name from an archive)"))
    disqualification_confirmed_at = models.DateTimeField(
        verbose_name=_("disqualification confirmed at"),
        null=True,
        blank=True,
        help_text=_("Confirmed by an organizer: stays even if the penalty is cancelled."),
    )
    registered_at = models.DateTimeField(verbose_name=_("registered at"), auto_now_add=True)
    link_token = models.CharField(
        verbose_name=_("link token"),
        max_length=40,
        unique=True,
        default=personal_link_token,
        editable=False,
        help_text=_("The player's personal link to their own page in this event."),
    )

    class Meta:
        ordering = ["event", "player__display_name"]
        constraints = [models.UniqueConstraint(fields=["event", "player"], name="entry_player_once_per_event")]
        verbose_name = _("entry")
        verbose_name_plural = _("entries")

    def __str__(self) -> str:
        return gettext("%(player)s @ %(event)s") % {"player": self.player, "event": self.event}

    @property
    def award_eligible(self) -> bool:
        return self.status != self.Status.DISQUALIFIED

    @property
    def disqualification_confirmed(self) -> bool:
        return self.disqualification_confirmed_at is not None


class Round(models.Model):
    class Status(models.TextChoices):
        DRAFT = "draft", _("Seating draft")
        PUBLISHED = "published", _("Published")
        # Translators: a round or a table whose game is being played
        PLAYING = "playing", _("Playing")
        COMPLETED = "completed", _("Completed")

    event = models.ForeignKey(Event, verbose_name=_("event"), on_delete=models.CASCADE, related_name="rounds")
    # Translators: the number of a round, a table or a hand
    number = models.PositiveSmallIntegerField(verbose_name=_("number"))
    status = models.CharField(verbose_name=_("status"), max_length=10, choices=Status.choices, default=Status.DRAFT)
    is_final = models.BooleanField(verbose_name=_("final 決勝戦 (art. 40)"), default=False)
    seating_report = models.JSONField(verbose_name=_("seating report"), default=dict, blank=True)
    timer_started_at = models.DateTimeField(
        verbose_name=_("timer started at"),
        null=True,
        blank=True,
        help_text=_("When the round's play started: the venue screen's timer counts from it."),
    )
    created_at = models.DateTimeField(verbose_name=_("created at"), auto_now_add=True)
    # A round whose results a referee or an organizer checked is locked: nothing of it changes until unlocked.
    checked_at = models.DateTimeField(verbose_name=_("checked at"), null=True, blank=True)
    checked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("checked by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    checked_by_token = models.ForeignKey(
        "ApiToken",
        verbose_name=_("checked through the API token"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )

    class Meta:
        ordering = ["event", "number"]
        constraints = [models.UniqueConstraint(fields=["event", "number"], name="round_number_once_per_event")]
        verbose_name = _("round")
        verbose_name_plural = _("rounds")

    def __str__(self) -> str:
        return gettext("%(event)s — round %(number)s") % {"event": self.event, "number": self.number}


class RoundCheck(models.Model):
    """Every check (locking a round's results) and every unlocking, with who, when and, to unlock, why."""

    class Kind(models.TextChoices):
        CHECK = "check", _("checked and locked")
        UNLOCK = "unlock", _("unlocked")

    round = models.ForeignKey(Round, verbose_name=_("round"), on_delete=models.CASCADE, related_name="checks")
    kind = models.CharField(verbose_name=_("kind"), max_length=8, choices=Kind.choices)
    reason = models.TextField(verbose_name=_("reason"), blank=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    by_token = models.ForeignKey(
        "ApiToken",
        verbose_name=_("API token"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    at = models.DateTimeField(verbose_name=_("at"), auto_now_add=True)

    class Meta:
        ordering = ["round", "at", "id"]
        verbose_name = _("round check")
        verbose_name_plural = _("round checks")

    def __str__(self) -> str:
        return f"{self.round} · {self.get_kind_display()}"


class Table(models.Model):
    class Status(models.TextChoices):
        PLAYING = "playing", _("Playing")
        FINISHED = "finished", _("Finished")

    class Overtime(models.TextChoices):
        """Where the game's overtime 延長戦 stands (art. 39), as the engine decided it."""

        NONE = "none", _("No overtime")
        PLAYING = "playing", _("Overtime in play")
        WON = "won_with_condition", _("Ended: a winner met the win condition")
        NO_WINNER = "no_winner", _("Ended: a hand without a winner")
        CLOSED = "closed_by_organizer", _("Closed by the directors (art. 44)")
        FINAL = "final", _("Overtime of the final (decided by art. 40)")

    round = models.ForeignKey(Round, verbose_name=_("round"), on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField(verbose_name=_("number"))
    status = models.CharField(verbose_name=_("status"), max_length=10, choices=Status.choices, default=Status.PLAYING)
    overtime_year = models.PositiveSmallIntegerField(
        verbose_name=_("overtime year"),
        default=0,
        help_text=_("0: no overtime; 1, 2, 3…: the overtime year the game ended in (art. 39)."),
    )
    overtime_state = models.CharField(
        verbose_name=_("overtime state"), max_length=20, choices=Overtime.choices, default=Overtime.NONE
    )
    result_version = models.PositiveIntegerField(verbose_name=_("result version"), default=0)
    # The game in progress as pages show it, kept by the hand services with every hand written: the points
    # of each seat in the game after the last hand in force, how many hands, and a counter of hand writes
    # (pages are cached for it). Derived from the hands, never edited.
    running_points = models.JSONField(verbose_name=_("points after the last hand"), default=list, blank=True)
    running_hands = models.PositiveSmallIntegerField(verbose_name=_("hands in force"), default=0)
    running_version = models.PositiveIntegerField(verbose_name=_("hand writes"), default=0)

    class Meta:
        ordering = ["round", "number"]
        constraints = [models.UniqueConstraint(fields=["round", "number"], name="table_number_once_per_round")]
        verbose_name = _("table")
        verbose_name_plural = _("tables")

    def __str__(self) -> str:
        return gettext("%(round)s — table %(number)s") % {"round": self.round, "number": self.number}

    @property
    def multiplier(self) -> int:
        """Placement points ×1 in year 1 (and without overtime), ×2 in year 2, … (art. 39)."""
        return max(1, self.overtime_year)


class SeatQuerySet(models.QuerySet):
    def playing(self):
        """The seats of the game: everyone but a player absent before it (art. 42), in seat order."""
        return self.exclude(absence=Seat.Absence.ABSENT_BEFORE).order_by("position")


class SeatAbsence(models.TextChoices):
    PRESENT = "present", _("Present")
    ABSENT_BEFORE = "absent_before", _("Absent before the game")
    ABSENT_DURING = "absent_during", _("Left during the game")


@functools.lru_cache(maxsize=64)
def _wind_label(position: int, language: str | None) -> str:
    """A wind read in ``language``, the one active (an audit of a 10,000-player event reads 300,000)."""
    return str(SEAT_WIND_CHOICES[position][1])


class SeatReading:
    """What a seat says from its ``position`` and ``absence``: a ``Seat`` row, or a seat read as plain
    values for a page."""

    @property
    def wind(self) -> str:
        """The seat's wind in one character, in the reader's language (E, S, W, N; 東 南 西 北)."""
        return _wind_label(self.position, get_language())

    @property
    def in_game(self) -> bool:
        """Art. 42: a player absent before the game is not one of its seats (the table plays 3 or 2)."""
        return self.absence != SeatAbsence.ABSENT_BEFORE


class Seat(SeatReading, models.Model):
    """A player at a table. ``position`` 0..3 is East, South, West, North at the start of the game."""

    Absence = SeatAbsence

    table = models.ForeignKey(Table, verbose_name=_("table"), on_delete=models.CASCADE, related_name="seats")
    round = models.ForeignKey(Round, verbose_name=_("round"), on_delete=models.CASCADE, related_name="seats")
    entry = models.ForeignKey(Entry, verbose_name=_("entry"), on_delete=models.PROTECT, related_name="seats")
    position = models.PositiveSmallIntegerField(verbose_name=_("position"), choices=SEAT_WIND_CHOICES)
    absence = models.CharField(
        verbose_name=_("absence"), max_length=14, choices=Absence.choices, default=Absence.PRESENT
    )
    left_after_hand = models.PositiveSmallIntegerField(
        verbose_name=_("left after hand"),
        null=True,
        blank=True,
        help_text=_("Left during the game: the last hand played (art. 42); later hands go on without."),
    )

    objects = SeatQuerySet.as_manager()

    class Meta:
        ordering = ["table", "position"]
        constraints = [
            models.UniqueConstraint(fields=["table", "position"], name="seat_position_once_per_table"),
            models.UniqueConstraint(fields=["round", "entry"], name="seat_player_once_per_round"),
        ]
        verbose_name = _("seat")
        verbose_name_plural = _("seats")

    def __str__(self) -> str:
        return gettext("%(wind)s: %(player)s") % {
            "wind": self.get_position_display(),
            "player": self.entry.player,
        }

    def plays_hand(self, number: int) -> bool:
        """Art. 42: absent before the game, or left during it before hand ``number``: not in that hand."""
        if not self.in_game:
            return False
        return not (self.absence == self.Absence.ABSENT_DURING and (self.left_after_hand or 0) < number)


class Hand(models.Model):
    """One hand 局 of a table's game. Its content lives in versions: a correction is a new version."""

    table = models.ForeignKey(Table, verbose_name=_("table"), on_delete=models.CASCADE, related_name="hands")
    number = models.PositiveSmallIntegerField(verbose_name=_("number"), help_text=_("Order within the game, from 1."))
    current_version = models.PositiveIntegerField(verbose_name=_("current version"), default=0)

    class Meta:
        ordering = ["table", "number"]
        constraints = [models.UniqueConstraint(fields=["table", "number"], name="hand_number_once_per_table")]
        verbose_name = _("hand")
        verbose_name_plural = _("hands")

    def __str__(self) -> str:
        return gettext("%(table)s — hand %(number)s") % {"table": self.table, "number": self.number}


class HandVersionQuerySet(VersionedQuerySet):
    def in_force(self):
        """The current version of each hand of the game: a hand voided as entered by mistake is not one."""
        return self.current().exclude(outcome=HandVersion.Outcome.VOID)


class HandVersion(VersionedRecord):
    class Outcome(models.TextChoices):
        RON = "ron", _("Ron 栄和")
        TSUMO = "tsumo", _("Tsumo 自摸和")
        EXHAUSTIVE_DRAW = "exhaustive_draw", _("Exhaustive draw 荒牌流局")
        ABORTIVE_DRAW = "abortive_draw", _("Abortive draw 途中流局")
        REPLAYED = "replayed", _("Stopped and replayed (art. 36 ③)")
        VOID = "void", _("Void (entered by mistake)")

    hand = models.ForeignKey(Hand, verbose_name=_("hand"), on_delete=models.CASCADE, related_name="versions")
    # Translators: the name of a hand within its game, such as "East 1" (東1局)
    label = models.CharField(verbose_name=_("label"), max_length=30)
    overtime = models.BooleanField(
        verbose_name=_("overtime"),
        default=False,
        help_text=_("An overtime hand 延長戦 (art. 39): 1年春, 1年夏, …"),
    )
    dealer_position = models.PositiveSmallIntegerField(verbose_name=_("dealer position"))
    honba = models.PositiveSmallIntegerField(verbose_name=_("honba"), default=0)  # 本場
    # 供託 carried in, in points
    deposits_in = models.PositiveIntegerField(verbose_name=_("deposits in"), default=0)
    riichi_positions = models.JSONField(verbose_name=_("riichi positions"), default=list, blank=True)
    outcome = models.CharField(verbose_name=_("outcome"), max_length=16, choices=Outcome.choices)
    # [{winner, discarder, han, fu, yakuman, yaku, limit, hand}]
    wins = models.JSONField(verbose_name=_("wins"), default=list, blank=True)
    tenpai_positions = models.JSONField(verbose_name=_("tenpai positions"), default=list, blank=True)
    # per seat position, deposits included
    deltas = models.JSONField(verbose_name=_("deltas"), default=list)
    deposits_out = models.PositiveIntegerField(verbose_name=_("deposits out"), default=0)
    note = models.CharField(verbose_name=_("note"), max_length=200, blank=True)

    objects = HandVersionQuerySet.as_manager()

    class Meta:
        ordering = ["hand", "-version"]
        constraints = [
            models.UniqueConstraint(fields=["hand", "version"], name="hand_version_once"),
            models.UniqueConstraint(
                fields=["hand"], condition=models.Q(is_current=True), name="hand_one_current_version"
            ),
        ]
        verbose_name = _("hand version")
        verbose_name_plural = _("hand versions")

    def __str__(self) -> str:
        return gettext("%(hand)s v%(version)s") % {"hand": self.hand, "version": self.version}


class SeatResult(VersionedRecord):
    """A seat's result in a table's game. Each confirmation is a new version; older ones stay."""

    table = models.ForeignKey(Table, verbose_name=_("table"), on_delete=models.CASCADE, related_name="results")
    seat = models.ForeignKey(Seat, verbose_name=_("seat"), on_delete=models.CASCADE, related_name="results")
    entry = models.ForeignKey(Entry, verbose_name=_("entry"), on_delete=models.PROTECT, related_name="results")
    final_points = models.IntegerField(verbose_name=_("final points"), null=True, blank=True)
    placement = models.PositiveSmallIntegerField(verbose_name=_("placement"), null=True, blank=True)
    point_score = FractionField(verbose_name=_("point score"))
    placement_points = FractionField(verbose_name=_("placement points"))  # 順位点 × multiplier
    oka = FractionField(verbose_name=_("oka"))
    game_points = FractionField(verbose_name=_("game points"))
    multiplier = models.PositiveSmallIntegerField(verbose_name=_("multiplier"), default=1)
    advanced = models.BooleanField(verbose_name=_("advanced"), default=False)
    forfeit = models.BooleanField(verbose_name=_("forfeit"), default=False)  # 不戦敗 (art. 42)

    class Meta:
        ordering = ["table", "seat__position", "-version"]
        constraints = [
            models.UniqueConstraint(fields=["seat", "version"], name="seat_result_version_once"),
            models.UniqueConstraint(
                fields=["seat"], condition=models.Q(is_current=True), name="seat_one_current_result"
            ),
        ]
        indexes = [models.Index(fields=["entry", "is_current"])]
        verbose_name = _("seat result")
        verbose_name_plural = _("seat results")

    def __str__(self) -> str:
        return gettext("%(player)s at %(table)s v%(version)s") % {
            "player": self.entry.player,
            "table": self.table,
            "version": self.version,
        }


class StandingsSnapshot(models.Model):
    """The event's standings as last computed: when, over which rounds, and how many rows. The rows are
    ``StandingsRow``s; pages read them a slice at a time and never recompute."""

    event = models.OneToOneField(
        Event, verbose_name=_("event"), on_delete=models.CASCADE, related_name="standings_snapshot"
    )
    computed_at = models.DateTimeField(verbose_name=_("computed at"))
    rounds_included = models.PositiveSmallIntegerField(verbose_name=_("rounds included"), default=0)
    round_numbers = models.JSONField(
        verbose_name=_("round numbers"),
        default=list,
        help_text=_("The rounds with a column on the standings."),
    )
    row_count = models.PositiveIntegerField(verbose_name=_("rows"), default=0)
    hidden_from_round = models.PositiveSmallIntegerField(
        verbose_name=_("hidden from round"),
        null=True,
        blank=True,
        help_text=_("The public rows stop before this round (the event hides its last rounds)."),
    )

    class Meta:
        verbose_name = _("standings snapshot")
        verbose_name_plural = _("standings snapshots")

    def __str__(self) -> str:
        return gettext("Standings of %(event)s at %(time)s") % {
            "event": self.event,
            "time": f"{self.computed_at:%Y-%m-%d %H:%M}",
        }


class StandingsRow(models.Model):
    """One player's line of the standings as last computed, at its place (``position`` 0 is first): a page
    of the standings reads its slice by position, a player's page its own row by entry."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="standings_rows")
    position = models.PositiveIntegerField()
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="standings_rows")
    rank = models.PositiveIntegerField()
    award_rank = models.PositiveIntegerField(null=True, blank=True)  # disqualified players passed over
    advances = models.PositiveIntegerField(default=0)
    total_points = FractionField()
    games = models.PositiveIntegerField(default=0)
    penalty_points = models.PositiveIntegerField(default=0)  # art. 37, raw points, already deducted
    status = models.CharField(max_length=12, choices=Entry.Status.choices)
    name = models.CharField(max_length=120)
    club = models.CharField(max_length=120, blank=True)
    country = models.CharField(max_length=2, blank=True)
    history = models.JSONField(default=list)  # [round number, game points as text, advanced] per game
    search = models.TextField(blank=True)  # the player's search keys and the club, folded

    class Meta:
        ordering = ["event_id", "position"]
        constraints = [
            models.UniqueConstraint(fields=["event", "position"], name="standings_row_position_once"),
            models.UniqueConstraint(fields=["event", "entry"], name="standings_row_entry_once"),
        ]

    def __str__(self) -> str:
        return f"{self.rank}. {self.name} ({self.event})"

    def cells(self, round_numbers) -> list[tuple[str, bool] | None]:
        """One (game points, advanced) per round of ``round_numbers``, None where the player has no game."""
        played = {number: (points, advanced) for number, points, advanced in self.history}
        return [played.get(number) for number in round_numbers]


def _penalty_label(effect) -> str:
    return effect.label


# The engine names each foul (its labels are read in the language of the moment, taikai.i18n): read when
# shown, not when this module is imported.
PENALTY_KIND_CHOICES = [(kind.value, lazy(_penalty_label, str)(effect)) for kind, effect in PENALTY_EFFECTS.items()]


class Penalty(models.Model):
    """A foul logged by a referee. Never deleted: a cancellation records who and why."""

    event = models.ForeignKey(Event, verbose_name=_("event"), on_delete=models.CASCADE, related_name="penalties")
    table = models.ForeignKey(
        Table,
        verbose_name=_("table"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="penalties",
    )
    entry = models.ForeignKey(Entry, verbose_name=_("entry"), on_delete=models.PROTECT, related_name="penalties")
    round_number = models.PositiveSmallIntegerField(verbose_name=_("round number"), null=True, blank=True)
    hand_number = models.PositiveSmallIntegerField(
        verbose_name=_("hand number"), null=True, blank=True, help_text=_("The hand the rights are lost for.")
    )
    kind = models.CharField(verbose_name=_("kind"), max_length=30, choices=PENALTY_KIND_CHOICES)
    points = models.PositiveIntegerField(
        verbose_name=_("points"),
        default=0,
        help_text=_("Penalty points deducted from the event total (art. 37)."),
    )
    reason = models.CharField(verbose_name=_("reason"), max_length=300)
    logged_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("logged by"),
        null=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    logged_by_token = models.ForeignKey(
        "ApiToken",
        verbose_name=_("logged through API token"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text=_("Logged by a program of the event's, through this API token."),
    )
    logged_by_name = author_name_field(_("logged by (name from an archive)"))
    logged_at = models.DateTimeField(verbose_name=_("logged at"), auto_now_add=True)
    cancelled_at = models.DateTimeField(verbose_name=_("cancelled at"), null=True, blank=True)
    cancelled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("cancelled by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    cancelled_by_name = author_name_field(_("cancelled by (name from an archive)"))
    cancel_reason = models.CharField(verbose_name=_("cancel reason"), max_length=300, blank=True)

    class Meta:
        ordering = ["event", "logged_at"]
        indexes = [models.Index(fields=["table", "hand_number"])]
        verbose_name = _("penalty")
        verbose_name_plural = _("penalties")

    def __str__(self) -> str:
        return gettext("%(kind)s: %(player)s") % {
            "kind": self.get_kind_display().split(" — ")[0],
            "player": self.entry.player,
        }


class Ruling(models.Model):
    """A director's decision (art. 44), attached to the event and optionally a table or player."""

    event = models.ForeignKey(Event, verbose_name=_("event"), on_delete=models.CASCADE, related_name="rulings")
    table = models.ForeignKey(
        Table,
        verbose_name=_("table"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="rulings",
    )
    entry = models.ForeignKey(
        Entry,
        verbose_name=_("entry"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="rulings",
    )
    decision = models.TextField(verbose_name=_("decision"))
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("decided by"),
        null=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    decided_by_token = models.ForeignKey(
        "ApiToken",
        verbose_name=_("decided through API token"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text=_("Recorded by a program of the event's, through this API token."),
    )
    decided_by_name = author_name_field(_("decided by (name from an archive)"))
    decided_at = models.DateTimeField(verbose_name=_("decided at"), auto_now_add=True)

    class Meta:
        ordering = ["event", "decided_at"]
        verbose_name = _("ruling")
        verbose_name_plural = _("rulings")

    def __str__(self) -> str:
        return gettext("Ruling at %(event)s (%(time)s)") % {
            "event": self.event,
            "time": f"{self.decided_at:%Y-%m-%d %H:%M}",
        }


class TableClock(models.Model):
    """The chess clock of a table's current hand (art. 38), server-authoritative."""

    table = models.OneToOneField(Table, verbose_name=_("table"), on_delete=models.CASCADE, related_name="clock")
    hand_number = models.PositiveSmallIntegerField(verbose_name=_("hand number"))
    state = models.JSONField(verbose_name=_("state"))
    version = models.PositiveIntegerField(verbose_name=_("version"), default=1)
    updated_at = models.DateTimeField(verbose_name=_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("table clock")
        verbose_name_plural = _("table clocks")

    def __str__(self) -> str:
        return gettext("Clock of %(table)s, hand %(hand)s") % {"table": self.table, "hand": self.hand_number}


class SeatingJob(models.Model):
    """One request to seat an event's next round, run by a Celery task; its progress and errors.

    The running task beats (``heartbeat_at``) every few seconds; a job queued or running whose last beat
    is older than ``tournament.services.seating.SEATING_STALE_SECONDS`` has lost its worker, and the
    organizer may ask again (the seating is idempotent per round)."""

    class State(models.TextChoices):
        QUEUED = "queued", _("Queued")
        RUNNING = "running", _("Running")
        DONE = "done", _("Done")
        FAILED = "failed", _("Failed")

    event = models.ForeignKey(Event, verbose_name=_("event"), on_delete=models.CASCADE, related_name="seating_jobs")
    round_number = models.PositiveSmallIntegerField(verbose_name=_("round number"))
    state = models.CharField(verbose_name=_("state"), max_length=8, choices=State.choices, default=State.QUEUED)
    percent = models.PositiveSmallIntegerField(verbose_name=_("percent"), default=0)
    message = models.TextField(verbose_name=_("message"), blank=True)
    # the language of whoever asked: the worker writes the job's messages in it
    language = models.CharField(max_length=16, blank=True, default="", editable=False)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("requested by"),
        null=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(verbose_name=_("created at"), auto_now_add=True)
    updated_at = models.DateTimeField(verbose_name=_("updated at"), auto_now=True)
    heartbeat_at = models.DateTimeField(verbose_name=_("heartbeat at"), null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(verbose_name=_("attempts"), default=1)

    class Meta:
        ordering = ["-created_at"]
        constraints = [models.UniqueConstraint(fields=["event", "round_number"], name="one_seating_job_per_round")]
        verbose_name = _("seating job")
        verbose_name_plural = _("seating jobs")

    def __str__(self) -> str:
        # Translators: state is the job's code (queued, running, done, failed), not translated
        return gettext("Seating of %(event)s round %(round)s: %(state)s %(percent)s%%") % {
            "event": self.event,
            "round": self.round_number,
            "state": self.state,
            "percent": self.percent,
        }


class ScorekeeperKey(RevocableRecord):
    """A link and PIN that let someone without an account keep one table's score in its round.

    Only digests are stored: the link and the PIN are shown once, on the printed table card.
    """

    MAX_FAILED_PINS = 5

    table = models.ForeignKey(Table, verbose_name=_("table"), on_delete=models.CASCADE, related_name="scorekeeper_keys")
    token_digest = models.CharField(verbose_name=_("token digest"), max_length=64, unique=True)
    pin_hash = models.CharField(verbose_name=_("pin hash"), max_length=128)
    failed_pins = models.PositiveSmallIntegerField(verbose_name=_("failed pins"), default=0)
    issued_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("issued by"),
        null=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    issued_at = models.DateTimeField(verbose_name=_("issued at"), auto_now_add=True)

    class Meta:
        ordering = ["table", "-issued_at"]
        # Translators: a table card (卓カード): the link and PIN that let a scorekeeper keep one table's score
        verbose_name = _("scorekeeper key")
        verbose_name_plural = _("scorekeeper keys")

    def __str__(self) -> str:
        return gettext("Scorekeeper key of %(table)s (%(time)s)") % {
            "table": self.table,
            "time": f"{self.issued_at:%Y-%m-%d %H:%M}",
        }

    @property
    def locked(self) -> bool:
        return self.failed_pins >= self.MAX_FAILED_PINS


class ApiToken(RevocableRecord):
    """A secret that lets a program (a scoreboard, a stream overlay, club or federation software) use the
    API for one event, within its scope. Only the secret's SHA-256 digest is stored: the secret is shown
    once, when the token is issued.

    * ``read``: every read of the event, public or not; no write;
    * ``referee``: the reads, and at its tables (``tables``, empty: every table) what a referee records:
      hands, corrections, voids, results, penalties, absences, rulings, the clock;
    * ``organizer``: everything the API does in the event, registering players included; never another
      event, and never accounts, roles or tokens.
    """

    class Scope(models.TextChoices):
        READ = "read", _("Read")
        REFEREE = "referee", _("Referee")
        ORGANIZER = "organizer", _("Organizer")

    event = models.ForeignKey(Event, verbose_name=_("event"), on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(
        verbose_name=_("name"),
        max_length=120,
        help_text=_("What the token is for, e.g. “stream overlay, hall B”."),
    )
    scope = models.CharField(verbose_name=_("scope"), max_length=10, choices=Scope.choices, default=Scope.READ)
    tables = models.CharField(
        verbose_name=_("tables"),
        max_length=200,
        blank=True,
        help_text=_("Referee scope only: the table numbers it covers, e.g. 1-8, 12. Empty: every table."),
    )
    digest = models.CharField(max_length=64, unique=True, editable=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("created by"),
        null=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(verbose_name=_("created at"), auto_now_add=True)
    expires_at = models.DateTimeField(
        verbose_name=_("expires at"), null=True, blank=True, help_text=_("Empty: until revoked.")
    )
    last_used_at = models.DateTimeField(verbose_name=_("last used at"), null=True, blank=True, editable=False)

    class Meta:
        ordering = ["event", "-created_at"]
        verbose_name = _("API token")
        verbose_name_plural = _("API tokens")

    def __str__(self) -> str:
        return gettext("API token #%(number)s “%(name)s” (%(scope)s) of %(event)s") % {
            "number": self.pk,
            "name": self.name,
            "scope": self.get_scope_display(),
            "event": self.event,
        }

    def clean(self) -> None:
        try:
            table_numbers_parse(self.tables)
        except ValueError as exc:
            raise ValidationError({"tables": str(exc)}) from exc
        if self.tables.strip() and self.scope != self.Scope.REFEREE:
            raise ValidationError({"tables": gettext("only a referee token covers some tables")})

    @property
    def table_numbers(self) -> frozenset[int] | None:
        """The tables a referee token covers, or None for every table."""
        return table_numbers_parse(self.tables) or None

    def valid_at(self, when) -> bool:
        return self.revoked_at is None and (self.expires_at is None or when < self.expires_at)
