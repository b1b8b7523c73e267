// Which match engine plays which sport.
import { CORRECT_SCORE, GAME_WINNER, SET_BETTING, SET_WINNER } from '../../../domain/families/index.js';
import { AmericanFootballEngine } from './american-football.js';
import { BaseballEngine } from './baseball.js';
import { BasketballEngine } from './basketball.js';
import { CombatEngine } from './combat.js';
import { CricketEngine } from './cricket.js';
import { DartsEngine } from './darts.js';
import { HandballEngine } from './handball.js';
import { IceHockeyEngine } from './ice-hockey.js';
import { CS2_FORMAT, MapsEngine, VALORANT_FORMAT } from './maps.js';
import { DOTA2_FORMAT, LOL_FORMAT, MobaEngine } from './moba.js';
import { RallyEngine } from './rally.js';
import { RugbyEngine } from './rugby.js';
import { SnookerEngine } from './snooker.js';
import { SoccerEngine } from './soccer.js';
import { TennisEngine } from './tennis.js';
import type { EngineContext, EngineFactory, MatchEngine } from './types.js';

const FACTORIES: Readonly<Record<string, EngineFactory>> = {
  soccer: (ctx) => new SoccerEngine(ctx),
  basketball: (ctx) => new BasketballEngine(ctx),
  tennis: (ctx) => new TennisEngine(ctx),
  volleyball: (ctx) =>
    new RallyEngine(ctx, {
      prefix: 'S',
      unitName: 'Set',
      unitFamily: SET_WINNER.key,
      scoreFamily: SET_BETTING.key,
      target: 25,
      lastTarget: 15,
      rallyMs: 26_000,
      breakMs: 180_000,
      serve: 'winner',
      serverWins: 0.4,
      ratingEffect: 0.012,
      volleyballData: true,
    }),
  table_tennis: (ctx) =>
    new RallyEngine(ctx, {
      prefix: 'G',
      unitName: 'Game',
      unitFamily: GAME_WINNER.key,
      scoreFamily: CORRECT_SCORE.key,
      target: 11,
      lastTarget: 11,
      rallyMs: 17_000,
      breakMs: 60_000,
      serve: 'alternate',
      serverWins: 0.54,
      ratingEffect: 0.015,
      volleyballData: false,
    }),
  ice_hockey: (ctx) => new IceHockeyEngine(ctx),
  american_football: (ctx) => new AmericanFootballEngine(ctx),
  baseball: (ctx) => new BaseballEngine(ctx),
  cs2: (ctx) => new MapsEngine(ctx, CS2_FORMAT),
  valorant: (ctx) => new MapsEngine(ctx, VALORANT_FORMAT),
  dota2: (ctx) => new MobaEngine(ctx, DOTA2_FORMAT),
  lol: (ctx) => new MobaEngine(ctx, LOL_FORMAT),
  cricket: (ctx) => new CricketEngine(ctx),
  handball: (ctx) => new HandballEngine(ctx),
  rugby: (ctx) => new RugbyEngine(ctx),
  darts: (ctx) => new DartsEngine(ctx),
  snooker: (ctx) => new SnookerEngine(ctx),
  mma: (ctx) => new CombatEngine(ctx),
  boxing: (ctx) => new CombatEngine(ctx),
};

/** The sports an engine plays (every sport of domain/sports.ts, a test checks). */
export const ENGINE_SPORTS: readonly string[] = Object.keys(FACTORIES);

export function createEngine(sport: string, ctx: EngineContext): MatchEngine {
  const factory = FACTORIES[sport];
  if (factory === undefined) throw new Error(`no match engine for sport '${sport}'`);
  return factory(ctx);
}
