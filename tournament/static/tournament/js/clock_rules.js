// The chess clock of art. 38 (持ち時間) as tournament/engine/clock.py has it, for the clock a device runs while
// the network is down (clock.js). No page, no network, no clock of its own: every transition takes now_ms, an
// integer of milliseconds. The same cases run against both (tests/cases/clock_rules.json, by pytest and by
// node --test tests/js/).
//
// * ② the opener (開局者, the dealer) starts the hand: every bank full, the opener on turn;
// * ③ the seat on turn is charged the time from the mark (the previous press, or the resume) to its press;
// * ④ each press adds the increment (Fischer rule), never above the bank's initial value;
// * ⑤ at 0 the seat is flagged for the rest of the hand: no increment, no claim 拾.
// Art. 42: a seat that left the game (absent) keeps its number; the turn passes over it, it never claims.
//
// A state: { bank_ms, increment_ms, players, absent, status: running | paused | finished, seat_on_turn,
//   turn_number, banks_ms, mark_ms, flagged, claims: [[turn it opened, claiming seat, at ms]] } (clock.py's
//   state_to_dict without its version). A transition returns { state, events: [{ seat, turn_number, at_ms }] }.

// A rule refused: the engine's code and field (clock_stale_turn, claim_forbidden, …).
export class ClockRuleError extends Error {
  constructor(code, field, message) {
    super(message || code);
    this.code = code;
    this.field = field;
  }
}

const isInt = (value) => Number.isInteger(value);

function checkSeat(state, seat, field) {
  if (!isInt(seat) || seat < 0 || seat >= state.players) throw new ClockRuleError("invalid_seat", field, `seat must be 0 to ${state.players - 1}`);
}

function checkPlaying(state, seat, field) {
  if ((state.absent || []).includes(seat)) throw new ClockRuleError("player_left", field, `seat ${seat} has left the game (art. 42)`);
}

function requireStatus(state, status) {
  if (state.status === status) return;
  const codes = { paused: "clock_paused", finished: "clock_finished", running: "clock_not_paused" };
  throw new ClockRuleError(codes[state.status], null, `the clock is ${state.status}, not ${status}`);
}

function elapsed(state, nowMs) {
  if (!isInt(nowMs)) throw new ClockRuleError("invalid_timestamp", "now_ms", "timestamps are integers of milliseconds");
  if (nowMs < state.mark_ms) throw new ClockRuleError("time_went_backwards", "now_ms", `the time source went backwards (${nowMs} < ${state.mark_ms})`);
  return nowMs - state.mark_ms;
}

// The settings of a clock, checked as ClockSettings checks them.
export function clockSettings({ bank_ms, increment_ms, players = 4, absent = [] }) {
  for (const [name, value] of [["bank_ms", bank_ms], ["increment_ms", increment_ms], ["players", players]]) {
    if (!isInt(value)) throw new ClockRuleError("invalid_clock_settings", name, `${name} must be an integer`);
  }
  if (bank_ms <= 0) throw new ClockRuleError("invalid_clock_settings", "bank_ms", "the time bank must be positive");
  if (increment_ms < 0) throw new ClockRuleError("invalid_clock_settings", "increment_ms", "the increment must not be negative");
  if (![2, 3, 4].includes(players)) throw new ClockRuleError("invalid_clock_settings", "players", "players must be 2, 3 or 4");
  const left = [...new Set(absent)].sort((a, b) => a - b);
  if (left.some((s) => !isInt(s) || s < 0 || s >= players)) throw new ClockRuleError("invalid_clock_settings", "absent", "absent seats must be seats");
  if (players - left.length < 2) throw new ClockRuleError("invalid_clock_settings", "absent", "a hand needs two players");
  return { bank_ms, increment_ms, players, absent: left };
}

// The next seat still playing after `seat`, in turn order (an absent seat never has the turn).
export function seatAfter(state, seat) {
  const absent = state.absent || [];
  let following = (seat + 1) % state.players;
  while (absent.includes(following)) following = (following + 1) % state.players;
  return following;
}

// ② The opener presses the clock: every bank full, its own time running from now.
export function startHand(settings, openerSeat, nowMs) {
  const checked = clockSettings(settings);
  checkSeat(checked, openerSeat, "opener_seat");
  checkPlaying(checked, openerSeat, "opener_seat");
  return { ...checked, status: "running", seat_on_turn: openerSeat, turn_number: 1,
    banks_ms: new Array(checked.players).fill(checked.bank_ms), mark_ms: nowMs, flagged: [], claims: [] };
}

