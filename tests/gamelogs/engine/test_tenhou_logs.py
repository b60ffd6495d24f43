"""Reading Tenhou's XML game logs: every hand, every win re-priced by Taikai's engine, every guard."""

from __future__ import annotations

import gzip
import json
import re
from decimal import Decimal
from fractions import Fraction
from urllib.parse import unquote

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gamelogs.engine import Draw, GameLogError, read_tenhou_json, read_tenhou_xml, win_request
from gamelogs.engine.tenhou_tiles import decode_call, tile_name
from gamelogs.engine.wins import engine_base_points
from scoring.engine import evaluate

from .conftest import LOG_NAMES, TENHOU_RULES, log_bytes
from .tenhou6 import tenhou6_from_xml

pytestmark = pytest.mark.once  # pure Python: no database, cache or worker can change these


def wins_of(game):
    for hand in game.hands:
        if isinstance(hand.outcome, tuple):
            for win in hand.outcome:
                yield hand, win


def test_the_shared_logs_are_all_here():
    assert len(LOG_NAMES) == 6


def read_in(form: str, name: str):
    """A shared log read from its XML, or from its tenhou.net/6 JSON form written from that XML."""
    if form == "xml":
        return read_tenhou_xml(log_bytes(name))
    return read_tenhou_json(json.dumps(tenhou6_from_xml(log_bytes(name).decode()), ensure_ascii=False))


@pytest.mark.parametrize("form", ["xml", "json"])
def test_every_win_of_a_real_log_is_priced_by_the_engine_as_the_log_prices_it(log_name, form):
    game = read_in(form, log_name)
    checked = 0
    for hand, win in wins_of(game):
        request = win_request(game, hand, win)
        answer = evaluate(request, TENHOU_RULES)
        assert "result" in answer, (log_name, hand.index, answer)
        result = answer["result"]
        dealer = request["hand"]["dealer"]
        assert engine_base_points(result, tsumo=win.tsumo, dealer=dealer, honba=hand.honba) == win.points
        assert result["han"] == win.han
        if result["limit"] is None:
            assert result["fu"] == win.fu
        checked += 1
    assert checked >= 1


@pytest.mark.parametrize("form", ["xml", "json"])
def test_each_hand_starts_where_the_last_one_ended_and_the_game_ends_on_the_logs_final_scores(log_name, form):
    game = read_in(form, log_name)
    for before, after in zip(game.hands, game.hands[1:], strict=False):
        assert before.end_scores == after.start_scores
    assert game.hands[-1].end_scores == game.final_scores


@pytest.mark.parametrize("form", ["xml", "json"])
def test_every_hand_settles_to_zero_with_the_riichi_deposits(log_name, form):
    """A win takes the sticks on the table (供託, and this hand's riichi); a draw leaves them there."""
    game = read_in(form, log_name)
    for hand in game.hands:
        if isinstance(hand.outcome, Draw):
            assert sum(hand.outcome.deltas) == 0
        else:
            taken = 1000 * (hand.deposits + len(hand.riichi))
            assert sum(sum(win.deltas) for win in hand.outcome) == taken


def test_the_final_scores_and_points_are_the_owari_of_the_log(log_name):
    text = log_bytes(log_name).decode()
    owari = re.search(r'owari="([^"]+)"', text).group(1).split(",")
    game = read_tenhou_xml(text)
    players = len(game.players)
    assert game.final_scores == tuple(100 * int(owari[2 * seat]) for seat in range(players))
    assert game.final_points == tuple(Fraction(Decimal(owari[2 * seat + 1])) for seat in range(players))
    assert all(isinstance(points, Fraction) for points in game.final_points)


def test_the_names_are_the_first_un_element_decoded(log_name):
    text = log_bytes(log_name).decode()
    first = re.search(r"<UN ([^>]*)/>", text).group(1)
    names = dict(re.findall(r'n(\d)="([^"]*)"', first))
    game = read_tenhou_xml(text)
    assert game.players == tuple(unquote(names[str(seat)]) for seat in range(len(game.players)))


def test_a_hanchan_and_an_east_only_game_are_told_apart_by_the_go_type():
    assert read_tenhou_xml(log_bytes("example.xml")).rules.hanchan is True
    assert read_tenhou_xml(log_bytes("shuffle.xml")).rules.hanchan is False


def test_the_tournament_lobby_and_its_start_points_are_read():
    game = read_tenhou_xml(log_bytes("newattr2023.xml"))
    assert game.rules.lobby == "1"
    assert game.rules.start_points == 30000


