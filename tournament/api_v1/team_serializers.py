"""What the API takes and gives for teams (団体戦): a team and its players, the team standings,
a reserve brought in for a round, and the swaps made."""

from __future__ import annotations

from rest_framework import serializers

from tournament.api_v1.serializers import MAX_ID, FractionField
from tournament.models import TeamMember


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
