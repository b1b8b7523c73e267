// Player props at the opening graded by what the engine then plays, per sport and stat (issue 17): `node scripts/props-check.mjs [games] [sports…]` after `npm run build`.
import { URL } from 'node:url';
const root = new URL('../dist/src/feed/simulator/', import.meta.url);
const { createEngine } = await import(new URL('engines/registry.js', root).href);
const { Rng } = await import(new URL('rng.js', root).href);
const { buildWorld } = await import(new URL('world.js', root).href);

const [gamesArg, ...sportsArg] = process.argv.slice(2);
const games = Number(gamesArg ?? 300);
const sports = sportsArg.length > 0 ? sportsArg : ['soccer', 'basketball', 'american_football', 'baseball'];
const world = buildWorld(2026);
for (const sport of sports) {
  const leagues = world.leagues.filter((l) => l.sport === sport && l.tier === 1 && l.teams.length >= 2);
  if (leagues.length === 0) continue;
  const pick = Rng.derive(7, 'props', sport);
  const byStat = new Map();
  for (let g = 0; g < games; g++) {
    const league = leagues[g % leagues.length];
    const hi = pick.int(0, league.teams.length - 1);
    let ai = pick.int(0, league.teams.length - 2);
    if (ai >= hi) ai++;
    const engine = createEngine(sport, {
      rng: Rng.derive(7, 'props-game', sport, g),
      league,
      home: league.teams[hi],
      away: league.teams[ai],
      names: { home: 'H', away: 'A' },
    });
    const props = engine.markets('full').filter((m) => m.key.startsWith('player_'));
    engine.begin();
    for (let guard = 0; !engine.finished() && guard < 200_000; guard++) engine.step();
    const lines = new Map(engine.stats().map((l) => [String(l.player_id), l]));
    for (const m of props) {
      const k = /^player_([a-z_]+)_(.+):([\d.]+)$/.exec(m.key);
      if (k === null) continue;
      const [, stat, player, line] = k;
      const s = byStat.get(stat) ?? { n: 0, priced: 0, won: 0 };
      s.n++;
      s.priced += m.outcomes[0].p;
      s.won += Number(lines.get(player)?.[stat] ?? 0) > Number(line) ? 1 : 0;
      byStat.set(stat, s);
    }
  }
  for (const [stat, s] of byStat) {
    const won = s.won / s.n;
    const se = Math.sqrt((won * (1 - won)) / s.n);
    const off = Math.abs(s.priced / s.n - won) > 3 * se ? 'OFF (beyond 3 s.e.)' : '';
    console.log(
      `${sport.padEnd(18)} ${stat.padEnd(16)} n ${String(s.n).padStart(6)}  priced ${(s.priced / s.n).toFixed(3)}  went over ${won.toFixed(3)}  ${off}`,
    );
  }
}
