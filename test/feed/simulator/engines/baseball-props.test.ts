// Baseball player props price the plate appearance the engine plays: hits per batter, and home runs per hit, as often as they happen.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { HITS_DISPERSION } from '../../../../src/feed/simulator/engines/baseball.js';
import { createEngine } from '../../../../src/feed/simulator/engines/registry.js';
import { sampleLeagues, samplePair } from '../../../../src/feed/simulator/engines/sample-games.js';
import type { FairMarket } from '../../../../src/feed/simulator/pricing/fair.js';
import { Rng } from '../../../../src/feed/simulator/rng.js';
import { buildWorld } from '../../../../src/feed/simulator/world.js';

const world = buildWorld(2026);

/** The Poisson mean a "0.5" prop's Over price stands for (its batter has nothing yet): home runs. */
const meanOf = (m: FairMarket): number => -Math.log(1 - (m.outcomes[0]!.p as number));
/** The mean hits a "0.5" hits prop's Over price stands for, at the engine's dispersion of a batter's hits. */
const hitsMeanOf = (m: FairMarket): number =>
  ((1 - HITS_DISPERSION) * Math.log(1 - (m.outcomes[0]!.p as number))) / Math.log(HITS_DISPERSION);

it('a batter is priced to hit, and to hit home runs per hit, as often as the engine plays it', () => {
  const leagues = sampleLeagues({ world, sport: 'baseball', tier: 1 });
  assert.ok(leagues.length > 0);
  const pick = Rng.derive(5, 'sample', 'baseball-props');
  let pricedRatio = 0;
  let pricedHits = 0;
  let priced = 0;
  let hits = 0;
  let homeRuns = 0;
  for (let g = 0; g < 1000; g++) {
    const league = leagues[g % leagues.length]!;
    const [hi, ai] = samplePair(pick, league);
    const engine = createEngine('baseball', {
      rng: Rng.derive(5, 'props-game', g),
      league,
      home: league.teams[hi]!,
      away: league.teams[ai]!,
      names: { home: 'H', away: 'A' },
    });
    const opening = engine.markets('full');
    for (const m of opening.filter((x) => x.key.startsWith('player_hits_'))) {
      const id = m.key.slice('player_hits_'.length).split(':')[0]!;
      const hr = opening.find((x) => x.key.startsWith(`player_home_runs_${id}`));
      if (hr === undefined) continue;
      pricedRatio += meanOf(hr) / hitsMeanOf(m);
      pricedHits += hitsMeanOf(m);
      priced++;
    }
    engine.begin();
    for (let guard = 0; !engine.finished() && guard < 100_000; guard++) engine.step();
    // A stats line carries its counters as extra numeric fields.
    for (const line of engine.stats() as unknown as Array<Record<string, number | undefined>>) {
      hits += line.hits ?? 0;
      homeRuns += line.home_runs ?? 0;
    }
  }
  assert.ok(priced > 1000, `${priced} batters priced`);
  const played = homeRuns / hits;
  const se = Math.sqrt((played * (1 - played)) / hits);
  const want = pricedRatio / priced;
  // Hits per batter and game: the priced mean against what a lineup of nine hit (a prop takes a
  // batter's share of the side's plate appearances as a ninth; the order gives the first few more).
  const perBatter = hits / (1000 * 2 * 9);
  assert.ok(
    Math.abs(pricedHits / priced / perBatter - 1) <= 0.03,
    `hits per batter: priced ${(pricedHits / priced).toFixed(3)}, played ${perBatter.toFixed(3)}`,
  );
  assert.ok(
    Math.abs(want - played) <= 3 * se,
    `home runs per hit: priced ${want.toFixed(4)}, played ${played.toFixed(4)} over ${hits} hits (s.e. ${se.toFixed(4)})`,
  );
});
