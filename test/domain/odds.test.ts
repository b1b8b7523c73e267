// Table-driven tests of the odds formats: rounding, american, fractional, parsing and the properties clients rely on.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import {
  formatOdds,
  fromAmerican,
  fromFractional,
  parseFractional,
  roundDecimal,
  toAmerican,
  toFractional,
} from '../../src/domain/odds.js';
import { ServiceError } from '../../src/domain/errors.js';

/**
 * Decimal → american → fractional, as published conversion charts print them. American is computed
 * from the 2-decimal price the client sees (1.67 is -149, not the -150 of an exact 2/3).
 */
const CHART: ReadonlyArray<readonly [number, number, string]> = [
  [1.01, -10000, '1/100'],
  [1.02, -5000, '1/50'],
  [1.03, -3333, '1/33'],
  [1.04, -2500, '1/25'],
  [1.05, -2000, '1/20'],
  [1.07, -1429, '1/14'],
  [1.09, -1111, '1/11'],
  [1.1, -1000, '1/10'],
  [1.11, -909, '1/9'],
  [1.13, -769, '1/8'],
  [1.14, -714, '1/7'],
  [1.17, -588, '1/6'],
  [1.18, -556, '2/11'],
  [1.2, -500, '1/5'],
  [1.22, -455, '2/9'],
  [1.25, -400, '1/4'],
  [1.29, -345, '2/7'],
  [1.3, -333, '3/10'],
  [1.33, -303, '1/3'],
  [1.36, -278, '4/11'],
  [1.4, -250, '2/5'],
  [1.44, -227, '4/9'],
  [1.5, -200, '1/2'],
  [1.53, -189, '8/15'],
  [1.57, -175, '4/7'],
  [1.62, -161, '8/13'],
  [1.67, -149, '2/3'],
  [1.73, -137, '8/11'],
  [1.8, -125, '4/5'],
  [1.83, -120, '5/6'],
  [1.9, -111, '9/10'],
  [1.91, -110, '10/11'],
  [2.0, 100, '1/1'],
  [2.1, 110, '11/10'],
  [2.2, 120, '6/5'],
  [2.25, 125, '5/4'],
  [2.38, 138, '11/8'],
  [2.4, 140, '7/5'],
  [2.5, 150, '3/2'],
  [2.6, 160, '8/5'],
  [2.63, 163, '13/8'],
  [2.75, 175, '7/4'],
  [2.88, 188, '15/8'],
  [3.0, 200, '2/1'],
  [3.2, 220, '11/5'],
  [3.25, 225, '9/4'],
  [3.5, 250, '5/2'],
  [3.75, 275, '11/4'],
  [4.0, 300, '3/1'],
  [4.33, 333, '10/3'],
  [4.5, 350, '7/2'],
  [5.0, 400, '4/1'],
  [5.5, 450, '9/2'],
  [6.0, 500, '5/1'],
  [6.5, 550, '11/2'],
  [7.5, 650, '13/2'],
  [8.0, 700, '7/1'],
  [9.0, 800, '8/1'],
  [10.0, 900, '9/1'],
  [11.0, 1000, '10/1'],
  [13.0, 1200, '12/1'],
  [15.0, 1400, '14/1'],
  [21.0, 2000, '20/1'],
  [26.0, 2500, '25/1'],
  [34.0, 3300, '33/1'],
  [51.0, 5000, '50/1'],
  [67.0, 6600, '66/1'],
  [101.0, 10000, '100/1'],
  [1001.0, 100000, '1000/1'],
];

/**
 * Where the "simplest fraction" rule picks a different (equally exact after rounding) fraction than
 * some printed ladders do. Written out so a change of rule is a visible decision.
 */
