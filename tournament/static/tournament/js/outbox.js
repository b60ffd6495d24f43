// The console's outbox (templates/tournament/console/_outbox.html, on every console page): what the referee
// records when the hall's network is down is kept on this device and sent, in order, when it is back.
//
// * The service worker (/console/sw.js) keeps the console's pages and files on the device and, when a form
//   cannot be sent (or earlier writes still wait), keeps the write in the outbox (IndexedDB: store.js).
// * This script shows one banner: online / offline / saved on this device (N waiting, the oldest M min) /
//   sending / refused, with the reason and what to do. It sends the waiting writes one at a time, oldest
//   first, each with its own key (idempotency/): a write sent twice is recorded once.
// * Each write keeps who made it: the page's signed author (data-author, tournament/outbox.py), sent with it.
//   The server records it only under its maker: sent while another person (or nobody) is signed in on this
//   device, it waits on the device for its maker to sign in again; a write the server recorded already is
//   answered as done whoever is signed in.
// * A refused write stops only the writes that depend on it (hand 5 never lands before hand 4: the later
//   writes of the same table's sheet, or of its clock) until the referee decides; a call, a penalty or another
//   table's writes go on. A hand another device recorded meanwhile is shown beside theirs, to keep (a new
//   version) or drop. The banner names each write that is stuck, and why.
// * On a table's sheet it lists the writes waiting for that table and sets the form to the next hand (its
//   dealer and honba 本場 as the queued hands and absences leave them); the penalty page kept on the device
//   takes the hand after the queued ones.
// * The console's clock (clock.js) keeps its offline press log here too (window.taikaiOutbox).
//
// An ES module: the outbox's schema is store.js's (the service worker's too), the keys write_keys.js's, the next
// hand's dealer and honba dealer.js's (the rules of tournament/engine/dealer.py, the same cases).
import { stored } from "./store.js";
import { newKey } from "./write_keys.js";
import { nextDealerPosition, windAfter } from "./dealer.js";

