// Ice hockey overtime: the book prices 3-on-3 overtime at the scoring rate the engine plays it at.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { overtimeOdds } from '../../../../src/feed/simulator/engines/ice-hockey.js';
import { sampleGames } from '../../../../src/feed/simulator/engines/sample-games.js';
import { buildWorld } from '../../../../src/feed/simulator/world.js';

const world = buildWorld(2026);

describe('ice hockey overtime pricing', () => {
  it('the shoot-out chance the book prices at the start of overtime is the share of overtimes that reach it', () => {
    const games = sampleGames({ world, sport: 'ice_hockey', games: 2500, seed: 31 });
    const overtimes = games.filter((g) => g.result.periodScores.some((p) => p.period === 'OT'));
    assert.ok(overtimes.length >= 400, `${overtimes.length} overtimes`);
    const played =
      overtimes.filter((g) => g.result.periodScores.some((p) => p.period === 'SO')).length / overtimes.length;
    // An even pair at the league's average even-strength rate (2.85 goals an hour each, the home
    // edge included); uneven pairs score a little more, so the sampled share sits a little lower.
    const priced = 1 - overtimeOdds([2.85 * Math.exp(0.04), 2.85 * Math.exp(-0.04)], 300).goal;
    assert.ok(
      Math.abs(priced - played) <= 0.05,
      `priced shoot-out ${priced.toFixed(3)}, played ${played.toFixed(3)} of ${overtimes.length} overtimes`,
    );
  });
});