const RULE_NOT_LADDER: ReadonlyArray<readonly [number, string, string]> = [
  [1.06, '1/17', 'ladders print 1/16 (1.0625); 1/17 = 1.0588 is nearer 1.06'],
  [1.08, '1/13', 'ladders print 1/12 (1.0833); 1/13 = 1.0769 is nearer 1.08'],
  [1.12, '2/17', '1/8 = 1.125 rounds half up to 1.13'],
  [1.37, '7/19', '7/19 = 1.3684 is simpler than 37/100'],
  [1.95, '18/19', 'ladders print 20/21 or 19/20; 18/19 = 1.947 has the smallest numerator'],
  [2.05, '20/19', 'ladders print 21/20; 20/19 = 2.0526 has the smallest denominator'],
];

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

function fractionParts(s: string): [number, number] {
  const [p, q] = s.split('/').map(Number);
  assert.ok(p !== undefined && q !== undefined && Number.isInteger(p) && Number.isInteger(q), s);
  return [p, q];
}

/** Every decimal from 1.01 to 20.00 in 0.01 steps, built from integers (no accumulated error). */
const ALL_DECIMALS: number[] = Array.from({ length: 2000 - 100 }, (_, i) => (101 + i) / 100);

function assertBadRequest(fn: () => unknown, messagePart: RegExp): void {
  assert.throws(fn, (e: unknown) => {
    assert.ok(e instanceof ServiceError, 'a ServiceError');
    assert.equal(e.code, 'bad_request');
    assert.match(e.message, messagePart);
    return true;
  });
}

describe('roundDecimal', () => {
  const cases: ReadonlyArray<readonly [number, number]> = [
    [1.005, 1.01],
    [1.015, 1.02],
    [1.025, 1.03],
    [2.675, 2.68],
    [1.0049999, 1.0],
    [1.909090909, 1.91],
    [1.3333333, 1.33],
    [1.6666667, 1.67],
    [2.5, 2.5],
    [2, 2],
    [1.1 + 2.2 - 2.2, 1.1],
    [0.1 * 3, 0.3],
    [1001.005, 1001.01],
    [123456.785, 123456.79],
    [-1.005, -1.01],
  ];
  for (const [input, expected] of cases) {
    test(`${input} rounds to ${expected}`, () => {
      assert.equal(roundDecimal(input), expected);
    });
  }
  test('non-finite values pass through unchanged', () => {
    assert.ok(Number.isNaN(roundDecimal(Number.NaN)));
    assert.equal(roundDecimal(Infinity), Infinity);
  });
  test('the fast path agrees with rounding through 15 significant digits on 200,000 prices', () => {
    const reference = (d: number): number => {
      const r = (Math.sign(d) * Math.round(Number((Math.abs(d) * 100).toPrecision(15)))) / 100;
      return r === 0 ? 0 : r;
    };
    let seed = 12345;
    const random = (): number => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    for (let i = 0; i < 200_000; i++) {
      // Half of them sit on or next to a half-hundredth, where the two could disagree.
      const base = 1 + Math.floor(random() * 100_000) / 1000;
      const d = i % 2 === 0 ? base + (random() - 0.5) * 1e-9 : 1 + random() * 1000;
      assert.equal(roundDecimal(d), reference(d), `${d}`);
    }
  });
});

describe('conversion chart: decimal → american → fractional', () => {
  test(`the chart has 50+ vectors (${CHART.length})`, () => {
    assert.ok(CHART.length >= 50);
  });
  for (const [decimal, american, fractional] of CHART) {
    test(`${decimal.toFixed(2)} is american ${american} and fractional ${fractional}`, () => {
      assert.equal(toAmerican(decimal), american);
      assert.equal(toFractional(decimal), fractional);
      assert.equal(formatOdds(decimal, 'decimal'), decimal);
      assert.equal(formatOdds(decimal, 'american'), american);
      assert.equal(formatOdds(decimal, 'fractional_exact'), fractional);
    });
    test(`${decimal.toFixed(2)} round trips through american ${american} and fractional ${fractional}`, () => {
      assert.equal(fromAmerican(american), decimal);
      assert.equal(toAmerican(fromAmerican(american)), american);
      assert.equal(fromFractional(fractional), decimal);
      assert.equal(toFractional(fromFractional(fractional)), fractional);
    });
  }
});