(function () {
  const RETRY_MS = 10000;
  const banner = document.getElementById("outbox");
  if (!banner) return;
  // The words of the JS catalog, looked up when said (the page may load the catalog after this script);
  // without the catalog, the English words.
  const gettext = (text) => (window.gettext ? window.gettext(text) : text);
  const ngettext = (one, many, count) => (window.ngettext ? window.ngettext(one, many, count) : count === 1 ? one : many);
  const interpolate = (text, values, named) => (window.interpolate ? window.interpolate(text, values, named)
    : text.replace(/%\((\w+)\)s/g, (all, name) => String(values[name])));
  // The banner sticks to the top: what the page scrolls to (a focused seat button, a part linked to) stops below
  // it, whatever its height now (the page's scroll-padding-top, _outbox.html).
  const bannerHeight = () => document.documentElement.style.setProperty("--outbox-height", `${banner.offsetHeight}px`);
  if (window.ResizeObserver) new ResizeObserver(bannerHeight).observe(banner);

  // --- the outbox on the device (store.js) -------------------------------------------------------
  const all = () => stored("readonly", (s) => s.getAll());
  const put = (item) => stored("readwrite", (s) => s.put(item));
  const add = (item) => stored("readwrite", (s) => s.add(item));
  const drop = (id) => stored("readwrite", (s) => s.delete(id));

  const csrf = () => decodeURIComponent((document.cookie.split("; ").find((c) => c.startsWith("csrftoken=")) || "=").split("=")[1]);
  const fields = (item) => new URLSearchParams(item.body || "");

  // --- the banner ---------------------------------------------------------------------------------
  let sending = false;
  async function show() {
    const items = await all().catch(() => []);
    const refused = items.find((i) => i.refused);
    const held = items.filter((i) => i.held && !i.refused);
    const text = banner.querySelector(".outbox-text");
    const more = banner.querySelector(".outbox-more");
    more.replaceChildren();
    let state;
    if (refused) {
      state = "refused";
      text.textContent = refused.refused.theirs
        ? interpolate(gettext("%(hand)s: another device recorded it first"), { hand: refused.refused.theirs.label }, true)
        : refused.refused.code === "round_locked"
          ? interpolate(gettext("Round checked and locked: %(reason)s"), { reason: refused.refused.message }, true)
          : interpolate(gettext("Refused: %(reason)s"), { reason: refused.refused.message }, true);
      more.append(refusedDetail(refused));
    } else if (held.length && !sending && navigator.onLine) {
      state = "held";
      text.textContent = interpolate(ngettext(
        "%(count)s write waits on this device for the person who made it.",
        "%(count)s writes wait on this device for the people who made them.", held.length), { count: held.length }, true);
    } else if (items.length && sending) {
      state = "sending";
      text.textContent = interpolate(ngettext("Sending %(count)s write…", "Sending %(count)s writes…", items.length),
        { count: items.length }, true);
    } else if (items.length) {
      state = "waiting";
      const minutes = Math.floor((Date.now() - Math.min(...items.map((i) => i.savedAt))) / 60000);
      text.textContent = interpolate(ngettext(
        "Saved on this device: %(count)s waiting, the oldest %(minutes)s min. They are sent when the network is back.",
        "Saved on this device: %(count)s waiting, the oldest %(minutes)s min. They are sent when the network is back.",
        items.length), { count: items.length, minutes }, true);
    } else if (!navigator.onLine) {
      state = "offline";
      text.textContent = gettext("Offline: what you record is saved on this device.");
    } else {
      state = "online";
      text.textContent = gettext("Online");
    }
    const stuck = items.filter((i) => (i.refused && i !== refused) || (i.held && !i.refused));
    if (stuck.length) more.append(stuckList(stuck));
    banner.dataset.state = state;
    banner.dataset.waiting = String(items.length);
    banner.dataset.held = String(held.length);
    showQueued(items);
    penaltyHand(items);
    correctionVersions(items);
    return items;
  }

  function button(label, onClick, className) {
    const b = document.createElement("button");
    b.type = "button"; b.textContent = label; b.className = className || "";
    b.addEventListener("click", async () => { b.disabled = true; await onClick(); await show(); flush(); });
    return b;
  }

  function refusedDetail(item) {
    const box = document.createElement("div");
    const error = item.refused;
    const say = (words) => { const p = document.createElement("p"); p.textContent = words; box.append(p); };
    if (error.theirs) {
      const keep = gettext("Keep theirs (drop mine)"), record = gettext("Record mine as a correction");
      say(interpolate(gettext("Another device recorded this hand first. “%(keep)s” throws your entry away; “%(record)s” saves it as a new version on top of theirs, with your name and the time (theirs stays in the history)."),
        { keep, record }, true));
      box.append(compared(item, error.theirs, error.mine));
      box.append(button(record, () => resend(item, { expected_version: String(error.theirs.version) }), "primary"),
        " ", button(keep, () => drop(item.id), "danger"));
    } else if (error.code === "round_locked") {
      say(item.label || "");
      say(gettext("The round was checked and is locked: nothing of it changes until the event's owner or a head referee unlocks it, with a reason. This write stays on this device: send it again once the round is unlocked, or drop it."));
      box.append(button(gettext("Try again"), () => put({ ...item, refused: null })),
        " ", button(gettext("Drop it"), () => drop(item.id), "danger"));
    } else if (error.code === "repeats_previous") {
      say(gettext("If it really is the same as the hand before, send it again."));
      box.append(button(gettext("Send it again"), () => resend(item, { same_as_previous: "1" }), "primary"),
        " ", button(gettext("Drop it"), () => drop(item.id), "danger"));
    } else {
      say(item.label || "");
      say(gettext("Check it on the sheet (reload it), then drop this write and record it again; or try again if the reason is gone (signed in again, say)."));
      box.append(button(gettext("Try again"), () => put({ ...item, refused: null })),
        " ", button(gettext("Drop it"), () => drop(item.id), "danger"));
    }
    return box;
  }

  // This device's hand and the one recorded meanwhile, side by side, each in full (the server's words:
  // tournament/hand_words.py), one row per part of the hand.
  function compared(item, theirs, mine) {
    const table = document.createElement("table");
    table.className = "outbox-compare";
    const row = (cells, tag) => {
      const tr = document.createElement("tr");
      cells.forEach((lines, n) => {
        const cell = document.createElement(tag || "td");
        cell.className = n ? "theirs" : "mine";
        [].concat(lines).forEach((line, i) => { if (i) cell.append(document.createElement("br")); cell.append(line); });
        tr.append(cell);
      });
      table.append(tr);
    };
    mine = mine || { label: item.label || "", result: "", riichi: "", tenpai: "", deltas: [] };
    row([gettext("On this device"), interpolate(gettext("Recorded meanwhile (version %(version)s)"), { version: theirs.version }, true)], "th");
    row([mine.label, theirs.label]);
    row([mine.result, theirs.result]);
    if (mine.riichi || theirs.riichi) row([mine.riichi, theirs.riichi]);
    if (mine.tenpai || theirs.tenpai) row([mine.tenpai, theirs.tenpai]);
    row([mine.deltas, theirs.deltas]);
    row([formatTime(item.savedAt), interpolate(gettext("%(author)s at %(time)s"), { author: theirs.author, time: formatTime(Date.parse(theirs.recorded_at)) }, true)]);
    return table;
  }

  // Each write that is stuck, and why: it waits for who made it, or it was refused.
  function stuckList(items) {
    const ul = document.createElement("ul");
    ul.className = "outbox-stuck";
    for (const item of items) {
      const li = document.createElement("li");
      const why = item.refused || item.held;
      li.className = item.refused ? "refused" : "held";
      li.textContent = interpolate(item.refused ? gettext("%(write)s: refused: %(reason)s") : gettext("%(write)s: waits: %(reason)s"),
        { write: item.label || gettext("a write"), reason: why.message }, true);
      ul.append(li);
    }
    return ul;
  }

  const formatTime = (ms) => new Date(ms).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit" });

  // A refused write sent again: as a new write (a new key), with the referee's decision in it.
  function resend(item, changes) {
    const body = fields(item);
    for (const [name, value] of Object.entries(changes)) body.set(name, value);
    body.set("idempotency_key", newKey());
    return put({ ...item, body: body.toString(), refused: null });
  }

  // --- sending ------------------------------------------------------------------------------------
  let flushing = false, sentSome = false;
  async function flush() {
    if (flushing) return;
    flushing = true;
    try {
      if (navigator.locks) await navigator.locks.request("taikai-outbox", { ifAvailable: true }, (lock) => lock && sendAll());
      else await sendAll();
    } finally { flushing = false; }
    const left = await show();
    if (sentSome && left.every((i) => i.held || i.refused) && banner.dataset.reload !== "no") {
      sentSome = false;
      location.replace(location.pathname);  // the sheet as the server has it now
    }
  }

  // The writes a write waits for: the earlier ones of the same table's sheet (hands, absences, the result) or
  // of its clock. A call or a penalty waits for nothing and holds nothing back.
  function dependsOn(item) {
    if (item.json) return "json " + item.url;
    const sheet = item.url.match(/^\/console\/tables\/(\d+)\/$/);
    return sheet ? "sheet " + sheet[1] : null;
  }

  async function sendAll() {
    const stopped = new Set();  // the sheets and clocks whose earlier write is stuck
    for (const queued of await all()) {
      if (!navigator.onLine) return;
      const line = dependsOn(queued);
      if (line && stopped.has(line)) continue;
      if (queued.refused) { if (line) stopped.add(line); continue; }
      const item = (await all()).find((i) => i.id === queued.id);
      if (!item) continue;
      if (item.json && !item.json.sent_at_ms) {  // sealed: the device's time at the first sending, kept for a resend
        item.json.sent_at_ms = Date.now();
        await put(item);
      }
      sending = true; await show();
      const outcome = await sendOne(item).finally(() => { sending = false; });
      if (outcome === "later") return;
      if (outcome === "sent") { await drop(item.id); sentSome = true; continue; }
      if (line) stopped.add(line);
      if (outcome.waits) await put({ ...item, held: outcome });  // sent again at the next sending
      else await put({ ...item, refused: outcome, held: null });
    }
  }

  async function sendOne(item) {
    let response;
    try {
      if (item.json) {
        const headers = { "Content-Type": "application/json", Accept: "application/json", "X-CSRFToken": csrf(), "Idempotency-Key": item.key };
        if (item.author) headers["X-Taikai-Author"] = item.author;
        headers["X-Taikai-Sent-At"] = String(Date.now());  // this sending's time: the body keeps the first one's
        response = await fetch(item.url, { method: "POST", credentials: "same-origin", body: JSON.stringify(item.json), headers });
      } else {
        const body = fields(item);
        body.set("csrfmiddlewaretoken", csrf());  // the session's token now (a page kept on the device may be older)
        response = await fetch(item.url, { method: "POST", credentials: "same-origin", body,
          headers: { Accept: "application/json", "X-CSRFToken": csrf() } });
      }
    } catch (error) { return "later"; }  // still no network
    const data = await response.json().catch(() => null);
    if (response.ok && data && (data.ok || item.json)) {
      if (item.json) document.dispatchEvent(new CustomEvent("taikai:outbox-sent", { detail: { item, data } }));
      return "sent";
    }
    if (response.status >= 500 || (response.status === 429)) return "later";  // the server is busy or down: later
    if (response.redirected || !data) {  // sent to sign in: it waits for a session, and is sent again then
      return { code: "signed_out", waits: true, message: gettext("the session ended: sign in again, and it is sent") };
    }
    const error = data.error || {};
    return { code: error.code || String(response.status), message: error.message || String(response.status),
      field: error.field || null, theirs: data.theirs || null, mine: data.mine || null, waits: error.code === "author_not_signed_in" };
  }

  // --- a table's sheet with its waiting writes -----------------------------------------------------
  const tableId = banner.dataset.table;
  let serverNext = null;
  function showQueued(items) {
    const form = document.getElementById("hand-form");
    const mine = items.filter((i) => tableId && (i.table === tableId || i.url.startsWith(`/console/tables/${tableId}/`)));
    let list = document.getElementById("outbox-queued");
    if (!mine.length) { if (list) list.remove(); seatScores({ points: null }); return; }
    if (!list) {
      list = document.createElement("section");
      list.id = "outbox-queued";
      const anchor = document.getElementById("seats") || banner;
      anchor.after(list);
    }
    const heading = document.createElement("h2");
    heading.textContent = gettext("Saved on this device, not sent yet");
    const ul = document.createElement("ul");
    const hands = settledHands(mine);
    for (const item of mine) {
      const li = document.createElement("li");
      li.className = item.refused ? "refused" : item.held ? "held" : "waiting";
      const state = item.refused ? gettext("refused") : item.held ? item.held.message : gettext("not sent yet");
      const hand = hands.shown.get(item.id);
      const words = hand ? [hand.label, hand.result, hand.riichi, hand.tenpai, hand.deltas.join(" / ")].filter(Boolean).join(" · ")
        : item.label || "";
      li.textContent = `${words} — ${state} ${formatTime(item.savedAt)}`;
      ul.append(li);
    }
    seatScores(hands);
    list.replaceChildren(heading, ul);
    if (form) nextHand(form, mine);
  }

  // --- the hands kept on the device, in full, and the seat scores with them (provisional) -------------
  // The sheet gives the seats' points and the deposits now, each win a referee can pick priced as the server
  // prices it (scoring.services.win_price_list) and the settlement's rule (settle.js, the same cases as
  // settle.py): each new hand queued is settled here in order, as the server will settle it when it lands.
  // (read once the page is there: this script runs at the top of it)
  let sheetRules, settleModule = null;
  function readSheetRules() {
    const source = document.getElementById("sheet-rules");
    try { sheetRules = source ? JSON.parse(source.textContent) : null; } catch (error) { sheetRules = null; }
    if (sheetRules) import(sheetRules.settle_module).then((module) => { settleModule = module; show(); }).catch(() => null);
  }

  const signed = (points) => (points > 0 ? `+${points}` : String(points));
  function scoreWords(han, fu) {
    if (han === "Y2") return gettext("double yakuman");
    if (han === "Y1") return gettext("yakuman");
    return Number(han) < 5 && fu ? interpolate(gettext("%(han)s han %(fu)s fu"), { han, fu }, true)
      : interpolate(gettext("%(han)s han"), { han }, true);
  }

  // Each queued hand of this sheet in words (item id → words) and the seats' points after them (null while a
  // hand cannot be settled on the device: a correction, a hand after it, a price the sheet does not have).
  function settledHands(items) {
    const shown = new Map();
    if (!sheetRules) return { shown, points: null };
    const rules = sheetRules, names = rules.seats;
    let points = [...rules.points], deposits = rules.deposits, last = rules.last ? { ...rules.last } : null;
    let settled = 0;
    items.forEach((item, i) => {
      const f = fields(item);
      if (dependsOn(item) !== "sheet " + tableId || f.get("action") !== "hand") return;
      const number = Number(f.get("hand")), dealer = Number(f.get("dealer_position")), honba = Number(f.get("honba") || 0);
      const outcome = f.get("outcome");
      const wins = [1, 2, 3].filter((n) => f.get("winner_" + n)).map((n) => ({
        winner: Number(f.get("winner_" + n)), han: f.get("han_" + n) || "", fu: f.get("fu_" + n) || "",
        discarder: outcome === "ron" && f.get("discarder") ? Number(f.get("discarder")) : null }));
      const riichi = outcome === "replayed" ? [] : f.getAll("riichi_positions").map(Number);
      const tenpai = f.getAll("tenpai_positions").map(Number);
      const away = awayAfter(items.slice(0, i));
      const active = names.map((_, seat) => seat).filter((seat) => !document.querySelector(`.seat.away[data-seat="${seat}"]`) && !away.has(seat));
      const words = {
        result: [rules.outcomes[outcome] || outcome, ...wins.map((w) => {
          const who = w.discarder === null ? names[w.winner]
            : interpolate(gettext("%(winner)s from %(discarder)s"), { winner: names[w.winner], discarder: names[w.discarder] }, true);
          return `${who} · ${scoreWords(w.han, w.fu)}`; })].join(" · "),
        riichi: riichi.length ? `${rules.words.riichi}: ${riichi.map((s) => names[s]).join(", ")}` : "",
        tenpai: tenpai.length ? `${rules.words.tenpai}: ${tenpai.map((s) => names[s]).join(", ")}` : "",
        label: interpolate(gettext("Hand %(number)s"), { number }, true), deltas: [] };
      shown.set(item.id, words);
      const isNew = number > rules.recorded && Number(f.get("expected_version") || 0) === 0;
      if (!isNew || f.get("overtime") || !active.includes(dealer)) { points = null; return; }
      const wind = last ? windAfter(last.wind, last.dealer, dealer) : 0;
      last = { dealer, wind };
      const name = rules.hand_names[wind][active.indexOf(dealer)];
      words.label = honba ? interpolate(gettext("%(hand)s, %(honba)s honba"), { hand: name, honba }, true) : name;
      const deltas = settleQueued({ outcome, dealer, honba, riichi, tenpai, wins, active, deposits });
      if (!deltas || !points) { points = null; return; }
      words.deltas = deltas.deltas.map((d, seat) => `${names[seat]} ${signed(d)}`);
      points = points.map((p, seat) => p + deltas.deltas[seat]);
      deposits = deltas.deposits_out;
      settled += 1;
    });
    return { shown, points: settled ? points : null };
  }

  // One new hand settled on the device among the seats still playing (art. 42), or null when it cannot be.
  function settleQueued(hand) {
    const prices = (sheetRules.prices || {})[String(hand.active.length)];
    if (!settleModule || !prices) return null;
    const at = (seat) => hand.active.indexOf(seat);
    const wins = [];
    for (const w of hand.wins) {
      const limit = w.han.startsWith("Y") || Number(w.han) >= 5;
      const price = prices[`${w.han}|${limit ? 0 : Number(w.fu)}|${w.winner === hand.dealer ? 1 : 0}`];
      if (!price || at(w.winner) < 0) return null;
      const [ron, tsumoDealer, tsumoOther, ronStep, dealerStep, otherStep, payerStep] = price;
      wins.push({ winner: at(w.winner), discarder: w.discarder === null ? null : at(w.discarder), payment: {
        ron: ron + hand.honba * ronStep, tsumo_dealer: w.winner === hand.dealer ? null : tsumoDealer + hand.honba * dealerStep,
        tsumo_non_dealer: tsumoOther + hand.honba * otherStep, honba_per_payer: hand.honba * payerStep } });
    }
    const settled = settleModule.settleHand({ seats: hand.active.length, dealer_seat: at(hand.dealer),
      kind: hand.outcome === "replayed" ? "abortive_draw" : hand.outcome, deposits_in: hand.deposits,
      riichi_seats: hand.riichi.map(at), tenpai_seats: hand.tenpai.map(at), wins }, sheetRules.settle);
    const deltas = sheetRules.seats.map(() => 0);
    hand.active.forEach((seat, i) => { deltas[seat] = settled.deltas[i]; });
    return { deltas, deposits_out: settled.deposits_out };
  }

  // The seat scores at the top: the server's, or with the queued hands (marked provisional).
  function seatScores(hands) {
    document.querySelectorAll(".seat[data-seat] .pts").forEach((box) => {
      if (box.dataset.server === undefined) box.dataset.server = box.textContent;
      const points = hands.points && hands.points[Number(box.closest(".seat").dataset.seat)];
      box.classList.toggle("provisional", points !== null && points !== undefined);
      if (points === null || points === undefined) { box.textContent = box.dataset.server; return; }
      const mark = document.createElement("small");
      mark.textContent = gettext("(provisional)");
      box.replaceChildren(String(points) + " ", mark);
    });
  }

  // The hand after the last one recorded or queued at this table (a page kept on the device was drawn before
  // the queued hands).
  function queuedNext(items, from) {
    let next = from;
    for (const item of items) {
      const f = fields(item);
      if (dependsOn(item) === "sheet " + tableId && f.get("action") === "hand") next = Math.max(next, Number(f.get("hand")) + 1);
    }
    return next;
  }

  // A correction page kept on the device says the version it was drawn with; the corrections of the same hand
  // queued since come first, so this one is made on the last of them (else it would be sent as a conflict).
  function correctionVersions(items) {
    if (!tableId) return;
    for (const form of document.querySelectorAll("#hand-form, #void-form")) {
      const input = form.querySelector('input[name="expected_version"]');
      const hand = form.querySelector('input[name="hand"]');
      if (!input || !hand || (form.id === "hand-form" && form.dataset.correcting !== "1")) continue;
      if (input.dataset.drawn === undefined) input.dataset.drawn = input.value;
      let version = Number(input.dataset.drawn);
      for (const item of items) {
        const f = fields(item);
        if (dependsOn(item) !== "sheet " + tableId || f.get("hand") !== hand.value) continue;
        if (f.get("action") === "hand" || f.get("action") === "void") version = Math.max(version, Number(f.get("expected_version")) + 1);
      }
      input.value = String(version);
    }
  }

  let penaltyFrom = null;
  function penaltyHand(items) {
    const input = document.querySelector('#penalty-form input[name="hand_number"]');
    if (!input || !tableId) return;
    if (penaltyFrom === null) penaltyFrom = Number(input.value) || 1;
    const next = queuedNext(items, penaltyFrom);
    if (next !== penaltyFrom && !input.dataset.touched) input.value = String(next);
  }

  // The form is for the hand after the last one recorded or queued, dealt as the rules say (dealer.js).
  function nextHand(form, items) {
    const number = form.querySelector('input[name="hand"]');
    if (serverNext === null) serverNext = Number(number.value);
    const heading = form.querySelector("h2");
    if (form.dataset.correcting === "1") return;  // a correction's form stays on its hand
    let next = serverNext, deal = null;
    items.forEach((item, i) => {
      const f = fields(item);
      if (f.get("action") !== "hand" || Number(f.get("hand")) < next) return;
      next = Number(f.get("hand")) + 1;
      deal = nextDeal(f, form, items.slice(0, i), items);
    });
    for (const link of document.querySelectorAll("a[href*='/penalty/']")) {  // a penalty is for the hand to come
      const url = new URL(link.href, location.href);
      if (url.searchParams.has("hand")) { url.searchParams.set("hand", String(next)); link.href = url.pathname + url.search; }
    }
    if (next === serverNext) return;
    number.value = String(next);
    form.querySelector('input[name="expected_version"]').value = "0";
    if (heading) heading.textContent = interpolate(gettext("Hand %(number)s"), { number: next }, true);
    const save = document.getElementById("save-hand");
    if (save) save.textContent = interpolate(gettext("Save hand %(number)s"), { number: next }, true);
    const clock = document.getElementById("clock-link");
    if (clock) clock.search = `?hand=${next}&dealer=${deal ? deal.position : ""}`;  // the clock starts the hand to come
    if (deal) {
      const dealer = form.querySelector(`input[name="dealer_position"][value="${deal.position}"]`);
      if (dealer) dealer.checked = true;
      const honba = form.querySelector('input[name="honba"]');
      if (honba) honba.value = String(deal.honba);
    }
  }

  // The deal after a queued hand (dealer.js, as the server will deal it): round the seats that played it (those
  // at the table with the absences queued before it, and the seats the hand names) to those still playing after
  // every queued absence (art. 42). Null when the hand cannot say (the form is then left as it is).
  function nextDeal(f, form, before, items) {
    const seats = [...form.querySelectorAll('input[name="dealer_position"]')].map((i) => Number(i.value));
    const present = (away) => seats.filter((seat) => !document.querySelector(`.seat.away[data-seat="${seat}"]`) && !away.has(seat));
    const dealer = Number(f.get("dealer_position") || 0), honba = Number(f.get("honba") || 0);
    const winners = [1, 2, 3].map((n) => f.get("winner_" + n)).filter((w) => w !== null && w !== "").map(Number);
    const tenpai = f.getAll("tenpai_positions").map(Number);
    const playingNext = present(awayAfter(items));
    const playing = [...new Set([...present(awayAfter(before)), ...playingNext, dealer, ...winners, ...tenpai])].sort((a, b) => a - b);
    try {
      return nextDealerPosition({ playing, playing_next: playingNext, dealer, honba, outcome: f.get("outcome"), winners, tenpai });
    } catch (error) {
      return null;
    }
  }

  // The seats the queued absences leave away from the table (the players' rows are in seat order).
  function awayAfter(items) {
    const rows = [...document.querySelectorAll("#players tr")].filter((tr) => tr.querySelector("td"));
    const position = (pk) => rows.findIndex((tr) => tr.querySelector(`input[name="seat"][value="${pk}"]`));
    const away = new Set();
    for (const item of items) {
      const f = fields(item), seat = position(f.get("seat"));
      if (seat < 0) continue;
      if (f.get("action") === "absent_before" || f.get("action") === "absent_during") away.add(seat);
      if (f.get("action") === "present") away.delete(seat);
    }
    return away;
  }

  // --- forms: a fresh key per page, a label per write, the device's checks when offline -------------
  // A page kept on the device carries the keys it was drawn with: each drawing of it gets its own.
  const freshKeys = () => document.querySelectorAll('input[name="idempotency_key"]').forEach((input) => { input.value = newKey(); });
  document.addEventListener("submit", (event) => {
    const form = event.target;
    if ((form.method || "").toLowerCase() !== "post") return;
    if (!new URL(form.action, location.href).pathname.startsWith("/console/")) {
      if (/\/logout\/?$/.test(new URL(form.action, location.href).pathname)) forgetPages();
      return;
    }
    if (!navigator.onLine) {
      const problem = deviceCheck(form);
      if (problem) { event.preventDefault(); say(problem); return; }
    }
    const hidden = (name) => {
      let input = form.querySelector(`input[name="${name}"]`);
      if (!input) { input = document.createElement("input"); input.type = "hidden"; input.name = name; form.append(input); }
      return input;
    };
    hidden("outbox_label").value = describe(form, event.submitter);
    if (banner.dataset.author) hidden("outbox_author").value = banner.dataset.author;  // who made it, kept with it
    const key = hidden("idempotency_key");  // a form drawn without a key (a call) is recorded once too
    if (!key.value) key.value = newKey();
  }, true);

  function say(words) {
    banner.querySelector(".outbox-text").textContent = words;
    banner.dataset.state = "refused";
  }

  // What a queued write is, for people: the chosen picks' labels, as the referee tapped them.
  function describe(form, submitter) {
    const parts = [];
    const number = form.querySelector('input[name="hand"]');
    if (form.id === "hand-form" && number) parts.push(interpolate(gettext("Hand %(number)s"), { number: number.value }, true));
    else if (submitter && submitter.textContent.trim()) parts.push(submitter.textContent.trim());
    else if (form.id === "penalty-form") parts.push(gettext("Penalty"));
    for (const input of form.querySelectorAll("input:checked")) {
      const label = form.querySelector(`label[for="${input.id}"]`) || input.closest("label");
      if (label && !input.hidden && input.name !== "overtime") parts.push(label.textContent.trim());
    }
    const reason = form.querySelector('[name="reason"]');
    if (reason && reason.value.trim()) parts.push(reason.value.trim());
    return parts.join(" · ").slice(0, 300);
  }

  // As far as the device can tell without the server: what the server would refuse for sure.
  function deviceCheck(form) {
    const picked = (name) => form.querySelector(`input[name="${name}"]:checked`);
    if (form.id === "hand-form") {
      const outcome = (picked("outcome") || {}).value;
      if (!outcome) return gettext("Not saved: choose the result.");
      if (outcome === "ron" || outcome === "tsumo") {
        if (!picked("winner_1")) return gettext("Not saved: choose the winner.");
        if (outcome === "ron" && !picked("discarder")) return gettext("Not saved: choose who dealt in.");
        const han = picked("han_1");
        if (!han) return gettext("Not saved: choose the han.");
        if (/^[1-4]$/.test(han.value) && !picked("fu_1")) return gettext("Not saved: choose the fu.");
      }
    }
    if (form.id === "penalty-form" && (!picked("seat") || !picked("kind"))) return gettext("Not saved: choose the player and the foul.");
    if (form.id === "scores-form") {
      const values = [...form.querySelectorAll('input[type="number"]')].map((i) => i.value.trim());
      if (values.some((v) => !/^-?\d+$/.test(v))) return gettext("Not saved: every seat needs its final points.");
    }
    return null;
  }

  // --- the service worker, the pages kept for offline use ------------------------------------------
  function worker() {
    return navigator.serviceWorker ? navigator.serviceWorker.ready.then((r) => r.active) : Promise.resolve(null);
  }
  function keep(urls) {
    if (!urls.length || !navigator.onLine) return;
    worker().then((active) => active && active.postMessage({ type: "keep", urls }));
  }
  function forgetPages() { worker().then((active) => active && active.postMessage({ type: "forget" })); }
  function keepTables() {
    const urls = [];
    document.querySelectorAll("a.table-link").forEach((a) => {
      const sheet = new URL(a.href, location.href).pathname;
      urls.push(sheet, sheet + "clock/", sheet + "penalty/");
    });
    document.querySelectorAll("#clock-link, a[href*='/penalty/']").forEach((a) => urls.push(new URL(a.href, location.href).pathname));
    // a sheet's corrections (?hand=N, with the void of the last hand) and "left during the game" (?confirm=)
    document.querySelectorAll("a.correct, a[href*='confirm=absent_during']").forEach((a) => {
      const url = new URL(a.href, location.href);
      urls.push(url.pathname + url.search);
    });
    keep([...new Set(urls)].slice(0, 80));
  }

  if (navigator.serviceWorker) {
    navigator.serviceWorker.register(banner.dataset.worker, { scope: banner.dataset.scope, type: "module" }).catch(() => null);
    navigator.serviceWorker.addEventListener("message", (event) => { if ((event.data || {}).type === "kept") show(); });
  }
  window.taikaiOutbox = { add: async (item) => { const id = await add({ savedAt: Date.now(), refused: null, author: banner.dataset.author || "", ...item }); show(); flush(); return id; },
    all, put, flush, show };
  window.addEventListener("online", () => { show(); flush(); });
  window.addEventListener("offline", show);
  document.addEventListener("DOMContentLoaded", () => {
    readSheetRules();
    freshKeys();
    const penaltyHandInput = document.querySelector('#penalty-form input[name="hand_number"]');
    if (penaltyHandInput) penaltyHandInput.addEventListener("input", () => { penaltyHandInput.dataset.touched = "1"; });
    show().then(() => flush());
    keepTables();
    setInterval(() => { show().then((items) => { if (items.length) flush(); }); }, RETRY_MS);
  });
})();
