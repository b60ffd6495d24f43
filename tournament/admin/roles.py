"""Who holds which role, which table cards and API tokens were issued: read-only lists with their history.
Roles are granted and revoked on the event's page; table cards are issued from the round's page, API
tokens from the event's "API tokens" page."""

from __future__ import annotations

from django.contrib import admin
from django.utils import formats, timezone
from django.utils.translation import gettext_lazy as _

from tournament.admin.common import EventScopedAdmin, apply_to_each
from tournament.models import ApiToken, EventRole, ScorekeeperKey
from tournament.services.roles import role_revoke, scorekeeper_key_revoke, signin_code_issue
from tournament.services.tokens import api_token_revoke


class ReadOnlyRecords:
    def has_add_permission(self, request, *args):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def get_readonly_fields(self, request, obj=None):
        return [f.name for f in self.model._meta.fields]


@admin.register(EventRole)
class EventRoleAdmin(ReadOnlyRecords, EventScopedAdmin):
    list_display = ("user", "kind", "head", "event", "tables", "granted_by", "granted_at", "revoked_by", "revoked_at")
    list_filter = (
        "kind",
        ("event", admin.RelatedOnlyFieldListFilter),
        ("revoked_at", admin.EmptyFieldListFilter),
    )
    search_fields = ("user__username", "user__first_name", "user__last_name", "event__name")
    actions = ["revoke", "signin_code"]

    @admin.action(description=_("Revoke the selected roles (they stay listed)"), permissions=["change"])
    def revoke(self, request, queryset):
        # Translators: object is a role (or a table card)
        done = _("%(object)s: revoked.")
        apply_to_each(
            self,
            request,
            queryset.filter(revoked_at__isnull=True),
            lambda role: role_revoke(role=role, by=request.user),
            done,
        )

    @admin.action(
        description=_("Give the selected people a one-time code to sign in through a lock"),
        permissions=["change"],
    )
    def signin_code(self, request, queryset):
        """For a referee locked out by wrong passwords (theirs or someone else's) on the day: the organizer
        reads the code to them; with it and their own password they sign in on the site's sign-in page."""

        def shown(role, issued):
            return _(
                "One-time sign-in code for %(user)s: %(code)s. Valid once, until %(time)s, with their own "
                "password, on the site's sign-in page."
            ) % {
                "user": role.user,
                "code": issued.code,
                "time": formats.time_format(timezone.localtime(issued.expires_at)),
            }

        apply_to_each(
            self,
            request,
            queryset.filter(revoked_at__isnull=True),
            lambda role: signin_code_issue(role=role, by=request.user),
            shown,
        )


@admin.register(ScorekeeperKey)
class ScorekeeperKeyAdmin(ReadOnlyRecords, EventScopedAdmin):
    event_path = "table__round__event"
    list_display = ("table", "issued_by", "issued_at", "failed_pins", "revoked_by", "revoked_at")
    list_filter = (
        ("table__round__event", admin.RelatedOnlyFieldListFilter),
        ("revoked_at", admin.EmptyFieldListFilter),
    )
    exclude = ("token_digest", "pin_hash")
    actions = ["revoke"]

    def get_readonly_fields(self, request, obj=None):
        return [f for f in super().get_readonly_fields(request, obj) if f not in self.exclude]

    @admin.action(description=_("Revoke the selected table cards"), permissions=["change"])
    def revoke(self, request, queryset):
        apply_to_each(
            self,
            request,
            queryset.filter(revoked_at__isnull=True),
            lambda key: scorekeeper_key_revoke(key=key, by=request.user),
            _("%(object)s: revoked."),
        )


@admin.register(ApiToken)
class ApiTokenAdmin(ReadOnlyRecords, EventScopedAdmin):
    list_display = (
        "name",
        "event",
        "scope",
        "tables",
        "created_by",
        "created_at",
        "expires_at",
        "last_used_at",
        "revoked_by",
        "revoked_at",
    )
    list_filter = (
        "scope",
        ("event", admin.RelatedOnlyFieldListFilter),
        ("revoked_at", admin.EmptyFieldListFilter),
    )
    search_fields = ("name", "event__name")
    exclude = ("digest",)
    actions = ["revoke"]

    def get_readonly_fields(self, request, obj=None):
        return [f for f in super().get_readonly_fields(request, obj) if f not in self.exclude]

    @admin.action(description=_("Revoke the selected API tokens (they stay listed)"), permissions=["change"])
    def revoke(self, request, queryset):
        apply_to_each(
            self,
            request,
            queryset.filter(revoked_at__isnull=True),
            lambda token: api_token_revoke(token=token, by=request.user),
            _("%(object)s: revoked."),
        )
