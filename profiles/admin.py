"""The organizer's side of the player across events: merging a duplicate player into the one kept (a preview
first, then the merge on a confirming POST), and undoing merges (an action on the list of merges).

Players are shared by every event: a merge or its undo is an organizer's only when they organize every event
in which either player has an entry (:func:`profiles.services.may_merge`); anyone else is refused with 403
before anything is read or written. Both need the players' change permission (the Organizers group has it).
"""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from players.models import Player
from profiles import selectors, services
from profiles.models import PlayerMerge
from taikai.errors import TaikaiError
from tournament import access

CHANGE_PLAYERS = "players.change_player"


class MergeForm(forms.Form):
    merged = forms.IntegerField(label=gettext_lazy("duplicate player (id), merged away"), min_value=1)
    kept = forms.IntegerField(label=gettext_lazy("player kept (id)"), min_value=1)

    def players(self) -> tuple[Player, Player] | None:
        """The two players named, or None (the form then names the field at fault)."""
        found = Player.objects.in_bulk([self.cleaned_data["merged"], self.cleaned_data["kept"]])
        for name in ("merged", "kept"):
            if self.cleaned_data[name] not in found:
                self.add_error(name, _("no player has this id"))
        if self.errors:
            return None
        return found[self.cleaned_data["merged"]], found[self.cleaned_data["kept"]]


@admin.register(PlayerMerge)
class PlayerMergeAdmin(admin.ModelAdmin):
    list_display = (
        "merged",
        "merged_id",
        "kept",
        "kept_id",
        "entries_moved",
        "by",
        "at",
        "undone_at",
        "undone_by",
    )
    list_filter = (("undone_at", admin.EmptyFieldListFilter),)
    search_fields = ("merged__display_name", "kept__display_name", "merged__external_id", "kept__external_id")
    fields = readonly_fields = (
        "merged",
        "kept",
        "entry_ids",
        "moved_user",
        "moved_external_id",
        "by",
        "at",
        "undone_at",
        "undone_by",
    )
    actions = ["undo"]
    change_list_template = "admin/profiles/playermerge/change_list.html"

    # --- who sees and who writes: the players' permissions, and the organizer role (or a superuser) -------

    def _organizes(self, request) -> bool:
        return access.manages_any(access.actor_for(request))

    def has_module_permission(self, request) -> bool:
        return self.has_view_permission(request)

    def has_view_permission(self, request, obj=None) -> bool:
        if not request.user.has_perm("players.view_player") or not self._organizes(request):
            return False
        return obj is None or services.may_undo(access.actor_for(request), obj)

    def has_add_permission(self, request) -> bool:
        return False  # a merge is made by the merge page, after its preview

    def has_change_permission(self, request, obj=None) -> bool:
        return False  # a record: undone by the action, never edited

    def has_delete_permission(self, request, obj=None) -> bool:
        return False  # a record: the players stay, the merge stays

    def has_undo_permission(self, request) -> bool:
        return request.user.has_perm(CHANGE_PLAYERS) and self._organizes(request)

    def get_queryset(self, request):
        actor = access.actor_for(request)
        where = None if actor.is_superuser else access.events_where(actor, manage=True, path="event_id")
        return selectors.merges_visible(where)

    @admin.display(description=gettext_lazy("entries moved"))
    def entries_moved(self, obj) -> int:
        return len(obj.entry_ids)

    def changelist_view(self, request, extra_context=None):
        action = request.POST.get("action") if request.method == "POST" else None
        if action and action not in self.get_actions(request):
            raise PermissionDenied
        chosen = set(request.POST.getlist(ACTION_CHECKBOX_NAME)) if action else set()
        if chosen and self.get_queryset(request).filter(pk__in=chosen).count() != len(chosen):
            raise PermissionDenied  # a merge of players of events the user does not organize
        extra = {**(extra_context or {}), "may_merge": self.has_undo_permission(request)}
        return super().changelist_view(request, extra)

    @admin.action(description=gettext_lazy("Undo the selected merges (the entries go back)"), permissions=["undo"])
    def undo(self, request, queryset):
        rows = list(queryset)
        actor = access.actor_for(request)
        if not all(services.may_undo(actor, merge) for merge in rows):
            raise PermissionDenied
        for merge in rows:
            try:
                services.player_merge_undo(merge=merge, by=request.user)
            except TaikaiError as exc:
                self.message_user(
                    request, _("%(object)s: %(error)s") % {"object": merge, "error": exc.message}, messages.ERROR
                )
            else:
                self.message_user(request, _("%(object)s: undone, the entries are back.") % {"object": merge})

    # --- the merge page ----------------------------------------------------------------------------------

    def get_urls(self):
        return [
            path("merge/", self.admin_site.admin_view(self.merge_view), name="profiles_playermerge_merge"),
            *super().get_urls(),
        ]

    def merge_view(self, request):
        """GET: the form, and with both players named the preview (each entry of the duplicate, its event,
        every refusal). POST: the merge, for the players in the form."""
        if not self.has_undo_permission(request):
            raise PermissionDenied
        data = request.POST if request.method == "POST" else (request.GET if "merged" in request.GET else None)
        form = MergeForm(data)
        preview, status = None, 200
        if form.is_bound and form.is_valid() and (pair := form.players()) is not None:
            merged, kept = pair
            actor = access.actor_for(request)
            if not services.may_merge(actor, kept=kept, merged=merged):
                raise PermissionDenied
            if request.method == "POST":
                try:
                    merge = services.player_merge(
                        kept=kept, merged=merged, by=request.user, move_account=actor.is_superuser
                    )
                except TaikaiError as exc:
                    self.message_user(request, exc.message, messages.ERROR)
                    status = 400
                else:
                    self.message_user(request, _("Merged: %(object)s.") % {"object": merge})
                    return redirect(reverse("admin:profiles_playermerge_changelist"))
            preview = selectors.merge_preview(kept=kept, merged=merged)
            if preview.moves_account and not actor.is_superuser:
                preview.problems.append(
                    TaikaiError(
                        "merge_moves_account",
                        _("%(player)s is linked to an account: keep that player instead, or ask a superuser")
                        % {"player": merged},
                        field="merged",
                    )
                )
        elif form.is_bound:
            status = 400
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "form": form,
            "preview": preview,
            "title": _("Merge a duplicate player"),
        }
        return TemplateResponse(request, "admin/profiles/playermerge/merge.html", context, status=status)
