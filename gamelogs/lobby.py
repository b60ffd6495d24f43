"""Starting an online round's tables on their platform: each table's seating with every player's name there, and
what to do, from a lobby adapter.

An adapter (``LobbyAdapter``) is given a table's plan and answers the steps to start its game; the ``manual``
adapter always works: it only says what to do (for a Tenhou tournament lobby 大会ロビー, the names in wind order
as the lobby's start form takes them; for a friend room 友人戦, who hosts and who joins). An adapter that calls a
platform is registered with :func:`lobby_adapter_register` and used only where the site enables it by its key in
the ``ONLINE_LOBBY_ADAPTERS`` setting (default: ``["manual"]``, none that calls a platform); anything else, or an
adapter that fails, falls back to the manual steps.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Protocol

from django.conf import settings
from django.utils.translation import gettext as _

from gamelogs.models import OnlineLeague
from players.models import OnlineAccount
from tournament.models import Round

logger = logging.getLogger(__name__)

WINDS = ("E", "S", "W", "N")


@dataclass(frozen=True)
class SeatPlan:
    wind: str  # E, S, W, N: the seat's wind as seated (East first)
    player: str
    platform_name: str  # "" when the player has no account on the platform


@dataclass(frozen=True)
class TablePlan:
    round_number: int
    table_number: int
    platform: str
    table_start: str
    lobby: str
    seats: tuple[SeatPlan, ...]

    @property
    def missing(self) -> tuple[str, ...]:
        """The players with no name on the platform: the table cannot start until they give one."""
        return tuple(seat.player for seat in self.seats if not seat.platform_name)


@dataclass(frozen=True)
class Started:
    started: bool  # True: the adapter started the game on the platform; False: a person does it
    steps: tuple[str, ...]
    form_text: str = ""  # text to paste into the platform's form (the names, one a line)


class LobbyAdapter(Protocol):
    key: str
    calls_platform: bool

    def start(self, plan: TablePlan) -> Started: ...


class ManualAdapter:
    """Says what to do; starts nothing. Always works."""

    key = "manual"
    calls_platform = False

    def start(self, plan: TablePlan) -> Started:
        platform = OnlineAccount.Platform(plan.platform).label
        if plan.table_start == OnlineLeague.TableStart.TOURNAMENT_LOBBY:
            names = [seat.platform_name for seat in plan.seats]
            lobby = plan.lobby or _("the event's")
            steps = (
                _("The organizer opens the management page of %(platform)s tournament lobby %(lobby)s.")
                % {"platform": platform, "lobby": lobby},
                _("Paste the names below, in wind order (East, South, West, North), into its start form and start.")
                if len(names) == 4
                else _("Paste the names below, in wind order (East, South, West), into its start form and start."),
                _("The players wait in the lobby, signed in under these names."),
            )
            return Started(False, steps, "\n".join(names))
        host, *guests = plan.seats
        steps = (
            _("%(host)s (East) hosts: open a friend room on %(platform)s and give its number to the table.")
            % {"host": _seat_words(host), "platform": platform},
            _("%(guests)s join the room with its number.") % {"guests": ", ".join(_seat_words(s) for s in guests)},
            _("Start when all are in; the log is imported once the game ends."),
        )
        return Started(False, steps)


def _seat_words(seat: SeatPlan) -> str:
    return f"{seat.player} ({seat.platform_name})" if seat.platform_name else seat.player


ADAPTERS: dict[str, LobbyAdapter] = {ManualAdapter.key: ManualAdapter()}


def lobby_adapter_register(adapter: LobbyAdapter) -> None:
    """Make an adapter known by its key; it is used only where ``ONLINE_LOBBY_ADAPTERS`` names it."""
    ADAPTERS[adapter.key] = adapter


def lobby_adapter(key: str) -> LobbyAdapter:
    """The adapter of ``key`` when the site enables it, else the manual one."""
    enabled = getattr(settings, "ONLINE_LOBBY_ADAPTERS", ["manual"])
    adapter = ADAPTERS.get(key)
    if adapter is None or key not in enabled:
        return ADAPTERS["manual"]
    return adapter


def table_start(adapter: LobbyAdapter, plan: TablePlan) -> Started:
    """The adapter's start, or the manual steps where it fails (a platform down, its form changed)."""
    try:
        return adapter.start(plan)
    except Exception:
        logger.exception(
            "lobby adapter %s failed at round %s table %s", adapter.key, plan.round_number, plan.table_number
        )
        return ManualAdapter().start(plan)


def round_online_plans(round_: Round) -> list[tuple[TablePlan, Started]]:
    """Every table of an online round with its players' names on the event's platform, and what to do."""
    league = OnlineLeague.objects.filter(event_id=round_.event_id).first() or OnlineLeague(event_id=round_.event_id)
    tables = round_.tables.order_by("number").prefetch_related("seats__entry__player")
    players = [seat.entry.player_id for table in tables for seat in table.seats.all()]
    names = dict(
        OnlineAccount.objects.filter(platform=league.platform, player_id__in=players)
        .order_by("-id")
        .values_list("player_id", "name")
    )
    adapter = lobby_adapter(league.lobby_adapter)
    plans = []
    for table in tables:
        seats = sorted(table.seats.all(), key=lambda seat: seat.position)
        plan = TablePlan(
            round_number=round_.number,
            table_number=table.number,
            platform=league.platform,
            table_start=league.table_start,
            lobby=league.lobby,
            seats=tuple(
                SeatPlan(WINDS[index], str(seat.entry.player), names.get(seat.entry.player_id, ""))
                for index, seat in enumerate(seats)
            ),
        )
        plans.append((plan, table_start(adapter, plan)))
    return plans