def test_a_yakuman_paid_by_the_responsible_player_names_him():
    """責任払い (pao): the daisangen of pao.xml is paid by the player who fed the third dragon."""
    game = read_tenhou_xml(log_bytes("pao.xml"))
    pao = [win for _, win in wins_of(game) if win.responsible is not None]
    assert len(pao) == 1
    win = pao[0]
    assert win.tsumo and win.limit == "yakuman"
    payers = [seat for seat, delta in enumerate(win.deltas) if delta < 0]
    assert payers == [win.responsible]


def test_a_player_who_disconnected_is_kept_in_the_game():
    game = read_tenhou_xml(log_bytes("bye.xml"))
    assert game.left == (1,)
    assert len(game.players) == 4


def test_a_gzip_log_reads_as_the_plain_one():
    assert read_tenhou_xml(gzip.compress(log_bytes("example.xml"))) == read_tenhou_xml(log_bytes("example.xml"))


def test_a_file_that_is_not_xml_is_refused_with_its_line():
    with pytest.raises(GameLogError) as error:
        read_tenhou_xml(b'<mjloggm ver="2.3">\n<GO type="169"/>\n<UN n0="a"\n')
    assert error.value.code == "not_a_game_log"
    assert error.value.where.startswith("line ")


def test_xml_of_another_kind_is_refused():
    with pytest.raises(GameLogError) as error:
        read_tenhou_xml(b"<html><body>404</body></html>")
    assert error.value.code == "not_a_game_log"
    assert error.value.where == "html"


def test_a_log_declaring_entities_is_refused_before_parsing():
    bomb = b'<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaa">]><mjloggm>&a;</mjloggm>'
    with pytest.raises(GameLogError) as error:
        read_tenhou_xml(bomb)
    assert error.value.code == "not_a_game_log"


def test_a_gzip_that_unpacks_past_the_limit_is_refused():
    with pytest.raises(GameLogError) as error:
        read_tenhou_xml(gzip.compress(b"<mjloggm>" + b" " * 3_000_000 + b"</mjloggm>"))
    assert error.value.code == "not_a_game_log"


def test_a_log_cut_during_a_hand_is_a_game_not_finished():
    text = log_bytes("example.xml").decode()
    cut = text[: text.rindex("<INIT")] + text[text.rindex("<INIT") :].split("<AGARI")[0] + "</mjloggm>"
    with pytest.raises(GameLogError) as error:
        read_tenhou_xml(cut)
    assert error.value.code == "game_not_finished"


def test_a_log_cut_between_hands_is_a_game_not_finished():
    text = log_bytes("example.xml").decode()
    cut = text[: text.rindex("<INIT")] + "</mjloggm>"
    with pytest.raises(GameLogError) as error:
        read_tenhou_xml(cut)
    assert error.value.code == "game_not_finished"


def test_a_bad_number_is_refused_naming_its_element_and_attribute():
    text = log_bytes("example.xml").decode().replace('ten="20,8000,1"', 'ten="20,eight,1"', 1)
    with pytest.raises(GameLogError) as error:
        read_tenhou_xml(text)
    assert error.value.code == "not_a_game_log"
    assert error.value.where == "AGARI 1: ten"


# --- calls: Tenhou packs a call into bits; packing one back and reading it gives its tiles


