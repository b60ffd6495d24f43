"""A name's language told by its script (``players.reading.name_language``)."""

import pytest

from players.reading import name_language


@pytest.mark.parametrize(
    ("name", "language"),
    [
        ("山田 太郎", "ja"),
        ("やまだ たろう", "ja"),
        ("ヤマダ", "ja"),
        ("ｶﾀｶﾅ", "ja"),
        ("佐々木", "ja"),
        ("Yamada 太郎", "ja"),  # mixed: the Japanese part is read in Japanese
        ("김민준", "ko"),
        ("Suzuki Ichiro", None),
        ("Zoë Müller-Łukasz", None),
        ("", None),
    ],
)
def test_a_name_is_read_in_the_language_its_script_says(name, language):
    assert name_language(name) == language
