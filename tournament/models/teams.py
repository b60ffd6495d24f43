"""Teams 団体戦: a team, its members and reserves, and a reserve in for a member for one round."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tournament.models.events import Event


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
