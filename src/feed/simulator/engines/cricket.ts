// Cricket (T20 and T10): ball by ball, two innings, wickets and the chase of a target.
import { TOTALS } from '../../../domain/families/index.js';
import type { PeriodScore } from '../../../domain/types.js';
import type { PlayerStats } from '../../messages.js';
import { Dist } from '../pricing/dist.js';
import { moneyline, teamTotals, totals } from '../pricing/families.js';
import type { FairMarket } from '../pricing/fair.js';
import { chaseTotal, InningsModel, type BallModel } from './cricket-innings.js';
import { TeamPlayers } from './team-players.js';
import type { EngineContext, FinalResult, MarketDepth, MatchEngine, Snapshot, StepResult } from './types.js';

const BALL_MS = 28_000;
const OVER_CHANGE_MS = 40_000;
const INNINGS_BREAK_MS = 15 * 60_000;
/** Runs off one legal ball and their probabilities (T20 base): 0, 1, 2, 3, 4, 6. */
const RUNS = [0, 1, 2, 3, 4, 6];
const BASE = [0.36, 0.36, 0.08, 0.005, 0.11, 0.045];
const WICKET = 0.05;
const WIDE = 0.03;
/** A wicket's suspension, seconds (docs/simulator.md, "Cricket: the wicket suspension"). */
const WICKET_LOCK_S = [15, 20] as const;

/** Innings models by how a side bats (pairs of teams meet again and again): built once, shared. */
const MODELS = new Map<string, InningsModel>();

function inningsModel(ball: BallModel, balls: number): InningsModel {
  const id = `${ball.wicket}|${ball.chances.join(',')}|${balls}`;
  let m = MODELS.get(id);
  if (m === undefined) {
    if (MODELS.size >= 500) MODELS.clear();
    m = new InningsModel(ball, balls);
    MODELS.set(id, m);
  }
  return m;
}

/** What the rest of the game holds: each side's final runs, their sum, the chase won or tied. */
interface Prospects {
  first: Dist;
  second: Dist;
  /** The match's total runs (only when asked: the full book's lines). */
  total: Dist | null;
  pChase: number;
  pTie: number;
}

export class CricketEngine implements MatchEngine {
  private readonly overs: number;
  private readonly strength: [number, number];
  /** Side batting first. */
  private readonly first: 0 | 1;
  private innings = 0;
  private readonly runs: [number, number] = [0, 0];
  private readonly wickets: [number, number] = [0, 0];
  private readonly balls: [number, number] = [0, 0];
  private between = false;
  private over = false;
  private readonly squads: [TeamPlayers, TeamPlayers];
  private readonly lines: { team: [number[], number[]]; total: number[] };

  constructor(private readonly ctx: EngineContext) {
    this.overs = ctx.league.plan.format?.overs ?? 20;
    const diff = (ctx.home.rating - ctx.away.rating) * 0.08;
    this.strength = [Math.exp(diff), Math.exp(-diff)];
    this.first = ctx.rng.chance(0.5) ? 0 : 1;
    this.squads = [
      new TeamPlayers(ctx.home, 'home', ['runs', 'balls_faced', 'wickets', 'sixes']),
      new TeamPlayers(ctx.away, 'away', ['runs', 'balls_faced', 'wickets', 'sixes']),
    ];
    const start = this.prospects(true);
    const bySide = this.first === 0 ? [start.first, start.second] : [start.second, start.first];
    const line = (x: number): number[] => [Math.floor(x) - 9.5, Math.floor(x) + 0.5, Math.floor(x) + 10.5];
    this.lines = { team: [line(bySide[0]!.mean()), line(bySide[1]!.mean())], total: line(start.total!.mean()) };
  }

  expectedDurationMs(): number {
    return 2 * this.overs * (6.2 * BALL_MS + OVER_CHANGE_MS) + INNINGS_BREAK_MS;
  }

  private batting(): 0 | 1 {
    return this.innings === 0 ? this.first : this.first === 0 ? 1 : 0;
  }

  /** Weights of the runs off a legal ball that takes no wicket (boundaries up with strength, and in the shorter format). */
  private batWeights(side: 0 | 1): number[] {
    const boost = this.overs <= 10 ? 1.18 : 1;
    return BASE.map((p, i) => p * (RUNS[i]! >= 4 ? this.strength[side] * boost : 1));
  }

  /** How the side bats, exactly as step() draws it: the book prices from the same chances. */
  private model(side: 0 | 1): InningsModel {
    const w = this.batWeights(side);
    const sum = w.reduce((a, b) => a + b, 0);
    const ball: BallModel = {
      wicket: Math.min(1, WICKET / this.strength[side]),
      runs: RUNS,
      chances: w.map((x) => x / sum),
      wide: WIDE,
    };
    return inningsModel(ball, this.overs * 6);
  }

