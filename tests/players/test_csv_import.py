import pytest
from django.core.management import CommandError, call_command

from players.csv_import import CsvImportError, players_import_csv
from players.models import Player

pytestmark = pytest.mark.django_db

GOOD = (
    "display_name,family_name,given_name,reading,club,country,external_id\n"
    "山田 太郎,山田,太郎,やまだ たろう,東京雀友会,jp,04000123\n"
    "Anna Kowalska,Kowalska,Anna,,Warsaw Riichi,PL,\n"
    "Jean Dupont,Dupont,Jean,,,fr,\n"
).encode()


def problems_of(data: bytes) -> list[str]:
    with pytest.raises(CsvImportError) as info:
        players_import_csv(data=data)
    return [str(p) for p in info.value.problems]


def test_import_creates_every_row_with_cleaned_values():
    # when
    created = players_import_csv(data=GOOD)
    # then
    assert len(created) == 3
    yamada = Player.objects.get(external_id="04000123")
    assert (yamada.display_name, yamada.reading, yamada.country) == ("山田 太郎", "やまだ たろう", "JP")
    assert Player.objects.filter(external_id__isnull=True).count() == 2


def test_missing_required_column_names_it_and_writes_nothing():
    problems = problems_of(b"family_name,given_name\nYamada,Taro\n")
    assert problems == ["line 1, column display_name: required column is missing"]
    assert Player.objects.count() == 0


def test_duplicate_external_id_in_file_names_both_lines_and_writes_nothing():
    data = b"display_name,external_id\nA,E1\nB,E2\nC,E1\n"
    assert problems_of(data) == ["line 4, column external_id: 'E1' also appears on line 2"]
    assert Player.objects.count() == 0


def test_external_id_already_in_database_is_refused():
    Player.objects.create(display_name="Existing", external_id="E9")
    problems = problems_of(b"display_name,external_id\nNew,E9\nOther,E10\n")
    assert problems == ["line 2, column external_id: 'E9' already belongs to Existing"]
    assert Player.objects.count() == 1


def test_wrong_encoding_is_reported_not_crashed():
    data = "display_name\n山田\n".encode("shift_jis")
    (problem,) = problems_of(data)
    assert problem.startswith("file: the file is not UTF-8 text")
    assert Player.objects.count() == 0


@pytest.mark.parametrize("data", [b"", b"   \n\n", b"\xef\xbb\xbf"])
def test_empty_file_is_reported(data):
    assert problems_of(data) == ["file: the file is empty; expected a header row and players"]


def test_header_only_is_reported():
    assert problems_of(b"display_name,club\n") == ["file: the file has a header but no players"]


def test_every_bad_row_is_reported_at_once_and_nothing_written():
    data = b"display_name,country\nGood,JP\n,JP\nBad Country,Nippon-koku\n"
    assert problems_of(data) == [
        "line 3, column display_name: must not be empty",
        "line 4, column country: 'Nippon-koku' is not a country: write its ISO code (JP or JPN) or its name",
    ]
    assert Player.objects.count() == 0


def test_unknown_column_is_reported():
    assert problems_of(b"display_name,rating\nA,1500\n") == [
        "line 1, column rating: unknown column; expected some of display_name, family_name, given_name, "
        "reading, club, country, external_id"
    ]


def test_row_with_too_many_values_is_reported():
    assert problems_of(b"display_name\nA,extra\n") == ["line 2: more values than columns"]


def test_byte_order_mark_and_blank_lines_are_accepted():
    created = players_import_csv(data="\ufeffdisplay_name\nA\n\nB\n".encode())
    assert [p.display_name for p in created] == ["A", "B"]


def test_command_imports_and_reports(tmp_path, capsys):
    path = tmp_path / "players.csv"
    path.write_bytes(GOOD)
    call_command("import_players", str(path))
    assert "Imported 3 players." in capsys.readouterr().out
    assert Player.objects.count() == 3


def test_command_reports_each_problem_with_a_code_and_fails(tmp_path, capsys):
    path = tmp_path / "players.csv"
    path.write_bytes(b"display_name,external_id\nA,X\nB,X\n")
    with pytest.raises(CommandError, match="csv_invalid: 1 problem"):
        call_command("import_players", str(path))
    assert "csv_invalid: line 3, column external_id" in capsys.readouterr().err
    assert Player.objects.count() == 0


