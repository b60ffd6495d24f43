from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GameLogsConfig(AppConfig):
    """Online games (天鳳, 雀魂) brought in from their logs, every hand re-priced under the event's rules."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "gamelogs"
    verbose_name = _("Online games")

    def ready(self) -> None:
        from gamelogs.confirmations import unconfirmed_left_out
        from gamelogs.services import table_result_waits_for_disagreements
        from tournament.services.results import result_confirming
        from tournament.services.seating import seating_leaves_out

        result_confirming.connect(table_result_waits_for_disagreements, dispatch_uid="gamelogs_result_waits")
        seating_leaves_out.connect(unconfirmed_left_out, dispatch_uid="gamelogs_unconfirmed_left_out")
