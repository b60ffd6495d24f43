"""What the API takes and gives at a table: its seats, hands (every version, corrections, voids),
results, penalties, absences, substitutes and rulings (the shared fields are ``serializers``').

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

from core.api import page_of
from scoring.services import PAO_YAKUMAN
from tournament.api_v1.serializers import MAX_POINTS, FractionField, StorableJSONField, json_text_problem
from tournament.engine.penalties import PENALTY_EFFECTS
from tournament.models import HandVersion, Penalty, Seat, SeatResult, Table
from tournament.services.hand_input import MAX_HAN, MAX_HONBA, MAX_YAKUMAN, OUTCOMES
from tournament.services.results import GAME_CUT_SHORT_REASONS


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
    being_checked = serializers.SerializerMethodField(
        help_text="True when the round's results are kept from this caller until a referee checks the round (the "
        "event publishes results only once checked): `results` is empty, and so are the table's hands."
    )

    @extend_schema_field(SeatSerializer(many=True))
    def get_seats(self, table):
        return SeatSerializer(seats_with_game_index(table.seats.all()), many=True).data

    @extend_schema_field(OpenApiTypes.BOOL)
    def get_being_checked(self, table) -> bool:
        return bool(self.context.get("being_checked"))

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


TablePage = page_of(TableSerializer)


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
    responsible = serializers.IntegerField(
        min_value=0,
        max_value=3,
        required=False,
        allow_null=True,
        help_text="Pao 責任払い: the game_index of the seat that fed the yakuman's last meld (a yakuman win only).",
    )
    pao_yakuman = serializers.ChoiceField(
        choices=PAO_YAKUMAN,
        required=False,
        allow_blank=True,
        help_text="The yakuman the responsible seat answers for: one the event's ruleset names for pao.",
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
    responsible = serializers.IntegerField(allow_null=True, required=False)
    pao_yakuman = serializers.CharField(required=False)


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


class ReseatInput(serializers.Serializer):
    """The real seats of a table that sat wrong: its players' ids, East first."""

    seats = serializers.ListField(
        child=serializers.IntegerField(min_value=1),
        min_length=2,
        max_length=4,
        help_text="The table's players (their ids) in the seats they really sat in: East, South, West, North.",
    )
    reason = serializers.CharField(required=False, default="", allow_blank=True, max_length=300)


class TableRulingInput(serializers.Serializer):
    decision = serializers.CharField(max_length=2000)
    position = serializers.IntegerField(
        min_value=0, max_value=3, required=False, help_text="The seat position of the player it concerns."
    )
