"""The slowest files printed at the end of a test run."""

import pytest

from tests.fixtures.timing import slowest_files

pytestmark = pytest.mark.once


def test_the_slowest_files_come_longest_first_and_ties_by_path():
    seconds = {"tests/b.py": 2.0, "tests/a.py": 2.0, "tests/c.py": 9.5, "tests/d.py": 0.1}
    assert slowest_files(seconds, count=3) == [("tests/c.py", 9.5), ("tests/a.py", 2.0), ("tests/b.py", 2.0)]


def test_fewer_files_than_asked_are_all_listed():
    assert slowest_files({"tests/a.py": 1.0}) == [("tests/a.py", 1.0)]
