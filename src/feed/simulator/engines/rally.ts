// Rally sports played in sets of points (volleyball, table tennis): point by point with the serve, best-of-N sets.
import { TOTALS } from '../../../domain/families/index.js';
import type { PeriodScore } from '../../../domain/types.js';
import type { PlayerStats } from '../../messages.js';
import { Dist } from '../pricing/dist.js';
import { totals } from '../pricing/families.js';
import type { FairMarket } from '../pricing/fair.js';
import { raceFinals, raceWin } from '../pricing/race.js';
import { seriesMarkets } from '../pricing/series.js';
import { TeamPlayers } from './team-players.js';
import type { EngineContext, FinalResult, MarketDepth, MatchEngine, Snapshot, StepResult } from './types.js';

export interface RallyFormat {
  /** Period prefix (`S` volleyball sets, `G` table tennis games) and the unit's name. */
  prefix: string;
  unitName: string;
  unitFamily: string;
  scoreFamily: string;
  target: number;
  /** Target of the deciding set (volleyball: 15). */
  lastTarget: number;
  rallyMs: number;
  breakMs: number;
  /** Volleyball: the rally winner serves; table tennis: two serves each, one each from 10-10. */
  serve: 'winner' | 'alternate';
  /** P(server wins the rally) at equal strength. */
  serverWins: number;
  /** Rally-probability shift per rating point. */
  ratingEffect: number;
  /** Volleyball's sport_data carries the set's points as game scores and the deciding set as tie-break. */
  volleyballData: boolean;
}

export class RallyEngine implements MatchEngine {
  private readonly bestOf: number;
  private readonly edge: number;
  private readonly sets: Array<[number, number]> = [[0, 0]];
  private homeServing: boolean;
  private firstServerHome: boolean;
  private setBreak = false;
  private over = false;
  private readonly squads: [TeamPlayers, TeamPlayers];

  constructor(
    private readonly ctx: EngineContext,
    private readonly f: RallyFormat,
  ) {
    this.bestOf = ctx.league.plan.format?.bestOf ?? 5;
    this.edge = (ctx.home.rating - ctx.away.rating) * f.ratingEffect;
    this.homeServing = ctx.rng.chance(0.5);
    this.firstServerHome = this.homeServing;
    this.squads = [new TeamPlayers(ctx.home, 'home', ['points']), new TeamPlayers(ctx.away, 'away', ['points'])];
  }

  expectedDurationMs(): number {
    const rallies = (this.f.target * 2 - 4) * (this.bestOf * 0.8);
    return rallies * this.f.rallyMs + this.bestOf * this.f.breakMs;
  }

  private need(): number {
    return Math.floor(this.bestOf / 2) + 1;
  }

  private targetOf(setIndex: number): number {
    return setIndex === this.bestOf - 1 ? this.f.lastTarget : this.f.target;
  }

  private unitOver([h, a]: [number, number], target: number): boolean {
    return (h >= target || a >= target) && Math.abs(h - a) >= 2;
  }

  private won(): [number, number] {
    let h = 0;
    let a = 0;
    this.sets.forEach((s, i) => {
      if (!this.unitOver(s, this.targetOf(i))) return;
      if (s[0] > s[1]) h++;
      else a++;
    });
    return [h, a];
  }

  begin(): number {
    return this.f.rallyMs;
  }

  step(): StepResult {
    const { rng } = this.ctx;
    if (this.over) return { next: 60_000 };
    if (this.setBreak) {
      this.setBreak = false;
      this.sets.push([0, 0]);
      this.firstServerHome = !this.firstServerHome;
      this.homeServing = this.firstServerHome;
      return { next: this.f.rallyMs };
    }
    const pServer = this.f.serverWins + (this.homeServing ? this.edge : -this.edge);
    const serverWon = rng.chance(pServer);
    const homeWon = serverWon === this.homeServing;
    const idx = this.sets.length - 1;
    const set = this.sets[idx]!;
    set[homeWon ? 0 : 1]++;
    const squad = this.squads[homeWon ? 0 : 1];
    squad.add(
      squad.pick(rng, () => 1),
      'points',
    );
    if (this.f.serve === 'winner') this.homeServing = homeWon;
    else {
      const played = set[0] + set[1];
      const deuce = set[0] >= this.f.target - 1 && set[1] >= this.f.target - 1;
      if (deuce || played % 2 === 0) this.homeServing = !this.homeServing;
    }
    if (this.unitOver(set, this.targetOf(idx))) {
      const [h, a] = this.won();
      if (h >= this.need() || a >= this.need()) {
        this.over = true;
        return { next: 60_000 };
      }
      this.setBreak = true;
      return { next: this.f.breakMs };
    }
    return { next: this.f.rallyMs };
  }

