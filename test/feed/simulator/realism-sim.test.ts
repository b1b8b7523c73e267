// Seeded short simulation: the realism figures that already meet real books stay within their bands.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { simulateFigures } from '../../../src/feed/simulator/realism/report.js';

describe('realism of a seeded world (prematch books at the start)', () => {
  // Only the books published at the start: a few seconds, ~150-250 main markets per sport.
  const figures = simulateFigures({
    seed: 1,
    days: 0.01,
    sampleMs: 600_000,
    sports: ['soccer', 'baseball', 'american_football', 'basketball', 'ice_hockey', 'tennis'],
  });
  // [sport, share at <= 1.05 at most, share at <= 1.15 within]: references.ts, with sampling room.
  const favourites: Array<[string, number, [number, number]]> = [
    ['soccer', 0.015, [0, 0.08]],
    ['baseball', 0.005, [0, 0.02]],
    ['american_football', 0.02, [0, 0.1]],
    ['basketball', 0.05, [0.03, 0.2]],
  ];
  for (const [sport, max105, [lo, hi]] of favourites)
    it(`${sport}: favourites priced like real books`, () => {
      const f = figures.get(sport)!;
      assert.ok(f.books >= 50, `${sport}: ${f.books} books`);
      assert.ok(f.favUnder105! <= max105, `${sport}: ${f.favUnder105} at <= 1.05`);
      assert.ok(f.favUnder115! >= lo && f.favUnder115! <= hi, `${sport}: ${f.favUnder115} at <= 1.15`);
    });

  it('every sport: main-market overround 4-7%', () => {
    for (const [sport, f] of figures)
      assert.ok(f.overround! >= 0.04 && f.overround! <= 0.07, `${sport}: ${f.overround}`);
  });
});
