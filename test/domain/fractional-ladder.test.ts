// Table-driven tests of the traditional fractional ladder: the price books print for `odds_format=fractional`.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { FRACTIONAL_LADDER, toLadderFractional } from '../../src/domain/fractional-ladder.js';
import { formatOdds, fromFractional, roundDecimal, toFractional } from '../../src/domain/odds.js';

/** Decimal price → the ladder fraction a book prints for it (nearest rung; a tie goes to the shorter rung). */
const VECTORS: ReadonlyArray<readonly [number, string]> = [
  [1.01, '1/100'],
  [1.02, '1/50'],
  [1.03, '1/33'],
  [1.04, '1/25'],
  [1.05, '1/20'],
  [1.06, '1/16'],
  [1.07, '1/14'],
  [1.08, '1/12'],
  [1.1, '1/10'],
  [1.11, '1/9'],
  [1.12, '1/8'],
  [1.13, '1/8'], // 1/8 is 1.125, shown 1.13 (2/15 would shadow it, so it is not a rung)
  [1.14, '1/7'],
  [1.15, '2/13'],
  [1.17, '1/6'],
  [1.18, '2/11'],
  [1.2, '1/5'],
  [1.22, '2/9'],
  [1.25, '1/4'],
  [1.27, '2/7'],
  [1.3, '3/10'],
  [1.32, '1/3'], // exact 6/19: nearer 1/3 (1.333) than 3/10 (1.30)
  [1.33, '1/3'],
  [1.36, '4/11'],
  [1.4, '2/5'],
  [1.45, '4/9'],
  [1.5, '1/2'],
  [1.53, '8/15'],
  [1.57, '4/7'],
  [1.6, '8/13'],
  [1.67, '2/3'], // the ladder's 4/6, in lowest terms
  [1.72, '8/11'],
  [1.8, '4/5'],
  [1.83, '5/6'],
  [1.9, '10/11'],
  [1.91, '10/11'],
  [1.95, '20/21'],
  [2.0, '1/1'],
  [2.05, '21/20'],
  [2.1, '11/10'],
  [2.2, '6/5'],
  [2.25, '5/4'],
  [2.3, '5/4'], // 2.30: 5/4 (2.25) and 11/8 (2.375) are 0.05 and 0.075 away
  [2.38, '11/8'],
  [2.4, '7/5'],
  [2.5, '3/2'],
  [2.55, '3/2'], // 3/2 (2.50) and 8/5 (2.60) tie at 0.05: the shorter rung wins
  [2.62, '13/8'],
  [2.75, '7/4'],
  [2.8, '7/4'],
  [2.9, '15/8'],
  [2.92, '15/8'], // exact 23/12
  [3.0, '2/1'],
  [3.1, '17/8'], // the ladder's 85/40, in lowest terms
  [3.25, '9/4'],
  [3.4, '12/5'],
  [3.5, '5/2'],
  [3.6, '13/5'],
  [3.75, '11/4'],
  [4.0, '3/1'],
  [4.33, '10/3'], // the ladder's 100/30, in lowest terms
  [4.5, '7/2'],
  [5.0, '4/1'],
  [5.5, '9/2'],
  [6.0, '5/1'],
  [6.5, '11/2'],
  [7.0, '6/1'],
  [7.5, '13/2'],
  [8.0, '7/1'],
  [8.5, '15/2'],
  [9.0, '8/1'],
  [10.0, '9/1'],
  [11.0, '10/1'],
  [12.0, '11/1'],
  [13.0, '12/1'],
  [15.0, '14/1'],
  [17.0, '16/1'],
  [19.0, '18/1'],
  [21.0, '20/1'],
  [26.0, '25/1'],
  [29.0, '28/1'],
  [34.0, '33/1'],
  [35.27, '33/1'], // exact 377/11
  [41.0, '40/1'],
  [51.0, '50/1'],
  [67.0, '66/1'],
  [81.0, '80/1'],
  [101.0, '100/1'],
  [151.0, '150/1'],
  [201.0, '200/1'],
  [251.0, '250/1'],
  [501.0, '500/1'],
  [1000.0, '1000/1'],
];

const parts = (f: string): [number, number] => {
  const [p, q] = f.split('/').map(Number);
  return [p!, q!];
};
const value = (f: string): number => {
  const [p, q] = parts(f);
  return 1 + p / q;
};

describe('fractional ladder: decimal → nearest traditional rung', () => {
  test(`90+ vectors (${VECTORS.length})`, () => assert.ok(VECTORS.length >= 90));
  for (const [decimal, fraction] of VECTORS) {
    test(`${decimal.toFixed(2)} is ${fraction}`, () => {
      assert.equal(toLadderFractional(decimal), fraction);
      assert.equal(formatOdds(decimal, 'fractional'), fraction);
    });
  }
  test('the issue’s exact conversions are gone from `fractional` but stay in `fractional_exact`', () => {
    assert.equal(formatOdds(35.27, 'fractional_exact'), toFractional(35.27));
    assert.equal(formatOdds(2.92, 'fractional_exact'), '23/12');
    assert.equal(formatOdds(1.32, 'fractional_exact'), '6/19');
    assert.equal(formatOdds(1.32, 'fractional'), '1/3');
  });
});

describe('fractional ladder: properties', () => {
  const all: number[] = [];
  for (let h = 101; h <= 100_000; h++) all.push(h / 100);
  test('every shown fraction is a rung, and the rungs are in lowest terms and strictly increasing', () => {
    const rungs = new Set(FRACTIONAL_LADDER);
    let previous = 1;
    for (const f of FRACTIONAL_LADDER) {
      const [p, q] = parts(f);
      let [a, b] = [p, q];
      while (b !== 0) [a, b] = [b, a % b];
      assert.equal(a, 1, `${f} in lowest terms`);
      assert.ok(value(f) > previous, `${f} after ${previous}`);
      previous = value(f);
    }
    for (const d of all) assert.ok(rungs.has(toLadderFractional(d)), `${d}`);
  });
  test('nearest: no rung is closer to the decimal than the one shown (1.01..1000.00)', () => {
    for (const d of all) {
      const shown = Math.abs(value(toLadderFractional(d)) - d);
      for (const f of FRACTIONAL_LADDER) assert.ok(Math.abs(value(f) - d) >= shown - 1e-12, `${d}: ${f}`);
    }
  });
  test('monotonic: a longer price never shows a shorter rung', () => {
    let previous = 0;
    for (const d of all) {
      const v = value(toLadderFractional(d));
      assert.ok(v >= previous, `${d}`);
      previous = v;
    }
  });
  test('a rung shows itself, and its decimal parses back to the same rung', () => {
    for (const f of FRACTIONAL_LADDER) {
      const d = roundDecimal(value(f));
      assert.equal(toLadderFractional(d), f, f);
      assert.equal(toLadderFractional(fromFractional(f)), f, f);
    }
  });
});
