"""What the admin screens of the tournament app share."""

from __future__ import annotations

from django.contrib import messages

from taikai.errors import TaikaiError


def apply_to_each(model_admin, request, queryset, service, done: str) -> None:
    """Run a service on each selected row; each success or refusal is reported on its own."""
    for obj in queryset:
        try:
            service(obj)
        except TaikaiError as exc:
            model_admin.message_user(request, f"{obj}: {exc.message}", messages.ERROR)
        else:
            model_admin.message_user(request, f"{obj}: {done}")
