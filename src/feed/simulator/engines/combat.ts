// MMA and boxing: timed rounds with a finish hazard (KO, TKO, submission), judges' cards and a decision at the end.
import { FIGHT_ROUNDS } from '../../../domain/families/index.js';
import type { PeriodScore } from '../../../domain/types.js';
import type { PlayerStats } from '../../messages.js';
import { normalCdf } from '../pricing/dist.js';
import { key, matchResult, moneyline } from '../pricing/families.js';
import { Dist } from '../pricing/dist.js';
import { decidedIfCertain, fair, type FairMarket } from '../pricing/fair.js';
import {
  logistic,
  mmss,
  playerLine,
  type EngineContext,
  type FinalResult,
  type MarketDepth,
  type MatchEngine,
  type Snapshot,
  type StepResult,
} from './types.js';

const TICK_SECONDS = 30;
const BREAK_MS = 60_000;

export class CombatEngine implements MatchEngine {
  private readonly rounds: number;
  private readonly roundSeconds: number;
  private readonly hazardPerMinute: number;
  private readonly edge: number;
  private readonly isBoxing: boolean;
  private round = 1;
  private elapsed = 0;
  private between = false;
  private over = false;
  private winner: 0 | 1 | null = null;
  /** Judges' points of each finished round; the round in progress is [0, 0]. */
  private readonly cards: Array<[number, number]> = [[0, 0]];
  /** Damage landed in the round in progress. */
  private roundWork: [number, number] = [0, 0];
  private readonly counters = [
    { strikes_landed: 0, knockdowns: 0, takedowns: 0 },
    { strikes_landed: 0, knockdowns: 0, takedowns: 0 },
  ];

  constructor(private readonly ctx: EngineContext) {
    this.isBoxing = ctx.league.sport === 'boxing';
    const f = ctx.league.plan.format;
    this.rounds = f?.rounds ?? (this.isBoxing ? 10 : 3);
    this.roundSeconds = (f?.roundMinutes ?? (this.isBoxing ? 3 : 5)) * 60;
    this.hazardPerMinute = this.isBoxing ? 0.022 : 0.045;
    this.edge = (ctx.home.rating - ctx.away.rating) * 0.5;
  }

  expectedDurationMs(): number {
    return this.rounds * (this.roundSeconds * 1000 + BREAK_MS) * 0.75;
  }

  begin(): number {
    return TICK_SECONDS * 1000;
  }

  step(): StepResult {
    const { rng } = this.ctx;
    if (this.over) return { next: 60_000 };
    if (this.between) {
      this.between = false;
      this.round++;
      this.elapsed = 0;
      this.cards.push([0, 0]);
      this.roundWork = [0, 0];
      return { next: TICK_SECONDS * 1000 };
    }
    this.elapsed += TICK_SECONDS;
    const share = logistic(this.edge);
    for (const side of [0, 1] as const) {
      const landed = rng.poisson((side === 0 ? share : 1 - share) * 6);
      this.counters[side]!.strikes_landed += landed;
      this.roundWork[side] += landed;
      if (!this.isBoxing && rng.chance(0.04 * (side === 0 ? share : 1 - share) * 2)) {
        this.counters[side]!.takedowns++;
        this.roundWork[side] += 3;
      }
    }
    let lockMs: number | undefined;
    if (rng.chance((this.hazardPerMinute * TICK_SECONDS) / 60)) {
      this.winner = rng.chance(share) ? 0 : 1;
      this.counters[this.winner]!.knockdowns++;
      this.over = true;
      return { next: 60_000 };
    }
    if (rng.chance(0.02)) {
      const side = rng.chance(share) ? 0 : 1;
      this.counters[side]!.knockdowns++;
      this.roundWork[side] += 8;
      lockMs = rng.int(8, 15) * 1000;
    }
    if (this.elapsed >= this.roundSeconds) {
      const [h, a] = this.roundWork;
      // A dominant round (twice the work and a clear gap) is 10-8.
      const card: [number, number] =
        h > a ? [10, h > 2 * a && h - a > 15 ? 8 : 9] : a > h ? [a > 2 * h && a - h > 15 ? 8 : 9, 10] : [10, 10];
      this.cards[this.cards.length - 1] = card;
      if (this.round >= this.rounds) {
        const [th, ta] = this.cardTotals();
        this.winner = th > ta ? 0 : ta > th ? 1 : null;
        this.over = true;
        return { next: 60_000 };
      }
      this.between = true;
      return { next: BREAK_MS };
    }
    return lockMs === undefined ? { next: TICK_SECONDS * 1000 } : { next: TICK_SECONDS * 1000, lockMs };
  }

