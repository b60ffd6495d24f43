"""What the API takes and gives. Points are exact: integers, and fractions (game points, placement points,
oka, totals) written as strings ``"n/d"`` or ``"n"`` (``"91/2"``, ``"-15"``), never floating point.

Seat numbers: a table's seats have a ``position`` (0–3: East, South, West, North at the start of the
game) and a ``game_index``, the number hands and the clock use (0.. from the game's East; art. 42: a
player absent before the game has none, and the seats after them move up). Penalties, absences and
rulings name a seat by its ``position``; hands and the clock by its ``game_index``.

Input serializers check shapes and ranges only; what a record means (a legal han/fu pair, a winner who
lost the right to win, the deposits on the table…) is the services' to check, as for the console.
"""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from scoring.models import Ruleset
from tournament.engine.penalties import PENALTY_EFFECTS
from tournament.models import (
    ApiToken,
    Entry,
    Event,
    HandVersion,
    Penalty,
    Round,
    Ruling,
    Seat,
    SeatResult,
    Table,
    TeamMember,
)
from tournament.services.hand_input import MAX_HAN, MAX_HONBA, MAX_YAKUMAN, OUTCOMES
from tournament.services.results import GAME_CUT_SHORT_REASONS

FRACTION_PATTERN = r"^-?[0-9]+(/[0-9]+)?$"
MAX_ID = 2**63 - 1
MAX_POINTS = 10**9


@extend_schema_field(
    {
        "type": "string",
        "pattern": FRACTION_PATTERN,
        "example": "91/2",
        "description": "An exact number: an integer or a fraction written n/d.",
    }
)
class FractionField(serializers.Field):
    """An exact number as text: ``str(Fraction)``."""

    def to_representation(self, value):
        return None if value is None else str(value)


def json_text_problem(value, path: str = "") -> str | None:
    """Where a JSON value holds text no database stores (a NUL or a lone surrogate), or None."""
    if isinstance(value, str):
        if "\x00" in value or any("\ud800" <= ch <= "\udfff" for ch in value):
            return path or "value"
        return None
    if isinstance(value, dict):
        for key, item in value.items():
            found = json_text_problem(key, path) or json_text_problem(item, f"{path}.{key}" if path else str(key))
            if found:
                return found
    if isinstance(value, list):
        for i, item in enumerate(value):
            found = json_text_problem(item, f"{path}[{i}]")
            if found:
                return found
    return None


class StorableJSONField(serializers.JSONField):
    """A JSON value whose text every database stores."""

    def to_internal_value(self, data):
        value = super().to_internal_value(data)
        if json_text_problem(value):
            raise serializers.ValidationError("text with a NUL character or a lone surrogate is not accepted")
        return value


# --- Players, events, rules, entries --------------------------------------------------------------


class PlayerSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    display_name = serializers.CharField()
    family_name = serializers.CharField()
    given_name = serializers.CharField()
    reading = serializers.CharField(help_text="The name's reading in kana or romaji.")
    club = serializers.CharField()
    country = serializers.CharField(help_text="ISO 3166-1 alpha-2, or empty.")
    external_id = serializers.CharField(allow_null=True, help_text="An outside id such as an EMA number.")


class EventSerializer(serializers.ModelSerializer):
    ruleset = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    champion = serializers.PrimaryKeyRelatedField(read_only=True, allow_null=True, help_text="The champion's entry id.")

    class Meta:
        model = Event
        fields = (
            "slug",
            "name",
            "starts_on",
            "ends_on",
            "venue",
            "status",
            "is_public",
            "table_size",
            "planned_rounds",
            "entry_mode",
            "ruleset",
            "time_zone",
            "round_minutes",
            "champion",
        )


