"""Check every invariant of an event's records; exit status 1 on any violation."""

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournament.audit import event_audit
from tournament.models import Event


class Command(BaseCommand):
    help = "Audit an event: zero-sum hands, deposit chains, table results, seating and standings."

    def add_arguments(self, parser):
        parser.add_argument("slug")

    def handle(self, *args, slug, **options):
        event = Event.objects.filter(slug=slug).select_related("ruleset").first()
        if event is None:
            message = _("no event with the slug %(slug)s") % {"slug": repr(slug)}
            raise CommandError(f"unknown_event: {message}")
        violations = event_audit(event)
        for violation in violations:
            self.stdout.write(str(violation))
        if violations:
            codes = sorted({v.code for v in violations})
            message = ngettext(
                "%(count)s violations in %(slug)s (%(codes)s)",
                "%(count)s violations in %(slug)s (%(codes)s)",
                len(violations),
            ) % {"count": len(violations), "slug": slug, "codes": ", ".join(codes)}
            raise CommandError(message, returncode=1)
        self.stdout.write(self.style.SUCCESS(_("%(slug)s: no violations") % {"slug": slug}))
