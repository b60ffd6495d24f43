"""Parse and validate a seating request (``shared/seating-protocol.md``) into a frozen dataclass.

Every user-fixable problem raises ``TournamentError`` with a stable code; the codes are listed in
``ERROR_CODES`` so the command line and the API can document them. Player ids are JSON integers or
strings and are kept exactly as given (``1`` and ``"1"`` are two different players).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from taikai.i18n import _, ngettext

from ..errors import TournamentError
from .groups import DEFAULT_GROUP_WEIGHT, KINDS, POLICIES

PlayerId = int | str

MODES = ("swiss", "random", "interval")
REMAINDERS = ("three", "bye")
TABLE_SIZES = (3, 4)
DEFAULT_TIME_LIMIT_S = 2.0
MAX_TIME_LIMIT_S = 600.0
MIN_HISTORY_TABLE = 2  # art. 42 (欠員): a game may go on with three or two players
PROTOCOL_VERSION = 2  # 1: the first protocol (no version field); 2: groups and forbidden pairs
MAX_GROUP_WEIGHT = 1000.0
GROUP_FIELDS = frozenset({"kind", "members", "policy"})

KNOWN_FIELDS = frozenset(
    {
        "players",
        "history",
        "standings",
        "absent",
        "table_size",
        "mode",
        "step",
        "remainder",
        "round",
        "total_rounds",
        "seed",
        "time_limit_s",
        "version",
        "groups",
        "forbidden_pairs",
        "group_weight",
    }
)

ERROR_CODES = (
    "invalid_request",
    "unknown_field",
    "invalid_field",
    "invalid_player_id",
    "duplicate_player",
    "unknown_player",
    "duplicate_in_history",
    "duplicate_in_standings",
    "invalid_history_table",
    "invalid_table_size",
    "invalid_mode",
    "invalid_step",
    "invalid_remainder",
    "round_mismatch",
    "too_few_players",
    "unsupported_version",
    "invalid_group",
    "invalid_forbidden_pair",
)


@dataclass(frozen=True)
class RequestGroup:
    """A group as requested: ``kind`` (team, club, country, custom), ``members`` (ids), ``policy``
    (never, avoid)."""

    kind: str
    members: tuple[PlayerId, ...]
    policy: str


@dataclass(frozen=True)
class SeatingRequest:
    """A validated request. ``history`` tables are in seat order East, South, West(, North)."""

    players: tuple[PlayerId, ...]
    history: tuple[tuple[tuple[PlayerId, ...], ...], ...] = ()
    standings: tuple[PlayerId, ...] = ()
    absent: frozenset[PlayerId] = frozenset()
    table_size: int = 4
    mode: str = "random"
    step: int | None = None
    remainder: str = "three"
    round: int | None = None
    total_rounds: int | None = None
    seed: int = 0
    time_limit_s: float = DEFAULT_TIME_LIMIT_S
    groups: tuple[RequestGroup, ...] = ()
    forbidden_pairs: tuple[tuple[PlayerId, PlayerId], ...] = ()
    group_weight: float = DEFAULT_GROUP_WEIGHT

    @property
    def active_players(self) -> tuple[PlayerId, ...]:
        """Registered players minus the absent ones, in registration order."""
        return tuple(player for player in self.players if player not in self.absent)

    @property
    def round_number(self) -> int:
        return len(self.history) + 1


def _is_player_id(value: object) -> bool:
    return (isinstance(value, int) and not isinstance(value, bool)) or isinstance(value, str)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _id_list(value: object, field: str) -> list[PlayerId]:
    if not isinstance(value, list | tuple):
        raise TournamentError(
            "invalid_field",
            # Translators: field is a request field: players, standings, absent or history.
            _("%(field)s must be a list of player ids") % {"field": field},
            field=field,
        )
    for item in value:
        if not _is_player_id(item):
            raise TournamentError(
                "invalid_player_id",
                # Translators: field is a request field: players, standings, absent or history.
                _("%(field)s: player ids are integers or strings, got %(item)s") % {"field": field, "item": repr(item)},
                field=field,
            )
    return list(value)


def _check_known(ids: list[PlayerId], registered: set[PlayerId], field: str) -> None:
    for player in ids:
        if player not in registered:
            raise TournamentError(
                "unknown_player",
                # Translators: field is a request field: players, standings, absent or history.
                _("%(field)s: unknown player %(player)s") % {"field": field, "player": repr(player)},
                field=field,
            )


def _parse_history(value: object, registered: set[PlayerId], table_size: int):
    if not isinstance(value, list | tuple):
        raise TournamentError("invalid_field", _("history must be a list of rounds"), field="history")
    rounds = []
    for round_index, round_tables in enumerate(value, start=1):
        if not isinstance(round_tables, list | tuple):
            raise TournamentError(
                "invalid_field",
                _("history round %(round)s must be a list of tables") % {"round": round_index},
                field="history",
            )
        seen: set[PlayerId] = set()
        tables = []
        for table in round_tables:
            seats = _id_list(table, "history")
            if not MIN_HISTORY_TABLE <= len(seats) <= table_size:
                raise TournamentError(
                    "invalid_history_table",
                    _("history round %(round)s: a table has %(count)s players (expected %(min)s to %(max)s)")
                    % {
                        "round": round_index,
                        "count": len(seats),
                        "min": MIN_HISTORY_TABLE,
                        "max": table_size,
                    },
                    field="history",
                )
            _check_known(seats, registered, "history")
            for player in seats:
                if player in seen:
                    raise TournamentError(
                        "duplicate_in_history",
                        _("history round %(round)s: player %(player)s is seated twice")
                        % {"round": round_index, "player": repr(player)},
                        field="history",
                    )
                seen.add(player)
            tables.append(tuple(seats))
        rounds.append(tuple(tables))
    return tuple(rounds)


def _optional_int(data: Mapping, field: str, minimum: int) -> int | None:
    value = data.get(field)
    if value is None:
        return None
    if not _is_int(value) or value < minimum:
        raise TournamentError(
            "invalid_field",
            # Translators: field is a request field: round or total_rounds.
            _("%(field)s must be an integer >= %(minimum)s") % {"field": field, "minimum": minimum},
            field=field,
        )
    return value


def _parse_version(data: Mapping) -> None:
    version = data.get("version", 1)
    if not _is_int(version) or not 1 <= version <= PROTOCOL_VERSION:
        raise TournamentError(
            "unsupported_version",
            _("version must be an integer from 1 to %(version)s") % {"version": PROTOCOL_VERSION},
            field="version",
        )


def _unique_known(ids: list[PlayerId], registered: set[PlayerId], field: str, code: str) -> None:
    _check_known(ids, registered, field)
    if len(set(ids)) != len(ids):
        raise TournamentError(
            code,
            # Translators: field is a request field: groups or forbidden_pairs.
            _("%(field)s: a player is listed twice in one entry") % {"field": field},
            field=field,
        )


def _parse_groups(value: object, registered: set[PlayerId]) -> tuple[RequestGroup, ...]:
    if not isinstance(value, list | tuple):
        raise TournamentError("invalid_group", _("groups must be a list of objects"), field="groups")
    groups = []
    for entry in value:
        if not isinstance(entry, Mapping) or set(entry) != GROUP_FIELDS:
            raise TournamentError(
                "invalid_group",
                _("a group is an object with exactly kind, members and policy"),
                field="groups",
            )
        if entry["kind"] not in KINDS:
            raise TournamentError(
                "invalid_group",
                _("a group's kind must be one of %(kinds)s") % {"kinds": ", ".join(KINDS)},
                field="groups",
            )
        if entry["policy"] not in POLICIES:
            raise TournamentError(
                "invalid_group",
                _("a group's policy must be one of %(policies)s") % {"policies": ", ".join(POLICIES)},
                field="groups",
            )
        members = _id_list(entry["members"], "groups")
        _unique_known(members, registered, "groups", "invalid_group")
        groups.append(RequestGroup(kind=entry["kind"], members=tuple(members), policy=entry["policy"]))
    return tuple(groups)


def _parse_forbidden(value: object, registered: set[PlayerId]) -> tuple[tuple[PlayerId, PlayerId], ...]:
    if not isinstance(value, list | tuple):
        raise TournamentError(
            "invalid_forbidden_pair", _("forbidden_pairs must be a list of pairs"), field="forbidden_pairs"
        )
    pairs = []
    for entry in value:
        pair = _id_list(entry, "forbidden_pairs")
        if len(pair) != 2:
            raise TournamentError(
                "invalid_forbidden_pair",
                _("a forbidden pair is a list of two player ids"),
                field="forbidden_pairs",
            )
        _unique_known(pair, registered, "forbidden_pairs", "invalid_forbidden_pair")
        pairs.append((pair[0], pair[1]))
    return tuple(pairs)


def _parse_group_weight(data: Mapping) -> float:
    weight = data.get("group_weight", DEFAULT_GROUP_WEIGHT)
    if isinstance(weight, bool) or not isinstance(weight, int | float) or not 0 <= weight <= MAX_GROUP_WEIGHT:
        raise TournamentError(
            "invalid_field",
            _("group_weight must be a number in [0, %(max)s]") % {"max": format(MAX_GROUP_WEIGHT, "g")},
            field="group_weight",
        )
    return float(weight)


def parse_request(data: object) -> SeatingRequest:
    """Validate a decoded JSON request and return it as a ``SeatingRequest``."""
    if not isinstance(data, Mapping):
        raise TournamentError("invalid_request", _("the request must be a JSON object"))
    unknown = sorted(set(data) - KNOWN_FIELDS)
    if unknown:
        raise TournamentError(
            "unknown_field",
            ngettext("unknown field: %(fields)s", "unknown fields: %(fields)s", len(unknown))
            % {"fields": ", ".join(unknown)},
            field=unknown[0],
        )
    _parse_version(data)
    if "players" not in data:
        raise TournamentError("invalid_field", _("players is required"), field="players")

    players = _id_list(data["players"], "players")
    registered: set[PlayerId] = set()
    for player in players:
        if player in registered:
            raise TournamentError(
                "duplicate_player",
                _("player %(player)s is registered twice") % {"player": repr(player)},
                field="players",
            )
        registered.add(player)

    table_size = data.get("table_size", 4)
    if not _is_int(table_size) or table_size not in TABLE_SIZES:
        raise TournamentError("invalid_table_size", _("table_size must be 3 or 4"), field="table_size")

    history = _parse_history(data.get("history", []), registered, table_size)

    standings = _id_list(data.get("standings", []), "standings")
    _check_known(standings, registered, "standings")
    if len(set(standings)) != len(standings):
        raise TournamentError("duplicate_in_standings", _("a player is listed twice in standings"), field="standings")

    absent = _id_list(data.get("absent", []), "absent")
    _check_known(absent, registered, "absent")

    mode = data.get("mode") or ("swiss" if standings else "random")
    if mode not in MODES:
        raise TournamentError(
            "invalid_mode", _("mode must be one of %(modes)s") % {"modes": ", ".join(MODES)}, field="mode"
        )

    step = data.get("step")
    if mode == "interval":
        if not _is_int(step) or step < 1:
            raise TournamentError("invalid_step", _("interval seating needs an integer step >= 1"), field="step")
    elif step is not None:
        raise TournamentError("invalid_step", _("step is only used by interval seating"), field="step")

    remainder = data.get("remainder", "three")
    if remainder not in REMAINDERS:
        raise TournamentError("invalid_remainder", _("remainder must be 'three' or 'bye'"), field="remainder")

    round_number = _optional_int(data, "round", 1)
    if round_number is not None and round_number != len(history) + 1:
        raise TournamentError(
            "round_mismatch",
            ngettext(
                "round %(round)s does not follow the %(count)s round of history",
                "round %(round)s does not follow the %(count)s rounds of history",
                len(history),
            )
            % {"round": round_number, "count": len(history)},
            field="round",
        )
    total_rounds = _optional_int(data, "total_rounds", 1)
    if total_rounds is not None and total_rounds < len(history) + 1:
        raise TournamentError("round_mismatch", _("total_rounds is smaller than this round"), field="total_rounds")

    seed = data.get("seed", 0)
    if not _is_int(seed):
        raise TournamentError("invalid_field", _("seed must be an integer"), field="seed")

    time_limit = data.get("time_limit_s", DEFAULT_TIME_LIMIT_S)
    if (
        isinstance(time_limit, bool)
        or not isinstance(time_limit, int | float)
        or not 0 < time_limit <= MAX_TIME_LIMIT_S
    ):
        raise TournamentError(
            "invalid_field",
            _("time_limit_s must be a number in (0, %(max)s]") % {"max": format(MAX_TIME_LIMIT_S, "g")},
            field="time_limit_s",
        )

    groups = _parse_groups(data.get("groups", []), registered)
    forbidden_pairs = _parse_forbidden(data.get("forbidden_pairs", []), registered)
    group_weight = _parse_group_weight(data)

    return SeatingRequest(
        players=tuple(players),
        history=history,
        standings=tuple(standings),
        absent=frozenset(absent),
        table_size=table_size,
        mode=mode,
        step=step if mode == "interval" else None,
        remainder=remainder,
        round=round_number,
        total_rounds=total_rounds,
        seed=seed,
        time_limit_s=float(time_limit),
        groups=groups,
        forbidden_pairs=forbidden_pairs,
        group_weight=group_weight,
    )
