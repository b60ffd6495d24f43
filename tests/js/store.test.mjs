// The one IndexedDB schema (store.js): what the pages and the service worker open. Node has no IndexedDB: the
// upgrade is checked on a stand-in that records what it is asked to make, and the service worker's template is
// checked to take the schema from this module rather than write its own.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { module } from "./cases.mjs";

const store = await module("store.js");

function standIn() {
  const made = [];
  return { made, createObjectStore: (name, options) => { made.push({ name, options }); return { createIndex() {} }; } };
}

test("a new database gets the writes store, keyed by an id in the order of the writes", () => {
  const db = standIn();
  store.upgrade(db, 0);
  assert.deepEqual(db.made, [{ name: store.WRITES, options: { keyPath: "id", autoIncrement: true } }]);
  assert.equal(store.DB, "taikai-outbox");
  assert.equal(store.VERSION, 1);
});

test("a database at the current version is left as it is", () => {
  const db = standIn();
  store.upgrade(db, store.VERSION);
  assert.deepEqual(db.made, []);
});

test("open asks for the schema's name and version and upgrades from the device's version", async () => {
  const db = standIn();
  const asked = [];
  const factory = { open(name, version) {
    asked.push([name, version]);
    const request = { result: db };
    setTimeout(() => { request.onupgradeneeded({ oldVersion: 0 }); request.onsuccess(); }, 0);
    return request;
  } };
  assert.equal(await store.open(factory), db);
  assert.deepEqual(asked, [[store.DB, store.VERSION]]);
  assert.equal(db.made.length, 1);
});

const source = (path) => readFileSync(new URL(`../../${path}`, import.meta.url), "utf-8");

test("the service worker and the pages' outbox import the schema and write none of their own", () => {
  for (const path of ["templates/tournament/console/sw.js", "tournament/static/tournament/js/outbox.js"]) {
    const text = source(path);
    assert.match(text, /^import .* from "[^"]*store\.js[^"]*";$/m, path);
    assert.doesNotMatch(text, /indexedDB\.open|createObjectStore|deleteObjectStore|createIndex/, path);
  }
});
