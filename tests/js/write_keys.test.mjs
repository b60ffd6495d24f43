// tests/cases/write_keys.json against write_keys.js (pytest checks the same keys against the server's form).
import assert from "node:assert/strict";
import { test } from "node:test";
import { cases, module } from "./cases.mjs";

const shared = cases("write_keys.json");
const { isWriteKey, newKey } = await module("write_keys.js");

for (const c of shared.taken) test(`taken: ${c.name}`, () => assert.ok(isWriteKey(c.key)));
for (const c of shared.refused) test(`refused: ${c.name}`, () => assert.ok(!isWriteKey(c.key)));

test("a key made with the device's UUIDs is taken, and each is new", () => {
  const keys = new Set(Array.from({ length: 50 }, () => newKey()));
  assert.equal(keys.size, 50);
  for (const key of keys) assert.ok(isWriteKey(key), key);
});

test("without crypto.randomUUID: the time and a random part", () => {
  const f = shared.fallback;
  assert.equal(newKey(null, () => f.now_ms, () => f.random), f.key);
  for (let i = 0; i < 50; i++) assert.ok(isWriteKey(newKey({})));
});
