"""The admin's yes/no icons described in the reader's language.

Django's admin draws a boolean field as an icon whose ``alt`` is the Python value (``True``, ``False``,
``None``): a screen reader says "True" in English on a Japanese or German page, and the words a person hears
are words of the interface (WCAG 3.1.2). Every place the admin draws one (the lists, the read-only fields of a
change page) imports ``_boolean_icon`` from ``admin_list`` when it draws, so replacing it there once is enough.
"""

from __future__ import annotations

from django.templatetags.static import static
from django.utils.html import format_html
from django.utils.translation import gettext_noop, pgettext

ICONS = {True: "yes", False: "no", None: "unknown"}


def boolean_icon(value) -> str:
    """The admin's icon for a yes/no value, its ``alt`` in words: yes, no, unknown."""
    words = {
        # Translators: what a screen reader says of the admin's yes/no icon.
        True: pgettext("yes/no icon", "Yes"),
        False: pgettext("yes/no icon", "No"),
        None: pgettext("yes/no icon", "Unknown"),
    }
    return format_html('<img src="{}" alt="{}">', static(f"admin/img/icon-{ICONS[value]}.svg"), words[value])


def admin_words_install() -> None:
    from django.contrib.admin.templatetags import admin_list

    admin_list._boolean_icon = boolean_icon


# Words of Django's admin templates that Django's own catalog of a language of the site lacks (Chinese has no
# "Model name", "Add link" or "Change or view list link" in Django 5.2): kept in the project's catalogs, which
# come before Django's, so that the admin's index says them in every language.
ADMIN_WORDS_DJANGO_LACKS = (
    gettext_noop("Model name"),
    gettext_noop("Add link"),
    gettext_noop("Change or view list link"),
)
