"""Engine messages are translated when they are raised, in the language active at that moment.

No catalog is compiled in the tests, so a fake translator stands in for Django's ``gettext``: it knows
two messages in a made-up language ``xx`` and leaves everything else to Django.
"""

import pytest
from django.utils import translation

from scoring.engine.errors import ScoringError
from taikai import i18n
from tournament.engine.clock import ClockSettings, start_hand
from tournament.engine.errors import TournamentError
from tournament.engine.penalties import PenaltyKind, penalty_effect

pytestmark = pytest.mark.once

FAKE_CATALOG = {
    "seat %(seat)s has left the game (art. 42)": "xx: seat %(seat)s gone (42)",
    "time bank exhausted (持ち時間切れ)": "xx: 持ち時間切れ",
}


def fake_gettext(message: str) -> str:
    if translation.get_language() == "xx":
        return FAKE_CATALOG.get(message, message)
    return translation.gettext(message)


@pytest.fixture
def fake_translator():
    previous = i18n.install_translator(fake_gettext)
    try:
        yield
    finally:
        assert i18n.install_translator(previous) is fake_gettext
    assert i18n.gettext("time bank exhausted (持ち時間切れ)") == "time bank exhausted (持ち時間切れ)"


def _leave_error() -> TournamentError:
    settings = ClockSettings(bank_ms=60_000, increment_ms=5_000, players=4, absent=frozenset({2}))
    with pytest.raises(TournamentError) as raised:
        start_hand(settings, 2, now_ms=0)
    return raised.value


def test_an_engine_error_is_translated_in_the_language_active_when_it_is_raised(fake_translator):
    with translation.override("xx"):
        error = _leave_error()
    assert (error.code, error.field) == ("player_left", "opener_seat")  # codes and fields never change
    assert error.message == "xx: seat 2 gone (42)"
    assert _leave_error().message == "seat 2 has left the game (art. 42)"  # English outside the override


def test_a_lazy_constant_is_read_in_the_active_language(fake_translator):
    effect = penalty_effect(PenaltyKind.CLOCK_FLAG)
    with translation.override("xx"):
        assert effect.title == "xx: 持ち時間切れ"
        assert effect.label.startswith("Art. 38⑤ xx: 持ち時間切れ — ")
    assert effect.title == "time bank exhausted (持ち時間切れ)"


def test_a_refusal_said_about_someone_keeps_its_class_code_and_message():
    moved = ScoringError("impossible_fu", "35 fu cannot happen").at("wins[0].fu", about="Alice")
    assert (type(moved), moved.code, moved.field, moved.message) == (
        ScoringError,
        "impossible_fu",
        "wins[0].fu",
        "Alice: 35 fu cannot happen",
    )


@pytest.mark.parametrize(
    ("count", "english"),
    [(1, "1 active player cannot fill a table of 4"), (3, "3 active players cannot fill a table of 4")],
)
def test_an_engine_message_with_a_number_takes_its_plural_in_each_language(count, english):
    from tournament.engine.pairing.tables import plan_tables

    with translation.override("en"), pytest.raises(TournamentError) as raised:
        plan_tables(count, 4, "bye")
    assert raised.value.message == english
    with translation.override("ja"), pytest.raises(TournamentError) as raised:
        plan_tables(count, 4, "bye")
    assert raised.value.message != english and f"{count}" in raised.value.message


def test_a_seats_wind_is_read_in_the_language_active_each_time():
    """The wind labels are kept per language (an audit reads hundreds of thousands): never the first
    language read for every later reader."""
    from tournament.models import Seat

    seat = Seat(position=3)
    readings = []
    for language in ("ja", "en", "ja", "en"):
        with translation.override(language):
            readings.append((seat.wind, translation.pgettext("seat wind", "N")))
    assert all(shown == expected for shown, expected in readings)
    assert readings[0][0] != readings[1][0] and readings[1][0] == "N"
