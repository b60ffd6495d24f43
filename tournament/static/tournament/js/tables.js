// My tables (templates/tournament/console/tables.html): every clock of the page, live: the seat on turn and
// its time, ticking down between reads. The clocks are read again when the event's live stream says a clock,
// a hand or a table changed (live/static/live/js/live.js, which also swaps the list when a table's status
// changes), and every 2 s while the stream is not open.
(function () {
  // The words of the JS catalog (/jsi18n/, loaded by the page before this script); without it (a device offline
  // that never kept it), the English words: the page works either way.
  const gettext = (text) => (window.gettext ? window.gettext(text) : text);
  const pgettext = (context, text) => (window.pgettext ? window.pgettext(context, text) : text);
  const interpolate = (text, values, named) => (window.interpolate ? window.interpolate(text, values, named)
    : named ? text.replace(/%\((\w+)\)s/g, (all, name) => String(values[name])) : text.replace(/%s/g, () => String(values.shift())));
  const list = () => document.getElementById("my-tables");
  if (!list()) return;
  // Translators: the seats' winds, one letter or character each: East, South, West, North.
  const winds = [pgettext("wind", "E"), pgettext("wind", "S"), pgettext("wind", "W"), pgettext("wind", "N")];
  const STATUSES = {
    not_started: pgettext("clock", "not started"),
    running: pgettext("clock", "running"),
    paused: pgettext("clock", "paused"),
    finished: pgettext("clock", "finished"),
  };
  let clocks = {}, readAt = 0;
  const cells = () => [...document.querySelectorAll("td.clock")];

  function draw() {
    const elapsed = performance.now() - readAt;
    cells().forEach((cell) => {
      const c = clocks[cell.dataset.table];
      if (!c) return;  // no clock started: the cell says so as the server drew it
      const seat = c.seat_on_turn;
      const ms = seat === null ? 0 : Math.max(0, c.remaining_ms[seat] - (c.status === "running" ? elapsed : 0));
      const flags = c.flagged.length
        ? " · " + interpolate(gettext("flag %(seats)s"), { seats: c.flagged.map((s) => winds[s]).join(" ") }, true) : "";
      const state = c.status === "running"
        ? interpolate(gettext("%(wind)s %(seconds)s s"), { wind: winds[seat], seconds: (ms / 1000).toFixed(1) }, true)
        : (STATUSES[c.status] || c.status);
      cell.innerHTML = "";
      cell.append(interpolate(gettext("hand %(number)s · %(status)s"), { number: c.hand_number, status: state }, true));
      if (flags) { const span = document.createElement("span"); span.className = "flag"; span.textContent = flags; cell.append(span); }
    });
  }
  async function read() {
    const shown = cells();
    if (!shown.length) return;
    const url = list().dataset.clocks + "?tables=" + shown.map((c) => c.dataset.table).join(",");
    try {
      clocks = await (await fetch(url, { cache: "no-store" })).json();
      readAt = performance.now();
      draw();
    } catch (e) { /* offline: the next message or read tries again */ }
  }
  const live = document.getElementById("live");
  document.addEventListener("taikai:live", (event) => {
    if (["clock", "hand", "table"].includes(event.detail.type)) read();
  });
  document.addEventListener("taikai:refreshed", read);  // the list was swapped: its clocks too
  read();
  setInterval(draw, 200);
  setInterval(() => { if (!live || live.dataset.liveState !== "live") read(); }, 2000);
})();
