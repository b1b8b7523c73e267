#!/usr/bin/env node
// Times the baseball book's reprice (engine.markets) at every plate appearance of seeded games: the cost the live world pays per game state.
// Usage: npm run build && node scripts/baseball-reprice.mjs [--depth main|full] [--games 200]
import { parseArgs } from 'node:util';
import { buildWorld } from '../dist/src/feed/simulator/world.js';
import { createEngine } from '../dist/src/feed/simulator/engines/registry.js';
import { Rng } from '../dist/src/feed/simulator/rng.js';

const { values } = parseArgs({ options: { depth: { type: 'string', default: 'main' }, games: { type: 'string', default: '200' } } });
const world = buildWorld(2026);
const league = world.leagues.find((l) => l.sport === 'baseball' && l.tier === 1);
let calls = 0;
let ms = 0;
for (let g = 0; g < Number(values.games); g++) {
  const engine = createEngine('baseball', {
    rng: Rng.derive(9, 'reprice', g),
    league,
    home: league.teams[0],
    away: league.teams[1],
    names: { home: 'H', away: 'A' },
  });
  engine.begin();
  for (let guard = 0; !engine.finished() && guard < 100_000; guard++) {
    const t = performance.now();
    engine.markets(values.depth);
    ms += performance.now() - t;
    calls++;
    engine.step();
  }
}
console.log(`${values.depth}: ${calls} reprices, ${((1000 * ms) / calls).toFixed(1)} µs each on average (game set-up included)`);