  private cardTotals(): [number, number] {
    return this.cards.reduce<[number, number]>((s, c) => [s[0] + c[0], s[1] + c[1]], [0, 0]);
  }

  private periodScores(): PeriodScore[] {
    return this.cards.map(([h, a], i) => ({ period: `R${i + 1}`, home: h, away: a }));
  }

  snapshot(): Snapshot {
    const score = this.over
      ? { home: this.winner === 0 ? 1 : 0, away: this.winner === 1 ? 1 : 0 }
      : { home: 0, away: 0 };
    const [th, ta] = this.cardTotals();
    const row = (side: 0 | 1): number[] => [
      side === 0 ? th : ta,
      this.counters[side]!.strikes_landed,
      this.counters[side]!.knockdowns,
    ];
    return {
      score,
      period: `R${this.round}`,
      clock: mmss(this.elapsed),
      periodScores: this.periodScores(),
      sportData: {
        current_round: this.round,
        scheduled_rounds: this.rounds,
        home_knockdowns: this.counters[0]!.knockdowns,
        away_knockdowns: this.counters[1]!.knockdowns,
      },
      scoreboard: { headers: ['Cards', 'Strikes', 'Knockdowns'], home: row(0), away: row(1) },
    };
  }

  inBreak(): boolean {
    return this.between;
  }

  nearEnd(): boolean {
    return !this.over && !this.between && this.round === this.rounds && this.roundSeconds - this.elapsed <= 30;
  }

  finished(): boolean {
    return this.over;
  }

  result(): FinalResult {
    const s = this.snapshot().score;
    return {
      score: s,
      periodScores: this.periodScores(),
      winner: this.winner === null ? null : this.winner === 0 ? 'home' : 'away',
    };
  }

  stats(): PlayerStats[] {
    return [this.ctx.home, this.ctx.away].map((t, i) =>
      playerLine(t.players[0]!.id, t.players[0]!.name, i === 0 ? 'home' : 'away', { ...this.counters[i]! }),
    );
  }

  /** Seconds of fighting left when the bout goes the distance. */
  private secondsLeft(): number {
    const inRound = this.between ? 0 : this.roundSeconds - this.elapsed;
    return inRound + (this.rounds - this.round) * this.roundSeconds;
  }

  /** P(home, draw, away) of the fight from now. */
  private outcome(): [number, number, number] {
    const share = logistic(this.edge);
    const finish = 1 - Math.exp(-(this.hazardPerMinute * this.secondsLeft()) / 60);
    // Cards: each round still to judge is won by home with about `share`.
    const [th, ta] = this.cardTotals();
    const roundsLeft = this.rounds - this.round + (this.between ? 0 : 1);
    const mean = th - ta + roundsLeft * (2 * share - 1);
    const sd = Math.sqrt(roundsLeft * 1.1 + 0.01);
    const dHome = 1 - normalCdf((0.5 - mean) / sd);
    const dAway = normalCdf((-0.5 - mean) / sd);
    const dDraw = Math.max(0, 1 - dHome - dAway);
    return [finish * share + (1 - finish) * dHome, (1 - finish) * dDraw, finish * (1 - share) + (1 - finish) * dAway];
  }

  markets(depth: MarketDepth): FairMarket[] {
    const names = this.ctx.names;
    const [h, d, a] = this.outcome();
    const out: FairMarket[] = [];
    if (this.isBoxing) {
      const p = new Float64Array([a, d, h]);
      out.push(matchResult(names, new Dist(-1, p)));
    } else out.push(moneyline(names, h + a > 0 ? h / (h + a) : 0.5));
    if (depth === 'main') return out;
    // Rounds fought: over L.5 means round L+1 starts.
    const lines =
      this.rounds <= 3 ? [1.5, 2.5] : this.rounds <= 6 ? [2.5, 4.5] : [3.5, 6.5, 9.5].filter((l) => l < this.rounds);
    for (const line of lines) {
      const startRound = Math.floor(line) + 1;
      let pOver: number;
      if (this.round >= startRound) pOver = 1;
      else {
        const untilStart =
          (this.between ? 0 : this.roundSeconds - this.elapsed) + (startRound - this.round - 1) * this.roundSeconds;
        pOver = Math.exp(-(this.hazardPerMinute * untilStart) / 60);
      }
      out.push(
        decidedIfCertain(
          fair(key(FIGHT_ROUNDS.key, null, line), `${FIGHT_ROUNDS.name} ${line}`, [
            { code: 'over', label: `Over ${line}`, side: null, p: pOver },
            { code: 'under', label: `Under ${line}`, side: null, p: 1 - pOver },
          ]),
        ),
      );
    }
    return out;
  }
}