def test_command_names_a_missing_file(tmp_path):
    with pytest.raises(CommandError, match="csv_file_not_found"):
        call_command("import_players", str(tmp_path / "nope.csv"))


# --- A bad value stops nothing: every problem of the file is listed, nothing is written ---------------

AWKWARD = (
    b"display_name,club,country,external_id\n"
    b"Good One,Club,JP,E1\n"
    b"Nul\x00Name,Club,JP,E2\n"
    b"Long," + b"y" * 200_000 + b",JP,E3\n"
    b"Tab\tName,Club,PL,E4\n"
    b"After,Club,FR,E5\n"
)
AWKWARD_PROBLEMS = [
    "line 3, column display_name: holds a control character (U+0000); remove it",
    "line 4, column club: longer than 120 characters (200,000)",
    "line 5, column display_name: holds a control character (U+0009); remove it",
]


def test_a_nul_byte_and_a_200000_character_value_are_problems_of_their_line_and_column():
    assert problems_of(AWKWARD) == AWKWARD_PROBLEMS
    assert Player.objects.count() == 0


def test_the_command_lists_them_with_a_code_and_writes_nothing(tmp_path, capsys):
    path = tmp_path / "players.csv"
    path.write_bytes(AWKWARD)
    with pytest.raises(CommandError, match="csv_invalid: 3 problem"):
        call_command("import_players", str(path))
    assert capsys.readouterr().err.splitlines() == [f"csv_invalid: {p}" for p in AWKWARD_PROBLEMS]
    assert Player.objects.count() == 0


def test_a_value_too_long_beyond_the_last_column_still_names_the_line():
    data = b"display_name,country\nA,JP\nB,JP," + b"x" * 200_000 + b"\nC,FR\n"
    assert problems_of(data) == ["line 3: a value of 200,000 characters is too long to read"]


def test_thousands_of_rows_are_checked_and_written_in_a_few_queries(django_assert_max_num_queries):
    rows = "".join(f"Player {i},Club {i % 7},JP,ID{i:05d}\n" for i in range(3000))
    data = ("display_name,club,country,external_id\n" + rows).encode()
    with django_assert_max_num_queries(50):  # not one (or three) per row: batches (~90 rows on SQLite)
        created = players_import_csv(data=data)
    assert len(created) == 3000 and Player.objects.filter(external_id="ID02999").exists()


def test_ids_taken_in_a_large_file_are_each_named(django_assert_max_num_queries):
    Player.objects.bulk_create(Player(display_name=f"Old {i}", external_id=f"ID{i:05d}") for i in (7, 1500))
    rows = "".join(f"Player {i},ID{i:05d}\n" for i in range(3000))
    with django_assert_max_num_queries(10):
        problems = problems_of(("display_name,external_id\n" + rows).encode())
    assert problems == [
        "line 9, column external_id: 'ID00007' already belongs to Old 7",
        "line 1502, column external_id: 'ID01500' already belongs to Old 1500",
    ]


@pytest.mark.parametrize(
    ("written", "stored"),
    [
        ("JP", "JP"),
        ("jp", "JP"),
        ("JPN", "JP"),
        ("Japan", "JP"),
        ("日本", "JP"),
        ("NLD", "NL"),
        ("Netherlands", "NL"),
        ("オランダ", "NL"),
        ("DEU", "DE"),
        ("United Kingdom", "GB"),
        ("UK", "GB"),
        ("", ""),
    ],
)
def test_a_country_is_read_as_iso_alpha_2_alpha_3_or_its_name_and_stored_as_alpha_2(written, stored):
    """Federations and the EMA write alpha-3 (JPN); organizers write names: all are stored as alpha-2."""
    [player] = players_import_csv(data=f"display_name,country\nA,{written}\n".encode())
    assert player.country == stored


def test_a_word_that_names_no_country_is_refused_with_the_line():
    assert problems_of(b"display_name,country\nA,Japon\n") == [
        "line 2, column country: 'Japon' is not a country: write its ISO code (JP or JPN) or its name"
    ]
