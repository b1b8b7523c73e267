// Table-driven tests of the market key grammar `family[@period][:line]` and the quarter-line helpers.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import {
  canonicalMarketKey,
  formatMarketKey,
  isQuarterLine,
  isValidLine,
  parseMarketKey,
  splitQuarterLine,
  type MarketKey,
} from '../../src/domain/market-key.js';

/** Input key, parsed parts, canonical text. */
const VALID: ReadonlyArray<readonly [string, MarketKey, string]> = [
  ['1x2', { family: '1x2', period: null, line: null }, '1x2'],
  ['1x2@1h', { family: '1x2', period: '1h', line: null }, '1x2@1h'],
  ['1x2@2h', { family: '1x2', period: '2h', line: null }, '1x2@2h'],
  ['1x2@1H', { family: '1x2', period: '1h', line: null }, '1x2@1h'],
  ['double_chance', { family: 'double_chance', period: null, line: null }, 'double_chance'],
  ['draw_no_bet', { family: 'draw_no_bet', period: null, line: null }, 'draw_no_bet'],
  ['btts', { family: 'btts', period: null, line: null }, 'btts'],
  ['correct_score', { family: 'correct_score', period: null, line: null }, 'correct_score'],
  ['ht_ft', { family: 'ht_ft', period: null, line: null }, 'ht_ft'],
  ['odd_even', { family: 'odd_even', period: null, line: null }, 'odd_even'],
  ['moneyline', { family: 'moneyline', period: null, line: null }, 'moneyline'],
  ['set_winner@s1', { family: 'set_winner', period: 's1', line: null }, 'set_winner@s1'],
  ['set_winner@S1', { family: 'set_winner', period: 's1', line: null }, 'set_winner@s1'],
  ['map_winner@m2', { family: 'map_winner', period: 'm2', line: null }, 'map_winner@m2'],
  ['moneyline@q1', { family: 'moneyline', period: 'q1', line: null }, 'moneyline@q1'],
  ['moneyline@Q4', { family: 'moneyline', period: 'q4', line: null }, 'moneyline@q4'],
  ['totals:2.5', { family: 'totals', period: null, line: 2.5 }, 'totals:2.5'],
  ['totals:2.0', { family: 'totals', period: null, line: 2 }, 'totals:2'],
  ['totals:2', { family: 'totals', period: null, line: 2 }, 'totals:2'],
  ['totals:2.50', { family: 'totals', period: null, line: 2.5 }, 'totals:2.5'],
  ['totals:2.5000000', { family: 'totals', period: null, line: 2.5 }, 'totals:2.5'],
  ['totals:0', { family: 'totals', period: null, line: 0 }, 'totals:0'],
  ['totals:0.5', { family: 'totals', period: null, line: 0.5 }, 'totals:0.5'],
  ['totals:02.5', { family: 'totals', period: null, line: 2.5 }, 'totals:2.5'],
  ['totals:220.5', { family: 'totals', period: null, line: 220.5 }, 'totals:220.5'],
  ['totals@1h:0.5', { family: 'totals', period: '1h', line: 0.5 }, 'totals@1h:0.5'],
  ['totals@1H:1.50', { family: 'totals', period: '1h', line: 1.5 }, 'totals@1h:1.5'],
  ['asian_handicap:-0.25', { family: 'asian_handicap', period: null, line: -0.25 }, 'asian_handicap:-0.25'],
  ['asian_handicap:+0.5', { family: 'asian_handicap', period: null, line: 0.5 }, 'asian_handicap:0.5'],
  ['asian_handicap:0.5', { family: 'asian_handicap', period: null, line: 0.5 }, 'asian_handicap:0.5'],
  ['asian_handicap:+1.75', { family: 'asian_handicap', period: null, line: 1.75 }, 'asian_handicap:1.75'],
  ['asian_handicap:-1.750', { family: 'asian_handicap', period: null, line: -1.75 }, 'asian_handicap:-1.75'],
  ['asian_handicap:-0', { family: 'asian_handicap', period: null, line: 0 }, 'asian_handicap:0'],
  ['asian_handicap:+0', { family: 'asian_handicap', period: null, line: 0 }, 'asian_handicap:0'],
  ['asian_handicap:-0.00', { family: 'asian_handicap', period: null, line: 0 }, 'asian_handicap:0'],
  ['asian_handicap@2h:-1', { family: 'asian_handicap', period: '2h', line: -1 }, 'asian_handicap@2h:-1'],
  ['team_totals_home:1.5', { family: 'team_totals_home', period: null, line: 1.5 }, 'team_totals_home:1.5'],
  ['team_totals_away@1h:0.5', { family: 'team_totals_away', period: '1h', line: 0.5 }, 'team_totals_away@1h:0.5'],
  ['handicap:-7.5', { family: 'handicap', period: null, line: -7.5 }, 'handicap:-7.5'],
  ['totals:0.0001', { family: 'totals', period: null, line: 0.0001 }, 'totals:0.0001'],
  ['totals:1.2345', { family: 'totals', period: null, line: 1.2345 }, 'totals:1.2345'],
  ['totals:1.23450', { family: 'totals', period: null, line: 1.2345 }, 'totals:1.2345'],
  ['totals:999999.9999', { family: 'totals', period: null, line: 999999.9999 }, 'totals:999999.9999'],
  ['totals:-999999', { family: 'totals', period: null, line: -999999 }, 'totals:-999999'],
  // Decision: an upper-case family is lower-cased like the period, not rejected (clients type `1X2`).
  ['1X2', { family: '1x2', period: null, line: null }, '1x2'],
  ['TOTALS@1H:2.50', { family: 'totals', period: '1h', line: 2.5 }, 'totals@1h:2.5'],
  ['Asian_Handicap:+0.25', { family: 'asian_handicap', period: null, line: 0.25 }, 'asian_handicap:0.25'],
];

