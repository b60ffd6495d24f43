#!/usr/bin/env python
"""Django's command-line utility for administrative tasks."""

import os
import sys


def main():
    """Run administrative tasks."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    try:
        from django.core.management import execute_from_command_line
    except ImportError as exc:
        raise ImportError(
            "Couldn't import Django. Are you sure it's installed and "
            "available on your PYTHONPATH environment variable? Did you "
            "forget to activate a virtual environment?"
        ) from exc
    activate_terminal_language()
    execute_from_command_line(sys.argv)


def activate_terminal_language():
    """Commands speak the terminal's language, as other command-line tools do: Japanese when
    LC_ALL, LC_MESSAGES or LANG says ``ja`` (``LANG=ja_JP.UTF-8``), else the site's default."""
    for variable in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(variable)
        if value:
            if value.lower().startswith("ja"):
                import django
                from django.utils import translation

                django.setup()
                translation.activate("ja")
            return


if __name__ == "__main__":
    main()