  begin(): number {
    return BALL_MS;
  }

  step(): StepResult {
    const { rng } = this.ctx;
    if (this.over) return { next: 60_000 };
    if (this.between) {
      this.between = false;
      this.innings = 1;
      return { next: BALL_MS };
    }
    const side = this.batting();
    const squad = this.squads[side];
    const bowlers = this.squads[side === 0 ? 1 : 0];
    let lockMs: number | undefined;
    if (rng.chance(WIDE)) {
      this.runs[side]++;
    } else {
      this.balls[side]++;
      const batter = squad.players[Math.min(squad.players.length - 1, this.wickets[side] + rng.int(0, 1))] ?? null;
      squad.add(batter, 'balls_faced');
      if (rng.chance(WICKET / this.strength[side])) {
        this.wickets[side]++;
        bowlers.add(
          bowlers.pick(rng, (pos) => (pos === 'BOWL' ? 1 : 0.2)),
          'wickets',
        );
        // The book suspends while the dismissal may be reviewed (15 s to ask for it) and reopens
        // before the next ball (28 s on): a lock past it kept the whole book shut for a ball more.
        lockMs = rng.int(WICKET_LOCK_S[0], WICKET_LOCK_S[1]) * 1000;
      } else {
        const r = RUNS[rng.weighted(this.batWeights(side))]!;
        this.runs[side] += r;
        squad.add(batter, 'runs', r);
        if (r === 6) squad.add(batter, 'sixes');
      }
    }
    const ballsDone = this.balls[side] >= this.overs * 6;
    const allOut = this.wickets[side] >= 10;
    const chased = this.innings === 1 && this.runs[side] > this.runs[this.first];
    if (chased || ((ballsDone || allOut) && this.innings === 1)) {
      this.over = true;
      return { next: 60_000 };
    }
    if (ballsDone || allOut) {
      this.between = true;
      return { next: INNINGS_BREAK_MS };
    }
    const next = this.balls[side] % 6 === 0 ? OVER_CHANGE_MS + BALL_MS : BALL_MS;
    return lockMs === undefined ? { next } : { next, lockMs };
  }

  private periodScores(): PeriodScore[] {
    const out: PeriodScore[] = [];
    for (let i = 0; i <= this.innings; i++) {
      const side = i === 0 ? this.first : this.first === 0 ? 1 : 0;
      out.push({ period: `INN${i + 1}`, home: side === 0 ? this.runs[0] : 0, away: side === 1 ? this.runs[1] : 0 });
    }
    return out;
  }

  private oversText(side: 0 | 1): string {
    return `${Math.floor(this.balls[side] / 6)}.${this.balls[side] % 6}`;
  }

  snapshot(): Snapshot {
    const side = this.batting();
    const overs = this.balls[side] / 6;
    const row = (s: 0 | 1): Array<number | string> => [this.runs[s], this.wickets[s], this.oversText(s)];
    return {
      score: { home: this.runs[0], away: this.runs[1] },
      period: `INN${this.innings + 1}`,
      clock: null,
      periodScores: this.periodScores(),
      sportData: {
        innings: this.innings + 1,
        batting: side === 0 ? 'home' : 'away',
        overs: this.oversText(side),
        wickets: this.wickets[side],
        run_rate: overs > 0 ? Math.round((this.runs[side] / overs) * 100) / 100 : 0,
        target: this.innings === 1 ? this.runs[this.first] + 1 : null,
      },
      scoreboard: { headers: ['Runs', 'Wickets', 'Overs'], home: row(0), away: row(1) },
    };
  }

  inBreak(): boolean {
    return this.between;
  }

  nearEnd(): boolean {
    if (this.over || this.between || this.innings === 0) return false;
    const side = this.batting();
    const need = this.runs[this.first] + 1 - this.runs[side];
    return this.overs * 6 - this.balls[side] <= 6 || need <= 6 || this.wickets[side] >= 9;
  }

  finished(): boolean {
    return this.over;
  }

  result(): FinalResult {
    return { score: { home: this.runs[0], away: this.runs[1] }, periodScores: this.periodScores(), winner: null };
  }

  stats(): PlayerStats[] {
    return [...this.squads[0].lines(), ...this.squads[1].lines()];
  }