class RulesetSerializer(serializers.ModelSerializer):
    class Meta:
        model = Ruleset
        fields = (
            "slug",
            "name",
            "scheme",
            "reference_scheme",
            "standard_players",
            "dealers",
            "kappa",
            "epsilon",
            "theta",
            "phi",
            "honba_unit",
            "min_han",
            "bazoro",
            "aka_dora",
            "open_tanyao",
            "double_wind_pair_fu",
            "kiriage_mangan",
            "kazoe_yakuman",
            "yakuman_stack",
            "multiple_ron",
            "honba_to_every_winner",
            "noten_payment_total",
            "riichi_stick",
            "deposits_at_end",
            "start_points",
            "return_points",
            "tie_rule",
            "abortive_draws",
            "nagashi_mangan",
            "pao_yakuman",
            "time_up_ending",
            "chombo_points",
            "chombo_ends_game",
            "busting",
            "substitute_result",
            "substitute_fixed_points",
            "substitute_uma",
        )


class EventRulesSerializer(serializers.Serializer):
    """The event's tournament rules and its scoring ruleset."""

    table_size = serializers.IntegerField()
    entry_mode = serializers.CharField()
    advancing_places = serializers.IntegerField(help_text="Places at a table that count as advancing (art. 41).")
    standings_precedence = serializers.ListField(child=serializers.CharField())
    tournament_play = serializers.BooleanField(help_text="Art. 43: a penalty-point foul disqualifies.")
    penalty_unit = serializers.IntegerField(help_text="Art. 37 penalty points per player at the table.")
    overtime_enabled = serializers.BooleanField()
    clock_bank_seconds = serializers.IntegerField(allow_null=True, help_text="Art. 38 time bank per hand.")
    clock_increment_seconds = serializers.IntegerField()
    finals_mode = serializers.CharField()
    final_games = serializers.IntegerField()
    seating_method = serializers.CharField()
    seating_remainder = serializers.CharField()
    uma = serializers.ListField(child=FractionField(), help_text="Placement points (×1000) for the table size.")
    ruleset = RulesetSerializer()


class EntrySerializer(serializers.ModelSerializer):
    player = PlayerSerializer()
    status_reason = serializers.SerializerMethodField(help_text="Why the status is what it is: for the event's staff.")

    class Meta:
        model = Entry
        fields = ("id", "status", "status_reason", "registered_at", "player")

    def get_status_reason(self, entry) -> str:
        return entry.status_reason if self.context.get("staff") else ""


class EntryInput(serializers.Serializer):
    """A stored player by ``player`` id, or a player given by their values (the columns of the player
    import): a known ``external_id`` names the stored player, otherwise a new one is created."""

    player = serializers.IntegerField(min_value=1, max_value=MAX_ID, required=False)
    display_name = serializers.CharField(max_length=120, required=False)
    family_name = serializers.CharField(max_length=80, required=False, allow_blank=True)
    given_name = serializers.CharField(max_length=80, required=False, allow_blank=True)
    reading = serializers.CharField(max_length=160, required=False, allow_blank=True)
    club = serializers.CharField(max_length=120, required=False, allow_blank=True)
    country = serializers.CharField(max_length=2, required=False, allow_blank=True)
    external_id = serializers.CharField(max_length=40, required=False, allow_blank=True)

    def validate(self, data):
        if "player" in data and len(data) > 1:
            raise serializers.ValidationError({"player": "give a stored player's id, or a new player's values"})
        if "player" not in data and not data.get("display_name") and not data.get("external_id"):
            raise serializers.ValidationError({"display_name": "give a stored player's id, or a new player's values"})
        return data


# --- Rounds, tables, seats, results ---------------------------------------------------------------


class RoundSerializer(serializers.ModelSerializer):
    class Meta:
        model = Round
        fields = ("number", "status", "is_final", "timer_started_at")


class SeatSerializer(serializers.Serializer):
    position = serializers.IntegerField(help_text="0–3: East, South, West, North at the start of the game.")
    wind = serializers.CharField()
    game_index = serializers.IntegerField(
        allow_null=True,
        help_text="The seat's number in hands and on the clock (none: absent before the game).",
    )
    entry = serializers.IntegerField(source="entry_id")
    player = serializers.CharField(source="entry.player.display_name")
    absence = serializers.ChoiceField(choices=Seat.Absence.choices)
    left_after_hand = serializers.IntegerField(allow_null=True)


