// Properties over whole ranges of scores and lines: one winner where there must be one, quarter lines as averages, complements.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { returnPerUnit } from '../../../src/domain/grading/outcome.js';
import { splitQuarterLine } from '../../../src/domain/market-key.js';
import { gradeWith, OVER_UNDER, result, THREE_WAY, TWO_WAY } from './helpers.js';
import type { EventResult } from '../../../src/domain/types.js';
import type { OutcomeGrade } from '../../../src/domain/grading/types.js';

function graded(sport: string, key: string, codes: readonly string[], r: EventResult): OutcomeGrade[] {
  const g = gradeWith(sport, key, codes, r);
  if (g.status !== 'graded') throw new Error(`${key}: ${g.status} ${g.reason}`);
  return g.outcomes;
}

const wins = (gs: OutcomeGrade[]): number => gs.filter((g) => g.result === 'won').length;
const soccer = (h: number, a: number): EventResult => result({ rows: `1H:0-0 2H:${h}-${a}` });
const ODDS = [1.01, 1.5, 1.91, 2, 3.7, 12];
const close = (a: number, b: number): boolean => Math.abs(a - b) < 1e-9;

/** Every line from -max to max in quarter steps. */
function lines(max: number): number[] {
  const out: number[] = [];
  for (let q = -max * 4; q <= max * 4; q++) out.push(q / 4);
  return out;
}

describe('exactly one winner', () => {
  test('1x2: exactly one outcome wins for every score 0-0 … 10-10, full game and periods', () => {
    for (let h = 0; h <= 10; h++) {
      for (let a = 0; a <= 10; a++) {
        assert.equal(wins(graded('soccer', '1x2', THREE_WAY, soccer(h, a))), 1, `${h}-${a}`);
        assert.equal(wins(graded('soccer', '1x2@2h', THREE_WAY, soccer(h, a))), 1, `2h ${h}-${a}`);
        const hockey = result({ rows: `P1:${h}-${a} P2:0-0 P3:0-0 OT:1-0` });
        assert.equal(wins(graded('ice_hockey', '1x2', THREE_WAY, hockey)), 1, `hockey ${h}-${a}`);
      }
    }
  });

  test('double chance: exactly two outcomes win for every score', () => {
    for (let h = 0; h <= 6; h++)
      for (let a = 0; a <= 6; a++)
        assert.equal(wins(graded('soccer', 'double_chance', ['home_draw', 'home_away', 'draw_away'], soccer(h, a))), 2);
  });

  test('correct score: exactly one of the listed scores or `other` wins for every score 0-0 … 8-8', () => {
    const codes: string[] = [];
    for (let h = 0; h <= 5; h++) for (let a = 0; a <= 5; a++) codes.push(`${h}-${a}`);
    codes.push('other');
    for (let h = 0; h <= 8; h++) {
      for (let a = 0; a <= 8; a++) {
        const gs = graded('soccer', 'correct_score', codes, soccer(h, a));
        assert.equal(wins(gs), 1, `${h}-${a}`);
        assert.equal(gs[codes.length - 1]!.result === 'won', h > 5 || a > 5, `other at ${h}-${a}`);
      }
    }
  });

  test('HT/FT: exactly one of the nine outcomes wins for every half-time and second-half score', () => {
    const codes: string[] = [];
    for (const ht of THREE_WAY) for (const ft of THREE_WAY) codes.push(`${ht}/${ft}`);
    for (let h1 = 0; h1 <= 3; h1++)
      for (let a1 = 0; a1 <= 3; a1++)
        for (let h2 = 0; h2 <= 3; h2++)
          for (let a2 = 0; a2 <= 3; a2++) {
            const r = result({ rows: `1H:${h1}-${a1} 2H:${h2}-${a2}` });
            assert.equal(wins(graded('soccer', 'ht_ft', codes, r)), 1, `${h1}-${a1} ${h2}-${a2}`);
          }
  });

  test('winning margin, exact total, BTTS, odd/even: exactly one outcome wins', () => {
    const margins = ['home_1', 'home_2', 'home_3+', 'draw', 'away_1', 'away_2', 'away_3+'];
    const totals = ['0', '1', '2', '3', '4', '5', '6+'];
    for (let h = 0; h <= 8; h++) {
      for (let a = 0; a <= 8; a++) {
        const r = soccer(h, a);
        assert.equal(wins(graded('soccer', 'winning_margin', margins, r)), 1);
        assert.equal(wins(graded('soccer', 'exact_total', totals, r)), 1);
        assert.equal(wins(graded('soccer', 'btts', ['yes', 'no'], r)), 1);
        assert.equal(wins(graded('soccer', 'odd_even', ['odd', 'even'], r)), 1);
      }
    }
  });

  test('3-way handicap: exactly one outcome wins for every score and line', () => {
    for (const l of [-3, -2, -1, 1, 2, 3])
      for (let h = 0; h <= 6; h++)
        for (let a = 0; a <= 6; a++)
          assert.equal(wins(graded('soccer', `handicap_3way:${l}`, THREE_WAY, soccer(h, a))), 1);
  });

  test('set betting: exactly one outcome wins for every possible best-of-3 and best-of-5 result', () => {
    for (const bestOf of [3, 5]) {
      const need = (bestOf + 1) / 2;
      const codes: string[] = [];
      for (let l = 0; l < need; l++) codes.push(`${need}-${l}`, `${l}-${need}`);
      for (const code of codes) {
        const [h, a] = code.split('-').map(Number) as [number, number];
        const rows: string[] = [];
        for (let i = 0; i < h; i++) rows.push('6-3');
        for (let i = 0; i < a; i++) rows.push('3-6');
        const r = result({ rows: rows.map((s, i) => `S${i + 1}:${s}`).join(' ') });
        const gs = graded('tennis', 'set_betting', codes, r);
        assert.equal(wins(gs), 1, code);
        assert.equal(gs[codes.indexOf(code)]!.result, 'won');
      }
    }
  });
});

