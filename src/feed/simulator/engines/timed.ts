// Shared clock of timed team sports (basketball, handball, rugby, ice hockey, American football): periods, breaks, overtime.
import type { PeriodScore, TeamSide } from '../../../domain/types.js';
import type { PlayerStats } from '../../messages.js';
import type { FairMarket } from '../pricing/fair.js';
import {
  mmss,
  type EngineContext,
  type FinalResult,
  type MarketDepth,
  type MatchEngine,
  type Snapshot,
  type StepResult,
} from './types.js';

export interface TimedFormat {
  /** Regulation periods, in order (`Q1`…`Q4`, `1H`, `2H`, `P1`…). */
  periods: readonly string[];
  periodSeconds: number;
  /** Overtime periods played while tied (names in order) and their length; none when a tie stands. */
  overtime: { names: readonly string[]; seconds: number; suddenDeath: boolean } | null;
  /** Wall ms of the break after regulation period `index` (0-based); `toOvertime` before an overtime. */
  breakMs(index: number, toOvertime: boolean): number;
  /** Simulated ms per second of game clock while the clock runs (stoppages included). */
  wallPerGameSecond: number;
  /** The clock counts down (basketball, hockey, American football) rather than up. */
  countdown: boolean;
}

export interface Tick {
  /** Game seconds this step consumed. */
  seconds: number;
  lockMs?: number;
}

export abstract class TimedEngine implements MatchEngine {
  protected readonly played: string[] = [];
  protected readonly points: Array<[number, number]> = [];
  /** Game seconds elapsed in the current period. */
  protected elapsed = 0;
  protected breakNow = false;
  protected over = false;

  constructor(
    protected readonly ctx: EngineContext,
    protected readonly format: TimedFormat,
  ) {}

  /** Plays the next moment of the game (calls `score`) and says how much game clock it used. */
  protected abstract tick(): Tick;
  abstract markets(depth: MarketDepth): FairMarket[];
  abstract stats(): PlayerStats[];
  protected abstract sportData(): Record<string, unknown>;

  /** Extra scoreboard columns after the periods and the total. */
  protected boardExtras(): { headers: string[]; home: Array<number | string>; away: Array<number | string> } {
    return { headers: [], home: [], away: [] };
  }

  /** Winner of a game that ended level after every overtime (e.g. a shoot-out); null = a tie. */
  protected tieWinner(): TeamSide | null {
    return null;
  }

  begin(): number {
    this.played.push(this.format.periods[0]!);
    this.points.push([0, 0]);
    return this.wallOf(this.peekSeconds());
  }

  /** Game seconds of the next step, for its wall delay (the step itself draws the real length). */
  protected peekSeconds(): number {
    return 20;
  }

  protected wallOf(seconds: number): number {
    return Math.max(1000, Math.round(seconds * this.format.wallPerGameSecond));
  }

  expectedDurationMs(): number {
    const f = this.format;
    let breaks = 0;
    for (let i = 0; i < f.periods.length - 1; i++) breaks += f.breakMs(i, false);
    return f.periods.length * f.periodSeconds * f.wallPerGameSecond + breaks;
  }

  /** Index of the period in play (0 before kick-off). */
  get periodIndex(): number {
    return Math.max(0, this.played.length - 1);
  }

  get inOvertime(): boolean {
    return this.played.length > this.format.periods.length;
  }

  protected periodLength(): number {
    return this.inOvertime ? this.format.overtime!.seconds : this.format.periodSeconds;
  }

  protected score(side: TeamSide, pts: number): void {
    const p = this.points[this.periodIndex];
    if (p !== undefined) p[side === 'home' ? 0 : 1] += pts;
  }

  total(): [number, number] {
    let h = 0;
    let a = 0;
    for (const [ph, pa] of this.points) {
      h += ph;
      a += pa;
    }
    return [h, a];
  }

  /** Points scored in regulation periods only. */
  regulationTotal(): [number, number] {
    let h = 0;
    let a = 0;
    this.points.slice(0, this.format.periods.length).forEach(([ph, pa]) => {
      h += ph;
      a += pa;
    });
    return [h, a];
  }

  step(): StepResult {
    if (this.over) return { next: 60_000 };
    if (this.breakNow) {
      this.breakNow = false;
      const next =
        this.played.length < this.format.periods.length
          ? this.format.periods[this.played.length]!
          : this.format.overtime!.names[this.played.length - this.format.periods.length]!;
      this.played.push(next);
      this.points.push([0, 0]);
      this.elapsed = 0;
      return { next: this.wallOf(this.peekSeconds()) };
    }
    const before = this.total();
    const t = this.tick();
    this.elapsed = Math.min(this.periodLength(), this.elapsed + t.seconds);
    const after = this.total();
    const suddenDeath =
      this.inOvertime && this.format.overtime!.suddenDeath && (after[0] !== before[0] || after[1] !== before[1]);
    let next = this.wallOf(this.peekSeconds());
    if (this.elapsed >= this.periodLength() || suddenDeath) next = this.endPeriod();
    return t.lockMs === undefined ? { next } : { next, lockMs: t.lockMs };
  }

