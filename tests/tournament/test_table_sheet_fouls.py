"""The fouls in force on the table sheet's seats: each says once, in the reader's language, what the foul is
and what it does (an art. 38 ⑤ flag read "…権利を失う: …権利を失う（第1局）")."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils import translation

from tournament.engine.penalties import PenaltyKind, penalty_effect
from tournament.services.discipline import penalty_log

pytestmark = pytest.mark.django_db


def seat_fouls(client, table, language: str) -> list[str]:
    """The text of each foul line of the sheet's seats, as the page shows it in ``language``."""
    body = client.get(reverse("console:table", args=[table.pk]), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    seats = body[body.index('id="seats"') : body.index("</section>", body.index('id="seats"'))]
    return [re.sub(r"\s+", " ", text).strip() for text in re.findall(r'<div class="foul">(.*?)</div>', seats, re.S)]


@pytest.mark.parametrize(
    ("language", "article", "hand"),
    [("ja", "第38条⑤", "第1局"), ("en", "Art. 38⑤", "hand 1")],
)
def test_a_clock_flag_on_the_sheet_names_the_foul_and_its_consequence_once(
    admin_client, make_event, seated_round, language, article, hand
):
    # given an art. 38 ⑤ flag of the East player in hand 1
    event = make_event(4, clock_bank_seconds=30)
    table = seated_round(event).tables.get()
    east = table.seats.get(position=0).entry
    penalty_log(
        event=event,
        entry=east,
        kind=PenaltyKind.CLOCK_FLAG.value,
        reason="time bank exhausted on turn 7",
        table=table,
        hand_number=1,
    )
    # when the sheet is read
    fouls = seat_fouls(admin_client, table, language)
    # then one line names the article, the foul, what it does and the hand, each once
    effect = penalty_effect(PenaltyKind.CLOCK_FLAG)
    with translation.override(language):
        title, consequence = effect.title, effect.consequence
    assert len(fouls) == 1, fouls
    line = fouls[0]
    assert line.count(consequence) == 1, line
    assert line.count(title) == 1, line
    assert line.startswith(article) and hand in line, line
    assert "…" not in line, line  # nothing cut off