/** Malformed keys and why. */
const MALFORMED: ReadonlyArray<readonly [string, string]> = [
  ['', 'empty key'],
  ['@1h', 'empty family'],
  [':2.5', 'empty family with a line'],
  ['1x2@1h@2h', 'two @'],
  ['1x2@', 'empty period'],
  ['totals@:2.5', 'empty period with a line'],
  ['totals:', 'empty line'],
  ['totals:abc', 'line not a number'],
  ['totals:1e3', 'exponent notation'],
  ['totals:1E3', 'exponent notation, upper case'],
  ['totals:.5', 'no digit before the point'],
  ['totals:2.', 'no digit after the point'],
  ['totals:+-1', 'two signs'],
  ['totals:--1', 'two signs'],
  ['totals:2.5:3', 'two lines'],
  ['totals::2.5', 'two colons'],
  ['totals:Infinity', 'not a finite decimal'],
  ['totals:NaN', 'not a number'],
  ['totals:0x10', 'hexadecimal'],
  ['totals:1_000', 'digit separator'],
  ['totals:1,5', 'decimal comma'],
  ['totals: 2.5', 'space before the line'],
  ['totals :2.5', 'space before the colon'],
  [' totals:2.5', 'leading space'],
  ['totals:2.5 ', 'trailing space'],
  ['total s', 'space inside the family'],
  ['1x2@1 h', 'space inside the period'],
  ['_totals', 'family starting with an underscore'],
  ['totals-over', 'dash in the family'],
  ['totals@1_h', 'underscore in the period'],
  ['totals:1.23456', 'more than 4 decimals'],
  ['totals:1000000', '|line| >= 1e6'],
  ['totals:-1000000', '|line| >= 1e6, negative'],
  ['totals:1000000.5', '|line| >= 1e6 with decimals'],
  ['tötals', 'non-ASCII family'],
  ['totals:２', 'non-ASCII digit'],
  ['x'.repeat(129), 'longer than 128 characters'],
];

describe('parseMarketKey and formatMarketKey', () => {
  test(`there are 40+ parse/format vectors (${VALID.length})`, () => {
    assert.ok(VALID.length >= 40);
  });
  for (const [input, parsed, canonical] of VALID) {
    test(`${JSON.stringify(input)} parses and is written ${JSON.stringify(canonical)}`, () => {
      assert.deepEqual(parseMarketKey(input), parsed);
      assert.equal(formatMarketKey(parsed), canonical);
      assert.equal(canonicalMarketKey(input), canonical);
    });
    test(`${JSON.stringify(canonical)} round trips unchanged`, () => {
      const again = parseMarketKey(canonical);
      assert.ok(again !== null);
      assert.deepEqual(again, parsed);
      assert.equal(formatMarketKey(again), canonical);
      assert.equal(canonicalMarketKey(canonical), canonical);
    });
  }
  test('-0 is the line 0, never written "-0"', () => {
    const k = parseMarketKey('asian_handicap:-0');
    assert.ok(k !== null && k.line !== null);
    assert.ok(Object.is(k.line, 0));
    assert.equal(formatMarketKey({ family: 'asian_handicap', period: null, line: -0 }), 'asian_handicap:0');
  });
  test('a line with more than 4 written decimals is accepted when the extra digits are trailing zeros', () => {
    assert.equal(canonicalMarketKey('totals:0.250000'), 'totals:0.25');
  });
});

