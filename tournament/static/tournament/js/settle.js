// Settling one hand on the device: scoring/engine/settle.py's settle_hand, for the hands a sheet keeps on the
// device while the network is down (outbox.js shows them, and the seat scores with them, as provisional).
// The wins come priced by the server (scoring.services.win_price_list); what this module does is the rule
// that moves them between the seats with the riichi sticks and the deposits 供託. Its cases are
// tests/cases/settle_hand.json, run by pytest against settle.py and in the browser against this module.
//
// outcome: { seats, dealer_seat, kind: ron | tsumo | exhaustive_draw | abortive_draw, deposits_in,
//   riichi_seats, wins: [{ winner, discarder, payment: { ron, tsumo_dealer, tsumo_non_dealer, honba_per_payer } }],
//   tenpai_seats }, seats numbered 0.. in turn order; options: { multiple_ron: all | head_bump,
//   honba_to: every_winner | first_winner, noten_payment_total, riichi_stick, point_unit }.
// Returns { deltas, deposits_out, winners, deposits_to } as settle_hand does.

const turnDistance = (seats, origin, seat) => ((seat - origin) % seats + seats) % seats;
const gcd = (a, b) => (b ? gcd(b, a % b) : a);

// 不聴罰符: the noten players pay the total to the tenpai players, the largest amount that splits in units.
export function notenPayments(seats, tenpaiSeats, total, unit) {
  const tenpai = new Set(tenpaiSeats).size, noten = seats - tenpai;
  if (tenpai === 0 || noten === 0) return new Array(seats).fill(0);
  const step = (tenpai * noten / gcd(tenpai, noten)) * unit;
  const exchanged = Math.floor(total / step) * step;
  return [...Array(seats).keys()].map((seat) => (tenpaiSeats.includes(seat) ? exchanged / tenpai : -exchanged / noten));
}

export function settleHand(outcome, options) {
  const deltas = new Array(outcome.seats).fill(0);
  const riichi = outcome.riichi_seats || [];
  for (const seat of riichi) deltas[seat] -= options.riichi_stick;
  let pool = (outcome.deposits_in || 0) + options.riichi_stick * riichi.length;
  let winners = [];
  const wins = outcome.wins || [];
  if (outcome.kind === "ron") {
    const discarder = wins[0].discarder;
    let ordered = [...wins].sort((a, b) => turnDistance(outcome.seats, discarder, a.winner) - turnDistance(outcome.seats, discarder, b.winner));
    if (options.multiple_ron === "head_bump") ordered = ordered.slice(0, 1);
    ordered.forEach((win, position) => {
      let amount = win.payment.ron;
      if (position > 0 && options.honba_to === "first_winner") amount -= (outcome.seats - 1) * win.payment.honba_per_payer;
      deltas[discarder] -= amount;
      deltas[win.winner] += amount;
    });
    winners = ordered.map((win) => win.winner);
  } else if (outcome.kind === "tsumo") {
    const win = wins[0];
    for (let seat = 0; seat < outcome.seats; seat++) {
      if (seat === win.winner) continue;
      const amount = seat === outcome.dealer_seat ? win.payment.tsumo_dealer : win.payment.tsumo_non_dealer;
      deltas[seat] -= amount;
      deltas[win.winner] += amount;
    }
    winners = [win.winner];
  } else if (outcome.kind === "exhaustive_draw") {
    notenPayments(outcome.seats, outcome.tenpai_seats || [], options.noten_payment_total, options.point_unit)
      .forEach((amount, seat) => { deltas[seat] += amount; });
  }
  let depositsTo = null;
  if (winners.length) {  // the first winner in turn order from the discarder takes every deposit
    if (pool) { depositsTo = winners[0]; deltas[depositsTo] += pool; }
    pool = 0;
  }
  return { deltas, deposits_out: pool, winners, deposits_to: depositsTo };
}