describe('quarter lines grade as the average of their two neighbours', () => {
  test('asian handicap: every difference -8..8 and quarter line -3.75..3.75, both sides, at several odds', () => {
    for (const l of lines(3.75).filter((x) => Math.abs(x * 4) % 2 === 1)) {
      const [n1, n2] = splitQuarterLine(l);
      for (let d = -8; d <= 8; d++) {
        const r = soccer(Math.max(d, 0), Math.max(-d, 0));
        const q = graded('soccer', `asian_handicap:${l}`, TWO_WAY, r);
        const a = graded('soccer', `asian_handicap:${n1}`, TWO_WAY, r);
        const b = graded('soccer', `asian_handicap:${n2}`, TWO_WAY, r);
        for (let side = 0; side < 2; side++) {
          for (const o of ODDS) {
            const avg = (returnPerUnit(a[side]!, o) + returnPerUnit(b[side]!, o)) / 2;
            assert.ok(close(returnPerUnit(q[side]!, o), avg), `line ${l} diff ${d} side ${side} odds ${o}`);
          }
        }
      }
    }
  });

  test('totals: every total 0..12 and quarter line 0.25..7.75, both outcomes, at several odds', () => {
    for (const l of lines(7.75).filter((x) => x > 0 && Math.abs(x * 4) % 2 === 1)) {
      const [n1, n2] = splitQuarterLine(l);
      for (let t = 0; t <= 12; t++) {
        const r = soccer(t, 0);
        const q = graded('soccer', `totals:${l}`, OVER_UNDER, r);
        const a = graded('soccer', `totals:${n1}`, OVER_UNDER, r);
        const b = graded('soccer', `totals:${n2}`, OVER_UNDER, r);
        for (let i = 0; i < 2; i++) {
          for (const o of ODDS) {
            const avg = (returnPerUnit(a[i]!, o) + returnPerUnit(b[i]!, o)) / 2;
            assert.ok(close(returnPerUnit(q[i]!, o), avg), `line ${l} total ${t} ${OVER_UNDER[i]} odds ${o}`);
          }
        }
      }
    }
  });
});

describe('complementary sides', () => {
  const mirrored = (x: OutcomeGrade, y: OutcomeGrade): boolean =>
    x.voidFactor === y.voidFactor &&
    (x.result === 'refund' ? y.result === 'refund' : y.result === (x.result === 'won' ? 'lost' : 'won'));

  test('over and under are complementary for every line 0..8 and total 0..12', () => {
    for (const l of lines(8).filter((x) => x >= 0)) {
      for (let t = 0; t <= 12; t++) {
        const [over, under] = graded('soccer', `totals:${l}`, OVER_UNDER, soccer(0, t));
        assert.ok(mirrored(over!, under!), `line ${l} total ${t}`);
        // At even money the two stakes together always return exactly both stakes.
        assert.ok(close(returnPerUnit(over!, 2) + returnPerUnit(under!, 2), 2));
      }
    }
  });

  test('asian handicap home and away are complementary for every line and difference', () => {
    for (const l of lines(4)) {
      for (let d = -6; d <= 6; d++) {
        const [home, away] = graded('soccer', `asian_handicap:${l}`, TWO_WAY, soccer(Math.max(d, 0), Math.max(-d, 0)));
        assert.ok(mirrored(home!, away!), `line ${l} diff ${d}`);
      }
    }
  });

  test('the home side at line L grades as the away side at -L with the score reversed', () => {
    for (const l of lines(3)) {
      for (let d = -5; d <= 5; d++) {
        const [home] = graded('soccer', `asian_handicap:${l}`, TWO_WAY, soccer(Math.max(d, 0), Math.max(-d, 0)));
        const [, away] = graded('soccer', `asian_handicap:${-l}`, TWO_WAY, soccer(Math.max(-d, 0), Math.max(d, 0)));
        assert.deepEqual(home, away, `line ${l} diff ${d}`);
      }
    }
  });
});
