// Plays one fixture of a sport from publication to final stats, outside the world's timeline (tests, tuning, demos).
import type { FeedMessage } from '../messages.js';
import { resolveConfig, type SimConfigInput } from './config.js';
import { SimGame } from './game.js';
import { epochDayOf, eventNumber } from './ids.js';
import { buildWorld, type World } from './world.js';

export interface OneGameOptions {
  seed: number;
  sport: string;
  /** League tier to take the teams from (default: the sport's first league). */
  tier?: 1 | 2 | 3;
  /** League name, when several leagues of the sport share the tier. */
  league?: string;
  /** When the fixture is published; kick-off is an hour later. */
  publishAt: number;
  config?: SimConfigInput;
  /** Pair of team indexes in the league (default 0 and 1). */
  teams?: [number, number];
  world?: World;
  repriceMs?: number;
  /** Reprices between steps while the clock runs (GameOptions.tickMs); default: the configuration's `liveTickMs`. */
  tickMs?: number;
}

export interface OneGame {
  game: SimGame;
  messages: FeedMessage[];
}

const KICK_OFF_DELAY = 3_600_000;

export function playOneGame(o: OneGameOptions): OneGame {
  const world = o.world ?? buildWorld(o.seed);
  const league = world.leagues.find(
    (l) =>
      l.sport === o.sport &&
      (o.tier === undefined || l.tier === o.tier) &&
      (o.league === undefined || l.name === o.league),
  );
  if (league === undefined) throw new Error(`no ${o.sport} league of tier ${String(o.tier)}`);
  const [hi, ai] = o.teams ?? [0, 1];
  const config = resolveConfig(o.config);
  const startTime = o.publishAt + KICK_OFF_DELAY;
  const game = new SimGame(
    {
      eventNum: eventNumber(league.index, epochDayOf(startTime), 0),
      league,
      home: league.teams[hi]!,
      away: league.teams[ai]!,
      startTime,
      publishAt: o.publishAt,
    },
    { seed: o.seed, config, repriceMs: o.repriceMs ?? config.repriceMs, tickMs: o.tickMs ?? config.liveTickMs },
  );
  const messages = game.open(o.publishAt);
  for (let guard = 0; !game.isDone && guard < 200_000; guard++) {
    const at = game.nextAt();
    if (!Number.isFinite(at)) break;
    messages.push(...game.run(at));
  }
  return { game, messages };
}