// The time `seat` has left at nowMs (the running seat's bank minus the time since the mark, never below 0).
export function remainingMs(state, seat, nowMs) {
  checkSeat(state, seat, "seat");
  const bank = state.banks_ms[seat];
  if (state.status === "running" && seat === state.seat_on_turn) return Math.max(0, bank - elapsed(state, nowMs));
  return bank;
}

// ③ ⑤ The seat on turn charged for the time since the mark, flagged when its bank reaches 0.
function chargeSeatOnTurn(state, nowMs) {
  const spent = elapsed(state, nowMs);
  const seat = state.seat_on_turn;
  if (state.flagged.includes(seat)) return { state: { ...state, mark_ms: nowMs }, events: [] };
  const left = state.banks_ms[seat] - spent;
  const banks = [...state.banks_ms];
  banks[seat] = Math.max(0, left);
  if (left > 0) return { state: { ...state, banks_ms: banks, mark_ms: nowMs }, events: [] };
  const flagged = [...state.flagged, seat].sort((a, b) => a - b);
  return { state: { ...state, banks_ms: banks, flagged, mark_ms: nowMs },
    events: [{ seat, turn_number: state.turn_number, at_ms: nowMs }] };
}

// ③ ④ `seat` presses after discarding; the turn goes to the next seat playing, or to `claim_by` when a seat
// claims the discard (never a flagged seat: ⑤, never one that left: art. 42).
export function press(state, { seat, turn_number: turnNumber, now_ms: nowMs, claim_by: claimBy = null }) {
  requireStatus(state, "running");
  if (turnNumber !== state.turn_number) {
    throw new ClockRuleError("clock_stale_turn", "turn_number", `the press is for turn ${turnNumber}, the clock is on turn ${state.turn_number}`);
  }
  if (seat !== state.seat_on_turn) {
    throw new ClockRuleError("clock_wrong_seat", "seat", `seat ${seat} is not on turn (seat ${state.seat_on_turn} is)`);
  }
  let claims = state.claims || [], nextSeat;
  if (claimBy === null || claimBy === undefined) {
    nextSeat = seatAfter(state, seat);
  } else {
    checkSeat(state, claimBy, "claim_by");
    checkPlaying(state, claimBy, "claim_by");
    if (claimBy === seat) throw new ClockRuleError("invalid_claim", "claim_by", "a seat cannot claim its own discard");
    if (state.flagged.includes(claimBy)) {
      throw new ClockRuleError("claim_forbidden", "claim_by", `seat ${claimBy} ran out of time and lost the right to claim this hand (art. 38 ⑤)`);
    }
    nextSeat = claimBy;
    claims = [...claims, [state.turn_number + 1, claimBy, nowMs]];
  }
  const charged = chargeSeatOnTurn(state, nowMs);
  const banks = [...charged.state.banks_ms];
  if (!charged.state.flagged.includes(seat)) {
    banks[seat] = Math.min(state.bank_ms, banks[seat] + state.increment_ms);  // ④ never above the initial bank
  }
  return { state: { ...charged.state, banks_ms: banks, seat_on_turn: nextSeat, turn_number: state.turn_number + 1,
    mark_ms: nowMs, claims }, events: charged.events };
}

// ⑤ The seat on turn flagged the moment its bank reaches 0, without waiting for its press.
export function observe(state, nowMs) {
  if (state.status !== "running" || state.flagged.includes(state.seat_on_turn)) return { state, events: [] };
  if (remainingMs(state, state.seat_on_turn, nowMs) > 0) return { state, events: [] };
  return chargeSeatOnTurn(state, nowMs);
}

// A referee pauses the clock: the time so far is charged, the paused time to nobody.
export function pause(state, nowMs) {
  requireStatus(state, "running");
  const charged = chargeSeatOnTurn(state, nowMs);
  return { state: { ...charged.state, status: "paused", mark_ms: nowMs }, events: charged.events };
}

// A referee resumes the clock: the seat on turn is charged from now on.
export function resume(state, nowMs) {
  requireStatus(state, "paused");
  elapsed(state, nowMs);
  return { ...state, status: "running", mark_ms: nowMs };
}

// The hand is over 終局: the last running time is charged and the clock stops for good.
export function endHand(state, nowMs) {
  if (state.status === "finished") throw new ClockRuleError("clock_finished", null, "the clock of this hand has already stopped");
  const charged = state.status === "running" ? chargeSeatOnTurn(state, nowMs) : { state, events: [] };
  return { state: { ...charged.state, status: "finished", mark_ms: nowMs }, events: charged.events };
}
