{% load static %}// The console's service worker (scope /console/): the referee's pages keep working when the hall's network
// drops. Rendered by tournament.console.service_worker.
//
// * Pages of the console (a navigation): from the network, and a copy kept on the device; with no answer
//   within a few seconds, the copy (the page as it was last fetched). A page never fetched: a short page
//   that says so.
// * The console's scripts, the tiles and the words of the scripts (the JS catalog): from the device's copy,
//   refreshed in the background.
// * A write (a form of the console sent as a page): to the network when nothing is waiting; when the network
//   fails, or earlier writes still wait, it is kept in the outbox (IndexedDB, shared with outbox.js, which
//   sends it in order when the network is back) and the browser is sent to the table's sheet.
// * Everything else (the clock's API, live streams, other sites' pages) is left to the browser.
//
// A module worker (registered by outbox.js with type "module"): the outbox's schema is store.js's, the one the
// pages open; the browser keeps the worker's imports with it, so they work offline too.
import { stored } from "{% static 'tournament/js/store.js' %}";

const VERSION = "{{ version }}";
const PAGES = "taikai-console-pages";
const FILES = "taikai-console-files-" + VERSION;
const PRECACHE = {{ precache|safe }};
const PAGE_WAIT_MS = 4000;
const SAME_URL = { ignoreVary: true };  // a copy is of this device's one signed-in person and language
const NOT_SAVED_PAGE = `<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Taikai</title></head>
<body style="font: 16px/1.5 system-ui, sans-serif; padding: 1rem"><h1>{{ words.offline }}</h1>
<p>{{ words.not_saved }}</p>
<p><a href="{{ my_tables }}">{{ words.my_tables }}</a></p></body></html>`;

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(FILES).then((cache) => cache.addAll(PRECACHE)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith("taikai-console-files-") && name !== FILES) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

self.addEventListener("message", (event) => {
  const message = event.data || {};
  if (message.type === "keep") event.waitUntil(keeping = keeping.then(() => keepPages(message.urls || [])));
  if (message.type === "forget") event.waitUntil(caches.delete(PAGES));
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate" && request.method === "POST" && url.pathname.startsWith("/console/")) {
    event.respondWith(sendOrKeep(request));
  } else if (request.method !== "GET") {
    return;
  } else if (request.mode === "navigate" && url.pathname.startsWith("/console/")) {
    event.respondWith(page(request));
  } else if (url.pathname === "{{ catalog }}") {
    event.respondWith(networkFirst(request, FILES));
  } else if (url.pathname.startsWith("{{ static_url }}")) {
    event.respondWith(fromDevice(request));
  }
});

// --- pages ---------------------------------------------------------------------------------------

async function page(request) {
  const cache = await caches.open(PAGES);
  const network = fetch(request).then(async (response) => {
    if (response.ok && response.type === "basic" && !response.redirected) await keepCopy(cache, request.url, response.clone());
    return response;
  });
  const kept = await keptPage(cache, request.url);
  if (!kept) {
    try { return await network; } catch (error) { return notSaved(); }
  }
  const late = new Promise((resolve) => setTimeout(() => resolve(kept), PAGE_WAIT_MS));
  return Promise.race([network.catch(() => kept), late]);
}

async function keptPage(cache, href) {
  const url = new URL(href);
  const exact = await cache.match(url.href, SAME_URL);
  if (exact || !url.search) return exact;
  url.search = "";  // ?hand=3, ?seat=2: the page without the choice is still the page
  return cache.match(url.href, SAME_URL);
}

// A page is kept only once it has arrived whole: a network that drops halfway leaves the copy before it.
async function keepCopy(cache, href, response) {
  try {
    const body = await response.blob();
    const headers = new Headers(response.headers);
    headers.set(KEPT_AT, String(Date.now()));
    await cache.put(href, new Response(body, { status: response.status, statusText: response.statusText, headers }));
  } catch (error) { /* the copy kept before stays */ }
}

function notSaved() {
  return new Response(NOT_SAVED_PAGE, { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } });
}

// Pages fetched for the referee ahead of need (the tables of My tables, a sheet's clock and penalty pages):
// one run at a time, and a page kept in the last minute is not fetched again.
let keeping = Promise.resolve();
const KEPT_AT = "X-Taikai-Kept-At", FRESH_MS = 60000;
async function keepPages(urls) {
  const cache = await caches.open(PAGES);
  for (const href of urls) {
    const url = new URL(href, self.location.origin);
    if (url.origin !== self.location.origin || !url.pathname.startsWith("/console/")) continue;
    const kept = await cache.match(url.href, SAME_URL);
    if (kept && Date.now() - Number(kept.headers.get(KEPT_AT) || 0) < FRESH_MS) continue;
    try {
      const response = await fetch(url.href, { credentials: "same-origin", headers: { Accept: "text/html" } });
      if (response.ok && !response.redirected) await keepCopy(cache, url.href, response);
    } catch (error) { return; }  // the network is gone: the pages already kept stay
  }
}

// --- files ---------------------------------------------------------------------------------------

async function fromDevice(request) {
  const cache = await caches.open(FILES);
  const kept = await cache.match(request, SAME_URL);
  const network = fetch(request).then(async (response) => {
    if (response.ok) await cache.put(request, response.clone());
    return response;
  });
  if (kept) { network.catch(() => null); return kept; }
  return network;
}

async function networkFirst(request, name) {
  const cache = await caches.open(name);
  try {
    const response = await fetch(request);
    if (response.ok) await cache.put(request, response.clone());
    return response;
  } catch (error) {
    return (await cache.match(request, SAME_URL)) || Response.error();
  }
}

// --- writes --------------------------------------------------------------------------------------

async function sendOrKeep(request) {
  const body = await request.clone().text();
  const waiting = await stored("readonly", (store) => store.count());
  if (!waiting) {
    try { return await fetch(request); } catch (error) { /* the network failed: keep it */ }
  }
  const url = new URL(request.url);
  await stored("readwrite", (store) => store.add({ url: url.pathname, body, savedAt: Date.now(), refused: null }));
  for (const client of await self.clients.matchAll()) client.postMessage({ type: "kept" });
  return Response.redirect(sheetOf(url.pathname), 303);
}

function sheetOf(path) {
  const table = path.match(/^\/console\/tables\/(\d+)\//);
  return table ? `/console/tables/${table[1]}/` : "{{ my_tables }}";
}
