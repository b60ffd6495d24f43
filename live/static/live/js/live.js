// A live page: one stream (the event's, or a table's), and on the kinds of message the page names it
// fetches itself again and swaps in the parts it names, or reloads. When the stream cannot be opened (the
// server says 503, an old browser, a proxy that buffers), the page polls instead, and tries the stream
// again a minute later: a page never does both.
//
//   <div id="live" hidden data-live="/events/x/live" data-live-on="hand table" data-live-parts="seating"
//        data-live-reload="seating" data-live-hear="clock" data-live-poll="20000"></div>
//
// (on: kinds that swap the parts; reload: kinds that reload the page; hear: kinds only passed on to the
// page's other scripts.)
//
// The page's state is on that element for the tests and the curious: data-live-state = connecting, live,
// reconnecting or polling; data-live-last = the id of the last message. Other scripts of the page hear
// "taikai:live" (each message, as {type, data}) and "taikai:refreshed" (after the parts were swapped).
(function () {
  "use strict";
  const root = document.getElementById("live");
  if (!root) return;
  const words = (name) => (root.dataset[name] || "").split(/\s+/).filter(Boolean);
  const kinds = words("liveOn"), reloads = words("liveReload"), hears = words("liveHear"), parts = words("liveParts");
  const pollMs = Number(root.dataset.livePoll || 20000);
  const RETRY_STREAM_MS = 60000;
  let etag = null, fetching = false, again = false, poller = null, source = null;

  const state = (value) => { root.dataset.liveState = value; };

  async function refresh() {
    if (!parts.length) return;
    if (fetching) { again = true; return; }
    fetching = true;
    try {
      const response = await fetch(location.href, { headers: etag ? { "If-None-Match": etag } : {}, cache: "no-store" });
      if (response.status === 200) {
        const fresh = new DOMParser().parseFromString(await response.text(), "text/html");
        for (const id of parts) {
          const now = fresh.getElementById(id), shown = document.getElementById(id);
          if (now && shown) shown.replaceWith(document.importNode(now, true));
        }
        etag = response.headers.get("ETag");
        document.dispatchEvent(new CustomEvent("taikai:refreshed"));
      }
    } catch (e) { /* offline: the next message or poll tries again */ }
    fetching = false;
    if (again) { again = false; refresh(); }
  }

  function poll() {
    state("polling");
    if (!poller) poller = setInterval(refresh, pollMs);
    setTimeout(connect, RETRY_STREAM_MS);
  }

  function heard(event) {
    root.dataset.liveLast = event.lastEventId || root.dataset.liveLast || "";
    let data = {};
    try { data = JSON.parse(event.data || "{}"); } catch (e) { /* a message without data */ }
    document.dispatchEvent(new CustomEvent("taikai:live", { detail: { type: event.type, data } }));
    if (reloads.includes(event.type)) location.reload();
    else if (kinds.includes(event.type)) refresh();
  }

  function connect() {
    if (!window.EventSource) { poll(); return; }
    if (source && source.readyState !== EventSource.CLOSED) return;
    state("connecting");
    source = new EventSource(root.dataset.live);
    source.addEventListener("open", () => {
      if (poller) { clearInterval(poller); poller = null; refresh(); }  // catch up on what the polls missed
      state("live");
    });
    source.addEventListener("error", () => {
      if (source.readyState === EventSource.CLOSED) poll();  // refused (503, 404): poll
      else state("reconnecting");  // the browser reconnects by itself, with Last-Event-ID
    });
    source.addEventListener("reset", () => location.reload());  // what was missed is no longer kept
    new Set([...kinds, ...reloads, ...hears]).forEach((kind) => source.addEventListener(kind, heard));
  }

  connect();
})();
