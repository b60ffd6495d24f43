// tests/cases/next_dealer.json against dealer.js (pytest runs them against tournament/engine/dealer.py).
import assert from "node:assert/strict";
import { test } from "node:test";
import { cases, module } from "./cases.mjs";

const shared = cases("next_dealer.json");
const { nextDealerPosition, prevailingWind, regularGameStand } = await module("dealer.js");

for (const c of shared.next_dealer) {
  test(`next dealer: ${c.name}`, () => {
    if (c.error) {
      assert.throws(() => nextDealerPosition(c.given), (error) => error.code === c.error.code && error.field === c.error.field);
    } else {
      assert.deepEqual(nextDealerPosition(c.given), c.next);
    }
  });
}

for (const c of shared.prevailing_wind) {
  test(`prevailing wind: ${c.name}`, () => assert.equal(prevailingWind(c.dealers), c.wind));
}

for (const c of shared.game_stand) {
  test(`game stand: ${c.name}`, () => {
    const g = c.given, playingNext = g.playing_next || g.playing;
    const deal = nextDealerPosition({ playing: g.playing, playing_next: playingNext, dealer: g.dealers[g.dealers.length - 1],
      honba: g.honba, outcome: g.outcome, winners: g.winners || [], tenpai: g.tenpai || [] });
    assert.deepEqual(deal, c.next);
    const stand = regularGameStand({ dealers: g.dealers, playing: g.playing, honba: g.honba, next_deal: deal, playing_next: playingNext });
    assert.deepEqual({ ...stand, winds: undefined }, { ...c.stand, winds: undefined });
  });
}
