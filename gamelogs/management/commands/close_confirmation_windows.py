"""Close the online rounds' confirmation windows whose time has come: the unconfirmed are marked absent and the
event's rule applied (run every minute or so by cron or the scheduler)."""

from django.core.management.base import BaseCommand
from django.utils.translation import gettext as _

from gamelogs.confirmations import confirmation_windows_close_due


class Command(BaseCommand):
    help = "Close the confirmation windows of online rounds whose time has come; the unconfirmed are marked absent."

    def handle(self, *args, **options):
        closed = confirmation_windows_close_due()
        self.stdout.write(_("%(count)s confirmation windows closed") % {"count": closed})
