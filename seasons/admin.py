"""The organizer's side of series: a series' name, rule and events, and "compute again".

A series is shared by its events, so the admin asks ``seasons.access`` (on ``tournament.access``) before
anything: a superuser, or an organizer of every event of the series, may change or delete it; an organizer
may add to it only events they organize. A refusal is a 403 before any write."""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.contrib import admin
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.contrib.admin.widgets import FilteredSelectMultiple
from django.core.exceptions import PermissionDenied
from django.db.models import Q
from django.forms.fields import InvalidJSONInput
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from seasons import access as series_access
from seasons import selectors, services
from seasons.models import Series
from taikai.errors import TaikaiError
from taikai.text import json_read
from tournament import access
from tournament.localtime import time_zone_activate
from tournament.models import Event


class OutsideJSONField(forms.JSONField):
    """Django's JSON form field, JSON nested too deep refused as the field's error (``taikai.text.json_read``)
    instead of the ``RecursionError`` (a 500) Python's parser meets at 10,000 levels."""

    def _refusal(self, value) -> TaikaiError | None:
        if not isinstance(value, str) or not value.strip():
            return None
        try:
            json_read(value, field=str(self.label or "value"))
        except TaikaiError as exc:
            return exc
        return None

    def to_python(self, value):
        refused = self._refusal(value)
        if refused is not None:
            raise forms.ValidationError(refused.message, code="invalid")
        return super().to_python(value)

    def bound_data(self, data, initial):
        """The form shown again with what was typed, as Django shows any other JSON it cannot read."""
        if not self.disabled and self._refusal(data) is not None:
            return InvalidJSONInput(data)
        return super().bound_data(data, initial)


class SeriesForm(forms.ModelForm):
    event_choices = forms.ModelMultipleChoiceField(
        queryset=Event.objects.none(),
        required=False,
        label=gettext_lazy("events"),
        widget=FilteredSelectMultiple(gettext_lazy("events"), is_stacked=False),
        help_text=gettext_lazy("Only the events you organize can be chosen; only finished public events count."),
    )

    class Meta:
        model = Series
        fields = ("name", "slug", "rule", "best_n", "place_points", "is_public")
        field_classes = {"place_points": OutsideJSONField}


@admin.register(Series)
class SeriesAdmin(admin.ModelAdmin):
    form = SeriesForm
    list_display = ("name", "slug", "rule", "is_public", "computed_at", "standings_rows")
    search_fields = ("name", "slug")
    prepopulated_fields = {"slug": ("name",)}
    readonly_fields = ("computed_at", "as_of", "standings_rows", "ema_rows", "elo_rows")
    actions = ["recompute", "delete_selected"]

    # the counts of rows last computed (the model's fields have no names of their own)
    @admin.display(description=gettext_lazy("players in the standings"), ordering="standings_count")
    def standings_rows(self, obj) -> int:
        return obj.standings_count

    @admin.display(description=gettext_lazy("players in the EMA ranking projection"))
    def ema_rows(self, obj) -> int:
        return obj.ema_count

    @admin.display(description=gettext_lazy("players in the Elo rating"))
    def elo_rows(self, obj) -> int:
        return obj.elo_count

    # --- who: the role, not model permissions (a series is no one event's) ---------------------------

    def _actor(self, request):
        return access.actor_for(request)

    def may_write(self, request, obj=None) -> bool:
        actor = self._actor(request)
        if obj is None:
            return series_access.may_create_series(actor)
        return series_access.may_write_series(actor, obj)

    def has_module_permission(self, request):
        return (
            request.user.is_active and request.user.is_staff and series_access.may_create_series(self._actor(request))
        )

    def _reads(self, request, obj) -> bool:
        actor = self._actor(request)
        if actor.is_superuser or self.may_write(request, obj) or obj.owner_id == request.user.pk:
            return True
        return any(access.holds_role(actor, event_id) for event_id in selectors.series_event_ids(obj))

    def has_view_permission(self, request, obj=None):
        return self.has_module_permission(request) and (obj is None or self._reads(request, obj))

    def has_add_permission(self, request):
        return self.has_module_permission(request)

    def has_change_permission(self, request, obj=None):
        return self.has_module_permission(request) and (obj is None or self.may_write(request, obj))

    def has_delete_permission(self, request, obj=None):
        return self.has_change_permission(request, obj)

    def get_queryset(self, request):
        """The series listed: those with an event where the user holds a role, or their own."""
        rows = super().get_queryset(request)
        actor = self._actor(request)
        if actor.is_superuser:
            return rows
        events = Event.objects.filter(access.events_where(actor))
        return rows.filter(Q(series_events__event__in=events) | Q(owner_id=request.user.pk)).distinct()

    def get_object(self, request, object_id, from_field=None):
        """Any series, so that one the user may not write is refused (403), not "not found"."""
        try:
            return Series.objects.get(pk=int(object_id))
        except (Series.DoesNotExist, ValueError, TypeError, OverflowError):
            return None

    def changelist_view(self, request, extra_context=None):
        """An action on a series the user may not write is refused (403) before anything runs."""
        if request.method == "POST" and request.POST.get("action"):
            raw = request.POST.getlist(ACTION_CHECKBOX_NAME)
            ids = [int(value) for value in raw if value.isascii() and value.isdigit() and len(value) < 19]
            if request.POST.get("select_across") == "1":
                chosen = list(self.get_queryset(request))
            else:
                chosen = list(Series.objects.filter(pk__in=ids))
            if not self.has_module_permission(request) or not all(self.may_write(request, obj) for obj in chosen):
                raise PermissionDenied
        return super().changelist_view(request, extra_context)

    def get_form(self, request, obj=None, change=False, **kwargs):
        form = super().get_form(request, obj, change=change, **kwargs)
        managed = Event.objects.filter(access.events_where(self._actor(request), manage=True)).order_by(
            "-starts_on", "name"
        )
        form.base_fields["event_choices"].queryset = managed
        form.base_fields["event_choices"].initial = selectors.series_event_ids(obj) if obj is not None else []
        return form

    def changeform_view(self, request, object_id=None, form_url="", extra_context=None):
        """Events the user does not organize are refused (403) before the form is read, not silently left out."""
        series = self.get_object(request, object_id) if object_id else None
        if series is not None:  # its times (computed at) in the zone of its events, as on its pages
            time_zone_activate(selectors.series_events_time_zone(series) or settings.TIME_ZONE)
        if request.method == "POST":
            raw = request.POST.getlist("event_choices")
            ids = [int(value) for value in raw if value.isascii() and value.isdigit() and len(value) < 19]
            if len(ids) != len(raw) or not series_access.may_add_events(self._actor(request), ids):
                raise PermissionDenied
        return super().changeform_view(request, object_id, form_url, extra_context)

    def save_model(self, request, obj, form, change):
        if not change:
            obj.owner = request.user
        super().save_model(request, obj, form, change)

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        services.series_events_set(series=form.instance, event_ids=[e.pk for e in form.cleaned_data["event_choices"]])

    @admin.action(description=gettext_lazy("Compute the standings and ratings again"))
    def recompute(self, request, queryset):
        rows = list(queryset)
        if not all(self.may_write(request, obj) for obj in rows):
            raise PermissionDenied
        for series in rows:
            services.series_schedule_recompute(series_id=series.pk)
        self.message_user(request, _("Asked: %(count)s series will be computed again.") % {"count": len(rows)})
