"""What the admin screens of the tournament app share: every row belongs to one event, and a user sees
and changes only the events where they hold a role (:mod:`tournament.access`), on top of the model
permissions of their staff group."""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.contrib.admin.utils import unquote
from django.core.exceptions import FieldDoesNotExist, PermissionDenied, ValidationError
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from taikai.errors import TaikaiError
from tournament import access, selectors
from tournament.localtime import time_zone_activate
from tournament.models import Entry, Event, Round, Table


def event_id_of(obj, path: str) -> int:
    """The id of the event ``obj`` belongs to, following ``path`` ("" for an event, "round__event", …)."""
    if not path:
        return obj.pk
    *steps, last = path.split("__")
    for step in steps:
        obj = getattr(obj, step)
    return getattr(obj, f"{last}_id")


def event_time_zone_activate_by_id(event_id: int) -> None:
    """Times are shown and read in the time zone of the event (``tournament.localtime``)."""
    zone = Event.objects.filter(pk=event_id).values_list("time_zone", flat=True).first()
    if zone:
        time_zone_activate(zone)


def row_id(value) -> int | None:
    """A row's id as typed in a form or an address, or None when it cannot be one."""
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) < 19:
        return int(value) or None
    return None


def time_zone_help(help_text) -> str:
    """A time field's help, with the time zone its value is typed in (the one active: the event's)."""
    # Translators: zone is a time zone's name, such as Asia/Tokyo
    zone = _("Time in the time zone %(zone)s.") % {"zone": timezone.get_current_timezone_name()}
    return format_html("{} {}", zone, help_text) if help_text else zone


class EventScopedAdmin(admin.ModelAdmin):
    """A model admin whose rows each belong to one event.

    * lists, filters, related choices and autocompletes show only the events where the user holds a role;
    * writes need the model permission and, for the object's event, the organizer role (``write_role =
      "manage"``) or a referee role covering the object's table (``"referee"``);
    * an action a user may not run, or a selection outside their events, is refused with 403.
    """

    event_path = "event"
    write_role = "manage"

    @property
    def event_id_path(self) -> str:
        return f"{self.event_path}_id" if self.event_path else "pk"

    def table_number_of(self, obj) -> int | None:
        """The table an object is about, for referees limited to some tables (None: the whole event)."""
        table = getattr(obj, "table", None)
        return table.number if table is not None else None

    def may_write(self, request, obj=None) -> bool:
        actor = access.actor_for(request)
        if obj is None:
            return access.manages_any(actor) if self.write_role == "manage" else access.referees_any(actor)
        event_id = event_id_of(obj, self.event_path)
        if self.write_role == "manage":
            return access.may_manage(actor, event_id)
        return access.may_referee(actor, event_id, self.table_number_of(obj))

    def get_queryset(self, request):
        where = access.events_where(access.actor_for(request), path=self.event_id_path)
        return super().get_queryset(request).filter(where)

    def has_view_permission(self, request, obj=None):
        if not super().has_view_permission(request, obj):
            return False
        return obj is None or access.holds_role(access.actor_for(request), event_id_of(obj, self.event_path))

    def has_add_permission(self, request, *args):
        return super().has_add_permission(request, *args) and self.may_write(request)

    def has_change_permission(self, request, obj=None):
        return super().has_change_permission(request, obj) and self.may_write(request, obj)

    def has_delete_permission(self, request, obj=None):
        return super().has_delete_permission(request, obj) and self.may_write(request, obj)

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        actor = access.actor_for(request)
        manage = self.write_role == "manage"
        paths = {Event: "pk", Round: "event_id", Table: "round__event_id", Entry: "event_id"}
        if db_field.related_model in paths:
            where = access.events_where(actor, manage=manage, path=paths[db_field.related_model])
            kwargs["queryset"] = db_field.related_model._default_manager.filter(where)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def save_model(self, request, obj, form, change):
        """A change saves the fields its form changed, and nothing else: a status or a version a service
        moved meanwhile is not written back as the form loaded it."""
        if not change:
            return super().save_model(request, obj, form, change)
        fields = changed_model_fields(obj, form.changed_data)
        if fields:
            obj.save(update_fields=fields)
        return None

    # --- times: in the time zone of the event the page is about ----------------------------------------

    def changeform_view(self, request, object_id=None, form_url="", extra_context=None):
        """The object's times are shown and typed in its event's time zone, and its form says which."""
        event_id = self._event_id_of_form(request, object_id)
        if event_id is not None:
            event_time_zone_activate_by_id(event_id)
        return super().changeform_view(request, object_id, form_url, extra_context)

    def _event_id_of_form(self, request, object_id) -> int | None:
        """The event of the object changed, or of the one added (its ``event`` field, posted or in the
        address); None when the form does not know it yet."""
        if object_id is not None:
            obj = super().get_object(request, unquote(object_id))
            return event_id_of(obj, self.event_path) if obj is not None else None
        if self.event_path != "event":
            return None
        return row_id(request.POST.get("event") or request.GET.get("event"))

    def get_form(self, request, obj=None, **kwargs):
        form = super().get_form(request, obj, **kwargs)
        for field in form.base_fields.values():
            if isinstance(field, (forms.DateTimeField, forms.SplitDateTimeField)):
                field.help_text = time_zone_help(field.help_text)
        return form

    def changelist_view_time_zone(self, request) -> None:
        """A list of one event's rows (filtered by event, or a user whose events share one time zone) shows
        their times in that zone; a list across zones keeps the site's."""
        where = access.events_where(access.actor_for(request), path="pk")
        chosen = row_id(request.GET.get(f"{self.event_path}__id__exact")) if self.event_path else None
        events = Event.objects.filter(where)
        if chosen is not None:
            events = events.filter(pk=chosen)
        zones = list(events.order_by().values_list("time_zone", flat=True).distinct()[:2])
        if len(zones) == 1:
            time_zone_activate(zones[0])

    def get_changeform_initial_data(self, request):
        """Initial values from the address (``?table=3``); one its field cannot hold (``?event=abc``, an id
        out of range) is left out: a mistyped link opens the form without it, not an error page."""
        initial = super().get_changeform_initial_data(request)
        for name, value in list(initial.items()):
            try:
                field = self.model._meta.get_field(name)
            except FieldDoesNotExist:
                continue
            target = field.target_field if field.many_to_one or field.one_to_one else field
            try:
                target.clean(value, None)
            except (ValidationError, TypeError, ValueError):
                del initial[name]
        return initial

    def get_object(self, request, object_id, from_field=None):
        """An object of an event the user holds no role in: 403, not "does not exist"."""
        obj = super().get_object(request, object_id, from_field)
        if obj is None and self._exists(object_id):
            raise PermissionDenied
        return obj

    def _exists(self, object_id) -> bool:
        try:
            return self.model._default_manager.filter(pk=object_id).exists()
        except (ValueError, TypeError, ValidationError):
            return False

    def add_view(self, request, form_url="", extra_context=None):
        """A new row for an event (and table) the user may not write to: 403 before the form is read."""
        if request.method == "POST" and self.event_path == "event" and not self._may_add_to(request):
            raise PermissionDenied
        return super().add_view(request, form_url, extra_context)

    def _may_add_to(self, request) -> bool:
        actor = access.actor_for(request)
        try:
            event_id = int(request.POST.get("event") or 0)
            table_id = int(request.POST.get("table") or 0)
        except ValueError:
            return True  # not a number: the form says which field is wrong
        if not event_id:
            return True
        if self.write_role == "manage":
            return access.may_manage(actor, event_id)
        number = selectors.table_number(table_id) if table_id else None
        return access.may_referee(actor, event_id, number)

    def changelist_view(self, request, extra_context=None):
        self.changelist_view_time_zone(request)
        if request.method == "POST" and request.POST.get("action"):
            if request.POST["action"] not in self.get_actions(request):
                raise PermissionDenied
            chosen = set(request.POST.getlist(ACTION_CHECKBOX_NAME))
            if chosen and self.get_queryset(request).filter(pk__in=chosen).count() != len(chosen):
                raise PermissionDenied
        return super().changelist_view(request, extra_context)

    def object_to_change(self, request, model, pk: int):
        """The object a custom admin view writes to: 404 if there is none, 403 without the role and the
        permission to change it."""
        obj = self.get_object(request, str(pk)) if model is self.model else get_object_or_404(model, pk=pk)
        if obj is None:
            raise Http404(_("no such %(model)s") % {"model": model._meta.verbose_name})
        if not self.has_change_permission(request, obj):
            raise PermissionDenied
        if model is self.model:  # its page shows and reads times in its event's time zone
            event_time_zone_activate_by_id(event_id_of(obj, self.event_path))
        return obj


