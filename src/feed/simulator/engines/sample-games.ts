// Plays many games of one sport straight through its match engine (no book, no clock) to measure scoring figures.
import { Rng } from '../rng.js';
import type { SimLeague, World } from '../world.js';
import type { FairMarket } from '../pricing/fair.js';
import { createEngine } from './registry.js';
import type { FinalResult, Snapshot } from './types.js';

export interface SampleOptions {
  world: World;
  sport: string;
  games: number;
  seed: number;
  /** Only leagues of this tier (default: every league of the sport). */
  tier?: 1 | 2 | 3;
  /** Only the league of this name (a league's own figures: the NBA's points, not the tier's). */
  league?: string;
  /** Leave out knockout competitions (cups: no draws, extra time). */
  leaguesOnly?: boolean;
  /** Also keep the engine's opening main markets (fair prices before the start), to compare with results. */
  withOpening?: boolean;
}

export interface SampledGame {
  result: FinalResult;
  /** The last snapshot (its sportData carries counters such as corners). */
  last: Snapshot;
  /** The main markets priced before the start (only with `withOpening`). */
  opening?: FairMarket[];
}

/** The leagues a sample of the sport takes its games from, in turn (at least one, or it throws). */
export function sampleLeagues(
  o: Pick<SampleOptions, 'world' | 'sport' | 'tier' | 'league' | 'leaguesOnly'>,
): SimLeague[] {
  const leagues = o.world.leagues.filter(
    (l) =>
      l.sport === o.sport &&
      (o.tier === undefined || l.tier === o.tier) &&
      (o.league === undefined || l.name === o.league) &&
      l.teams.length >= 2 &&
      !(o.leaguesOnly === true && l.plan.format?.knockout === true),
  );
  if (leagues.length === 0) throw new Error(`no ${o.sport} league`);
  return leagues;
}

/** A random pair of different teams of the league (home index, away index). */
export function samplePair(pick: Rng, league: SimLeague): [number, number] {
  const hi = pick.int(0, league.teams.length - 1);
  let ai = pick.int(0, league.teams.length - 2);
  if (ai >= hi) ai++;
  return [hi, ai];
}

/**
 * Final results of `games` games between random pairs of teams of the sport's leagues (leagues taken
 * in turn). Seeded: the same options give the same results.
 */
export function sampleGames(o: SampleOptions): SampledGame[] {
  const leagues = sampleLeagues(o);
  const pick = Rng.derive(o.seed, 'sample', o.sport);
  const out: SampledGame[] = [];
  for (let g = 0; g < o.games; g++) {
    const league = leagues[g % leagues.length]!;
    const [hi, ai] = samplePair(pick, league);
    const home = league.teams[hi]!;
    const away = league.teams[ai]!;
    const engine = createEngine(o.sport, {
      rng: Rng.derive(o.seed, 'sample-game', o.sport, g),
      league,
      home,
      away,
      names: { home: home.name, away: away.name },
    });
    const opening = o.withOpening === true ? engine.markets('main') : undefined;
    engine.begin();
    for (let guard = 0; !engine.finished() && guard < 100_000; guard++) engine.step();
    out.push({ result: engine.result(), last: engine.snapshot(), ...(opening && { opening }) });
  }
  return out;
}