describe('fractional: where the simplest-fraction rule departs from printed ladders', () => {
  for (const [decimal, fractional, why] of RULE_NOT_LADDER) {
    test(`${decimal.toFixed(2)} is ${fractional} (${why})`, () => {
      assert.equal(toFractional(decimal), fractional);
      assert.equal(fromFractional(fractional), decimal);
    });
  }
});

describe('american', () => {
  test('an exact half rounds away from zero: 1.32 is -313 (10000/32 = 312.5)', () => {
    assert.equal(toAmerican(1.32), -313);
  });
  test('the price is rounded to 2 decimals first: 1.909 is shown as 1.91, so -110', () => {
    assert.equal(toAmerican(1.909), -110);
    assert.equal(toAmerican(1.995), 100);
    assert.equal(toAmerican(1.9949), -101);
  });
  test('+100 and -100 are both evens', () => {
    assert.equal(fromAmerican(100), 2);
    assert.equal(fromAmerican(-100), 2);
  });
  test('fromAmerican rounds to 2 decimals: -105 is 1.95, +333 is 4.33', () => {
    assert.equal(fromAmerican(-105), 1.95);
    assert.equal(fromAmerican(333), 4.33);
    assert.equal(fromAmerican(-20000), 1.01);
  });
  const bad: ReadonlyArray<readonly [number, RegExp]> = [
    [0, /<= -100 or >= 100/],
    [99, /<= -100 or >= 100/],
    [-99.5, /<= -100 or >= 100/],
    [Number.NaN, /<= -100 or >= 100/],
    [Infinity, /<= -100 or >= 100/],
    [-30000, /shorter than the minimum decimal 1\.01/],
  ];
  for (const [input, message] of bad) {
    test(`fromAmerican(${input}) is a bad_request`, () => {
      assertBadRequest(() => fromAmerican(input), message);
    });
  }
  test('sign property over 1.01..20.00: positive from 2.00, negative below, never inside (-100, 100)', () => {
    for (const d of ALL_DECIMALS) {
      const a = toAmerican(d);
      assert.ok(Number.isInteger(a), `${d} → ${a} is an integer`);
      if (d >= 2) assert.ok(a >= 100, `${d} → ${a}`);
      else assert.ok(a <= -100, `${d} → ${a}`);
    }
  });
  test('decimal → american → decimal is the identity over 1.01..20.00', () => {
    for (const d of ALL_DECIMALS) assert.equal(fromAmerican(toAmerican(d)), d, `${d}`);
  });
  test('american is monotonic in the price over 1.01..20.00 (a longer price never shows shorter)', () => {
    let previous = -Infinity;
    for (const d of ALL_DECIMALS) {
      const a = toAmerican(d);
      const comparable = a < 0 ? -10000 / a : a; // map both branches onto one increasing scale
      assert.ok(comparable >= previous, `${d} → ${a}`);
      previous = comparable;
    }
  });
});

