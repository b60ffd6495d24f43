"""The device's settle.js runs the settlement cases pytest runs against settle.py (tests/cases/settle_hand.json),
in Chromium, on a blank page of the site."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.templatetags.static import static

pytestmark = [pytest.mark.e2e, pytest.mark.once]  # the browser's arithmetic: the same on either database

CASES = json.loads((Path(__file__).parents[1] / "cases" / "settle_hand.json").read_text(encoding="utf-8"))

RUN = """async ([url, shared]) => {
  const { settleHand } = await import(url);
  return shared.cases.map((c) => {
    const got = settleHand(c.outcome, { ...shared.options, ...(c.options || {}) });
    return { name: c.name, deltas: got.deltas, deposits_out: got.deposits_out, winners: got.winners,
             deposits_to: got.deposits_to };
  });
}"""


def test_settle_js_gives_each_shared_case(page):
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto("/healthz")
    results = page.evaluate(RUN, [static("tournament/js/settle.js"), CASES])
    expected = [
        {key: c[key] for key in ("name", "deltas", "deposits_out", "winners", "deposits_to")} for c in CASES["cases"]
    ]
    assert results == expected
    assert errors == []