def changed_model_fields(obj, names) -> list[str]:
    concrete = {f.name for f in obj._meta.concrete_fields if not f.primary_key}
    return [name for name in names if name in concrete]


def formset_save_changed_fields(formset) -> None:
    """Save an inline formset like Django does, except that a changed row saves its changed fields only."""
    instances = formset.save(commit=False)
    for obj in formset.deleted_objects:
        obj.delete()
    changed = {id(obj): fields for obj, fields in formset.changed_objects}
    for obj in instances:
        if id(obj) in changed:
            fields = changed_model_fields(obj, changed[id(obj)])
            if fields:
                obj.save(update_fields=fields)
        else:
            obj.save()
    formset.save_m2m()


class EventScopedInline:
    """An inline of an event's own rows (entries, roles): changed by the event's organizers only."""

    def _manages(self, request, obj) -> bool:
        """On the add page (no event yet) the user creates the event and will own it."""
        return obj is None or access.may_manage(access.actor_for(request), obj.pk)

    def has_add_permission(self, request, obj=None):
        return super().has_add_permission(request, obj) and self._manages(request, obj)

    def has_change_permission(self, request, obj=None):
        return super().has_change_permission(request, obj) and self._manages(request, obj)

    def has_delete_permission(self, request, obj=None):
        return super().has_delete_permission(request, obj) and self._manages(request, obj)


def apply_to_each(model_admin, request, queryset, service, done: str) -> None:
    """Run a service on each selected row, once the user may write to every one of them (403 otherwise,
        before anything is written); each success or refusal is reported on its own. ``done`` is the whole
        message of a success, naming the row as ``%(object)s`` (``_("%(object)s: published.")``), or a function
    of the row and what the service returned, for a message that shows the result."""
    rows = list(queryset)
    if not all(model_admin.may_write(request, obj) for obj in rows):
        raise PermissionDenied
    for obj in rows:
        try:
            result = service(obj)
        except TaikaiError as exc:
            # Translators: a row of the admin list, then why the action was refused for it
            refused = _("%(object)s: %(error)s") % {"object": obj, "error": exc.message}
            model_admin.message_user(request, refused, messages.ERROR)
        else:
            model_admin.message_user(request, done(obj, result) if callable(done) else done % {"object": obj})