class SeatResultSerializer(serializers.ModelSerializer):
    position = serializers.IntegerField(source="seat.position")
    point_score = FractionField()
    placement_points = FractionField()
    oka = FractionField()
    game_points = FractionField()
    recorded_via = serializers.CharField()

    class Meta:
        model = SeatResult
        fields = (
            "version",
            "is_current",
            "position",
            "entry",
            "final_points",
            "placement",
            "point_score",
            "placement_points",
            "oka",
            "game_points",
            "multiplier",
            "advanced",
            "forfeit",
            "recorded_via",
            "recorded_at",
        )


class TableSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    event = serializers.CharField(source="round.event.slug")
    round = serializers.IntegerField(source="round.number")
    number = serializers.IntegerField()
    status = serializers.ChoiceField(choices=Table.Status.choices)
    overtime_state = serializers.ChoiceField(choices=Table.Overtime.choices)
    overtime_year = serializers.IntegerField()
    result_version = serializers.IntegerField()
    seats = serializers.SerializerMethodField()
    results = serializers.SerializerMethodField(
        help_text="The current result of each seat, once confirmed (for a read token, once the round is checked "
        "when the event publishes results only once checked)."
    )

    @extend_schema_field(SeatSerializer(many=True))
    def get_seats(self, table):
        return SeatSerializer(seats_with_game_index(table.seats.all()), many=True).data

    @extend_schema_field(SeatResultSerializer(many=True))
    def get_results(self, table):
        if self.context.get("being_checked"):
            return []  # the round is being checked: its results are not public yet
        return SeatResultSerializer(getattr(table, "current_results", []), many=True).data


def seats_with_game_index(seats) -> list[Seat]:
    """The seats in position order, each with ``game_index`` (art. 42: none for a player absent before)."""
    index = 0
    ordered = sorted(seats, key=lambda s: s.position)
    for seat in ordered:
        seat.game_index = index if seat.in_game else None
        index += seat.in_game
    return ordered


# --- Hands ----------------------------------------------------------------------------------------


@extend_schema_field(
    {
        "type": "array",
        "minItems": 2,
        "maxItems": 2,
        "items": {"oneOf": [{"type": "string"}, {"type": "integer"}]},
        "example": ["riichi", 1],
        "description": "A yaku and its han, as the tile calculator names them.",
    }
)
class YakuField(serializers.Field):
    def to_internal_value(self, data):
        if (
            not isinstance(data, list)
            or len(data) != 2
            or not isinstance(data[0], str)
            or not 0 < len(data[0]) <= 40
            or json_text_problem(data[0])
            or isinstance(data[1], bool)
            or not isinstance(data[1], int)
            or not 0 <= data[1] <= MAX_HAN
        ):
            raise serializers.ValidationError("a yaku is [name, han]")
        return data

    def to_representation(self, value):
        return list(value)


class WinInput(serializers.Serializer):
    winner = serializers.IntegerField(min_value=0, max_value=3, help_text="The winner's game_index.")
    discarder = serializers.IntegerField(
        min_value=0, max_value=3, required=False, allow_null=True, help_text="Ron: who dealt in; tsumo: none."
    )
    han = serializers.IntegerField(min_value=0, max_value=MAX_HAN, required=False, allow_null=True)
    fu = serializers.IntegerField(
        min_value=0, max_value=1000, required=False, allow_null=True, help_text="Needed below 5 han."
    )
    yakuman = serializers.IntegerField(min_value=0, max_value=MAX_YAKUMAN, required=False, default=0)
    yaku = serializers.ListField(child=YakuField(), max_length=40, required=False)
    hand = StorableJSONField(
        required=False,
        allow_null=True,
        help_text="The winning hand in the hand format (tiles, melds, dora…): the engine finds yaku, han and "
        "fu, in place of han and fu.",
    )


