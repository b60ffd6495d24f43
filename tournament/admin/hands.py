"""Hands and their versions in the admin: read-only, the audit trail of corrections."""

from __future__ import annotations

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from tournament import selectors
from tournament.admin.common import EventScopedAdmin
from tournament.models import Hand, HandVersion
from tournament.templatetags.taikai import hand_label

# shown as "recorded by" (``author_said``) or not at all (the row's id, a code an imported archive kept)
NOT_SHOWN = ("id", "recorded_via_archived", "recorded_by", "recorded_by_card", "recorded_by_token")


@admin.register(HandVersion)
class HandVersionAdmin(EventScopedAdmin):
    """Every version ever saved, read-only: the audit trail of corrections."""

    event_path = "hand__table__round__event"
    list_display = ("hand", "version", "label_said", "outcome", "deltas", "author_said", "recorded_at")
    list_filter = ("outcome", ("hand__table__round__event", admin.RelatedOnlyFieldListFilter))
    # every field as stored, except the hand's name and its wins, said in the reader's language, and who
    # recorded it (an account, a table card, an API token or an archive's name) said once, without a link
    fields = readonly_fields = [
        {"label": "label_said", "wins": "wins_said", "recorded_by_name": "author_said"}.get(f.name, f.name)
        for f in HandVersion._meta.fields
        if f.name not in NOT_SHOWN
    ]

    @admin.display(description=_("label"))
    def label_said(self, obj) -> str:
        return hand_label(obj.label)

    @admin.display(description=_("recorded by"))
    def author_said(self, obj) -> str:
        return obj.author or "—"

    @admin.display(description=_("wins"))
    def wins_said(self, obj) -> str:
        return selectors.hand_version_in_words(obj) if obj.wins else "—"

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Hand)
class HandAdmin(EventScopedAdmin):
    """Hands are recorded from the table sheet; this list is for looking up their versions."""

    event_path = "table__round__event"
    list_display = ("__str__", "current_version")
    list_filter = (("table__round__event", admin.RelatedOnlyFieldListFilter),)
    readonly_fields = ("table", "number", "current_version")

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
