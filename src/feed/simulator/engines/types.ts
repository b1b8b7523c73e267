// The contract between the game wrapper and a sport's match engine: steps, snapshots, result, stats and fair markets.
import type { PeriodScore, Score, Scoreboard, TeamSide } from '../../../domain/types.js';
import type { PlayerStats } from '../../messages.js';
import type { FairMarket, MatchNames } from '../pricing/fair.js';
import type { Rng } from '../rng.js';
import type { SimLeague, SimTeam } from '../world.js';

export interface EngineContext {
  rng: Rng;
  league: SimLeague;
  home: SimTeam;
  away: SimTeam;
  names: MatchNames;
}

export interface StepResult {
  /** Simulated ms until the next step. */
  next: number;
  /** Lock every selection for this long: a goal, a try, a dangerous moment (ms). */
  lockMs?: number;
}

/** What a score message carries. */
export interface Snapshot {
  score: Score;
  period: string;
  clock: string | null;
  periodScores: PeriodScore[];
  sportData: Record<string, unknown>;
  scoreboard: Scoreboard;
}

export interface FinalResult {
  score: Score;
  periodScores: PeriodScore[];
  winner: TeamSide | null;
}

/** `main` is the short list published far ahead of kick-off; `full` the whole book of the league's tier. */
export type MarketDepth = 'main' | 'full';

export interface MatchEngine {
  /** Kick-off: returns the simulated ms until the first step. */
  begin(): number;
  /** Plays what happens at this moment and plans the next step. */
  step(): StepResult;
  snapshot(): Snapshot;
  /** A break between periods (half time, between quarters, sets, maps…): markets are locked. */
  inBreak(): boolean;
  /** Close to the end (last minutes, match point…): markets are locked or withdrawn. */
  nearEnd(): boolean;
  finished(): boolean;
  result(): FinalResult;
  /** Player lines for a stats message (counters as extra numeric fields). */
  stats(): PlayerStats[];
  /**
   * Fair markets of the current state (the same keys all game long; a missing key is locked).
   * `sinceStepMs`: how long after the last step they are priced, for an engine whose clock runs
   * between its steps (`clockRunning`): the play still to come is what is left from there. Pure:
   * pricing never draws from the game's random stream.
   */
  markets(depth: MarketDepth, sinceStepMs?: number): FairMarket[];
  /**
   * Whether the game clock is running now, so the price moves between steps as time passes (a
   * soccer minute is one step, while a real book's prices decay second by second). Absent or false:
   * the price moves at steps only.
   */
  clockRunning?(): boolean;
  /** Typical length of the game in simulated ms, breaks included. */
  expectedDurationMs(): number;
}

export type EngineFactory = (ctx: EngineContext) => MatchEngine;

export function mmss(totalSeconds: number): string {
  const s = Math.max(0, Math.round(totalSeconds));
  return `${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
}

export function playerLine(id: string, name: string, team: TeamSide, counters: Record<string, number>): PlayerStats {
  return { player_id: id, name, team, ...counters } as PlayerStats;
}

/** Win probability from a rating difference on the standard-normal scale of SimTeam.rating. */
export function logistic(x: number): number {
  return 1 / (1 + Math.exp(-x));
}