class HandInput(serializers.Serializer):
    """One hand as a score sheet writes it; the same record the console's table sheet makes."""

    number = serializers.IntegerField(min_value=1, max_value=999, help_text="The hand's number in the game, from 1.")
    outcome = serializers.ChoiceField(choices=OUTCOMES)
    dealer_position = serializers.IntegerField(min_value=0, max_value=3, help_text="The dealer's game_index.")
    honba = serializers.IntegerField(min_value=0, max_value=MAX_HONBA, default=0)
    deposits_in = serializers.IntegerField(
        min_value=0,
        max_value=MAX_POINTS,
        required=False,
        help_text="Riichi deposits on the table before the hand; when given, checked against the record.",
    )
    riichi_positions = serializers.ListField(
        child=serializers.IntegerField(min_value=0, max_value=3), max_length=4, required=False, default=list
    )
    tenpai_positions = serializers.ListField(
        child=serializers.IntegerField(min_value=0, max_value=3), max_length=4, required=False, default=list
    )
    wins = WinInput(many=True, required=False, max_length=3)
    overtime = serializers.BooleanField(default=False, help_text="An overtime hand 延長戦 (art. 39).")
    note = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")

    def hand_data(self) -> dict:
        """The record for :func:`tournament.services.hands.hand_record`."""
        data = dict(self.validated_data)
        data.pop("number", None)
        data.pop("expected_version", None)
        data.pop("note", None)
        data["wins"] = [dict(w) for w in data.get("wins") or []]
        return data


class CorrectionInput(HandInput):
    number = None
    expected_version = serializers.IntegerField(
        min_value=0,
        max_value=MAX_POINTS,
        help_text="The version you corrected: 409 if someone saved meanwhile.",
    )


class VoidInput(serializers.Serializer):
    expected_version = serializers.IntegerField(min_value=0, max_value=MAX_POINTS)


class WinSerializer(serializers.Serializer):
    winner = serializers.IntegerField()
    discarder = serializers.IntegerField(allow_null=True)
    han = serializers.IntegerField(allow_null=True)
    fu = serializers.IntegerField(allow_null=True)
    yakuman = serializers.IntegerField(required=False)
    yaku = serializers.ListField(child=YakuField(), required=False)
    hand = serializers.JSONField(allow_null=True, required=False)


class HandVersionSerializer(serializers.ModelSerializer):
    number = serializers.IntegerField(source="hand.number")
    wins = WinSerializer(many=True)
    riichi_positions = serializers.ListField(child=serializers.IntegerField())
    tenpai_positions = serializers.ListField(child=serializers.IntegerField())
    deltas = serializers.ListField(child=serializers.IntegerField(), help_text="Points per game_index.")
    recorded_via = serializers.CharField(help_text="account, table card, api token, or empty.")
    recorded_by = serializers.SerializerMethodField(help_text="Who recorded it: for the event's staff only.")

    class Meta:
        model = HandVersion
        fields = (
            "number",
            "version",
            "is_current",
            "label",
            "overtime",
            "outcome",
            "dealer_position",
            "honba",
            "deposits_in",
            "riichi_positions",
            "wins",
            "tenpai_positions",
            "deltas",
            "deposits_out",
            "note",
            "recorded_via",
            "recorded_by",
            "recorded_at",
        )

    def get_recorded_by(self, version) -> str | None:
        return version.author if self.context.get("staff") else None


# --- Results, penalties, absences, rulings --------------------------------------------------------


class ResultInput(serializers.Serializer):
    """Confirm the table's result: from its hands, or from the final scores given (per game_index)."""

    final_points = serializers.ListField(
        child=serializers.IntegerField(min_value=-MAX_POINTS, max_value=MAX_POINTS),
        min_length=2,
        max_length=4,
        required=False,
        help_text="Final scores, in points, per game_index; none: from the hands recorded.",
    )
    confirm_unusual = serializers.BooleanField(
        default=False, help_text="A score below zero or not in hundreds is taken once this says it is right."
    )
    end_reason = serializers.ChoiceField(
        choices=list(GAME_CUT_SHORT_REASONS),
        required=False,
        help_text="Confirming from hands that stop before the game's end (a hanchan played to South 4): why "
        "it ends here (time: the round's time ran out; other: end_note says why), recorded as a "
        "ruling. Without it such a confirmation is refused with game_not_finished.",
    )
    end_note = serializers.CharField(
        required=False,
        default="",
        allow_blank=True,
        max_length=200,
        help_text="The referee's words on why the game ends early (required with end_reason other).",
    )


PENALTY_KINDS = [(kind.value, effect.label) for kind, effect in PENALTY_EFFECTS.items()]


