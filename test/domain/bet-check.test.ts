// Bet check arithmetic: singles, parlays, refunds at 1.00, half outcomes and dead heats, status follows the money.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  checkBet,
  isFiniteCheck,
  legFactor,
  MAX_LEGS,
  MAX_ODDS,
  MAX_STAKE,
  type LegOutcome,
} from '../../src/domain/bet-check.js';

/** Equal to 12 significant digits: a product of many doubles drifts in its last bit. */
const near = (x: number, expected: number): boolean => Math.abs(x / expected - 1) < 1e-12;
const won = (odds: number, extra: Partial<LegOutcome> = {}): LegOutcome => ({ result: 'won', odds, ...extra });
const lost = (odds: number, extra: Partial<LegOutcome> = {}): LegOutcome => ({ result: 'lost', odds, ...extra });
const refund = (odds: number): LegOutcome => ({ result: 'refund', odds });
const pending = (odds: number): LegOutcome => ({ result: 'pending', odds });

describe('bet check', () => {
  const cases: Array<[string, LegOutcome[], number, string, number | null]> = [
    ['a won single pays stake × odds', [won(2.5)], 10, 'won', 25],
    ['a lost single pays nothing', [lost(2.5)], 10, 'lost', 0],
    ['a refunded single returns the stake', [refund(2.5)], 10, 'refund', 10],
    [
      'a half-won single (quarter line) pays half at the odds, half back',
      [won(1.9, { voidFactor: 0.5 })],
      10,
      'won',
      14.5,
    ],
    ['a half-lost single returns half the stake and is lost', [lost(1.9, { voidFactor: 0.5 })], 10, 'lost', 5],
    ['a dead-heat winner is paid on the dead-heat share', [won(5, { deadHeatFactor: 0.5 })], 10, 'won', 25],
    ['a parlay of winners multiplies the odds', [won(2), won(1.5), won(3)], 10, 'won', 90],
    ['a refunded leg counts as 1.00 in a parlay', [won(2), refund(3), won(1.5)], 10, 'won', 30],
    ['one lost leg loses the parlay', [won(2), lost(3), won(1.5)], 10, 'lost', 0],
    ['a parlay of refunds returns the stake', [refund(2), refund(3)], 10, 'refund', 10],
    [
      'a half-lost leg halves the parlay (here back to the stake: refund)',
      [won(2), lost(1.9, { voidFactor: 0.5 })],
      10,
      'refund',
      10,
    ],
    ['a half-lost leg can leave the parlay lost', [won(1.5), lost(1.9, { voidFactor: 0.5 })], 10, 'lost', 7.5],
    ['a half-won leg counts (odds + 1) / 2', [won(2), won(1.9, { voidFactor: 0.5 })], 10, 'won', 29],
    ['pending while a leg is open and none is wholly lost', [won(2), pending(1.8)], 10, 'pending', null],
    ['lost at once when a leg is wholly lost, even with legs pending', [lost(2), pending(1.8)], 10, 'lost', 0],
    [
      'a half-lost leg with another pending is still pending',
      [lost(2, { voidFactor: 0.5 }), pending(1.8)],
      10,
      'pending',
      null,
    ],
  ];
  for (const [name, legs, stake, status, payout] of cases) {
    it(name, () => {
      const r = checkBet(legs, stake);
      assert.equal(r.status, status);
      assert.equal(r.payout, payout);
    });
  }

  it('without a stake the status is decided on one unit', () => {
    assert.equal(checkBet([won(1.01)]).status, 'won');
    assert.equal(checkBet([refund(3)]).status, 'refund');
  });

  it('combined odds: refunds count 1.00 and half outcomes exactly', () => {
    assert.equal(checkBet([won(2), refund(3), won(1.9, { voidFactor: 0.5 })]).combinedOdds, 2.9);
  });

  it('a quarter-line leg pays the average of its two neighbouring lines (half won = won and refund averaged)', () => {
    for (const odds of [1.5, 1.85, 2, 2.4, 3.75]) {
      const half = legFactor(won(odds, { voidFactor: 0.5 }));
      assert.ok(Math.abs(half - (legFactor(won(odds)) + legFactor(refund(odds))) / 2) < 1e-12);
      const halfLost = legFactor(lost(odds, { voidFactor: 0.5 }));
      assert.ok(Math.abs(halfLost - (legFactor(lost(odds)) + legFactor(refund(odds))) / 2) < 1e-12);
    }
  });

  it('payouts are exact to the cent with awkward odds', () => {
    assert.equal(checkBet([won(1.91), won(1.91), won(1.91)], 10).payout, 69.68);
    assert.equal(checkBet([won(1.07)], 0.1).payout, 0.11);
  });

  it('the largest bet a client may send has finite figures (20 legs at the largest odds, the largest stake)', () => {
    const check = checkBet(
      Array.from({ length: MAX_LEGS }, () => won(MAX_ODDS)),
      MAX_STAKE,
    );
    assert.ok(isFiniteCheck(check));
    assert.ok(near(check.combinedOdds, 1e120), String(check.combinedOdds));
    assert.ok(near(check.payout ?? 0, 1e132), String(check.payout));
  });

  it('rounding never turns a huge finite figure into Infinity', () => {
    const check = checkBet([won(1e300), won(1e5)], 1);
    assert.ok(near(check.combinedOdds, 1e305), String(check.combinedOdds));
    assert.ok(isFiniteCheck(check));
  });

  it('a product past the largest double is flagged, pending or settled', () => {
    assert.equal(isFiniteCheck(checkBet([won(1e200), won(1e200)], 1)), false);
    assert.equal(isFiniteCheck(checkBet([pending(1e200), pending(1e200)])), false);
    assert.equal(isFiniteCheck(checkBet([won(2)], 1e308)), false);
  });
});