def pack_chi(first_kind: int, called: int, copies: tuple[int, int, int], offset: int = 3) -> int:
    base = ((first_kind // 9) * 7 + first_kind % 9) * 3 + called
    return base << 10 | copies[2] << 7 | copies[1] << 5 | copies[0] << 3 | 0x4 | offset


def pack_pon(kind: int, called: int, unused: int, offset: int, added: bool = False) -> int:
    return (kind * 3 + called) << 9 | unused << 5 | (0x10 if added else 0x8) | offset


def pack_kan(tile_id: int, offset: int) -> int:
    return tile_id << 8 | offset


@given(
    suit=st.integers(0, 2),
    start=st.integers(0, 6),
    called=st.integers(0, 2),
    copies=st.tuples(st.integers(0, 3), st.integers(0, 3), st.integers(0, 3)),
)
def test_a_chi_reads_back_as_its_three_tiles_in_a_row(suit, start, called, copies):
    kind = 9 * suit + start
    meld = decode_call(pack_chi(kind, called, copies), caller=1)
    assert meld.kind == "chi"
    assert meld.tiles == tuple(4 * (kind + step) + copies[step] for step in range(3))
    assert meld.taken_from == 0  # offset 3: the previous seat (上家)


@given(kind=st.integers(0, 33), called=st.integers(0, 2), unused=st.integers(0, 3), offset=st.integers(1, 3))
def test_a_pon_and_an_added_kan_read_back(kind, called, unused, offset):
    pon = decode_call(pack_pon(kind, called, unused, offset), caller=2)
    assert pon.kind == "pon"
    assert sorted(pon.tiles) == [4 * kind + copy for copy in range(4) if copy != unused]
    assert pon.taken_from == (2 + offset) % 4
    added = decode_call(pack_pon(kind, called, unused, offset, added=True), caller=2)
    assert added.kind == "kan_added" and len(added.tiles) == 4


@given(tile_id=st.integers(0, 135), offset=st.integers(0, 3))
def test_a_kan_from_the_hand_is_closed_and_one_from_a_discard_is_open(tile_id, offset):
    meld = decode_call(pack_kan(tile_id, offset), caller=0)
    assert meld.kind == ("kan_closed" if offset == 0 else "kan_open")
    assert {tile // 4 for tile in meld.tiles} == {tile_id // 4}


def test_red_fives_are_named_zero_only_when_the_game_has_them():
    assert [tile_name(tile, aka_dora=True) for tile in (16, 17, 52, 88)] == ["0m", "5m", "0p", "0s"]
    assert tile_name(16, aka_dora=False) == "5m"
    assert tile_name(135, aka_dora=True) == "7z"


# --- the tenhou.net/6 JSON form


def melds_by_tile(win) -> list:
    return sorted((meld.kind, sorted(tile // 4 for tile in meld.tiles)) for meld in win.melds)


def test_both_forms_of_a_game_read_as_the_same_hands(log_name):
    """Tile copies may differ (the JSON names a tile, not its copy): compared by tile."""
    from_xml, from_json = read_in("xml", log_name), read_in("json", log_name)
    assert (from_json.players, from_json.final_scores, from_json.final_points) == (
        from_xml.players,
        from_xml.final_scores,
        from_xml.final_points,
    )
    assert from_json.rules.hanchan == from_xml.rules.hanchan
    assert from_json.rules.aka_dora == from_xml.rules.aka_dora
    for json_hand, xml_hand in zip(from_json.hands, from_xml.hands, strict=True):
        assert (json_hand.index, json_hand.honba, json_hand.deposits, json_hand.dealer) == (
            xml_hand.index,
            xml_hand.honba,
            xml_hand.deposits,
            xml_hand.dealer,
        )
        assert (json_hand.start_scores, json_hand.riichi) == (xml_hand.start_scores, xml_hand.riichi)
        if isinstance(xml_hand.outcome, Draw):
            assert json_hand.outcome.deltas == xml_hand.outcome.deltas
            continue
        for json_win, xml_win in zip(json_hand.outcome, xml_hand.outcome, strict=True):
            assert sorted(tile // 4 for tile in json_win.concealed) == sorted(tile // 4 for tile in xml_win.concealed)
            assert json_win.win_tile // 4 == xml_win.win_tile // 4
            assert melds_by_tile(json_win) == melds_by_tile(xml_win)  # the log lists calls in its own order
            assert (json_win.winner, json_win.payer, json_win.points, json_win.deltas, json_win.limit) == (
                xml_win.winner,
                xml_win.payer,
                xml_win.points,
                xml_win.deltas,
                xml_win.limit,
            )
            assert sorted(json_win.yaku) == sorted((key, han) for key, han in xml_win.yaku if han)


def test_json_that_is_not_a_game_is_refused_with_its_path():
    with pytest.raises(GameLogError) as error:
        read_tenhou_json(b'{"title": ["a"], "name": ["a", "b", "c", "d"]}')
    assert (error.value.code, error.value.where) == ("not_a_game_log", "$.log")


def test_a_seat_whose_play_does_not_add_up_is_refused_naming_the_hand_and_seat():
    document = tenhou6_from_xml(log_bytes("example.xml").decode())
    document["log"][2][5] = [11] * len(document["log"][2][5])  # seat 0 draws tiles it then never discards
    with pytest.raises(GameLogError) as error:
        read_tenhou_json(document)
    assert (error.value.code, error.value.where) == ("not_a_game_log", "$.log[2][5]")


def test_a_json_log_without_its_final_scores_is_a_game_not_finished():
    document = tenhou6_from_xml(log_bytes("example.xml").decode())
    del document["sc"]
    with pytest.raises(GameLogError) as error:
        read_tenhou_json(document)
    assert error.value.code == "game_not_finished"