class PenaltyInput(serializers.Serializer):
    position = serializers.IntegerField(min_value=0, max_value=3, help_text="The player's seat position.")
    kind = serializers.ChoiceField(choices=PENALTY_KINDS)
    hand_number = serializers.IntegerField(min_value=1, max_value=999)
    reason = serializers.CharField(max_length=300)
    confirm_disqualification = serializers.BooleanField(
        default=False, help_text="A foul that disqualifies (art. 43) is logged once this says so."
    )


class PenaltySerializer(serializers.ModelSerializer):
    table = serializers.PrimaryKeyRelatedField(read_only=True, allow_null=True)
    player = serializers.CharField(source="entry.player.display_name")
    kind = serializers.ChoiceField(choices=PENALTY_KINDS)

    class Meta:
        model = Penalty
        fields = (
            "id",
            "table",
            "round_number",
            "hand_number",
            "entry",
            "player",
            "kind",
            "points",
            "reason",
            "logged_at",
            "cancelled_at",
            "cancel_reason",
        )


class AbsenceInput(serializers.Serializer):
    position = serializers.IntegerField(min_value=0, max_value=3, help_text="The player's seat position.")
    during = serializers.BooleanField(
        help_text="true: left during the game (the hand in progress is void); false: absent before it."
    )


class SubstituteInput(serializers.Serializer):
    """A substitute 代走 for a seat, before the table's first hand: a stored player, or a new player's name."""

    position = serializers.IntegerField(min_value=0, max_value=3, help_text="The absent player's seat position.")
    player = serializers.IntegerField(
        required=False,
        allow_null=True,
        help_text="The stored player who substitutes (their id); or give name.",
    )
    name = serializers.CharField(
        required=False,
        default="",
        allow_blank=True,
        max_length=120,
        help_text="A new player's name, when the substitute is not a stored player.",
    )
    reason = serializers.CharField(required=False, default="", allow_blank=True, max_length=300)


class TableRulingInput(serializers.Serializer):
    decision = serializers.CharField(max_length=2000)
    position = serializers.IntegerField(
        min_value=0, max_value=3, required=False, help_text="The seat position of the player it concerns."
    )


class EventRulingInput(serializers.Serializer):
    decision = serializers.CharField(max_length=2000)
    entry = serializers.IntegerField(
        min_value=1, max_value=MAX_ID, required=False, help_text="The entry of the player it concerns."
    )


class RulingSerializer(serializers.ModelSerializer):
    table = serializers.PrimaryKeyRelatedField(read_only=True, allow_null=True)
    entry = serializers.PrimaryKeyRelatedField(read_only=True, allow_null=True)

    class Meta:
        model = Ruling
        fields = ("id", "table", "entry", "decision", "decided_at")


# --- Standings ------------------------------------------------------------------------------------


class GameSerializer(serializers.Serializer):
    round = serializers.IntegerField()
    game_points = FractionField()
    advanced = serializers.BooleanField()


class StandingSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    award_rank = serializers.IntegerField(allow_null=True, help_text="None: not eligible for an award (art. 43).")
    entry = serializers.IntegerField()
    player = serializers.IntegerField()
    name = serializers.CharField()
    club = serializers.CharField()
    country = serializers.CharField()
    status = serializers.ChoiceField(choices=Entry.Status.choices)
    advances = serializers.IntegerField()
    total_points = FractionField()
    games = serializers.IntegerField()
    penalty_points = serializers.IntegerField()
    history = GameSerializer(many=True)


class StandingsPageSerializer(serializers.Serializer):
    count = serializers.IntegerField()
    page = serializers.IntegerField()
    pages = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    computed_at = serializers.DateTimeField(allow_null=True)
    rounds = serializers.ListField(child=serializers.IntegerField(), help_text="The rounds the standings include.")
    results = StandingSerializer(many=True)


# --- Tokens ---------------------------------------------------------------------------------------


class TokenInput(serializers.Serializer):
    name = serializers.CharField(max_length=120)
    scope = serializers.ChoiceField(choices=ApiToken.Scope.choices)
    tables = serializers.CharField(
        max_length=200,
        required=False,
        allow_blank=True,
        default="",
        help_text="Referee scope: table numbers, e.g. 1-8, 12 (empty: every table).",
    )
    expires_at = serializers.DateTimeField(required=False, allow_null=True)


