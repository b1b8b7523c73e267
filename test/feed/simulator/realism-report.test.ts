// The realism report's verdicts: a figure outside its band only by the sampling error of a short run is told apart from a real miss.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { SportFigures } from '../../../src/feed/simulator/realism/figures.js';
import { compare, formatReport } from '../../../src/feed/simulator/realism/report.js';
import type { Reference } from '../../../src/feed/simulator/realism/references.js';

const nulls = {
  homeShare: null,
  drawShare: null,
  awayShare: null,
  pointsPerGame: null,
  pointsSd: null,
  nilNilShare: null,
  bigMarginShare: null,
  overtimeShare: null,
  shootoutShare: null,
  straightSetsShare: null,
  tieBreakSetShare: null,
  deciderShare: null,
  mapsPerSeries: null,
  overround: null,
  overroundOutShare: null,
  favUnder105: null,
  favUnder115: null,
  mainMovedShare: null,
  noOpenShare: null,
  decidedOpenShare: null,
  boundPriceShare: null,
};
const sport = (o: Partial<SportFigures>): SportFigures => ({
  finals: 0,
  series: 0,
  sets: 0,
  books: 0,
  liveSamples: 0,
  ...nulls,
  ...o,
});
const ref = (figure: string, value: number, low: number, high: number): Reference =>
  ({ figure, value, low, high, source: 'test' }) as Reference;

describe('realism report verdicts', () => {
  const refs = new Map([
    ['dota2', [ref('deciderShare', 0.35, 0.25, 0.45)]],
    ['soccer', [ref('homeShare', 0.45, 0.39, 0.51), ref('pointsPerGame', 3.25, 2.75, 3.55)]],
  ]);

  it('a share outside its band within two standard errors of it is sampling error, not a miss', () => {
    // 1 decider in 6 series: 0.167; the band's low edge 0.25 is 0.083 away, 2 s.e. at 6 series is 0.35.
    const rows = compare(new Map([['dota2', sport({ finals: 14, series: 6, deciderShare: 1 / 6 })]]), refs);
    assert.equal(rows[0]!.verdict, 'noise');
    assert.equal(rows[0]!.pass, false);
  });

  it('the same share over many series is a miss', () => {
    const rows = compare(new Map([['dota2', sport({ finals: 1400, series: 600, deciderShare: 1 / 6 })]]), refs);
    assert.equal(rows[0]!.verdict, 'miss');
  });

  it('a mean (points per game) is judged by its own sample: its standard error from the spread of its games', () => {
    // 3.62 over 73 finals whose totals spread by 1.8 (s.e. 0.21): 0.07 above the band's high edge is noise.
    const few = compare(
      new Map([['soccer', sport({ finals: 73, homeShare: 0.45, pointsPerGame: 3.62, pointsSd: 1.8 })]]),
      refs,
    );
    assert.deepEqual(
      few.map((r) => r.verdict),
      ['pass', 'noise'],
    );
    assert.equal(few[1]!.sample, 73);
    // The same mean over 6,000 finals (s.e. 0.02) is a miss, and so is one whose spread is unknown.
    const many = compare(new Map([['soccer', sport({ finals: 6000, pointsPerGame: 3.62, pointsSd: 1.8 })]]), refs);
    assert.equal(many[1]!.verdict, 'miss');
    const unknown = compare(new Map([['soccer', sport({ finals: 73, pointsPerGame: 3.62 })]]), refs);
    assert.equal(unknown[1]!.verdict, 'miss');
  });

  it('prints the verdict, the sample a share is of, and a summary that counts the three apart', () => {
    const figures = new Map([
      ['dota2', sport({ finals: 14, series: 6, deciderShare: 1 / 6 })],
      ['soccer', sport({ finals: 5, homeShare: 0.45, pointsPerGame: 3.62 })],
    ]);
    const text = formatReport(figures, compare(figures, refs));
    assert.match(text, /deciderShare .* NOISE .*n=6/);
    assert.match(text, /pointsPerGame .* MISS/);
    assert.match(text, /1\/3 figures within their bands; 1 more outside only by sampling error/);
  });
});
