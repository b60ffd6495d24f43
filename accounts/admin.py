"""The sign-in records, for superusers: every lockout, every one-time code and the addresses each account
signed in from, read-only."""

from __future__ import annotations

from django.contrib import admin

from accounts.models import SignInAddress, SignInCode, SignInLockout


class SuperusersReadOnly(admin.ModelAdmin):
    def has_module_permission(self, request):
        return request.user.is_active and request.user.is_superuser

    def has_view_permission(self, request, obj=None):
        return self.has_module_permission(request)

    def _never(self, request, obj=None):
        return False  # records of what happened: nobody adds, changes or deletes one

    has_add_permission = has_change_permission = has_delete_permission = _never


@admin.register(SignInLockout)
class SignInLockoutAdmin(SuperusersReadOnly):
    list_display = ("started_at", "kind", "username", "address", "until")
    list_filter = ("kind",)
    search_fields = ("username", "address")


@admin.register(SignInCode)
class SignInCodeAdmin(SuperusersReadOnly):
    list_display = (
        "user",
        "issued_by",
        "issued_at",
        "expires_at",
        "used_at",
        "used_from",
        "wrong_tries",
        "void_at",
    )
    exclude = ("digest",)


@admin.register(SignInAddress)
class SignInAddressAdmin(SuperusersReadOnly):
    list_display = ("user", "address", "first_at", "last_at")
    search_fields = ("user__username", "address")
