// Ice hockey: three 20-minute periods, goals as a Poisson process raised on the power play, sudden-death overtime and a shoot-out.
import {
  ASIAN_HANDICAP,
  PUCK_LINE_OT,
  TEAM_TOTALS_AWAY_OT,
  TEAM_TOTALS_HOME_OT,
  TOTALS,
  TOTALS_OT,
} from '../../../domain/families/index.js';
import type { PeriodScore, TeamSide } from '../../../domain/types.js';
import type { PlayerStats } from '../../messages.js';
import { Dist, Grid, poissonDist } from '../pricing/dist.js';
import {
  asianHandicap,
  btts,
  correctScore,
  doubleChance,
  matchResult,
  moneyline,
  oddEven,
  teamTotals,
  totals,
} from '../pricing/families.js';
import type { FairMarket } from '../pricing/fair.js';
import { countsWithDecider, marginWithDecider } from '../pricing/overtime.js';
import { TeamPlayers } from './team-players.js';
import { TimedEngine, type Tick } from './timed.js';
import type { EngineContext, MarketDepth, Snapshot, StepResult } from './types.js';

const TICK = 30;
const PENALTY_SECONDS = 120;
const PENALTIES_PER_GAME = 3.4;
const SHOOTOUT_CONVERSION = 0.32;
/** 3-on-3 overtime scores far faster than 5-on-5 (NHL: about 60% of overtimes end before the shoot-out). */
const OVERTIME_FACTOR = 2.1;
const LEADING_FACTOR = 0.85;
const TRAILING_FACTOR = 1.25;
/** Share of even-strength play a side spends a man up (3.4 minors a game per side, 2 minutes each, some ended early by a goal). */
const PP_SHARE = ((PENALTIES_PER_GAME * PENALTY_SECONDS) / 3600) * 0.9;
/** Time step of the book's walk through the score effects (game seconds). */
const STEP_SECONDS = 60;
/** The book's margin walk spans leads of ± this many goals (a wider lead is held at the edge). */
const LEAD_SPAN = 10;
const GOAL_WEIGHT = (pos: string): number => (pos === 'F' ? 1.6 : pos === 'D' ? 0.5 : 0);

/**
 * What the book expects of `seconds` of 3-on-3 overtime between sides scoring `lambda` goals an hour
 * at even strength: the chance of a goal (else a shoot-out) and that the home side scores it. The
 * rate is the one the engine plays (OVERTIME_FACTOR): priced at 1.5x while played at 2.1x, the book
 * put a shoot-out at 49% of overtimes where the games reached it in 37%.
 */
export function overtimeOdds(lambda: readonly [number, number], seconds: number): { goal: number; home: number } {
  const rh = (lambda[0] * OVERTIME_FACTOR * seconds) / 3600;
  const ra = (lambda[1] * OVERTIME_FACTOR * seconds) / 3600;
  return { goal: 1 - Math.exp(-(rh + ra)), home: rh / (rh + ra) };
}

export class IceHockeyEngine extends TimedEngine {
  private readonly lambda: [number, number];
  /** Seconds left on each running minor penalty, per side. */
  private readonly penalties: [number[], number[]] = [[], []];
  private readonly pim: [number, number] = [0, 0];
  private shootout: { active: boolean; kicks: number; goals: [number, number] } = {
    active: false,
    kicks: 0,
    goals: [0, 0],
  };
  private readonly squads: [TeamPlayers, TeamPlayers];

  constructor(ctx: EngineContext) {
    super(ctx, {
      periods: ['P1', 'P2', 'P3'],
      periodSeconds: 20 * 60,
      overtime: { names: ['OT'], seconds: 300, suddenDeath: true },
      breakMs: (_i, ot) => (ot ? 2 * 60_000 : 18 * 60_000),
      wallPerGameSecond: 1.9 * 1000,
      countdown: true,
    });
    const diff = (ctx.home.rating - ctx.away.rating) * 0.1;
    this.lambda = [2.85 * Math.exp(diff + 0.04), 2.85 * Math.exp(-diff - 0.04)];
    this.squads = [
      new TeamPlayers(ctx.home, 'home', ['goals', 'assists']),
      new TeamPlayers(ctx.away, 'away', ['goals', 'assists']),
    ];
  }

  protected override peekSeconds(): number {
    return TICK;
  }