  /**
   * The rest of the game as the engine plays it. In the first innings its final total is a
   * distribution and the chase is priced against each total it may set; in the chase, the runs
   * needed from the balls and wickets left.
   */
  private prospects(withTotal: boolean): Prospects {
    const first = this.first;
    const second: 0 | 1 = first === 0 ? 1 : 0;
    const balls = this.overs * 6;
    const chase = this.model(second);
    if (this.innings === 1) {
      const runs1 = this.runs[first];
      const target = runs1 + 1;
      const x = this.over ? Dist.point(0) : chase.toCome(balls - this.balls[second], 10 - this.wickets[second]);
      const need = target - this.runs[second];
      const y = chaseTotal(this.runs[second], x, target, chase.overshoot);
      return {
        first: Dist.point(runs1),
        second: y,
        total: y.shift(runs1),
        pChase: need <= 0 ? 1 : x.above(need - 1),
        pTie: need <= 0 ? 0 : x.at(need - 1),
      };
    }
    const t1 = this.model(first)
      .toCome(balls - this.balls[first], 10 - this.wickets[first])
      .shift(this.runs[first]);
    const x = chase.toCome(balls, 10);
    const o = chase.overshoot;
    // Each first-innings total t sets a target t + 1: the chase stops short of it (a tie at t) or
    // passes it by the overshoot.
    const xs = new Float64Array(x.p.length + 1);
    for (let i = x.p.length - 1; i >= 0; i--) xs[i] = xs[i + 1]! + x.p[i]!;
    const reach = (v: number): number => (v <= x.min ? 1 : v > x.max ? 0 : xs[v - x.min]!);
    const t1s = new Float64Array(t1.p.length + 1);
    for (let i = t1.p.length - 1; i >= 0; i--) t1s[i] = t1s[i + 1]! + t1.p[i]!;
    const t1AtLeast = (v: number): number => (v <= t1.min ? 1 : v > t1.max ? 0 : t1s[v - t1.min]!);
    const yLo = Math.min(x.min, t1.min + 1);
    const yHi = Math.max(x.max, t1.max + 1 + o.max);
    const yp = new Float64Array(yHi - yLo + 1);
    // Stopped short: the chase's own runs v, with a first-innings total of v or more.
    for (let v = x.min; v <= x.max; v++) yp[v - yLo] = x.p[v - x.min]! * t1AtLeast(v);
    let pChase = 0;
    let pTie = 0;
    const won = new Float64Array(t1.p.length);
    for (let i = 0; i < t1.p.length; i++) {
      const t = t1.min + i;
      won[i] = t1.p[i]! * reach(t + 1);
      pChase += won[i]!;
      pTie += t1.p[i]! * x.at(t);
      for (let k = 0; k < o.p.length; k++) yp[t + 1 + k - yLo]! += won[i]! * o.p[k]!;
    }
    const y = new Dist(yLo, yp);
    if (!withTotal) return { first: t1, second: y, total: null, pChase, pTie };
    // The match total: the pairs (t, v) of a chase stopped short, and 2t + 1 + overshoot of one that got there.
    const zLo = t1.min + yLo;
    const zp = new Float64Array(t1.max + yHi - zLo + 1);
    for (let i = 0; i < t1.p.length; i++) {
      const pt = t1.p[i]!;
      if (pt < 1e-14) continue;
      const t = t1.min + i;
      for (let v = x.min; v <= Math.min(t, x.max); v++) zp[t + v - zLo]! += pt * x.p[v - x.min]!;
      for (let k = 0; k < o.p.length; k++) zp[2 * t + 1 + k - zLo]! += won[i]! * o.p[k]!;
    }
    return { first: t1, second: y, total: new Dist(zLo, zp), pChase, pTie };
  }

  markets(depth: MarketDepth): FairMarket[] {
    const names = this.ctx.names;
    const second: 0 | 1 = this.first === 0 ? 1 : 0;
    const full = depth === 'full';
    const pr = this.prospects(full);
    // A tie refunds the winner market: the price is the chance of a win given a result.
    const pHome = (second === 0 ? pr.pChase : 1 - pr.pChase - pr.pTie) / Math.max(1e-9, 1 - pr.pTie);
    const out: FairMarket[] = [moneyline(names, Math.min(1, Math.max(0, pHome)))];
    const dists: [Dist, Dist] = this.first === 0 ? [pr.first, pr.second] : [pr.second, pr.first];
    for (const side of [0, 1] as const) {
      const lines = full ? this.lines.team[side] : [this.lines.team[side][1]!];
      for (const line of lines) out.push(teamTotals(side === 0 ? 'home' : 'away', names, dists[side], line));
    }
    if (full && pr.total !== null)
      for (const line of this.lines.total) out.push(totals(pr.total, line, null, null, TOTALS.key, 'Total Runs'));
    return out;
  }
}
