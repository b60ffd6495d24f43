// The key of a write (idempotency/): each write the console makes carries one, so a write sent twice (a
// network that failed after the server had it, a queued write sent again) is recorded once. A key is made
// per write: a form gets a fresh one each time its page is drawn (a page kept on the device too), a refused
// write sent again with the referee's decision gets a new one, a clock press one per press.
// The server takes 1 to 100 printable ASCII characters, no spaces (idempotency/middleware.py KEY_FORM); the
// cases are tests/cases/write_keys.json, run by pytest against the server's form and by node against this module.

export const KEY_FORM = /^[\x21-\x7e]{1,100}$/;

export const isWriteKey = (key) => typeof key === "string" && KEY_FORM.test(key);

// A new key: a random UUID where the device has one (a secure page), else the time and a random part.
export function newKey(source = globalThis.crypto, now = Date.now, random = Math.random) {
  if (source && typeof source.randomUUID === "function") return source.randomUUID();
  return now().toString(36) + "-" + random().toString(36).slice(2);
}