  private strengthFactor(side: 0 | 1): number {
    const own = this.penalties[side].length;
    const opp = this.penalties[side === 0 ? 1 : 0].length;
    if (opp > own) return 1 + 1.6 * (opp - own);
    if (own > opp) return 0.3;
    if (this.inOvertime) return OVERTIME_FACTOR;
    // Score effects: a trailing side presses (and pulls its goalie late), a leading one sits back.
    const [h, a] = this.total();
    const lead = side === 0 ? h - a : a - h;
    return lead > 0 ? LEADING_FACTOR : lead < 0 ? TRAILING_FACTOR : 1;
  }

  protected tick(): Tick {
    const { rng } = this.ctx;
    const seconds = Math.min(TICK, this.periodLength() - this.elapsed);
    let lockMs: number | undefined;
    const factors = [this.strengthFactor(0), this.strengthFactor(1)] as const;
    for (const side of [0, 1] as const) {
      if (rng.chance(((this.lambda[side] * factors[side]) / 3600) * seconds)) {
        this.score(side === 0 ? 'home' : 'away', 1);
        const squad = this.squads[side];
        squad.add(squad.pick(rng, GOAL_WEIGHT), 'goals');
        if (rng.chance(0.85)) squad.add(squad.pick(rng, GOAL_WEIGHT), 'assists');
        // A power-play goal ends the oldest minor of the other side.
        const opp = this.penalties[side === 0 ? 1 : 0];
        if (opp.length > this.penalties[side].length) opp.shift();
        lockMs = rng.int(30, 60) * 1000;
        break;
      }
    }
    for (const side of [0, 1] as const) {
      const running = this.penalties[side];
      for (let i = 0; i < running.length; i++) running[i]! -= seconds;
      this.penalties[side] = running.filter((s) => s > 0);
      if (!this.inOvertime && this.penalties[side].length < 2 && rng.chance((PENALTIES_PER_GAME / 3600) * seconds)) {
        this.penalties[side].push(PENALTY_SECONDS);
        this.pim[side] += 2;
        lockMs = Math.max(lockMs ?? 0, rng.int(5, 15) * 1000);
      }
    }
    if (lockMs === undefined && rng.chance(0.03)) lockMs = rng.int(5, 12) * 1000;
    return lockMs === undefined ? { seconds } : { seconds, lockMs };
  }

  override step(): StepResult {
    if (this.shootout.active) return this.shootoutAttempt();
    const r = super.step();
    if (this.over) {
      const [h, a] = this.total();
      if (h === a) {
        this.over = false;
        this.shootout.active = true;
        return { next: 3 * 60_000 };
      }
    }
    return r;
  }

  private shootoutAttempt(): StepResult {
    const { rng } = this.ctx;
    const so = this.shootout;
    const side = so.kicks % 2 === 0 ? 0 : 1;
    if (rng.chance(SHOOTOUT_CONVERSION)) so.goals[side]++;
    so.kicks++;
    const [h, a] = so.goals;
    const takenH = Math.ceil(so.kicks / 2);
    const takenA = Math.floor(so.kicks / 2);
    if (so.kicks <= 6) {
      if (h > a + (3 - takenA) || a > h + (3 - takenH)) this.endShootout();
    } else if (so.kicks % 2 === 0 && h !== a) this.endShootout();
    return { next: 45_000, lockMs: 20_000 };
  }

  private endShootout(): void {
    this.shootout.active = false;
    this.over = true;
  }

  protected override tieWinner(): TeamSide | null {
    const [h, a] = this.shootout.goals;
    if (this.shootout.kicks === 0 || h === a) return null;
    return h > a ? 'home' : 'away';
  }

  override periodScores(): PeriodScore[] {
    const out = super.periodScores();
    if (this.shootout.kicks > 0 || this.shootout.active)
      out.push({ period: 'SO', home: this.shootout.goals[0], away: this.shootout.goals[1] });
    return out;
  }

  override currentPeriod(): string {
    return this.shootout.active || (this.over && this.shootout.kicks > 0) ? 'SO' : super.currentPeriod();
  }

  override inBreak(): boolean {
    return super.inBreak() || (this.shootout.active && this.shootout.kicks === 0);
  }

  override nearEnd(): boolean {
    return this.shootout.active || super.nearEnd();
  }

