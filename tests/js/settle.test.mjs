// tests/cases/settle_hand.json against settle.js (pytest runs them against scoring/engine/settle.py).
import assert from "node:assert/strict";
import { test } from "node:test";
import { cases, module } from "./cases.mjs";

const shared = cases("settle_hand.json");
const { settleHand } = await module("settle.js");

for (const c of shared.cases) {
  test(c.name, () => {
    const got = settleHand(c.outcome, { ...shared.options, ...(c.options || {}) });
    assert.deepEqual(
      { deltas: got.deltas, deposits_out: got.deposits_out, winners: got.winners, deposits_to: got.deposits_to },
      { deltas: c.deltas, deposits_out: c.deposits_out, winners: c.winners, deposits_to: c.deposits_to });
  });
}
