// Baseball runs to come: the walk-off stop, the skipped bottom half, extra innings, and late-game prices against seeded games.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BaseballOutlook, HalfInnings } from '../../../../src/feed/simulator/engines/baseball-outlook.js';
import { calibrationSlope, inplayProbes, summary } from '../../../../src/feed/simulator/engines/inplay-calibration.js';
import { buildWorld } from '../../../../src/feed/simulator/world.js';

const sum = (p: Float64Array): number => p.reduce((s, x) => s + x, 0);
const EVEN: [number, number] = [1, 1];

describe('baseball runs to come', () => {
  it('a half-inning stopped at t runs ends below t or at most 4 past it, with the same chance of each run below t', () => {
    const h = new HalfInnings(1.05);
    for (const [outs, bases] of [
      [0, 0],
      [1, 7],
      [2, 2],
    ] as const)
      for (const t of [1, 2, 3]) {
        const free = h.runs(outs, bases);
        const stop = h.runs(outs, bases, t);
        assert.ok(Math.abs(sum(stop) - 1) < 1e-9 && Math.abs(sum(free) - 1) < 1e-9);
        for (let v = 0; v < t; v++) assert.ok(Math.abs(stop[v]! - free[v]!) < 1e-12, `${outs} ${bases} ${t} ${v}`);
        for (let v = t + 4; v < stop.length; v++) assert.equal(stop[v], 0);
      }
  });

  it('never ends level; a walk-off from level wins by 1 to 4 only', () => {
    const o = new BaseballOutlook(EVEN, 9);
    for (const s of [
      { inning: 1, top: true, outs: 0, bases: 0, home: 0, away: 0 },
      { inning: 7, top: false, outs: 1, bases: 5, home: 2, away: 4 },
      { inning: 11, top: true, outs: 2, bases: 2, home: 3, away: 3 },
    ])
      assert.ok(o.runsToCome(s).margin.at(0) < 1e-9, JSON.stringify(s));
    const walkOff = o.runsToCome({ inning: 10, top: false, outs: 0, bases: 2, home: 4, away: 4 });
    assert.ok(walkOff.margin.above(4) < 1e-12, 'a walk-off from level is at most a grand slam');
    assert.ok(walkOff.margin.above(0) > 0.6, `home ${walkOff.margin.above(0).toFixed(3)} with a runner on second`);
  });

  it('the home side ahead after the top of the 9th never bats again', () => {
    const o = new BaseballOutlook(EVEN, 9);
    const r = o.runsToCome({ inning: 9, top: true, outs: 2, bases: 0, home: 5, away: 0 });
    // Its runs can only move if the away side ties or leads (5+ runs with two out, then extras).
    assert.ok(r.home.above(5) < 0.01 && r.home.above(5) > 0, `home scores more: ${r.home.above(5).toExponential(2)}`);
    assert.ok(r.home.at(5) > 0.99);
  });

  // Late in seeded games (the 8th inning on: skipped bottoms, walk-offs, extras) the totals were the
  // worst priced (slope 0.67 on these games before the exact walk).
  it('prices the total and the winner late in the game as often as they win', () => {
    const world = buildWorld(2026);
    const probes = inplayProbes({
      world,
      sport: 'baseball',
      games: 1500,
      seed: 24,
      tier: 1,
      leaguesOnly: true,
      checkpoints: [0.85, 0.95],
    });
    for (const group of ['total', 'winner'] as const) {
      const ps = probes.filter((p) => p.group === group);
      assert.ok(ps.length >= 1000, `${group}: ${ps.length} prices`);
      const s = summary(ps);
      assert.ok(
        Math.abs(s.priced - s.realised) <= 0.03,
        `${group}: priced ${s.priced.toFixed(3)}, won ${s.realised.toFixed(3)}`,
      );
      const slope = calibrationSlope(ps);
      assert.ok(slope >= 0.85 && slope <= 1.18, `${group}: calibration slope ${slope.toFixed(2)}`);
    }
  });
});
