// The hand calculator (templates/scoring/calculator.html): the form is scored by the evaluate API and a
// hand short of a tile is read by the shape API. Words come from the djangojs catalog (gettext,
// ngettext, interpolate), loaded before this script.
(function () {
  "use strict";
  // The words of the JS catalog (/jsi18n/, loaded by the page before this script); without it (a device offline
  // that never kept it), the English words: the page works either way.
  const gettext = (text) => (window.gettext ? window.gettext(text) : text);
  const ngettext = (one, many, count) => (window.ngettext ? window.ngettext(one, many, count) : count === 1 ? one : many);
  const interpolate = (text, values, named) => (window.interpolate ? window.interpolate(text, values, named)
    : named ? text.replace(/%\((\w+)\)s/g, (all, name) => String(values[name])) : text.replace(/%s/g, () => String(values.shift())));
  const form = document.getElementById("calculator");
  if (!form) return;
  const LABELS = JSON.parse(document.getElementById("calculator-labels").textContent);
  const EVALUATE_URL = form.dataset.evaluateUrl;
  const SHAPE_URL = form.dataset.shapeUrl;
  const FLAGS = ["riichi", "double_riichi", "ippatsu", "haitei", "houtei", "rinshan", "chankan", "tenhou", "chiihou"];
  const $ = (id) => document.getElementById(id);
  const tilesInput = $("tiles"), winInput = $("win-tile");

  // MPSZ text -> ["3m", "4m", ...] in writing order, or null when it cannot be read (the server names the problem).
  function parseTiles(text) {
    const compact = text.replace(/\s+/g, "");
    if (!/^(\d+[mpsz])*$/.test(compact)) return null;
    const tiles = [];
    for (const run of compact.match(/\d+[mpsz]/g) || []) {
      const suit = run[run.length - 1];
      for (const digit of run.slice(0, -1)) tiles.push(digit + suit);
    }
    return tiles;
  }
  const SUIT_ORDER = { m: 0, p: 1, s: 2, z: 3 };
  const sortKey = (tile) => SUIT_ORDER[tile[1]] * 10 + (tile[0] === "0" ? 5.5 : Number(tile[0]));
  function formatTiles(tiles) {
    let text = "", run = "", suit = "";
    for (const tile of [...tiles].sort((a, b) => sortKey(a) - sortKey(b))) {
      if (suit && tile[1] !== suit) { text += run + suit; run = ""; }
      suit = tile[1]; run += tile[0];
    }
    return run ? text + run + suit : text;
  }
  const tileLabel = (tile) => LABELS.tiles[tile] || tile;
  // Indicators are sent as a list of single tiles; unreadable text goes as it is, for the server's message.
  function tileList(text) {
    const tiles = parseTiles(text);
    if (tiles === null) return [text.trim()];
    return tiles;
  }

  function renderHand(event) {
    const hand = $("hand");
    hand.replaceChildren();
    const tiles = parseTiles(tilesInput.value);
    $("tile-count").textContent = tiles
      ? interpolate(ngettext("%(count)s tile", "%(count)s tiles", tiles.length), { count: tiles.length }, true) : "";
    if (!tiles) return;
    const typingWinTile = event && event.target === winInput;
    if (!typingWinTile && winInput.value && !tiles.includes(winInput.value.trim())) winInput.value = "";  // a stale choice
    let marked = false;
    tiles.forEach((tile, position) => {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "tile" + (tile[0] === "0" ? " red" : "");
      button.dataset.tile = tile;
      button.dataset.position = position;
      button.title = interpolate(gettext("Make %(tile)s the winning tile"), { tile: tile }, true);
      const isWin = !marked && tile === winInput.value.trim();
      if (isWin) marked = true;
      button.setAttribute("aria-pressed", isWin ? "true" : "false");
      // the palette's image of the same tile (its URL is the static storage's, hashed in production)
      const face = document.querySelector('#palette [data-tile="' + tile + '"] .glyph');
      if (face) button.append(face.cloneNode());
      const label = document.createElement("span");
      label.className = "label"; label.textContent = tileLabel(tile);
      button.append(label);
      button.addEventListener("click", () => { winInput.value = tile; renderHand(); });
      hand.append(button);
    });
  }

  function addTile(tile) {
    const target = $($("target").value);
    const tiles = parseTiles(target.value);
    target.value = tiles === null ? target.value + tile : formatTiles([...tiles, tile]);
    if (target === tilesInput) { winInput.value = tile; renderHand(); }
  }
  document.querySelectorAll("#palette button.tile").forEach((button) => {
    button.addEventListener("click", () => addTile(button.dataset.tile));
  });
  tilesInput.addEventListener("input", renderHand);
  winInput.addEventListener("input", renderHand);
  $("undo").addEventListener("click", () => {
    const tiles = parseTiles(tilesInput.value);
    if (!tiles || !tiles.length) return;
    tiles.pop();
    tilesInput.value = formatTiles(tiles);
    renderHand();
  });
  $("clear").addEventListener("click", () => {
    tilesInput.value = ""; winInput.value = ""; renderHand(); tilesInput.focus();
  });
  const rulesetSelect = $("ruleset");
  const akaDefault = () => { const o = rulesetSelect.selectedOptions[0]; $("aka-dora").checked = !!o && o.dataset.aka === "1"; };
  rulesetSelect.addEventListener("change", akaDefault);
  akaDefault();

  function integerField(id) {
    const text = $(id).value.trim();
    return /^\d+$/.test(text) ? Number(text) : (text === "" ? 0 : text);
  }
  function buildRequest() {
    const hand = { tiles: tilesInput.value.replace(/\s+/g, "") };
    const written = parseTiles(tilesInput.value);
    hand.win_tile = winInput.value.trim() || (written && written.length ? written[written.length - 1] : "");
    hand.tsumo = $("tsumo").checked;
    for (const flag of FLAGS) hand[flag] = $(flag).checked;
    if (hand.double_riichi) hand.riichi = true;  // double riichi is scored as riichi's stronger form
    hand.seat_wind = $("seat-wind").value;
    hand.round_wind = $("round-wind").value;
    hand.dora_indicators = $("dora").value.trim() ? tileList($("dora").value) : [];
    hand.ura_dora_indicators = $("ura").value.trim() ? tileList($("ura").value) : [];
    hand.honba = integerField("honba");
    hand.riichi_sticks = integerField("riichi-sticks");
    hand.melds = [];
    for (let n = 1; n <= 4; n++) {
      const type = $("meld-" + n + "-type").value, meldTiles = $("meld-" + n + "-tiles").value.replace(/\s+/g, "");
      if (type || meldTiles) hand.melds.push({ type: type, tiles: meldTiles });
    }
    return { id: "calculator", rules: { aka_dora: $("aka-dora").checked }, hand: hand };
  }

  async function post(url, body) {
    const response = await fetch(url, {
      method: "POST", headers: { "Content-Type": "application/json", "Accept": "application/json" },
      body: JSON.stringify(body),
    });
    return response.json();
  }

  function row(tbody, cells) {
    const tr = document.createElement("tr");
    cells.forEach((text, i) => {
      const td = document.createElement("td");
      if (i > 0) td.className = "num";
      td.textContent = String(text);
      tr.append(td);
    });
    tbody.append(tr);
  }
  function showError(error) {
    const box = $("calc-error");
    box.textContent = error.message;  // the code is for programs (data-code), not for people
    box.dataset.code = error.code;
    box.hidden = false;
  }
  function paymentLines(payments, tsumo) {
    if ("ron" in payments) return [[gettext("Discarder (ron)"), payments.ron]];
    const lines = [];
    if ("dealer" in payments) lines.push([gettext("Dealer"), payments.dealer]);
    lines.push([("dealer" in payments || !tsumo) ? gettext("Each non-dealer") : gettext("Each other player (dealer tsumo)"),
      payments.non_dealer]);
    return lines;
  }
  function showResult(result, tsumo) {
    $("han").textContent = result.han;
    $("fu").textContent = result.fu;
    $("limit").textContent = result.limit ? (LABELS.limit[result.limit] || result.limit) : "—";
    $("total").textContent = result.total;
    const yaku = $("yaku").tBodies[0], fu = $("fu-details").tBodies[0], pay = $("payments").tBodies[0];
    yaku.replaceChildren(); fu.replaceChildren(); pay.replaceChildren();
    for (const [key, han] of result.yaku) row(yaku, [(LABELS.yaku[key] || key) + " · " + key, han]);
    for (const [key, value] of result.fu_details) row(fu, [LABELS.fu[key] || key, value]);
    for (const [who, amount] of paymentLines(result.payments, tsumo)) row(pay, [who, amount]);
    $("result").hidden = false;
  }
  const pairText = (pair) => { const m = /^(\d)([mpsz])\1\2$/.exec(pair); return m ? m[1] + m[1] + m[2] : pair; };
  function showShape(report) {
    const s = report.shanten;
    const forms = [interpolate(gettext("standard %(shanten)s"), { shanten: s.standard }, true)];
    if (s.seven_pairs !== null) forms.push(interpolate(gettext("seven pairs %(shanten)s"), { shanten: s.seven_pairs }, true));
    if (s.thirteen_orphans !== null) {
      forms.push(interpolate(gettext("thirteen orphans %(shanten)s"), { shanten: s.thirteen_orphans }, true));
    }
    $("shape-summary").textContent = interpolate(ngettext(
      "%(tiles)s (%(count)s tile): shanten 向聴 %(shanten)s (%(forms)s)",
      "%(tiles)s (%(count)s tiles): shanten 向聴 %(shanten)s (%(forms)s)", report.count),
    { tiles: report.tiles, count: report.count, shanten: s.minimum, forms: forms.join(", ") }, true);
    const waits = $("waits");
    if ("waits" in report) {
      const names = report.waits.map((t) => tileLabel(t) === t ? t : tileLabel(t) + " (" + t + ")").join(", ");
      waits.textContent = report.tenpai ? interpolate(gettext("Tenpai 聴牌 — waits: %(waits)s"), { waits: names }, true)
        : gettext("Not tenpai");
    } else {
      waits.textContent = report.complete ? gettext("Complete hand") : gettext("Not a complete hand");
    }
    const list = $("decompositions");
    list.replaceChildren();
    for (const d of report.decompositions || []) {
      const li = document.createElement("li");
      li.textContent = [...d.melds, pairText(d.pair)].join(" ");
      list.append(li);
    }
    const models = $("models").tBodies[0];
    models.replaceChildren();
    for (const m of report.models) {
      const kind = m.kind === "near_useful"
        ? interpolate(gettext("near useful, keep %(keep)s, spare %(spare)s"), { keep: m.keep, spare: m.spare }, true)
        : (m.meld || m.model || m.kind);
      const tr = document.createElement("tr");
      for (const text of [m.tiles, kind + (m.japanese ? " " + m.japanese : "")]) {
        const td = document.createElement("td"); td.textContent = text; tr.append(td);
      }
      models.append(tr);
    }
    $("shape").hidden = false;
  }

  $("calculator").addEventListener("submit", async (event) => {
    event.preventDefault();
    $("calc-error").hidden = true; $("result").hidden = true; $("shape").hidden = true;
    const written = parseTiles(tilesInput.value);
    const waiting = written !== null && written.length % 3 === 1;
    try {
      const shapeAsked = written !== null && written.length % 3 !== 0 ? post(SHAPE_URL, { tiles: tilesInput.value.replace(/\s+/g, "") }) : null;
      if (!waiting) {
        const request = buildRequest();
        const query = "?ruleset=" + encodeURIComponent(rulesetSelect.value) + ($("players").value ? "&players=" + $("players").value : "");
        const answer = await post(EVALUATE_URL + query, request);
        if (answer.error) showError(answer.error); else showResult(answer.result, request.hand.tsumo);
      }
      const shape = shapeAsked ? await shapeAsked : null;
      if (shape && !shape.error) showShape(shape);
      else if (shape && waiting) showError(shape.error);
    } catch (problem) {
      showError({ code: "network",
        message: interpolate(gettext("the calculator could not be reached: %(problem)s"), { problem: String(problem) }, true) });
    }
  });
  renderHand();
})();
