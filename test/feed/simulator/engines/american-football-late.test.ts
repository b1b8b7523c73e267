// American football late in the game: the full-game total's line nearest even priced as often as the games go over it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createEngine } from '../../../../src/feed/simulator/engines/registry.js';
import { sampleLeagues, samplePair } from '../../../../src/feed/simulator/engines/sample-games.js';
import type { TimedEngine } from '../../../../src/feed/simulator/engines/timed.js';
import { Rng } from '../../../../src/feed/simulator/rng.js';
import { buildWorld } from '../../../../src/feed/simulator/world.js';

const world = buildWorld(2026);
const REGULATION = 3600;

interface Probe {
  p: number;
  won: 0 | 1;
}

/**
 * Plays `games` seeded tier-1 games; at each share of regulation in `at` (in play, not at a break)
 * prices the undecided full-game totals line whose Over is nearest even and grades it on the final
 * score (overtime included, as settlement grades American football's totals).
 */
function lateTotals(games: number, seed: number, at: readonly number[]): Probe[] {
  const leagues = sampleLeagues({ world, sport: 'american_football', tier: 1, leaguesOnly: true });
  const pick = Rng.derive(seed, 'af-late');
  const probes: Probe[] = [];
  for (let g = 0; g < games; g++) {
    const league = leagues[g % leagues.length]!;
    const [hi, ai] = samplePair(pick, league);
    const engine = createEngine('american_football', {
      rng: Rng.derive(seed, 'af-late-game', g),
      league,
      home: league.teams[hi]!,
      away: league.teams[ai]!,
      names: { home: 'H', away: 'A' },
    }) as TimedEngine;
    engine.begin();
    const lines: number[] = [];
    const prices: number[] = [];
    let next = 0;
    for (let guard = 0; !engine.finished() && guard < 100_000; guard++) {
      engine.step();
      const played = REGULATION - engine.remainingRegulationSeconds();
      if (next >= at.length || played < at[next]! * REGULATION || engine.inBreak() || engine.inOvertime) continue;
      next++;
      const m = engine
        .markets('full')
        .filter((x) => x.key.startsWith('totals:') && x.decided !== true)
        .sort((x, y) => Math.abs(x.outcomes[0]!.p - 0.5) - Math.abs(y.outcomes[0]!.p - 0.5))[0];
      if (m === undefined) continue;
      lines.push(Number(m.key.slice('totals:'.length)));
      prices.push(m.outcomes[0]!.p);
    }
    const { home, away } = engine.result().score;
    lines.forEach((line, i) => probes.push({ p: prices[i]!, won: home + away > line ? 1 : 0 }));
  }
  return probes;
}

describe('American football totals late in the game', () => {
  it('the Over of the line nearest even wins as often as priced with 6 and 3 minutes left', () => {
    const probes = lateTotals(300, 31, [0.9, 0.95]);
    assert.ok(probes.length >= 400, `${probes.length} prices`);
    const priced = probes.reduce((s, x) => s + x.p, 0) / probes.length;
    const won = probes.reduce((s, x) => s + x.won, 0) / probes.length;
    // Three standard errors of the share that won (~0.02 each at this size).
    const tol = 3 * Math.sqrt((won * (1 - won)) / probes.length);
    assert.ok(
      Math.abs(priced - won) <= tol,
      `Over priced ${priced.toFixed(3)}, won ${won.toFixed(3)} (±${tol.toFixed(3)})`,
    );
  });
});
