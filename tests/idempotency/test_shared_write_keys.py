"""The write keys of tests/cases/write_keys.json against the server's form of a key (the device's
write_keys.js is checked against the same cases by ``node --test tests/js/``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from idempotency.middleware import key_is_well_formed

CASES = json.loads((Path(__file__).parents[1] / "cases" / "write_keys.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("case", CASES["taken"], ids=[c["name"] for c in CASES["taken"]])
def test_the_server_takes_each_key_the_device_may_make(case):
    assert key_is_well_formed(case["key"])


def _refused(case: dict):
    # A key the device refuses and the server still takes is marked in the file; when the server is mended
    # the case passes and the mark must go (strict).
    if "server_differs" in case:
        return pytest.param(case, marks=pytest.mark.xfail(strict=True, reason=case["server_differs"]), id=case["name"])
    return pytest.param(case, id=case["name"])


@pytest.mark.parametrize("case", [_refused(c) for c in CASES["refused"]])
def test_the_server_refuses_each_malformed_key(case):
    assert not key_is_well_formed(case["key"])


def test_the_fallback_key_is_taken():
    assert key_is_well_formed(CASES["fallback"]["key"])
