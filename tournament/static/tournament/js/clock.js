// The chess clock of art. 38 (templates/tournament/console/clock.html). Server-authoritative: every tap
// is a request; between answers the page ticks the seat on turn down from the server's numbers. It reads
// the clock again when the table's live stream says it changed (another device of the table), when the seat
// on turn reaches zero, after a reload and when the connection returns; every 2 s while the stream is not
// open (live/static/live/js/live.js).
//
// With no network the page runs the clock itself (the same rules as tournament/engine/clock.py): presses,
// flags and increments are decided here, each kept with this device's time in a log in the outbox
// (outbox.js). When the network is back the log is sent to the server (…/clock/replay), which replays it
// into the clock's record; until then the page keeps its own clock, and then takes the server's again.
//
// An ES module: the rules are clock_rules.js's (the same cases as clock.py), the keys write_keys.js's.
import * as rules from "./clock_rules.js";
import { newKey } from "./write_keys.js";

(function () {
  // The words of the JS catalog (/jsi18n/, loaded by the page before this script); without it (a device offline
  // that never kept it), the English words: the page works either way.
  const gettext = (text) => (window.gettext ? window.gettext(text) : text);
  const ngettext = (one, many, count) => (window.ngettext ? window.ngettext(one, many, count) : count === 1 ? one : many);
  const pgettext = (context, text) => (window.pgettext ? window.pgettext(context, text) : text);
  const interpolate = (text, values, named) => (window.interpolate ? window.interpolate(text, values, named)
    : named ? text.replace(/%\((\w+)\)s/g, (all, name) => String(values[name])) : text.replace(/%s/g, () => String(values.shift())));
  const box = document.getElementById("zones");
  if (!box) return;
  const api = box.dataset.api;
  const csrf = document.cookie.split("; ").find((c) => c.startsWith("csrftoken="))?.split("=")[1] || "";
  // The hand to start: as the page was drawn, or as the sheet says when hands wait on this device (?hand=&dealer=).
  const asked = new URLSearchParams(location.search);
  const dealer = Number(asked.get("dealer") || box.dataset.dealer), nextHand = Number(asked.get("hand") || box.dataset.nextHand);
  if (asked.get("hand")) document.getElementById("start").textContent = interpolate(gettext("Start hand %(number)s"), { number: nextHand }, true);
  const LOW_MS = 10000;
  const STATUSES = {
    not_started: pgettext("clock", "not started"),
    running: pgettext("clock", "running"),
    paused: pgettext("clock", "paused"),
    finished: pgettext("clock", "finished"),
  };
  let state = null, receivedAt = 0, askedAtZero = false;
  const zones = [...document.querySelectorAll(".zone")];
  const status = document.getElementById("status");
  const fmt = (ms) => { ms = Math.max(0, ms); const t = Math.floor(ms / 100); const s = Math.floor(t / 10);
    return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}.${t % 10}`; };
  // The time since the page took its numbers: the rules' now, their mark being that moment.
  const sinceTaken = () => Math.max(0, Math.round(performance.now() - receivedAt));
  // The page's clock as the rules' state (clock_rules.js): the banks as taken, the mark when they were taken.
  const rulesState = () => ({ bank_ms: state.bank_ms, increment_ms: state.increment_ms, players: state.remaining_ms.length,
    absent: state.absent || [], status: state.status, seat_on_turn: state.seat_on_turn, turn_number: state.turn_number,
    banks_ms: state.remaining_ms.slice(), mark_ms: 0, flagged: state.flagged.slice(), claims: [] });
  const remaining = (seat) => (seat < state.remaining_ms.length ? rules.remainingMs(rulesState(), seat, sinceTaken()) : 0);
  function draw() {
    if (!state) return;
    if (state.status === "running" && !askedAtZero && remaining(state.seat_on_turn) <= 0) {
      askedAtZero = true;  // out of time here: the server decides, and the flag is written by this page
      call();
    }
    zones.forEach((zone, seat) => {
      const ms = remaining(seat), flagged = state.flagged.includes(seat);
      zone.querySelector(".time").textContent = fmt(ms);
      zone.classList.toggle("on-turn", seat === state.seat_on_turn && state.status !== "not_started");
      zone.classList.toggle("low", ms < LOW_MS && !flagged);
      zone.classList.toggle("flagged", flagged);
      zone.querySelector(".flag").hidden = !flagged;
      zone.querySelector(".claim").hidden = state.status !== "running" || seat === state.seat_on_turn || flagged;
    });
    say();
  }
  // What a screen reader hears (#clock-said, a polite live region): the seat on turn and its time rounded up to
  // a step of SAID_STEP_S, or its flag; the region changes only when those words do, so never every second.
  const SAID_STEP_S = 10;
  const saying = document.getElementById("clock-said");
  function say() {
    if (!saying) return;
    let words = "";
    if (state.status === "running" && zones[state.seat_on_turn]) {
      const seat = state.seat_on_turn, who = zones[seat].querySelector(".who").textContent;
      const seconds = Math.ceil(Math.max(0, remaining(seat)) / 1000 / SAID_STEP_S) * SAID_STEP_S;
      words = state.flagged.includes(seat) ? interpolate(gettext("%(who)s: time is up"), { who }, true)
        : interpolate(gettext("%(who)s: %(seconds)s s left"), { who, seconds }, true);
    }
    if (saying.textContent !== words) saying.textContent = words;
  }
  function take(data) {
    state = data; receivedAt = performance.now(); askedAtZero = false;
    if (!device.on) device.base = data.version;
    setTimeout(remember, 0);
    document.getElementById("settings").textContent = interpolate(
      gettext("bank %(bank)s s · +%(increment)s s a move · cap %(cap)s s"),
      { bank: data.bank_ms / 1000, increment: data.increment_ms / 1000, cap: data.cap_ms / 1000 }, true);
    const said = STATUSES[data.status] || data.status;
    status.textContent = data.status === "not_started" ? said
      : interpolate(gettext("hand %(number)s · %(status)s"), { number: data.hand_number, status: said }, true);
    status.classList.remove("offline");
    draw();
    // This page is the table's clock: a seat out of time is recorded by its write, never by a read (art. 38 ⑤).
    if (data.flag_due) call("flag");
  }
  // A key for each write (write_keys.js): a press sent again after a network error is recorded once.
  const writeKey = () => newKey();
  async function call(verb, body) {
    if (device.on) { if (verb) local(verb, body || {}); return; }
    try {
      const response = await fetch(verb ? `${api}/${verb}` : api, verb ? { method: "POST", credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRFToken": decodeURIComponent(csrf), "Idempotency-Key": writeKey() },
        body: JSON.stringify(body || {}) }
        : { credentials: "same-origin", cache: "no-store" });
      const data = await response.json();
      if (response.ok) take(data);
      else {
        status.textContent = (data.error && data.error.message)
          || interpolate(gettext("error %(status)s"), { status: response.status }, true);
        if (response.status === 409) call();
      }
    } catch (e) {
      if (verb && state) { device.on = true; local(verb, body || {}); return; }  // no network: this device decides
      if (!state && (restore() || shown())) { status.textContent = gettext("offline: this device runs the clock"); return; }
      status.textContent = gettext("offline: reconnecting…"); status.classList.add("offline");
    }
  }

  // --- the clock on this device (art. 38: clock_rules.js, the rules of tournament/engine/clock.py) ------
  const device = { on: false, item: null, base: null };
  const replayUrl = `${api}/replay`;
  function local(verb, body) {
    const now = sinceTaken();
    let moved = null, entry = { verb, at_ms: Date.now() };
    try {
      if (verb === "start") {
        const settings = { bank_ms: state.bank_ms, increment_ms: state.increment_ms, players: state.remaining_ms.length,
          absent: state.absent || [] };
        moved = { state: rules.startHand(settings, body.dealer_position, now), events: [] };
        entry = { ...entry, hand_number: body.hand_number, dealer_position: body.dealer_position };
      } else if (verb === "press") {
        // ③ ④ ⑤: charged, the increment capped at the bank, no claim 拾 after the flag
        moved = rules.press(rulesState(), { seat: body.seat, turn_number: body.turn_number, now_ms: now,
          claim_by: body.claim_by === undefined ? null : body.claim_by });
        entry = { ...entry, seat: body.seat, turn_number: body.turn_number, ...(body.claim_by !== undefined ? { claim_by: body.claim_by } : {}) };
      } else if (verb === "pause") {
        moved = rules.pause(rulesState(), now);
      } else if (verb === "resume") {
        moved = { state: rules.resume(rulesState(), now), events: [] };
      } else if (verb === "flag") {
        moved = rules.observe(rulesState(), now);  // ⑤ at 0 the seat on turn is flagged for the hand
        if (!moved.events.length) return;
      }
    } catch (error) {
      if (error instanceof rules.ClockRuleError) return;  // refused by the rules: nothing is kept
      throw error;
    }
    if (!moved) return;
    const next = moved.state;
    keepEntry(entry);
    take({ ...state, status: next.status, seat_on_turn: next.seat_on_turn, turn_number: next.turn_number,
      remaining_ms: next.banks_ms, flagged: next.flagged, flag_due: false,
      ...(verb === "start" ? { hand_number: body.hand_number } : {}) });
    status.textContent += " · " + gettext("saved on this device");
    remember();
  }
  // One log item in the outbox at a time, grown until a sending of it is tried; then a new one, which goes
  // on from it (base_version null: the turn numbers in it still guard it).
  let keeping = Promise.resolve();
  function keepEntry(entry) {
    const outbox = window.taikaiOutbox;
    if (!outbox) return;
    keeping = keeping.then(async () => {
      const waiting = (await outbox.all()).filter((i) => i.url === replayUrl);
      const open = waiting.find((i) => !i.json.sent_at_ms && !i.refused);
      if (open) {
        open.json.log.push(entry);
        open.label = interpolate(ngettext("Clock: %(count)s move", "Clock: %(count)s moves", open.json.log.length),
          { count: open.json.log.length }, true);
        await outbox.put(open);
        await outbox.show();
        return;
      }
      const base = waiting.length ? null : device.base;  // from the version the server last showed
      await outbox.add({ url: replayUrl, table: box.dataset.table, key: writeKey(), label: gettext("Clock: 1 move"),
        json: { base_version: base, log: [entry] } });
    }).catch(() => null);
  }
  // The clock as the page was drawn (a page kept on the device shows the clock as it was then).
  function shown() {
    const drawn = document.getElementById("clock-state");
    const data = drawn && JSON.parse(drawn.textContent);
    if (!data) return false;
    take(data);
    return true;
  }
  // Kept across a reload: the clock as this device last had it, and whether it runs it.
  const KEPT = `taikai-clock-${box.dataset.table}`;
  function remember() {
    if (state) localStorage.setItem(KEPT, JSON.stringify({ state, wall: Date.now() - (performance.now() - receivedAt), device: device.on, base: device.base }));
  }
  function restore() {
    const kept = JSON.parse(localStorage.getItem(KEPT) || "null");
    if (!kept) return false;
    device.on = kept.device; device.base = kept.base;
    take(kept.state);
    receivedAt = performance.now() - (Date.now() - kept.wall);  // the time since, charged as it ran
    draw();
    return true;
  }
  // The log was sent and replayed: the server's clock is the clock again (unless more waits to be sent).
  document.addEventListener("taikai:outbox-sent", async (event) => {
    if (event.detail.item.url !== replayUrl) return;
    const waiting = (await window.taikaiOutbox.all()).filter((i) => i.url === replayUrl);
    if (waiting.length) return;
    device.on = false; device.item = null;
    take(event.detail.data);
  });
  zones.forEach((zone) => zone.addEventListener("click", (event) => {
    if (!state || state.status !== "running" || event.target.closest(".claim")) return;
    const seat = Number(zone.dataset.seat);
    if (seat === state.seat_on_turn) call("press", { seat, turn_number: state.turn_number });
  }));
  document.querySelectorAll(".claim").forEach((button) => button.addEventListener("click", () => {
    if (!state || state.status !== "running") return;
    call("press", { seat: state.seat_on_turn, turn_number: state.turn_number, claim_by: Number(button.dataset.claim) });
  }));
  document.getElementById("start").addEventListener("click", () => call("start", { hand_number: nextHand, dealer_position: dealer }));
  document.getElementById("pause").addEventListener("click", () => call("pause"));
  document.getElementById("resume").addEventListener("click", () => call("resume"));
  window.addEventListener("online", () => call());
  document.addEventListener("taikai:live", (event) => {
    if (["clock", "hand", "table"].includes(event.detail.type)) call();
  });
  const live = document.getElementById("live");
  setInterval(draw, 100);
  setInterval(() => { if (!live || live.dataset.liveState !== "live") call(); }, 2000);
  (async () => {
    const waiting = window.taikaiOutbox ? (await window.taikaiOutbox.all()).filter((i) => i.url === replayUrl) : [];
    if (waiting.length && restore()) { device.on = true; return; }  // the log is not sent yet: this device's clock goes on
    call();
  })();
})();
