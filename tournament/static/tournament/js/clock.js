// The chess clock of art. 38 (templates/tournament/console/clock.html). Server-authoritative: every tap
// is a request; between answers the page ticks the seat on turn down from the server's numbers. It reads
// the clock again when the table's live stream says it changed (another device of the table), when the seat
// on turn reaches zero, after a reload and when the connection returns; every 2 s while the stream is not
// open (live/static/live/js/live.js).
(function () {
  "use strict";
  const box = document.getElementById("zones");
  if (!box) return;
  const api = box.dataset.api;
  const csrf = document.cookie.split("; ").find((c) => c.startsWith("csrftoken="))?.split("=")[1] || "";
  const dealer = Number(box.dataset.dealer), nextHand = Number(box.dataset.nextHand);
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
  function remaining(seat) {
    let ms = state.remaining_ms[seat];
    if (state.status === "running" && seat === state.seat_on_turn) ms -= performance.now() - receivedAt;
    return ms;
  }
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
  }
  function take(data) {
    state = data; receivedAt = performance.now(); askedAtZero = false;
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
  // A key for each write (idempotency/): a press sent again after a network error is recorded once.
  const writeKey = () => (window.crypto && crypto.randomUUID) ? crypto.randomUUID()
    : Date.now().toString(36) + "-" + Math.random().toString(36).slice(2);
  async function call(verb, body) {
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
    } catch (e) { status.textContent = gettext("offline: reconnecting…"); status.classList.add("offline"); }
  }
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
  call();
})();
