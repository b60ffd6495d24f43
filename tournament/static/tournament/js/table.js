// The table sheet (templates/tournament/console/table.html): show what the outcome uses, offer only
// han/fu pairs that can exist, never the winner as discarder, and count a hand's tiles for winner 1.
// Words come from the djangojs catalog (gettext, interpolate), loaded before this script.
(function () {
  // The words of the JS catalog (/jsi18n/, loaded by the page before this script); without it (a device offline
  // that never kept it), the English words: the page works either way.
  const gettext = (text) => (window.gettext ? window.gettext(text) : text);
  const interpolate = (text, values, named) => (window.interpolate ? window.interpolate(text, values, named)
    : named ? text.replace(/%\((\w+)\)s/g, (all, name) => String(values[name])) : text.replace(/%s/g, () => String(values.shift())));
  // A tap that undoes a record asks first (cancelling a penalty): any form with data-confirm, wherever on
  // the page (this script runs before the end of the page).
  document.addEventListener("submit", (event) => {
    const question = event.target.dataset.confirm;
    if (question && !window.confirm(question)) event.preventDefault();
  });
  // A sheet the browser brings back from its memory (Back) is fetched again: a new hand's form starts empty.
  window.addEventListener("pageshow", (event) => { if (event.persisted) window.location.reload(); });
  const form = document.getElementById("hand-form");
  if (!form) return;
  // One tap saves once: Save is off while the hand is on its way.
  form.addEventListener("submit", (event) => {
    const save = document.getElementById("save-hand");
    if (save.disabled) { event.preventDefault(); return; }
    save.disabled = true;
    save.textContent = gettext("Saving…");
  });
  const pairs = JSON.parse(document.getElementById("han-fu-pairs").textContent);
  const checked = (name) => form.querySelector(`input[name="${name}"]:checked`);
  const outcome = () => (checked("outcome") || {}).value;
  function show(selector, on) { form.querySelectorAll(selector).forEach((el) => { el.hidden = !on; }); }
  function update() {
    const kind = outcome();
    const wins = kind === "ron" || kind === "tsumo";
    show(".win[data-win='1']", wins);
    show(".discarder", kind === "ron");
    show(".more-winners", kind === "ron");
    show(".tiles-entry", wins);
    show(".tenpai", kind === "exhaustive_draw");
    form.querySelectorAll(".win").forEach((win) => {
      const n = win.dataset.win;
      if (n !== "1") { win.hidden = !(kind === "ron" && (checked("winner_" + n) || win.dataset.open)); }
      const han = (checked("han_" + n) || {}).value || "";
      const legal = /^[1-4]$/.test(han) ? (pairs[kind === "tsumo" ? "tsumo" : "ron"][han] || []) : null;
      const fuBox = win.querySelector(".fu");
      fuBox.hidden = legal === null;
      fuBox.querySelectorAll("input").forEach((input) => {
        const ok = legal !== null && legal.includes(Number(input.value));
        input.hidden = !ok; input.nextElementSibling.hidden = !ok;
        if (!ok && input.checked) input.checked = false;
      });
    });
    const winner = (checked("winner_1") || {}).value;
    form.querySelectorAll('input[name="discarder"]').forEach((input) => {
      input.disabled = input.value === winner;
      if (input.disabled && input.checked) input.checked = false;
    });
  }
  form.addEventListener("change", update);
  document.getElementById("add-winner").addEventListener("click", () => {
    const next = [...form.querySelectorAll(".win")].find((w) => w.hidden && w.dataset.win !== "1");
    // the next winner's seats take the focus: a keyboard or screen reader goes on where the new fields are
    if (next) { next.dataset.open = "1"; next.hidden = false; next.querySelector("input").focus(); }
  });
  // The calculator inside the flow: count the tiles, hand han, fu and yaku back to winner 1.
  const result = document.getElementById("tiles-result");
  const images = JSON.parse(document.getElementById("tile-images").textContent);
  const yakuNames = JSON.parse(document.getElementById("yaku-names").textContent);
  document.getElementById("tiles-input").addEventListener("input", (event) => {
    const preview = document.getElementById("tiles-preview");
    preview.innerHTML = "";
    for (const group of event.target.value.matchAll(/(\d+)([mpsz])/g)) {
      for (const digit of group[1]) {
        const tile = images[digit + group[2]];
        if (!tile) continue;
        const img = document.createElement("img");
        img.src = tile.src; img.alt = tile.name; img.height = 40;
        preview.append(img);
      }
    }
  });
  document.getElementById("tiles-evaluate").addEventListener("click", async () => {
    const text = document.getElementById("tiles-input").value.trim();
    const [concealed, ...meldParts] = text.split(/\s+/);
    const melds = [];
    for (let i = 0; i + 1 < meldParts.length; i += 2) melds.push({ kind: meldParts[i], tiles: meldParts[i + 1] });
    const tsumo = outcome() === "tsumo";
    const riichi = [...form.querySelectorAll('input[name="riichi_positions"]:checked')].map((i) => i.value);
    const winner = (checked("winner_1") || {}).value;
    const dealer = (checked("dealer_position") || {}).value || "0";
    const seats = form.querySelectorAll('input[name="dealer_position"]').length;
    const last = concealed.match(/(\d)[^\d]*$/), suit = concealed.match(/([mpsz])[^mpsz]*$/);
    const hand = { tiles: concealed, melds: melds.map((m) => ({ type: m.kind, tiles: m.tiles })), tsumo,
      win_tile: last && suit ? last[1] + suit[1] : "", riichi: winner !== undefined && riichi.includes(winner),
      dealer: winner !== undefined && winner === dealer,
      seat_wind: winner === undefined ? "E" : "ESWN"[(Number(winner) - Number(dealer) + seats) % seats] };
    const url = form.dataset.evaluateUrl + "?ruleset=" + encodeURIComponent(form.dataset.ruleset || "");
    const response = await fetch(url, {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ hand }) });
    const data = await response.json();
    if (!response.ok || data.error) {
      result.textContent = (data.error && data.error.message) || gettext("The tiles could not be read.");
      return;
    }
    const r = data.result;
    const yakuman = r.limit === "yakuman";
    const han = yakuman ? (r.han >= 26 ? "Y2" : "Y1") : String(Math.min(r.han, 13));
    const hanInput = form.querySelector(`input[name="han_1"][value="${han}"]`);
    if (hanInput) hanInput.checked = true;
    update();
    const fuInput = form.querySelector(`input[name="fu_1"][value="${r.fu}"]`);
    if (fuInput && !fuInput.hidden) fuInput.checked = true;
    form.querySelector('input[name="yaku_1"]').value = JSON.stringify(r.yaku || []);
    const score = yakuman ? gettext("yakuman") : interpolate(gettext("%(han)s han %(fu)s fu"), { han: r.han, fu: r.fu }, true);
    result.textContent = interpolate(
      gettext("%(yaku)s — %(score)s. Dora are not in the tiles: add them to the han."),
      { yaku: (r.yaku || []).map(([key, han]) => (yakuNames[key] || key) + " " + han).join(" · "), score: score }, true);
  });
  update();
})();
