// The catalog's entry point: malformed keys and codes, outcome order, code normalization, returns, and the docs checklist.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { GRADED_FAMILIES, isGradedFamily } from '../../../src/domain/grading/catalog.js';
import { HALF_LOST, HALF_WON, LOST, REFUND, returnPerUnit, WON } from '../../../src/domain/grading/outcome.js';
import { gradeWith, line, OVER_UNDER, result, THREE_WAY, TWO_WAY } from './helpers.js';

const SOCCER = result({ rows: '1H:1-0 2H:1-1' });

describe('ungradeable markets', () => {
  const cases: ReadonlyArray<readonly [string, string, readonly string[]]> = [
    ['a malformed key', 'totals::2.5', OVER_UNDER],
    ['an unknown family', 'corners:9.5', OVER_UNDER],
    ['a line family without its line', 'totals', OVER_UNDER],
    ['a line on a family without lines', '1x2:1', THREE_WAY],
    ['a line that is not a multiple of 0.25', 'totals:2.3', OVER_UNDER],
    ['a 3-way handicap on a half line', 'handicap_3way:-1.5', THREE_WAY],
    ['HT/FT with a period', 'ht_ft@1h', ['home/home']],
    ['a set winner without its set', 'set_winner', TWO_WAY],
    ['player props with a period', 'player_goals_p1@1h:0.5', OVER_UNDER],
    ['an unknown outcome code', '1x2', ['home', 'x', 'away']],
    ['a malformed HT/FT code', 'ht_ft', ['home/home/home']],
    ['a malformed correct score code', 'correct_score', ['1:0']],
    ['a zero winning margin band', 'winning_margin', ['home_0']],
  ];
  for (const [name, key, codes] of cases) {
    test(`${name} (${key}) is ungradeable`, () => {
      const g = gradeWith('soccer', key, codes, SOCCER);
      assert.equal(g.status, 'ungradeable');
      if (g.status === 'ungradeable') assert.ok(g.reason.length > 0);
    });
  }
});

describe('grading basics', () => {
  test('grades come in the market’s outcome order', () => {
    assert.equal(line('soccer', '1x2', ['away', 'home', 'draw'], SOCCER), 'L W L');
  });
  test('codes are read case-insensitively and trimmed', () => {
    assert.equal(line('soccer', '1x2', ['Home', ' DRAW ', 'away'], SOCCER), 'W L L');
    assert.equal(line('soccer', 'ht_ft', ['Home/Home', 'HOME/HOME'], SOCCER), 'W W');
  });
  test('keys are read in any accepted spelling', () => {
    assert.equal(line('soccer', 'TOTALS:2.50', OVER_UNDER, SOCCER), 'W L');
    assert.equal(line('soccer', 'asian_handicap:+0.25', TWO_WAY, SOCCER), 'W L');
    assert.equal(line('soccer', '1X2@1H', THREE_WAY, SOCCER), 'W L L');
  });
  test('a period the sport does not have was never played: refund', () => {
    assert.equal(line('soccer', '1x2@q1', THREE_WAY, SOCCER), 'P P P');
  });
  test('a result without period rows grades the full game on its score', () => {
    assert.equal(line('soccer', '1x2', THREE_WAY, result({ score: [0, 2] })), 'L L W');
    assert.equal(line('ice_hockey', 'totals:4.5', OVER_UNDER, result({ score: [3, 2] })), 'W L');
  });
  test('tennis games cannot be counted without set rows', () => {
    assert.equal(gradeWith('tennis', 'totals:21.5', OVER_UNDER, result({ score: [2, 0] })).status, 'ungradeable');
  });
  test('unknown sports grade on the reported score', () => {
    assert.equal(line('curling', 'moneyline', TWO_WAY, result({ score: [7, 5] })), 'W L');
  });
});

describe('what a grade returns per unit staked', () => {
  const cases: ReadonlyArray<readonly [string, Parameters<typeof returnPerUnit>[0], number, number]> = [
    ['won', WON, 1.9, 1.9],
    ['lost', LOST, 1.9, 0],
    ['refund', REFUND, 1.9, 1],
    ['half won: half at odds, half back', HALF_WON, 1.9, 1.45],
    ['half lost: half back', HALF_LOST, 1.9, 0.5],
    ['half won at 3.0', HALF_WON, 3, 2],
  ];
  for (const [name, grade, odds, expected] of cases) {
    test(`${name} at ${odds} returns ${expected}`, () => {
      assert.ok(Math.abs(returnPerUnit(grade, odds) - expected) < 1e-12);
    });
  }
  test('half outcomes carry void_factor 0.5 and whole outcomes none', () => {
    assert.equal(HALF_WON.voidFactor, 0.5);
    assert.equal(HALF_LOST.voidFactor, 0.5);
    assert.equal(WON.voidFactor, undefined);
    assert.equal(REFUND.voidFactor, undefined);
  });
});

describe('docs/markets.md is the checklist', () => {
  const doc = readFileSync('docs/markets.md', 'utf8');
  test('every family with a rule is documented', () => {
    for (const f of GRADED_FAMILIES) assert.ok(doc.includes(`\`${f}`), `${f} is not in docs/markets.md`);
  });
  test('every family in the docs tables has a rule', () => {
    const documented = [...doc.matchAll(/^\| `([a-z0-9_]+)[`@:]/gm)].map((m) => m[1]!);
    assert.ok(documented.length >= 20);
    for (const f of documented) assert.ok(isGradedFamily(f), `${f} is documented but has no rule`);
  });
  test('player prop families are graded', () => {
    assert.ok(isGradedFamily('player_shots_on_target_p87'));
    assert.ok(!isGradedFamily('player_goals'));
  });
});
