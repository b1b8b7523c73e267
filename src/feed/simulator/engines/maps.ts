// CS2 and Valorant: best-of-N maps, each a race of rounds to 13 with halves and overtime.
import { ASIAN_HANDICAP, CORRECT_SCORE, MAP_WINNER, TOTALS } from '../../../domain/families/index.js';
import type { PeriodScore } from '../../../domain/types.js';
import type { PlayerStats } from '../../messages.js';
import { Dist } from '../pricing/dist.js';
import { asianHandicap, totals } from '../pricing/families.js';
import type { FairMarket } from '../pricing/fair.js';
import { raceFinals, raceWin } from '../pricing/race.js';
import { seriesMarkets } from '../pricing/series.js';
import { TeamPlayers } from './team-players.js';
import type { EngineContext, FinalResult, MarketDepth, MatchEngine, Snapshot, StepResult } from './types.js';

export interface MapsFormat {
  pool: readonly string[];
  roundMs: number;
  /** CS2: overtime in blocks of six rounds (first to 4); Valorant: win by two from 12-12. */
  overtime: 'mr3' | 'win_by_two';
}

export const CS2_FORMAT: MapsFormat = {
  pool: ['Mirage', 'Inferno', 'Nuke', 'Ancient', 'Anubis', 'Dust2', 'Train'],
  roundMs: 105_000,
  overtime: 'mr3',
};
export const VALORANT_FORMAT: MapsFormat = {
  pool: ['Ascent', 'Bind', 'Haven', 'Lotus', 'Split', 'Sunset', 'Icebox'],
  roundMs: 100_000,
  overtime: 'win_by_two',
};

const HALF_BREAK_MS = 90_000;
const MAP_BREAK_MS = 6 * 60_000;
const RULES = { target: 13, winByTwo: true, cap: 20 };
/**
 * Round-win edge per rating point, and its cap. Calibrated on best-of-3 deciders: at 0.025 (cap
 * 0.62) maps were near coin flips and ~46% of series went to a third map (HLTV/Liquipedia: ~35%).
 */
const ROUND_EDGE = 0.06;
const ROUND_CAP = 0.7;

export class MapsEngine implements MatchEngine {
  private readonly bestOf: number;
  private readonly pRound: number;
  private readonly maps: string[];
  private readonly rounds: Array<[number, number]> = [[0, 0]];
  private readonly won: [number, number] = [0, 0];
  private pause: 'half' | 'map' | null = null;
  private over = false;
  private readonly squads: [TeamPlayers, TeamPlayers];

  constructor(
    private readonly ctx: EngineContext,
    private readonly f: MapsFormat,
  ) {
    this.bestOf = ctx.league.plan.format?.bestOf ?? 3;
    this.pRound = Math.min(ROUND_CAP, Math.max(1 - ROUND_CAP, 0.5 + (ctx.home.rating - ctx.away.rating) * ROUND_EDGE));
    this.maps = ctx.rng.shuffle([...f.pool]).slice(0, this.bestOf);
    const stats = ['kills', 'deaths', 'assists'];
    this.squads = [new TeamPlayers(ctx.home, 'home', stats), new TeamPlayers(ctx.away, 'away', stats)];
  }

  expectedDurationMs(): number {
    return this.bestOf * 0.8 * (22 * this.f.roundMs + HALF_BREAK_MS + MAP_BREAK_MS);
  }

  private need(): number {
    return Math.floor(this.bestOf / 2) + 1;
  }

  private mapOver([h, a]: [number, number]): 0 | 1 | null {
    if (h < 13 && a < 13) return null;
    if (h + a <= 24) return h >= 13 ? 0 : 1;
    if (this.f.overtime === 'win_by_two') return Math.abs(h - a) >= 2 ? (h > a ? 0 : 1) : null;
    // MR3 blocks after 12-12: first to 4 of each six-round block; 3-3 starts another block.
    const played = h + a - 24;
    const block = Math.floor((played - 1) / 6);
    const bh = h - 12 - 3 * block;
    const ba = a - 12 - 3 * block;
    if (bh >= 4) return 0;
    if (ba >= 4) return 1;
    return null;
  }

  begin(): number {
    return this.f.roundMs;
  }

  step(): StepResult {
    const { rng } = this.ctx;
    if (this.over) return { next: 60_000 };
    if (this.pause === 'map') {
      this.pause = null;
      this.rounds.push([0, 0]);
      return { next: this.f.roundMs };
    }
    if (this.pause === 'half') {
      this.pause = null;
      return { next: this.f.roundMs };
    }
    const cur = this.rounds[this.rounds.length - 1]!;
    const homeWon = rng.chance(this.pRound);
    cur[homeWon ? 0 : 1]++;
    const winners = this.squads[homeWon ? 0 : 1];
    const losers = this.squads[homeWon ? 1 : 0];
    const kills = rng.int(3, 5);
    for (let k = 0; k < kills; k++) {
      winners.add(
        winners.pick(rng, () => 1),
        'kills',
      );
      losers.add(
        losers.pick(rng, () => 1),
        'deaths',
      );
      if (rng.chance(0.45))
        winners.add(
          winners.pick(rng, () => 1),
          'assists',
        );
    }
    for (let k = rng.int(0, 2); k > 0; k--) {
      losers.add(
        losers.pick(rng, () => 1),
        'kills',
      );
      winners.add(
        winners.pick(rng, () => 1),
        'deaths',
      );
    }
    const w = this.mapOver(cur);
    if (w !== null) {
      this.won[w]++;
      if (this.won[w] >= this.need()) {
        this.over = true;
        return { next: 60_000 };
      }
      this.pause = 'map';
      return { next: MAP_BREAK_MS };
    }
    if (cur[0] + cur[1] === 12) {
      this.pause = 'half';
      return { next: HALF_BREAK_MS };
    }
    return { next: this.f.roundMs };
  }

