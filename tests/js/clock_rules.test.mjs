// tests/cases/clock_rules.json against clock_rules.js (pytest runs them against tournament/engine/clock.py).
import assert from "node:assert/strict";
import { test } from "node:test";
import { cases, module } from "./cases.mjs";

const shared = cases("clock_rules.json");
const rules = await module("clock_rules.js");

function step(state, s, settings) {
  const at = s.at;
  switch (s.do) {
    case "start": return { state: rules.startHand({ ...settings, ...(s.settings || {}) }, s.opener, at), events: [] };
    case "press": return rules.press(state, { seat: s.seat, turn_number: s.turn, now_ms: at, ...("claim_by" in s ? { claim_by: s.claim_by } : {}) });
    case "observe": return rules.observe(state, at);
    case "pause": return rules.pause(state, at);
    case "resume": return { state: rules.resume(state, at), events: [] };
    case "end": return rules.endHand(state, at);
    default: throw new Error(`unknown step ${s.do}`);
  }
}

for (const c of shared.cases) {
  test(c.name, () => {
    const settings = { ...shared.settings, ...(c.settings || {}) };
    let state = null;
    c.steps.forEach((s, n) => {
      const where = `step ${n} (${s.do})`;
      if (s.do === "remaining") { assert.equal(rules.remainingMs(state, s.seat, s.at), s.ms, where); return; }
      if (s.error) {
        const before = structuredClone(state);
        assert.throws(() => step(state, s, settings), (error) => error.code === s.error, where);
        assert.deepEqual(state, before, `${where}: a refusal changes nothing`);
        return;
      }
      const { state: next, events } = step(state, s, settings);
      for (const [key, value] of Object.entries(s.expect || {})) {
        const got = key === "events" ? events.map((e) => [e.seat, e.turn_number, e.at_ms]) : next[key];
        assert.deepEqual(got, value, `${where}: ${key}`);
      }
      state = next;
    });
  });
}
