// Who deals the next hand, with how many honba 本場, and whether the regular game is over: the rules of
// tournament/engine/dealer.py, for the hands a sheet keeps on the device while the network is down
// (outbox.js sets the next hand's form from them). No page, no network: the same cases run against both
// (tests/cases/next_dealer.json, by pytest and by node --test tests/js/).
//
// The dealer 親 keeps the deal 連荘 when they win 和了連荘, when they are tenpai at an exhaustive draw 聴牌連荘,
// and after an abortive draw 途中流局; otherwise the deal passes to the next seat and, after the last seat,
// the prevailing wind advances. Honba go up by one after a dealer repeat or any draw and back to zero when a
// non-dealer wins. A hand replayed from the shuffle (art. 36 ③) is dealt again with the same dealer and honba.
// Art. 42: a player who left makes the game three- or two-player for every hand after; the deal goes round
// the seats still playing. The riichi sticks carried to the next hand 供託 are settle.js's deposits_out.

export const HANCHAN_WINDS = 2;  // 半荘戦: the East round 東場 then the South round 南場
export const OUTCOMES = ["ron", "tsumo", "exhaustive_draw", "abortive_draw", "replayed"];

// A rule refused: code and field as the engine's TournamentError.
export class DealerRuleError extends Error {
  constructor(code, field, message) {
    super(message || code);
    this.code = code;
    this.field = field;
  }
}

// The next deal among `players` seats numbered 0..players-1 in turn order: { dealer, honba, wind_advances }.
export function nextDeal({ players, dealer, honba, outcome, winners = [], tenpai = [] }) {
  if (!OUTCOMES.includes(outcome)) throw new DealerRuleError("invalid_outcome", "outcome", `unknown outcome ${outcome}`);
  if (!(dealer >= 0 && dealer < players)) throw new DealerRuleError("invalid_dealer", "dealer", "the dealer is not at the table");
  if (outcome === "replayed") return { dealer, honba, wind_advances: false };
  let repeats, nextHonba;
  if (outcome === "ron" || outcome === "tsumo") {
    repeats = winners.includes(dealer);  // 和了連荘
    nextHonba = repeats ? honba + 1 : 0;
  } else if (outcome === "exhaustive_draw") {
    repeats = tenpai.includes(dealer);  // 聴牌連荘
    nextHonba = honba + 1;
  } else {  // abortive draw 途中流局: the same dealer deals again
    repeats = true;
    nextHonba = honba + 1;
  }
  if (repeats) return { dealer, honba: nextHonba, wind_advances: false };
  const following = (dealer + 1) % players;
  return { dealer: following, honba: nextHonba, wind_advances: following === 0 };
}

// Who deals next when seats may have left (art. 42): `playing` are the seat positions that played the hand,
// in seat order, `dealer`, `winners` and `tenpai` positions among them, `playing_next` those playing the next
// hand (default: the same). Returns { position, honba, wind_advances }.
export function nextDealerPosition({ playing, dealer, honba, outcome, winners = [], tenpai = [], playing_next = null }) {
  const order = [...playing];
  const following = playing_next === null || playing_next === undefined ? order : [...playing_next];
  if (new Set(order).size !== order.length || new Set(following).size !== following.length) {
    throw new DealerRuleError("invalid_seats", "playing", "a seat is listed twice");
  }
  if (following.length < 2 || following.length > order.length || !following.every((p) => order.includes(p))) {
    throw new DealerRuleError("invalid_seats", "playing_next", "the next hand is played by 2 or more of the same seats");
  }
  for (const [name, positions] of [["dealer", [dealer]], ["winners", winners], ["tenpai", tenpai]]) {
    if (positions.some((p) => !order.includes(p))) {
      throw new DealerRuleError("invalid_dealer", name, `${name}: a seat that did not play the hand`);
    }
  }
  const deal = nextDeal({ players: order.length, dealer: order.indexOf(dealer), honba, outcome,
    winners: winners.map((w) => order.indexOf(w)), tenpai: tenpai.map((t) => order.indexOf(t)) });
  let position = order[deal.dealer], windAdvances = deal.wind_advances;
  if (!following.includes(position)) {  // the dealer-to-be has left: the next seat still playing deals
    const later = following.filter((p) => p > position);
    position = later.length ? later[0] : following[0];
    windAdvances = windAdvances || !later.length;
  }
  return { position, honba: deal.honba, wind_advances: windAdvances };
}

// The prevailing wind 場風 after a hand dealt by `dealer` following one dealt by `previous` in wind `wind`
// (0 = East 東場, 1 = South 南場, …): it advances when the deal passed back round to a lower seat.
export function windAfter(wind, previous, dealer) {
  return Math.min(dealer < previous ? wind + 1 : wind, 3);
}

// The prevailing wind of the last of these hands, from their dealers' positions in play order.
export function prevailingWind(dealerPositions) {
  let wind = 0;
  for (let i = 1; i < dealerPositions.length; i++) if (dealerPositions[i] < dealerPositions[i - 1]) wind += 1;
  return Math.min(wind, 3);
}

// Where a regular game stands after its last hand: over once the deal would pass beyond the last hand of its
// last wind round (South 4 in a hanchan, South 3 in a game made three-player by art. 42). `dealers`: the dealer
// positions of every hand played, `next_deal` what nextDealerPosition gives after the last one.
export function regularGameStand({ dealers, playing, honba, next_deal: deal, playing_next, winds = HANCHAN_WINDS }) {
  if (!dealers.length) throw new DealerRuleError("no_hands", "dealers", "no hand has been played");
  const last = dealers[dealers.length - 1];
  if (!playing.includes(last)) throw new DealerRuleError("invalid_dealer", "dealer", "the dealer is not at the table");
  const wind = prevailingWind(dealers);
  return { over: wind + (deal.wind_advances ? 1 : 0) >= winds, wind, dealer_number: playing.indexOf(last) + 1, honba,
    players: playing.length, players_next: playing_next.length, winds };
}
