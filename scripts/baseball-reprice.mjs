#!/usr/bin/env node
// Times the baseball book's reprice (engine.markets) at every plate appearance of seeded games: the cost the live world pays per game state.
// Usage: npm run build && node scripts/baseball-reprice.mjs [--depth main|full] [--games 200] [--root DIR (whose build to time; default this checkout)]
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { URL, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    depth: { type: 'string', default: 'main' },
    games: { type: 'string', default: '200' },
    root: { type: 'string', default: new URL('..', import.meta.url).pathname },
  },
});
const load = (path) => import(pathToFileURL(resolve(values.root, 'dist/src/feed/simulator', path)).href);
const { buildWorld } = await load('world.js');
const { createEngine } = await load('engines/registry.js');
const { Rng } = await load('rng.js');

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
console.log(
  `${values.depth}: ${calls} reprices, ${((1000 * ms) / calls).toFixed(1)} µs each on average (game set-up included)`,
);
