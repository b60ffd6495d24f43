from django.apps import AppConfig
from django.urls import register_converter
from django.utils.translation import gettext_lazy as _

from core.converters import IdConverter, NumberConverter


class CoreConfig(AppConfig):
    """What every app uses: the broker queue, the caller's address, the API's base and the announcement
    hub. Built on nothing of the project but ``taikai``; every other app may import it."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "core"
    label = "core"
    verbose_name = _("Core")

    def ready(self) -> None:
        from core import tasks  # noqa: F401 -- the queue's flush task, registered with Celery

        # The path converters every app's URLs use (``<id:…>``, ``<n:…>``), registered once.
        register_converter(IdConverter, "id")
        register_converter(NumberConverter, "n")

        from core.admin_words import admin_words_install

        admin_words_install()  # the admin's yes/no icons said in the reader's language

        from django.conf import settings

        if settings.IN_PROCESS_BEAT:  # the embedded default's periodic work (core/beat.py)
            from core.beat import beat_start

            beat_start()
