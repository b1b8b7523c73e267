// Snooker: frames visit by visit (reds and colours, breaks, concessions), best-of-N frames.
import { CORRECT_SCORE, FRAME_WINNER } from '../../../domain/families/index.js';
import type { PeriodScore } from '../../../domain/types.js';
import type { PlayerStats } from '../../messages.js';
import { normalCdf } from '../pricing/dist.js';
import type { FairMarket } from '../pricing/fair.js';
import { seriesMarkets } from '../pricing/series.js';
import {
  logistic,
  playerLine,
  type EngineContext,
  type FinalResult,
  type MarketDepth,
  type MatchEngine,
  type Snapshot,
  type StepResult,
} from './types.js';

const SECONDS_PER_POT = 18;
const FRAME_BREAK_MS = 90_000;
const COLOURS = [2, 3, 4, 5, 6, 7];
/**
 * A fresh frame's log-odds per point of potting edge, fitted on the engine's frames (19,683 seeded
 * frames: 13.0). The book had 18: favourites priced beyond what they won (calibration slope 0.79).
 */
const FRAME_EDGE = 13;
/**
 * The frame in progress: the points margin to come spreads by this much variance per point on the
 * table, and the player at the table is worth this many points. Fitted by likelihood on seeded frames
 * (the book had 14 and nothing: its in-frame prices were overconfident, slope 0.90 after FRAME_EDGE).
 */
const FRAME_VARIANCE_PER_POINT = 27;
const AT_TABLE_POINTS = 7;

export class SnookerEngine implements MatchEngine {
  private readonly potting: [number, number];
  private readonly bestOf: number;
  private readonly frames: Array<[number, number]> = [[0, 0]];
  private readonly framesWon: [number, number] = [0, 0];
  private reds = 15;
  /** Next colour to clear once the reds are gone (index into COLOURS). */
  private colour = 0;
  private atTable: 0 | 1;
  private breakStarter: 0 | 1;
  private frameBreak = false;
  private over = false;
  private readonly counters = [
    { centuries: 0, highest_break: 0, frames_won: 0 },
    { centuries: 0, highest_break: 0, frames_won: 0 },
  ];

  constructor(private readonly ctx: EngineContext) {
    const clamp = (x: number): number => Math.min(0.93, Math.max(0.78, x));
    this.potting = [clamp(0.86 + 0.02 * ctx.home.rating), clamp(0.86 + 0.02 * ctx.away.rating)];
    this.bestOf = ctx.league.plan.format?.bestOf ?? 7;
    this.atTable = ctx.rng.chance(0.5) ? 0 : 1;
    this.breakStarter = this.atTable;
  }

  expectedDurationMs(): number {
    return this.bestOf * 0.8 * (14 * 60_000 + FRAME_BREAK_MS);
  }

  private need(): number {
    return Math.floor(this.bestOf / 2) + 1;
  }

  /** Points still on the table. */
  private remaining(): number {
    if (this.reds > 0) return this.reds * 8 + 27;
    return COLOURS.slice(this.colour).reduce((s, c) => s + c, 0);
  }

  begin(): number {
    return 30_000;
  }

  step(): StepResult {
    const { rng } = this.ctx;
    if (this.over) return { next: 60_000 };
    if (this.frameBreak) {
      this.frameBreak = false;
      this.frames.push([0, 0]);
      this.reds = 15;
      this.colour = 0;
      this.breakStarter = this.breakStarter === 0 ? 1 : 0;
      this.atTable = this.breakStarter;
      return { next: 30_000 };
    }
    const i = this.atTable;
    const frame = this.frames[this.frames.length - 1]!;
    let pots = 0;
    let points = 0;
    const p = this.potting[i] * (pots === 0 ? 0.7 : 1);
    if (rng.chance(p)) {
      for (;;) {
        if (this.reds > 0) {
          this.reds--;
          points += 1;
          pots++;
          if (!rng.chance(this.potting[i])) break;
          points += rng.pick([7, 7, 7, 6, 5, 4, 3, 2]);
          pots++;
        } else if (this.colour < COLOURS.length) {
          points += COLOURS[this.colour]!;
          this.colour++;
          pots++;
        } else break;
        if (this.colour >= COLOURS.length || !rng.chance(this.potting[i])) break;
      }
    }
    frame[i] += points;
    const c = this.counters[i]!;
    c.highest_break = Math.max(c.highest_break, points);
    if (points >= 100) c.centuries++;
    this.atTable = i === 0 ? 1 : 0;
    const next = Math.max(25_000, pots * SECONDS_PER_POT * 1000);
    const rem = this.remaining();
    const lead = frame[0] - frame[1];
    if (rem === 0 || Math.abs(lead) > rem + 7) {
      // Frame over (or conceded): a level frame goes to a re-spotted black.
      let winner: 0 | 1 = lead > 0 ? 0 : 1;
      if (lead === 0) {
        winner = rng.chance(0.5) ? 0 : 1;
        frame[winner] += 7;
      }
      return this.frameWon(winner);
    }
    return { next, ...(points >= 30 ? { lockMs: 10_000 } : {}) };
  }

