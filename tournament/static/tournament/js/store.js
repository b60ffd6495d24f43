// The outbox on the device: the one IndexedDB schema of the console, opened by the pages (outbox.js) and by
// the service worker (/console/sw.js), which both import this module. A new version of the schema is a new
// VERSION here with its step in upgrade(): every page and the worker then open the same database the same way.
//
// "taikai-outbox" holds one object store, "writes": a write the device keeps until the server has it, keyed
// by an id the database gives (so in the order the writes were made). A write: { id, url, body (a form's
// fields, url-encoded) or json (a JSON write: the clock's offline log), key (the JSON write's key), label,
// table, author, savedAt, refused, held }.

export const DB = "taikai-outbox";
export const VERSION = 1;
export const WRITES = "writes";

// The schema, step by step from the version the device has (`from`, 0 for a new database) to VERSION.
export function upgrade(db, from = 0) {
  if (from < 1) db.createObjectStore(WRITES, { keyPath: "id", autoIncrement: true });
}

// The database, opened (and made or upgraded) with this schema; `factory` is the page's or the worker's
// indexedDB.
export function open(factory = globalThis.indexedDB) {
  return new Promise((resolve, reject) => {
    const request = factory.open(DB, VERSION);
    request.onupgradeneeded = (event) => upgrade(request.result, event.oldVersion);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

// One transaction on the writes: work(store) makes a request, whose result is given once the transaction is
// done (the database closed after it).
export async function stored(mode, work, factory = globalThis.indexedDB) {
  const db = await open(factory);
  return new Promise((resolve, reject) => {
    const tx = db.transaction(WRITES, mode);
    const request = work(tx.objectStore(WRITES));
    tx.oncomplete = () => { db.close(); resolve(request && request.result); };
    tx.onerror = () => { db.close(); reject(tx.error); };
  });
}
