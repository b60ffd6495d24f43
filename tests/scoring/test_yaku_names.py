"""Yaku named as each scene names them, whatever the page's language: the event's naming, a reader's own
choice over it, on the calculator, the table sheet, the player's page and the hands export."""

from __future__ import annotations

import csv
import io
import json
import re

import pytest
from django.urls import reverse

from scoring.calculator import YAKU_LABELS
from scoring.engine.yaku import YAKU_TABLE
from scoring.yaku_names import (
    BILINGUAL,
    COOKIE,
    EMA,
    EMA_NAMES,
    JAPANESE,
    NAMES_BY_STYLE,
    ROMAJI,
    STYLES,
    WRC,
    chosen_style,
    yaku_labels,
    yaku_name,
)
from tournament.services.hands import hand_record

CHANKAN_WIN = {
    "outcome": "ron",
    "dealer_position": 0,
    "wins": [{"winner": 1, "discarder": 2, "han": 3, "fu": 40, "yaku": [["chankan", 1], ["chanta", 2]]}],
}


def test_every_yaku_and_dora_has_a_name_in_every_naming():
    keys = {definition.key for definition in YAKU_TABLE} | {"dora", "aka_dora", "ura_dora"}
    assert keys == set(YAKU_LABELS)  # the page's own wording names the same keys
    for style in STYLES:
        names = yaku_labels(style)
        assert set(names) == keys, style
        assert all(names[key].strip() for key in keys), style


def test_the_ema_names_are_the_european_referees_words():
    assert yaku_name("chankan", EMA) == "Robbing a Kong"
    assert yaku_name("chanta", EMA) == "Outside Hand"
    assert yaku_name("chiihou", EMA) == "Blessing of Earth"
    assert yaku_name("riichi", JAPANESE) == "立直"
    assert yaku_name("chankan", ROMAJI) == "Chankan"


def test_the_wrc_names_differ_from_the_emas_only_in_the_words_for_sets():
    differ = {key for key in EMA_NAMES if NAMES_BY_STYLE[WRC][key] != EMA_NAMES[key]}
    assert yaku_name("chankan", WRC) == "Robbing a Quad"
    assert "chiihou" not in differ and "riichi" not in differ
    assert all(re.search(r"Quad|Triplet|Sequence|Outside|Sea|River", NAMES_BY_STYLE[WRC][key]) for key in differ)


def test_an_unknown_key_or_naming_falls_back_without_an_error(rf):
    assert yaku_name("kazoe_from_a_log", EMA) == "kazoe_from_a_log"
    request = rf.get("/", HTTP_COOKIE=f"{COOKIE}=klingon")
    assert chosen_style(request) == BILINGUAL


def test_a_readers_own_naming_wins_over_the_events(rf):
    class Event:
        yaku_names = EMA

    assert chosen_style(rf.get("/"), Event()) == EMA
    assert chosen_style(rf.get("/", HTTP_COOKIE=f"{COOKIE}={ROMAJI}"), Event()) == ROMAJI


def calculator_labels(client, language: str = "en") -> dict:
    body = client.get(reverse("scoring:calculator"), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    found = re.search(r'<script id="calculator-labels" type="application/json">(.*?)</script>', body, re.S)
    return json.loads(found.group(1))["yaku"]


@pytest.mark.django_db
def test_the_calculator_names_yaku_as_the_reader_chose_on_any_page_language(client):
    assert calculator_labels(client, "en")["chankan"] == str(YAKU_LABELS["chankan"])
    response = client.post(
        reverse("scoring:yaku_names"), {"style": EMA, "next": reverse("scoring:calculator")}, HTTP_ACCEPT_LANGUAGE="ja"
    )
    assert response.status_code == 302 and response["Location"] == reverse("scoring:calculator")
    assert response.cookies[COOKIE].value == EMA
    assert calculator_labels(client, "ja")["chankan"] == "Robbing a Kong"
    assert calculator_labels(client, "en")["chanta"] == "Outside Hand"


@pytest.mark.django_db
def test_choosing_a_naming_refuses_an_unknown_one_and_never_leaves_the_site(client):
    refused = client.post(reverse("scoring:yaku_names"), {"style": "klingon"})
    assert refused.status_code == 400 and COOKIE not in refused.cookies
    assert b"style" in refused.content
    away = client.post(reverse("scoring:yaku_names"), {"style": ROMAJI, "next": "https://elsewhere.example/"})
    assert away.status_code == 302 and away["Location"] == "/"
    assert client.get(reverse("scoring:yaku_names")).status_code == 405  # a read never writes


def sheet_yaku(client, table) -> list[str]:
    body = client.get(reverse("console:table", args=[table.pk])).content.decode()
    return re.findall(r'<span class="yaku-names">(.*?)</span>', body)


@pytest.mark.django_db
def test_the_table_sheet_names_the_recorded_yaku_as_the_event_does_unless_the_referee_chose(
    admin_client, admin_user, make_event, seated_round
):
    event = make_event(4, yaku_names=EMA)
    table = seated_round(event).tables.get()
    hand_record(table=table, number=1, expected_version=0, data=CHANKAN_WIN, user=admin_user)
    assert sheet_yaku(admin_client, table) == ["Robbing a Kong · Outside Hand"]
    admin_client.cookies[COOKIE] = JAPANESE
    assert sheet_yaku(admin_client, table) == ["槍槓 · 全帯么"]


@pytest.mark.django_db
def test_the_hands_export_names_the_yaku_as_the_event_does(client, admin_user, make_event, seated_round):
    event = make_event(4, yaku_names=WRC, is_public=True)
    table = seated_round(event).tables.get()
    hand_record(table=table, number=1, expected_version=0, data=CHANKAN_WIN, user=admin_user)
    body = client.get(reverse("tournament:hands_csv", args=[event.slug])).content.decode()
    rows = list(csv.DictReader(io.StringIO(body)))
    assert [row["yaku"] for row in rows] == ["Robbing a Quad · Half Outside Hand"]
    client.cookies[COOKIE] = ROMAJI
    body = client.get(reverse("tournament:hands_csv", args=[event.slug])).content.decode()
    assert [row["yaku"] for row in csv.DictReader(io.StringIO(body))] == ["Chankan · Chanta"]