  private periodScores(): PeriodScore[] {
    return this.sets.map(([h, a], i) => ({ period: `${this.f.prefix}${i + 1}`, home: h, away: a }));
  }

  snapshot(): Snapshot {
    const [h, a] = this.won();
    const cur = this.sets[this.sets.length - 1]!;
    const cols = Array.from({ length: this.bestOf }, (_, i) => `${this.f.prefix}${i + 1}`);
    const row = (side: 0 | 1): number[] => [...cols.map((_, i) => this.sets[i]?.[side] ?? 0), side === 0 ? h : a];
    const sportData: Record<string, unknown> = { home_serving: this.homeServing, away_serving: !this.homeServing };
    if (this.f.volleyballData) {
      sportData.home_game_score = String(cur[0]);
      sportData.away_game_score = String(cur[1]);
      sportData.is_tiebreak = this.sets.length === this.bestOf;
    } else {
      sportData.home_points = cur[0];
      sportData.away_points = cur[1];
    }
    return {
      score: { home: h, away: a },
      period: `${this.f.prefix}${this.sets.length}`,
      clock: null,
      periodScores: this.periodScores(),
      sportData,
      scoreboard: { headers: [...cols, this.f.unitName === 'Set' ? 'Sets' : 'Games'], home: row(0), away: row(1) },
    };
  }

  inBreak(): boolean {
    return this.setBreak;
  }

  nearEnd(): boolean {
    if (this.over || this.setBreak) return false;
    const [h, a] = this.won();
    const need = this.need();
    const idx = this.sets.length - 1;
    const [ph, pa] = this.sets[idx]!;
    const t = this.targetOf(idx);
    return (h === need - 1 && ph >= t - 1 && ph > pa) || (a === need - 1 && pa >= t - 1 && pa > ph);
  }

  finished(): boolean {
    return this.over;
  }

  result(): FinalResult {
    const [h, a] = this.won();
    return { score: { home: h, away: a }, periodScores: this.periodScores(), winner: null };
  }

  stats(): PlayerStats[] {
    return [...this.squads[0].lines(), ...this.squads[1].lines()];
  }

  markets(depth: MarketDepth): FairMarket[] {
    const p = 0.5 + this.edge;
    const idx = this.sets.length - 1;
    const cur = this.sets[idx]!;
    const inProgress = !this.setBreak && !this.over;
    const pCurrent = raceWin(cur[0], cur[1], p, { target: this.targetOf(idx), winByTwo: true });
    const pFresh = raceWin(0, 0, p, { target: this.f.target, winByTwo: true });
    const full = depth === 'full';
    const half = Math.floor(this.bestOf / 2);
    const out = seriesMarkets(
      { names: this.ctx.names, bestOf: this.bestOf, won: this.won(), pCurrent, pFresh, inProgress },
      {
        unitFamily: this.f.unitFamily,
        unitPeriod: this.f.prefix.toLowerCase(),
        unitName: this.f.unitName,
        scoreFamily: this.f.scoreFamily,
        scoreName: `${this.f.unitName} Betting`,
        handicapLines: full
          ? [-half - 0.5, -1.5, 1.5, half + 0.5].filter((x, i, all) => all.indexOf(x) === i)
          : [-1.5, 1.5],
        totalLines: full ? [this.bestOf - 1.5, this.bestOf - 0.5].filter((x) => x > this.need()) : [this.bestOf - 1.5],
        unitWinners: full ? this.bestOf : 1,
      },
    );
    if (full && this.ctx.league.tier === 1) {
      // Points in the first set.
      const first = this.sets[0]!;
      const finals = raceFinals(first[0], first[1], p, {
        target: this.targetOf(0),
        winByTwo: true,
        cap: this.f.target + 8,
      });
      let max = 0;
      for (const fv of finals.values()) max = Math.max(max, fv.home + fv.away);
      const pm = new Float64Array(max + 1);
      for (const fv of finals.values()) pm[fv.home + fv.away]! += fv.p;
      const dist = new Dist(0, pm);
      const c = this.f.target * 2 - 5 + 0.5;
      for (const line of [c - 2, c, c + 2])
        out.push(
          totals(dist, line, `${this.f.prefix.toLowerCase()}1`, `${this.f.unitName} 1`, TOTALS.key, 'Total Points'),
        );
    }
    return out;
  }
}