  private periodScores(): PeriodScore[] {
    return this.rounds.map(([h, a], i) => ({ period: `M${i + 1}`, home: h, away: a }));
  }

  snapshot(): Snapshot {
    const cur = this.rounds[this.rounds.length - 1]!;
    const cols = Array.from({ length: this.bestOf }, (_, i) => `M${i + 1}`);
    const row = (side: 0 | 1): number[] => [...cols.map((_, i) => this.rounds[i]?.[side] ?? 0), this.won[side]];
    return {
      score: { home: this.won[0], away: this.won[1] },
      period: `M${this.rounds.length}`,
      clock: null,
      periodScores: this.periodScores(),
      sportData: {
        current_map: this.maps[this.rounds.length - 1] ?? `Map ${this.rounds.length}`,
        map_number: this.rounds.length,
        map_score: { home: this.won[0], away: this.won[1] },
        round_score: { home: cur[0], away: cur[1] },
      },
      scoreboard: { headers: [...cols, 'Maps'], home: row(0), away: row(1) },
    };
  }

  inBreak(): boolean {
    return this.pause !== null;
  }

  nearEnd(): boolean {
    if (this.over || this.pause !== null) return false;
    const cur = this.rounds[this.rounds.length - 1]!;
    const need = this.need();
    const mapPoint = (s: 0 | 1): boolean => this.mapOver(s === 0 ? [cur[0] + 1, cur[1]] : [cur[0], cur[1] + 1]) === s;
    return (this.won[0] === need - 1 && mapPoint(0)) || (this.won[1] === need - 1 && mapPoint(1));
  }

  finished(): boolean {
    return this.over;
  }

  result(): FinalResult {
    return { score: { home: this.won[0], away: this.won[1] }, periodScores: this.periodScores(), winner: null };
  }

  stats(): PlayerStats[] {
    return [...this.squads[0].lines(), ...this.squads[1].lines()];
  }

  markets(depth: MarketDepth): FairMarket[] {
    const p = this.pRound;
    const idx = this.rounds.length - 1;
    const cur = this.rounds[idx]!;
    const inProgress = this.pause !== 'map' && !this.over;
    const pFresh = raceWin(0, 0, p, RULES);
    const pCurrent = raceWin(cur[0], cur[1], p, RULES);
    const full = depth === 'full';
    const out = seriesMarkets(
      { names: this.ctx.names, bestOf: this.bestOf, won: [...this.won], pCurrent, pFresh, inProgress },
      {
        unitFamily: MAP_WINNER.key,
        unitPeriod: 'm',
        unitName: 'Map',
        scoreFamily: CORRECT_SCORE.key,
        scoreName: 'Correct Score',
        handicapLines: this.bestOf > 1 ? [-1.5, 1.5] : [],
        totalLines: this.bestOf > 1 ? [this.bestOf - 0.5] : [],
        unitWinners: this.bestOf > 1 ? (full ? this.bestOf : 1) : 0,
      },
    );
    if (!full) return out;
    // Rounds of each map: total and handicap, from the race of the map in progress or a fresh one.
    const played = this.won[0] + this.won[1];
    for (let n = 1; n <= this.bestOf; n++) {
      const state = this.rounds[n - 1];
      const finished = n <= played;
      const finals = raceFinals(state?.[0] ?? 0, state?.[1] ?? 0, p, RULES);
      const total = new Map<number, number>();
      const margin = new Map<number, number>();
      for (const fv of finals.values()) {
        total.set(fv.home + fv.away, (total.get(fv.home + fv.away) ?? 0) + fv.p);
        margin.set(fv.home - fv.away, (margin.get(fv.home - fv.away) ?? 0) + fv.p);
      }
      const toDist = (m: Map<number, number>): Dist => {
        const keys = [...m.keys()];
        const min = Math.min(...keys);
        const pm = new Float64Array(Math.max(...keys) - min + 1);
        for (const [k, v] of m) pm[k - min] = v;
        return new Dist(min, pm);
      };
      const t = totals(toDist(total), 21.5, `m${n}`, `Map ${n}`, TOTALS.key, 'Total Rounds');
      const h = asianHandicap(
        this.ctx.names,
        toDist(margin),
        -3.5,
        `m${n}`,
        `Map ${n}`,
        ASIAN_HANDICAP.key,
        'Round Handicap',
      );
      out.push(finished ? { ...t, decided: true } : t, finished ? { ...h, decided: true } : h);
    }
    return out;
  }
}
