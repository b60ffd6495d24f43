"""The device's rule modules in Chromium, on a blank page of the site: settle.js gives the settlement cases
pytest runs against settle.py (tests/cases/settle_hand.json), and every module of the console loads as the
browser loads it (the rule cases themselves run under node: tests/js/)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.templatetags.static import static

pytestmark = [pytest.mark.e2e, pytest.mark.once]  # the browser's arithmetic: the same on either database

CASES = json.loads((Path(__file__).parents[1] / "cases" / "settle_hand.json").read_text(encoding="utf-8"))
DEALER = json.loads((Path(__file__).parents[1] / "cases" / "next_dealer.json").read_text(encoding="utf-8"))

RUN = """async ([url, shared]) => {
  const { settleHand } = await import(url);
  return shared.cases.map((c) => {
    const got = settleHand(c.outcome, { ...shared.options, ...(c.options || {}) });
    return { name: c.name, deltas: got.deltas, deposits_out: got.deposits_out, winners: got.winners,
             deposits_to: got.deposits_to };
  });
}"""

LOAD = """async ([urls, dealerCases]) => {
  const [store, keys, dealer, clock] = await Promise.all(urls.map((url) => import(url)));
  const db = await store.open(indexedDB);
  const schema = { name: db.name, version: db.version, stores: [...db.objectStoreNames] };
  db.close();
  const deals = dealerCases.filter((c) => !c.error).map((c) => dealer.nextDealerPosition(c.given));
  const started = clock.startHand({ bank_ms: 1000, increment_ms: 100 }, 0, 0);
  return { schema, key: keys.isWriteKey(keys.newKey()), deals, banks: started.banks_ms };
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


def test_the_rule_modules_load_in_the_browser_and_open_the_one_outbox_schema(page):
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto("/healthz")
    modules = ["store.js", "write_keys.js", "dealer.js", "clock_rules.js"]
    got = page.evaluate(LOAD, [[static(f"tournament/js/{name}") for name in modules], DEALER["next_dealer"]])
    assert got["schema"] == {"name": "taikai-outbox", "version": 1, "stores": ["writes"]}
    assert got["key"] is True
    assert got["deals"] == [c["next"] for c in DEALER["next_dealer"] if "error" not in c]
    assert got["banks"] == [1000, 1000, 1000, 1000]
    assert errors == []