describe('malformed market keys', () => {
  for (const [input, why] of MALFORMED) {
    test(`${JSON.stringify(input.length > 20 ? `${input.slice(0, 20)}…` : input)} is null (${why})`, () => {
      assert.equal(parseMarketKey(input), null);
      assert.equal(canonicalMarketKey(input), null);
    });
  }
  test('a non-string is null, not an exception', () => {
    assert.equal(parseMarketKey(undefined as unknown as string), null);
    assert.equal(parseMarketKey(25 as unknown as string), null);
  });
});

describe('formatMarketKey guards', () => {
  const bad: ReadonlyArray<readonly [MarketKey, string]> = [
    [{ family: '', period: null, line: null }, 'empty family'],
    [{ family: 'Totals', period: null, line: null }, 'upper-case family'],
    [{ family: 'totals', period: '', line: null }, 'empty period'],
    [{ family: 'totals', period: '1H', line: null }, 'upper-case period'],
    [{ family: 'totals', period: null, line: 1e-7 }, 'line needing exponent notation'],
    [{ family: 'totals', period: null, line: 1e6 }, 'line too large'],
    [{ family: 'totals', period: null, line: 0.1 + 0.2 }, 'line with binary noise'],
    [{ family: 'totals', period: null, line: Number.NaN }, 'NaN line'],
    [{ family: 'totals', period: null, line: Infinity }, 'infinite line'],
  ];
  for (const [key, why] of bad) {
    test(`formatMarketKey throws a RangeError for: ${why}`, () => {
      assert.throws(() => formatMarketKey(key), RangeError);
    });
  }
  const lines: ReadonlyArray<readonly [number, boolean]> = [
    [2.5, true],
    [-0.25, true],
    [0, true],
    [0.0001, true],
    [999999.9999, true],
    [0.00005, false],
    [-1e6, false],
    [1.23456, false],
  ];
  for (const [line, valid] of lines) {
    test(`isValidLine(${line}) is ${valid}`, () => {
      assert.equal(isValidLine(line), valid);
    });
  }
});

describe('quarter lines', () => {
  const quarter: ReadonlyArray<readonly [number, boolean]> = [
    [-0.25, true],
    [0.25, true],
    [0.75, true],
    [-0.75, true],
    [2.25, true],
    [2.75, true],
    [-1.75, true],
    [0, false],
    [0.5, false],
    [-0.5, false],
    [1, false],
    [2.5, false],
    [-1.5, false],
    [0.2, false],
    [0.125, false],
  ];
  for (const [line, expected] of quarter) {
    test(`isQuarterLine(${line}) is ${expected}`, () => {
      assert.equal(isQuarterLine(line), expected);
    });
  }
  const splits: ReadonlyArray<readonly [number, [number, number]]> = [
    [-0.25, [0, -0.5]],
    [0.25, [0, 0.5]],
    [0.75, [0.5, 1]],
    [-0.75, [-0.5, -1]],
    [2.75, [2.5, 3]],
    [2.25, [2, 2.5]],
    [-1.75, [-1.5, -2]],
    [-1.25, [-1, -1.5]],
  ];
  for (const [line, halves] of splits) {
    test(`quarter line ${line} splits into ${halves[0]} and ${halves[1]} (nearer zero first)`, () => {
      const got = splitQuarterLine(line);
      assert.deepEqual(got, halves);
      assert.ok(!Object.is(got[0], -0), 'never -0');
      assert.equal((got[0] + got[1]) / 2, line, 'the halves average to the line');
    });
  }
  test('splitting a whole or half line is a RangeError', () => {
    for (const line of [0, 0.5, 2, -1.5]) assert.throws(() => splitQuarterLine(line), RangeError);
  });
});