  private endPeriod(): number {
    const f = this.format;
    const idx = this.periodIndex;
    const [h, a] = this.total();
    if (idx < f.periods.length - 1) {
      this.breakNow = true;
      return f.breakMs(idx, false);
    }
    const otPlayed = this.played.length - f.periods.length;
    if (h === a && f.overtime !== null && otPlayed < f.overtime.names.length) {
      this.breakNow = true;
      return f.breakMs(idx, true);
    }
    this.over = true;
    return 60_000;
  }

  /** Game seconds left in regulation from now (0 in overtime). */
  remainingRegulationSeconds(): number {
    if (this.inOvertime || this.over) return 0;
    const f = this.format;
    const left = this.breakNow ? 0 : f.periodSeconds - this.elapsed;
    return left + (f.periods.length - 1 - this.periodIndex) * f.periodSeconds;
  }

  /**
   * Game seconds of overtime sure to be played from now: the rest of the one in play, or a whole one
   * in the break before it (the break is only taken before an overtime when the score is level).
   */
  overtimeSecondsLeft(): number {
    const ot = this.format.overtime;
    if (this.over || ot === null) return 0;
    if (this.breakNow) return this.played.length >= this.format.periods.length ? ot.seconds : 0;
    return this.inOvertime ? this.periodLength() - this.elapsed : 0;
  }

  /** Overtime periods that may still follow the one in play or about to start (a level score brings them). */
  overtimesAfterNow(): number {
    const ot = this.format.overtime;
    if (this.over || ot === null) return 0;
    const started = Math.max(0, this.played.length - this.format.periods.length);
    // In the break before an overtime it is sure to be played, but not yet started.
    const sure = this.breakNow && this.overtimeSecondsLeft() > 0 ? 1 : 0;
    return Math.max(0, ot.names.length - started - sure);
  }

  /** Game seconds left in regulation period `i` (0-based). */
  remainingInPeriod(i: number): number {
    if (this.over || this.inOvertime) return 0;
    if (i < this.periodIndex) return 0;
    if (i > this.periodIndex) return this.format.periodSeconds;
    return this.breakNow ? 0 : this.format.periodSeconds - this.elapsed;
  }

  /** Points of regulation period `i` so far. */
  periodPoints(i: number): [number, number] {
    return this.points[i] ?? [0, 0];
  }

  clockText(): string {
    const len = this.periodLength();
    return mmss(
      this.format.countdown
        ? len - this.elapsed
        : (this.inOvertime ? 0 : this.periodIndex * this.format.periodSeconds) + this.elapsed,
    );
  }

  currentPeriod(): string {
    return this.played[this.played.length - 1] ?? this.format.periods[0]!;
  }

  periodScores(): PeriodScore[] {
    return this.played.map((period, i) => ({ period, home: this.points[i]![0], away: this.points[i]![1] }));
  }

  snapshot(): Snapshot {
    const [h, a] = this.total();
    const cols = [...this.format.periods, ...this.played.slice(this.format.periods.length)];
    const extras = this.boardExtras();
    const row = (side: 0 | 1): Array<number | string> => [
      ...cols.map((_, i) => this.points[i]?.[side] ?? 0),
      side === 0 ? h : a,
      ...(side === 0 ? extras.home : extras.away),
    ];
    return {
      score: { home: h, away: a },
      period: this.currentPeriod(),
      clock: this.clockText(),
      periodScores: this.periodScores(),
      sportData: this.sportData(),
      scoreboard: { headers: [...cols, 'T', ...extras.headers], home: row(0), away: row(1) },
    };
  }

  inBreak(): boolean {
    return this.breakNow;
  }

  nearEnd(): boolean {
    if (this.over || this.breakNow) return false;
    const [h, a] = this.total();
    const lastRegulation = this.periodIndex === this.format.periods.length - 1;
    const left = this.periodLength() - this.elapsed;
    if (this.inOvertime) return left <= 30 && h !== a;
    return lastRegulation && left <= 90 && (h !== a || this.format.overtime === null);
  }

  finished(): boolean {
    return this.over;
  }

  result(): FinalResult {
    const [h, a] = this.total();
    return {
      score: { home: h, away: a },
      periodScores: this.periodScores(),
      winner: h === a ? this.tieWinner() : null,
    };
  }
}
