"""Extra time or one more hand for a table (art. 44): a director's ruling, with who and when."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from live.models import TableAllowance
from taikai.errors import TaikaiError
from tournament.models import Table
from tournament.services.common import recorder
from tournament.services.discipline import ruling_record
from tournament.services.locks import lock_table

MAX_MINUTES = 60
MAX_HANDS = 4


def _decision(minutes: int, hands: int, reason: str) -> str:
    given = []
    if minutes:
        given.append(ngettext("%(count)s more minute", "%(count)s more minutes", minutes) % {"count": minutes})
    if hands:
        given.append(ngettext("%(count)s more hand", "%(count)s more hands", hands) % {"count": hands})
    # Translators: what a director gave a table ("5 more minutes, 1 more hand"), then why
    return _("Art. 44: %(given)s for this table. %(reason)s") % {"given": ", ".join(given), "reason": reason}


@transaction.atomic
def table_allowance_give(*, tables: list[Table], minutes: int = 0, hands: int = 0, reason: str = "", user=None):
    """Give each of ``tables`` ``minutes`` more of round time and/or ``hands`` more hands: recorded as a
    ruling of the event at each table (art. 44). Only tables still playing."""
    if not 0 <= minutes <= MAX_MINUTES:
        raise TaikaiError("invalid_minutes", _("from 0 to %(max)s minutes") % {"max": MAX_MINUTES}, field="minutes")
    if not 0 <= hands <= MAX_HANDS:
        raise TaikaiError("invalid_hands", _("from 0 to %(max)s hands") % {"max": MAX_HANDS}, field="hands")
    if not minutes and not hands:
        raise TaikaiError("nothing_given", _("give minutes, a hand, or both"), field="minutes")
    reason = (reason or "").strip()
    if not reason:
        raise TaikaiError("reason_required", _("say why (it is kept with the ruling)"), field="reason")
    given = []
    for table in sorted(tables, key=lambda t: t.pk):
        table = lock_table(table.pk)
        if table.status != Table.Status.PLAYING:
            continue
        ruling = ruling_record(
            event=table.round.event, table=table, decision=_decision(minutes, hands, reason), user=user
        )
        given.append(
            TableAllowance.objects.create(
                table=table, minutes=minutes, hands=hands, ruling=ruling, given_by=recorder(user)
            )
        )
    if not given:
        raise TaikaiError("no_tables", _("choose at least one table that is still playing"), field="tables")
    return given