class TokenSerializer(serializers.ModelSerializer):
    created_by = serializers.StringRelatedField()

    class Meta:
        model = ApiToken
        fields = (
            "id",
            "name",
            "scope",
            "tables",
            "created_by",
            "created_at",
            "expires_at",
            "last_used_at",
            "revoked_at",
        )


class IssuedTokenSerializer(TokenSerializer):
    token = serializers.CharField(help_text="The secret: shown this once, only its digest is kept.")

    class Meta(TokenSerializer.Meta):
        fields = (*TokenSerializer.Meta.fields, "token")


# --- Pages ----------------------------------------------------------------------------------------


def page_of(serializer_class) -> type[serializers.Serializer]:
    """The page a list answers with: ``count``, the ``next`` and ``previous`` pages' URLs, ``results``."""
    name = serializer_class.__name__.removesuffix("Serializer")
    fields = {
        "count": serializers.IntegerField(),
        "next": serializers.URLField(allow_null=True),
        "previous": serializers.URLField(allow_null=True),
        "results": serializer_class(many=True),
    }
    return type(f"{name}Page", (serializers.Serializer,), fields)


EventPage = page_of(EventSerializer)
EntryPage = page_of(EntrySerializer)
PlayerPage = page_of(PlayerSerializer)
TablePage = page_of(TableSerializer)


# --- Errors ---------------------------------------------------------------------------------------


class ErrorDetailSerializer(serializers.Serializer):
    code = serializers.CharField(help_text="Stable: e.g. invalid_input, forbidden, not_found, version_conflict.")
    message = serializers.CharField()
    field = serializers.CharField(allow_null=True, help_text="The input at fault, when one is.")


class ErrorSerializer(serializers.Serializer):
    error = ErrorDetailSerializer()


EXPORT_FORMAT = OpenApiTypes.OBJECT


# --- Teams (団体戦) --------------------------------------------------------------------------------


class TeamPlayerSerializer(serializers.Serializer):
    entry = serializers.IntegerField()
    player = serializers.IntegerField()
    name = serializers.CharField()
    role = serializers.ChoiceField(choices=TeamMember.Role.choices, help_text="member, or reserve.")


class TeamSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    captain = serializers.IntegerField(allow_null=True, help_text="The captain's entry id, or none.")
    members = TeamPlayerSerializer(many=True, help_text="Members first, then reserves.")


class TeamRoundSerializer(serializers.Serializer):
    round = serializers.IntegerField()
    score = FractionField()


class TeamStandingSerializer(serializers.Serializer):
    rank = serializers.IntegerField(help_text="Teams with equal scores share a rank (1, 2, 2, 4).")
    team = serializers.IntegerField()
    name = serializers.CharField()
    score = FractionField()
    rounds = TeamRoundSerializer(many=True, help_text="The team's score of each round, under the rule.")
    members = TeamPlayerSerializer(many=True)


class TeamStandingsSerializer(serializers.Serializer):
    rule = serializers.ChoiceField(
        choices=["sum", "best", "placement"],
        help_text="sum: every member's total; best: the best `best` members' game points each round; "
        "placement: team placement points each round (n − 1 for the best of n teams down to 0).",
    )
    best = serializers.IntegerField(help_text="Members counted each round under the `best` rule.")
    rounds = serializers.ListField(child=serializers.IntegerField(), help_text="The rounds included.")
    results = TeamStandingSerializer(many=True)


class ReserveInInput(serializers.Serializer):
    reserve = serializers.IntegerField(min_value=1, max_value=MAX_ID, help_text="The reserve's entry id.")
    member = serializers.IntegerField(min_value=1, max_value=MAX_ID, help_text="The replaced member's entry id.")
    round = serializers.IntegerField(min_value=1, max_value=9999, help_text="A round not seated yet.")


class TeamSwapSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    team = serializers.IntegerField(source="team_id")
    round = serializers.IntegerField(source="round_number")
    reserve = serializers.IntegerField(source="reserve_id")
    member = serializers.IntegerField(source="member_id")
    at = serializers.DateTimeField()
