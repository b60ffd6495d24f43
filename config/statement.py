"""The accessibility statement (``/accessibility/``): the standard followed, how it is tested, what does not
conform yet and whom to tell; in the reader's language."""

from django.conf import settings
from django.shortcuts import render
from django.views.decorators.http import require_safe


@require_safe
def accessibility_statement(request):
    return render(request, "accessibility.html", {"contact": settings.ACCESSIBILITY_CONTACT})
