"""What the API takes and gives, for an event as a whole: players, events and their rules, entries,
rounds, rulings, standings, tokens, pages of a list and errors; the fields every serializer shares (see
``table_serializers`` for tables and hands, ``team_serializers`` for teams). Points are exact: integers, and
fractions (game points, placement points, oka, totals) written as strings ``"n/d"`` or ``"n"`` (``"91/2"``,
``"-15"``), never floating point.

Input serializers check shapes and ranges only; what a record means (a legal han/fu pair, a winner who
lost the right to win, the deposits on the table…) is the services' to check, as for the console.
"""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from core.api import page_of
from scoring.models import RULESET_RULES_FIELDS, Ruleset
from tournament.models import ApiToken, Entry, Event, Round, Ruling

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
        fields = RULESET_RULES_FIELDS


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


class RoundSerializer(serializers.ModelSerializer):
    class Meta:
        model = Round
        fields = ("number", "status", "is_final", "starts_at", "timer_started_at")


class RulingSerializer(serializers.ModelSerializer):
    table = serializers.PrimaryKeyRelatedField(read_only=True, allow_null=True)
    entry = serializers.PrimaryKeyRelatedField(read_only=True, allow_null=True)

    class Meta:
        model = Ruling
        fields = ("id", "table", "entry", "decision", "decided_at")


class EventRulingInput(serializers.Serializer):
    decision = serializers.CharField(max_length=2000)
    entry = serializers.IntegerField(
        min_value=1, max_value=MAX_ID, required=False, help_text="The entry of the player it concerns."
    )


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


EventPage = page_of(EventSerializer)


EntryPage = page_of(EntrySerializer)


PlayerPage = page_of(PlayerSerializer)


EXPORT_FORMAT = OpenApiTypes.OBJECT