  override snapshot(): Snapshot {
    const s = super.snapshot();
    return this.shootout.active ? { ...s, clock: '00:00' } : s;
  }

  protected sportData(): Record<string, unknown> {
    const data: Record<string, unknown> = {
      period: this.currentPeriod(),
      home_suspend: this.penalties[0].length,
      away_suspend: this.penalties[1].length,
    };
    if (this.shootout.kicks > 0 || this.shootout.active) {
      data.home_shootout = this.shootout.goals[0];
      data.away_shootout = this.shootout.goals[1];
    }
    return data;
  }

  protected override boardExtras(): { headers: string[]; home: number[]; away: number[] } {
    return { headers: ['PIM'], home: [this.pim[0]], away: [this.pim[1]] };
  }

  /**
   * Regulation goals so far plus a Poisson for each side's goals in the seconds left of regulation,
   * at the rates the engine plays: a trailing side presses and a leading one sits back (score
   * effects), the power play raises a side's rate. Priced at the bare even-strength rates, the book
   * undercounted the goals to come (Over priced 0.50, won 0.55) and the trailing side's comebacks
   * (priced 0.18, won 0.22).
   */
  private grid(from: [number, number], seconds: number): Grid {
    // The score effects follow the game's lead, also in a period's own grid.
    const [h, a] = this.total();
    return this.gridOf(from, this.goalsToCome(h - a, seconds).mean);
  }

  private gridOf(from: [number, number], mean: [number, number]): Grid {
    return new Grid(poissonDist(mean[0], 12).shift(from[0]), poissonDist(mean[1], 12).shift(from[1]));
  }

  /**
   * Regulation: the goals grid, and the margin followed minute by minute from the lead now. Two
   * independent Poissons spread the margin too wide: the score effects pull a lead back (the trailing
   * side presses), so margins of 2+ were rarer than priced (home +1.5 priced 0.76, won 0.81 at a
   * fifth of the game).
   */
  private regulation(): { grid: Grid; margin: Dist } {
    const from = this.regulationTotal();
    const toCome = this.goalsToCome(from[0] - from[1], this.remainingRegulationSeconds());
    return { grid: this.gridOf(from, toCome.mean), margin: toCome.lead };
  }

  /**
   * Expected goals of each side in the next `seconds` from a home lead of `lead`, and the final lead:
   * the lead followed minute by minute (a distribution over ±LEAD_SPAN), each minute's rates set by
   * it as the engine sets them, penalties now running applied for their time left and later ones at
   * their average share.
   */
  private goalsToCome(lead: number, seconds: number): { mean: [number, number]; lead: Dist } {
    const span = LEAD_SPAN;
    let dist = new Float64Array(2 * span + 1);
    dist[Math.max(-span, Math.min(span, lead)) + span] = 1;
    const penH = this.penalties[0];
    const penA = this.penalties[1];
    const mean: [number, number] = [0, 0];
    for (let t = 0; t < seconds; t += STEP_SECONDS) {
      const dt = Math.min(STEP_SECONDS, seconds - t);
      const runningH = penH.filter((s) => s > t).length;
      const runningA = penA.filter((s) => s > t).length;
      const next = new Float64Array(dist.length);
      for (let i = 0; i < dist.length; i++) {
        const w = dist[i]!;
        if (w === 0) continue;
        const l = i - span;
        const gh = ((this.lambda[0] * this.expectedFactor(l, runningH, runningA)) / 3600) * dt;
        const ga = ((this.lambda[1] * this.expectedFactor(-l, runningA, runningH)) / 3600) * dt;
        mean[0] += w * gh;
        mean[1] += w * ga;
        next[Math.min(dist.length - 1, i + 1)]! += w * gh;
        next[Math.max(0, i - 1)]! += w * ga;
        next[i]! += w * (1 - gh - ga);
      }
      dist = next;
    }
    return { mean, lead: new Dist(-span, dist) };
  }

  /**
   * A side's scoring factor over a minute, as strengthFactor plays it: with penalties now running
   * (own, other side's) the power play or penalty kill; otherwise the score effect of its lead, mixed
   * with the average share of time a new minor puts one side a man up.
   */
  private expectedFactor(lead: number, own: number, opp: number): number {
    if (opp > own) return 1 + 1.6 * (opp - own);
    if (own > opp) return 0.3;
    if (this.inOvertime) return OVERTIME_FACTOR;
    const even = lead > 0 ? LEADING_FACTOR : lead < 0 ? TRAILING_FACTOR : 1;
    return (1 - 2 * PP_SHARE) * even + PP_SHARE * 2.6 + PP_SHARE * 0.3;
  }

