// My tables (templates/tournament/console/tables.html): every clock of the page, live: the seat on turn
// and its time, refreshed every 2 s.
(function () {
  "use strict";
  const cells = [...document.querySelectorAll("td.clock")];
  if (!cells.length) return;
  const url = document.getElementById("my-tables").dataset.clocks + "?tables=" + cells.map((c) => c.dataset.table).join(",");
  // Translators: the seats' winds, one letter or character each: East, South, West, North.
  const winds = [pgettext("wind", "E"), pgettext("wind", "S"), pgettext("wind", "W"), pgettext("wind", "N")];
  const STATUSES = {
    not_started: pgettext("clock", "not started"),
    running: pgettext("clock", "running"),
    paused: pgettext("clock", "paused"),
    finished: pgettext("clock", "finished"),
  };
  async function refresh() {
    try {
      const clocks = await (await fetch(url, { cache: "no-store" })).json();
      cells.forEach((cell) => {
        const c = clocks[cell.dataset.table];
        if (!c) { cell.textContent = ""; return; }
        const seat = c.seat_on_turn, ms = seat === null ? 0 : c.remaining_ms[seat];
        const flags = c.flagged.length
          ? " · " + interpolate(gettext("flag %(seats)s"), { seats: c.flagged.map((s) => winds[s]).join(" ") }, true) : "";
        const state = c.status === "running"
          ? interpolate(gettext("%(wind)s %(seconds)s s"), { wind: winds[seat], seconds: (ms / 1000).toFixed(1) }, true)
          : (STATUSES[c.status] || c.status);
        cell.innerHTML = "";
        cell.append(interpolate(gettext("hand %(number)s · %(status)s"), { number: c.hand_number, status: state }, true));
        if (flags) { const span = document.createElement("span"); span.className = "flag"; span.textContent = flags; cell.append(span); }
      });
    } catch (e) { /* the next refresh tries again */ }
  }
  refresh();
  setInterval(refresh, 2000);
})();