  private frameWon(i: 0 | 1): StepResult {
    this.framesWon[i]++;
    this.counters[i]!.frames_won++;
    if (this.framesWon[i] >= this.need()) {
      this.over = true;
      return { next: 60_000 };
    }
    this.frameBreak = true;
    return { next: FRAME_BREAK_MS };
  }

  private periodScores(): PeriodScore[] {
    return this.frames.map(([h, a], i) => ({ period: `F${i + 1}`, home: h, away: a }));
  }

  snapshot(): Snapshot {
    const [h, a] = this.framesWon;
    const cur = this.frames[this.frames.length - 1]!;
    const row = (side: 0 | 1): number[] => [
      side === 0 ? h : a,
      cur[side],
      this.counters[side]!.highest_break,
      this.counters[side]!.centuries,
    ];
    return {
      score: { home: h, away: a },
      period: `F${this.frames.length}`,
      clock: null,
      periodScores: this.periodScores(),
      sportData: {
        current_frame: this.frames.length,
        frame_score: { home: cur[0], away: cur[1] },
        points_remaining: this.remaining(),
        home_at_table: this.atTable === 0,
        away_at_table: this.atTable === 1,
      },
      scoreboard: { headers: ['Frames', 'Points', 'High break', 'Centuries'], home: row(0), away: row(1) },
    };
  }

  inBreak(): boolean {
    return this.frameBreak;
  }

  nearEnd(): boolean {
    if (this.over || this.frameBreak) return false;
    const cur = this.frames[this.frames.length - 1]!;
    const need = this.need();
    const rem = this.remaining();
    // The deciding frame once the other player needs snookers (ahead by more than what is left on
    // the table). "Within 20 of it" withdrew a minor tier's book for 2-5 minutes of play.
    return (
      (this.framesWon[0] === need - 1 && cur[0] - cur[1] > rem) ||
      (this.framesWon[1] === need - 1 && cur[1] - cur[0] > rem)
    );
  }

  finished(): boolean {
    return this.over;
  }

  result(): FinalResult {
    return {
      score: { home: this.framesWon[0], away: this.framesWon[1] },
      periodScores: this.periodScores(),
      winner: null,
    };
  }

  stats(): PlayerStats[] {
    return [this.ctx.home, this.ctx.away].map((t, i) =>
      playerLine(t.players[0]!.id, t.players[0]!.name, i === 0 ? 'home' : 'away', { ...this.counters[i]! }),
    );
  }

  markets(depth: MarketDepth): FairMarket[] {
    const edge = this.potting[0] - this.potting[1];
    const fresh = logistic(edge * FRAME_EDGE);
    const cur = this.frames[this.frames.length - 1]!;
    const rem = this.remaining();
    const inProgress = !this.frameBreak && !this.over;
    const table = this.atTable === 0 ? AT_TABLE_POINTS : -AT_TABLE_POINTS;
    const mean = cur[0] - cur[1] + (2 * fresh - 1) * rem * 0.8 + table;
    const sd = Math.sqrt(rem * FRAME_VARIANCE_PER_POINT + 49);
    const pCurrent = inProgress ? (rem === 0 ? (mean > 0 ? 1 : 0) : normalCdf(mean / sd)) : fresh;
    const full = depth === 'full';
    const need = this.need();
    return seriesMarkets(
      { names: this.ctx.names, bestOf: this.bestOf, won: [...this.framesWon], pCurrent, pFresh: fresh, inProgress },
      {
        unitFamily: FRAME_WINNER.key,
        unitPeriod: 'f',
        unitName: 'Frame',
        scoreFamily: CORRECT_SCORE.key,
        scoreName: 'Correct Score',
        handicapLines: full ? [-2.5, -1.5, 1.5, 2.5] : [-1.5, 1.5],
        totalLines: [need + Math.floor((this.bestOf - need) / 2) + 0.5],
        unitWinners: full ? this.bestOf : 1,
      },
    );
  }
}