  /** P(home wins) once regulation ended level: overtime goal first, else the shoot-out. */
  private afterRegulationHome(): number {
    const so = this.shootout;
    if (so.active || so.kicks > 0) {
      const diff =
        so.goals[0] -
        so.goals[1] +
        SHOOTOUT_CONVERSION * (Math.max(0, 3 - Math.floor(so.kicks / 2)) - Math.max(0, 3 - Math.ceil(so.kicks / 2)));
      return Math.min(0.97, Math.max(0.03, 0.5 + diff * 0.3));
    }
    const otLeft = this.inOvertime ? this.periodLength() - this.elapsed : 300;
    const { goal, home } = overtimeOdds(this.lambda, otLeft);
    return goal * home + (1 - goal) * 0.5;
  }

  markets(depth: MarketDepth): FairMarket[] {
    const tier = this.ctx.league.tier;
    const full = depth === 'full';
    const names = this.ctx.names;
    const { grid: reg, margin } = this.regulation();
    const total = reg.total();
    const out: FairMarket[] = [];
    out.push(matchResult(names, margin));
    const otHome = this.afterRegulationHome();
    out.push(moneyline(names, margin.above(0) + margin.at(0) * otHome));
    const ah = full && tier === 1 ? [-2.5, -2, -1.5, -1, -0.5, 0.5, 1, 1.5, 2, 2.5] : [-1.5, 1.5];
    const tot = full && tier === 1 ? [3.5, 4, 4.5, 5, 5.5, 6, 6.5, 7, 7.5] : [4.5, 5.5, 6.5];
    for (const line of ah) out.push(asianHandicap(names, margin, line, null, null, ASIAN_HANDICAP.key, 'Puck Line'));
    for (const line of tot) out.push(totals(total, line, null, null, TOTALS.key, 'Total Goals'));
    // North American lines: overtime counts and the shoot-out is one goal for its winner, so a level
    // regulation score becomes a one-goal win for the side that wins after it.
    const otMargin = marginWithDecider(margin, otHome);
    const ot = countsWithDecider(reg, otHome);
    const otAh = full && tier === 1 ? [-2.5, -1.5, -1, 1, 1.5, 2.5] : [-1.5, 1.5];
    const otTot = full && tier === 1 ? [5, 5.5, 6, 6.5, 7] : [5.5, 6.5];
    for (const line of otAh)
      out.push(asianHandicap(names, otMargin, line, null, null, PUCK_LINE_OT.key, PUCK_LINE_OT.name));
    for (const line of otTot) out.push(totals(ot.total, line, null, null, TOTALS_OT.key, TOTALS_OT.name));
    if (!full) return out;
    out.push(doubleChance(names, margin));
    out.push(btts(reg));
    out.push(oddEven(total));
    for (const line of [1.5, 2.5, 3.5]) {
      out.push(teamTotals('home', names, reg.home, line));
      out.push(teamTotals('away', names, reg.away, line));
    }
    for (const line of [2.5, 3.5]) {
      out.push(totals(ot.home, line, null, null, TEAM_TOTALS_HOME_OT.key, `${names.home} ${TEAM_TOTALS_HOME_OT.name}`));
      out.push(totals(ot.away, line, null, null, TEAM_TOTALS_AWAY_OT.key, `${names.away} ${TEAM_TOTALS_AWAY_OT.name}`));
    }
    if (tier <= 2) out.push(correctScore(reg, 5));
    for (let i = 0; i < 3; i++) {
      const g = this.grid(this.periodPoints(i), this.remainingInPeriod(i));
      const code = `p${i + 1}`;
      const name = `Period ${i + 1}`;
      out.push(matchResult(names, g.margin(), code, name));
      for (const line of [0.5, 1.5, 2.5]) out.push(totals(g.total(), line, code, name, TOTALS.key, 'Total Goals'));
    }
    return out;
  }

  stats(): PlayerStats[] {
    return [...this.squads[0].lines(), ...this.squads[1].lines()];
  }
}
