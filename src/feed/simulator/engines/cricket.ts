// Cricket (T20 and T10): ball by ball, two innings, wickets and the chase of a target.
import { TOTALS } from '../../../domain/families/index.js';
import type { PeriodScore } from '../../../domain/types.js';
import type { PlayerStats } from '../../messages.js';
import { Dist, normalCdf, normalDist } from '../pricing/dist.js';
import { moneyline, teamTotals, totals } from '../pricing/families.js';
import { sumDist } from '../pricing/dist.js';
import type { FairMarket } from '../pricing/fair.js';
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
const VAR_PER_BALL = 2.4;

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
    const exp = [0, 1].map((s) => this.expectedRuns(s as 0 | 1, this.overs * 6, 0));
    const line = (x: number): number[] => [Math.floor(x) - 9.5, Math.floor(x) + 0.5, Math.floor(x) + 10.5];
    this.lines = { team: [line(exp[0]!), line(exp[1]!)], total: line(exp[0]! + exp[1]!).map((x) => x) };
  }

  expectedDurationMs(): number {
    return 2 * this.overs * (6.2 * BALL_MS + OVER_CHANGE_MS) + INNINGS_BREAK_MS;
  }

  private batting(): 0 | 1 {
    return this.innings === 0 ? this.first : this.first === 0 ? 1 : 0;
  }

  /** Runs per legal ball for a side (aggression rises in the shorter format). */
  private runsPerBall(side: 0 | 1): number {
    const boost = this.overs <= 10 ? 1.18 : 1;
    let m = 0;
    BASE.forEach((p, i) => {
      m += p * RUNS[i]! * (RUNS[i]! >= 4 ? this.strength[side] * boost : 1);
    });
    return m + WIDE;
  }

  /** Expected runs from `ballsLeft` balls with `wickets` down: fewer wickets in hand, fewer runs. */
  private expectedRuns(side: 0 | 1, ballsLeft: number, wickets: number): number {
    const inHand = 10 - wickets;
    const resource = Math.min(1, inHand / Math.max(1, (ballsLeft / 6) * 0.45));
    return ballsLeft * this.runsPerBall(side) * (0.55 + 0.45 * resource);
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
        lockMs = rng.int(25, 40) * 1000;
      } else {
        const boost = this.overs <= 10 ? 1.18 : 1;
        const w = BASE.map((p, i) => p * (RUNS[i]! >= 4 ? this.strength[side] * boost : 1));
        const r = RUNS[rng.weighted(w)]!;
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

  private outlook(side: 0 | 1): { mean: number; sd: number } {
    const ballsLeft = this.overs * 6 - this.balls[side];
    const wk = this.wickets[side];
    if (wk >= 10 || ballsLeft <= 0) return { mean: this.runs[side], sd: 0 };
    const mean = this.runs[side] + this.expectedRuns(side, ballsLeft, wk);
    return { mean, sd: Math.sqrt(ballsLeft * VAR_PER_BALL) + 0.5 };
  }

  markets(depth: MarketDepth): FairMarket[] {
    const names = this.ctx.names;
    const second: 0 | 1 = this.first === 0 ? 1 : 0;
    const a = this.outlook(this.first);
    const b = this.outlook(second);
    // The chasing side wins when what it could score reaches the target.
    const sd = Math.sqrt(a.sd * a.sd + b.sd * b.sd);
    const pChase =
      this.innings === 1 && this.over
        ? this.runs[second] > this.runs[this.first]
          ? 1
          : 0
        : sd > 0
          ? 1 - normalCdf((a.mean + 0.5 - b.mean) / sd)
          : b.mean > a.mean
            ? 1
            : 0;
    const pTie = sd > 0 ? normalCdf((a.mean + 0.5 - b.mean) / sd) - normalCdf((a.mean - 0.5 - b.mean) / sd) : 0;
    const pHomeNoTie = (second === 0 ? pChase : 1 - pChase - pTie) / Math.max(1e-9, 1 - pTie);
    const out: FairMarket[] = [moneyline(names, Math.min(1, Math.max(0, pHomeNoTie)))];
    const firstDist = normalDist(a.mean, a.sd).clampBelow(this.runs[this.first]);
    // The chase stops at the target: fold what lies beyond onto a few runs past it.
    const cap = Math.round(a.mean) + 4;
    const raw = normalDist(b.mean, b.sd).clampBelow(this.runs[second]);
    const folded = fold(raw, Math.max(cap, this.runs[second]));
    const dists: [Dist, Dist] = this.first === 0 ? [firstDist, folded] : [folded, firstDist];
    const full = depth === 'full';
    for (const side of [0, 1] as const) {
      const lines = full ? this.lines.team[side] : [this.lines.team[side][1]!];
      for (const line of lines) out.push(teamTotals(side === 0 ? 'home' : 'away', names, dists[side], line));
    }
    if (full)
      for (const line of this.lines.total)
        out.push(totals(sumDist(dists[0], dists[1]), line, null, null, TOTALS.key, 'Total Runs'));
    return out;
  }
}

/** Moves the mass above `max` onto `max`. */
function fold(d: Dist, max: number): Dist {
  if (d.max <= max) return d;
  const keep = Math.max(1, max - d.min + 1);
  const p = d.p.slice(0, keep);
  let rest = 0;
  for (let i = keep; i < d.p.length; i++) rest += d.p[i]!;
  p[keep - 1]! += rest;
  return new Dist(d.min, p);
}