describe('fractional', () => {
  test('lowest terms over 1.01..20.00: gcd 1, and 1 + p/q rounds back to the same decimal', () => {
    for (const d of ALL_DECIMALS) {
      const f = toFractional(d);
      const [p, q] = fractionParts(f);
      assert.ok(p >= 1 && q >= 1 && q <= 100, `${d} → ${f}`);
      assert.equal(gcd(p, q), 1, `${d} → ${f} is in lowest terms`);
      assert.equal(roundDecimal(1 + p / q), d, `${d} → ${f} rounds back`);
      assert.equal(fromFractional(f), d, `${d} → ${f} parses back`);
    }
  });
  test('no fraction with a smaller short side rounds to the same decimal (simplest) over 1.01..20.00', () => {
    for (const d of ALL_DECIMALS) {
      const [p, q] = fractionParts(toFractional(d));
      const units = Math.min(p, q);
      for (let qq = 1; qq <= 100; qq++) {
        // Candidates with fewer units on the short side: numerators near (d - 1) * qq.
        const centre = Math.round((d - 1) * qq);
        for (const pp of [centre - 1, centre, centre + 1]) {
          if (pp < 1 || Math.min(pp, qq) >= units) continue;
          assert.notEqual(roundDecimal(1 + pp / qq), d, `${d}: ${pp}/${qq} is simpler than ${p}/${q}`);
        }
      }
    }
  });
  test('6/4 is written 3/2 and 2/2 is written 1/1 (evens)', () => {
    assert.equal(toFractional(fromFractional('6/4')), '3/2');
    assert.equal(toFractional(fromFractional('2/2')), '1/1');
    assert.equal(toFractional(2), '1/1');
  });
  test('the rounded price decides: 1.334 is shown as 1.33, so 1/3; 1.909 as 1.91, so 10/11', () => {
    assert.equal(toFractional(1.334), '1/3');
    assert.equal(toFractional(1.909), '10/11');
  });
  test('a half-up boundary is exact: 1 + 1/40 = 1.025 shows 1.03, so 1/40 is never written for 1.02', () => {
    assert.equal(fromFractional('1/40'), 1.03);
    assert.notEqual(toFractional(1.02), '1/40');
  });
  const parsed: ReadonlyArray<readonly [string, number, number]> = [
    ['5/2', 5, 2],
    ['6/4', 6, 4],
    ['100/1', 100, 1],
    ['0/1', 0, 1],
    ['evens', 1, 1],
    ['Evens', 1, 1],
  ];
  for (const [text, numerator, denominator] of parsed) {
    test(`parseFractional("${text}") is ${numerator}/${denominator}`, () => {
      assert.deepEqual(parseFractional(text), { numerator, denominator });
    });
  }
  const bad: ReadonlyArray<readonly [string, RegExp]> = [
    ['0/0', /zero denominator/],
    ['3/0', /zero denominator/],
    ['abc', /two whole numbers/],
    ['', /two whole numbers/],
    ['-1/2', /two whole numbers/],
    ['1/-2', /two whole numbers/],
    ['1.5/2', /two whole numbers/],
    [' 1/2', /two whole numbers/],
    ['1 / 2', /two whole numbers/],
    ['1/2/3', /two whole numbers/],
    ['3', /two whole numbers/],
    ['evs', /two whole numbers/],
  ];
  for (const [text, message] of bad) {
    test(`parseFractional(${JSON.stringify(text)}) is a bad_request`, () => {
      assertBadRequest(() => parseFractional(text), message);
      assertBadRequest(() => fromFractional(text), message);
    });
  }
  test('fromFractional rejects a price shorter than 1.01 ("0/1", "1/1000")', () => {
    assertBadRequest(() => fromFractional('0/1'), /shorter than the minimum decimal 1\.01/);
    assertBadRequest(() => fromFractional('1/1000'), /shorter than the minimum decimal 1\.01/);
  });
  test('fromFractional rounds to 2 decimals: 1/3 is 1.33, 8/13 is 1.62', () => {
    assert.equal(fromFractional('1/3'), 1.33);
    assert.equal(fromFractional('8/13'), 1.62);
  });
});

describe('formatting guards', () => {
  test('a decimal below 1.01 or not finite is a programming error (RangeError), not a client error', () => {
    for (const d of [1, 1.004, 0, -2, Number.NaN, Infinity]) {
      assert.throws(() => toAmerican(d), RangeError, `${d}`);
      assert.throws(() => toFractional(d), RangeError, `${d}`);
      assert.throws(() => formatOdds(d, 'decimal'), RangeError, `${d}`);
    }
  });
  test('1.005 is shown as 1.01 in every format', () => {
    assert.equal(formatOdds(1.005, 'decimal'), 1.01);
    assert.equal(formatOdds(1.005, 'american'), -10000);
    assert.equal(formatOdds(1.005, 'fractional'), '1/100');
  });
  test('formatOdds returns a number for decimal and american and a string for fractional', () => {
    assert.equal(typeof formatOdds(2.5, 'decimal'), 'number');
    assert.equal(typeof formatOdds(2.5, 'american'), 'number');
    assert.equal(typeof formatOdds(2.5, 'fractional'), 'string');
  });
});
