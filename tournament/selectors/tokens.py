"""Keys that are not accounts: table cards (scorekeepers' links and PINs) and the API's tokens."""

from __future__ import annotations

from tournament.models import (
    ApiToken,
    Event,
    Round,
    ScorekeeperKey,
    Table,
)


def scorekeeper_tables(key_ids) -> dict[int, int]:
    """Key id → table id of the keys that still open their table: not revoked, not locked by wrong PINs,
    and the table's round not completed."""
    if not key_ids:
        return {}
    rows = ScorekeeperKey.objects.filter(
        pk__in=list(key_ids), revoked_at__isnull=True, failed_pins__lt=ScorekeeperKey.MAX_FAILED_PINS
    ).exclude(table__round__status=Round.Status.COMPLETED)
    return dict(rows.values_list("pk", "table_id"))


def scorekeeper_card_table(token_digest: str) -> Table | None:
    """The table a table card's link opens (its event and round with it), while the card is valid: what the
    PIN page names before the PIN is typed. The link is the card's secret, so whoever holds it may know."""
    key = (
        ScorekeeperKey.objects.filter(token_digest=token_digest, revoked_at__isnull=True)
        .select_related("table__round__event")
        .first()
    )
    return key.table if key is not None else None


def api_token_by_digest(digest: str) -> ApiToken | None:
    return ApiToken.objects.select_related("event").filter(digest=digest).first()


def event_api_tokens(event: Event) -> list[ApiToken]:
    return list(ApiToken.objects.filter(event=event).select_related("created_by", "revoked_by"))


def event_api_token(event: Event, token_id: int) -> ApiToken | None:
    return ApiToken.objects.filter(event=event, pk=token_id).first()
