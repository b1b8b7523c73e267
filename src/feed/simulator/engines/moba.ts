// Dota 2 and League of Legends: best-of-N games; kills over a game of ~30-35 minutes decide who destroys the base.
import { CORRECT_SCORE, MAP_WINNER } from '../../../domain/families/index.js';
import type { PeriodScore } from '../../../domain/types.js';
import type { PlayerStats } from '../../messages.js';
import type { FairMarket } from '../pricing/fair.js';
import { seriesMarkets } from '../pricing/series.js';
import { TeamPlayers } from './team-players.js';
import {
  logistic,
  mmss,
  type EngineContext,
  type FinalResult,
  type MarketDepth,
  type MatchEngine,
  type Snapshot,
  type StepResult,
} from './types.js';

export interface MobaFormat {
  meanMinutes: number;
  sdMinutes: number;
  killsPerMinute: number;
}

export const DOTA2_FORMAT: MobaFormat = { meanMinutes: 36, sdMinutes: 7, killsPerMinute: 1.5 };
export const LOL_FORMAT: MobaFormat = { meanMinutes: 31, sdMinutes: 5, killsPerMinute: 0.85 };

const MINUTE = 60_000;
const GAME_BREAK_MS = 10 * MINUTE;
/** Weight of the kill lead in the final push (per kill). */
const KILL_WEIGHT = 0.12;

export class MobaEngine implements MatchEngine {
  private readonly bestOf: number;
  private readonly edge: number;
  private readonly games: Array<{ kills: [number, number]; minute: number; length: number; winner: 0 | 1 | null }> = [];
  private readonly won: [number, number] = [0, 0];
  private between = false;
  private over = false;
  private readonly squads: [TeamPlayers, TeamPlayers];

  constructor(
    private readonly ctx: EngineContext,
    private readonly f: MobaFormat,
  ) {
    this.bestOf = ctx.league.plan.format?.bestOf ?? 3;
    // Log-odds edge per rating point: at 0.3 ~44% of best-of-3 series went to a third game (real ~35%).
    this.edge = (ctx.home.rating - ctx.away.rating) * 0.55;
    const stats = ['kills', 'deaths', 'assists'];
    this.squads = [new TeamPlayers(ctx.home, 'home', stats), new TeamPlayers(ctx.away, 'away', stats)];
    this.newGame();
  }

  private newGame(): void {
    const length = Math.max(18, Math.round(this.ctx.rng.normal(this.f.meanMinutes, this.f.sdMinutes)));
    this.games.push({ kills: [0, 0], minute: 0, length, winner: null });
  }

  private get game(): { kills: [number, number]; minute: number; length: number; winner: 0 | 1 | null } {
    return this.games[this.games.length - 1]!;
  }

  expectedDurationMs(): number {
    return this.bestOf * 0.8 * (this.f.meanMinutes * MINUTE + GAME_BREAK_MS);
  }

  private need(): number {
    return Math.floor(this.bestOf / 2) + 1;
  }

  /** Share of kills going to home now: strength plus the snowball of a kill lead. */
  private killShare(): number {
    const [h, a] = this.game.kills;
    return logistic(this.edge * 0.6 + (h - a) * 0.02);
  }

  begin(): number {
    return MINUTE;
  }

  step(): StepResult {
    const { rng } = this.ctx;
    if (this.over) return { next: MINUTE };
    if (this.between) {
      this.between = false;
      this.newGame();
      return { next: MINUTE };
    }
    const g = this.game;
    g.minute++;
    const kills = rng.poisson(this.f.killsPerMinute * (0.7 + 0.6 * Math.min(1, g.minute / g.length)));
    let lockMs: number | undefined;
    for (let k = 0; k < kills; k++) {
      const side = rng.chance(this.killShare()) ? 0 : 1;
      g.kills[side]++;
      const killers = this.squads[side];
      const victims = this.squads[side === 0 ? 1 : 0];
      killers.add(
        killers.pick(rng, () => 1),
        'kills',
      );
      victims.add(
        victims.pick(rng, () => 1),
        'deaths',
      );
      if (rng.chance(0.7))
        killers.add(
          killers.pick(rng, () => 1),
          'assists',
        );
    }
    // A teamfight (kills well above the minute's run: 3+ in LoL, 4+ in Dota 2, whose minutes see
    // 1.5-2 kills) locks the book briefly. At 3+ a Dota 2 book was locked a fifth of its minutes.
    if (kills >= Math.ceil(this.f.killsPerMinute + 2)) lockMs = rng.int(10, 20) * 1000;
    if (g.minute >= g.length) {
      const pHome = logistic(this.edge + KILL_WEIGHT * (g.kills[0] - g.kills[1]));
      const w: 0 | 1 = rng.chance(pHome) ? 0 : 1;
      g.winner = w;
      this.won[w]++;
      if (this.won[w] >= this.need()) {
        this.over = true;
        return { next: MINUTE };
      }
      this.between = true;
      return { next: GAME_BREAK_MS, lockMs: 30_000 };
    }
    return lockMs === undefined ? { next: MINUTE } : { next: MINUTE, lockMs };
  }

  private periodScores(): PeriodScore[] {
    return this.games.map((g, i) => ({
      period: `G${i + 1}`,
      home: g.winner === 0 ? 1 : 0,
      away: g.winner === 1 ? 1 : 0,
    }));
  }

  snapshot(): Snapshot {
    const g = this.game;
    const cols = Array.from({ length: this.bestOf }, (_, i) => `G${i + 1}`);
    const row = (side: 0 | 1): number[] => [
      ...cols.map((_, i) => (this.games[i]?.winner === side ? 1 : 0)),
      this.won[side],
      g.kills[side],
    ];
    return {
      score: { home: this.won[0], away: this.won[1] },
      period: `G${this.games.length}`,
      clock: mmss(g.minute * 60),
      periodScores: this.periodScores(),
      sportData: {
        current_game: this.games.length,
        game_duration: mmss(g.minute * 60),
        home_kills: g.kills[0],
        away_kills: g.kills[1],
      },
      scoreboard: { headers: [...cols, 'Games', 'Kills'], home: row(0), away: row(1) },
    };
  }

  inBreak(): boolean {
    return this.between;
  }

  nearEnd(): boolean {
    if (this.over || this.between) return false;
    const g = this.game;
    const need = this.need();
    const decisive = this.won[0] === need - 1 || this.won[1] === need - 1;
    // The last minute of a decisive game with a clear kill lead (two minutes withdrew a minor
    // tier's book for 6% of a best-of-one).
    return decisive && g.minute >= g.length - 1 && Math.abs(g.kills[0] - g.kills[1]) >= 6;
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

  /** P(home wins the game in progress): the kill lead to come is about normal. */
  private gameProb(): number {
    const g = this.game;
    const left = Math.max(0, this.f.meanMinutes - g.minute) + 4;
    const kills = left * this.f.killsPerMinute;
    const share = this.killShare();
    const mu = this.edge + KILL_WEIGHT * (g.kills[0] - g.kills[1] + kills * (2 * share - 1));
    const s2 = KILL_WEIGHT * KILL_WEIGHT * kills;
    return logistic(mu / Math.sqrt(1 + (Math.PI * s2) / 8));
  }

  private freshProb(): number {
    const kills = this.f.meanMinutes * this.f.killsPerMinute;
    const share = logistic(this.edge * 0.6);
    const mu = this.edge + KILL_WEIGHT * kills * (2 * share - 1);
    return logistic(mu / Math.sqrt(1 + (Math.PI * KILL_WEIGHT * KILL_WEIGHT * kills) / 8));
  }

  markets(depth: MarketDepth): FairMarket[] {
    const full = depth === 'full';
    const inProgress = !this.between && !this.over;
    // Kills are not part of the official result, so nothing is priced on them: every market here
    // grades from the games won.
    return seriesMarkets(
      {
        names: this.ctx.names,
        bestOf: this.bestOf,
        won: [...this.won],
        pCurrent: this.gameProb(),
        pFresh: this.freshProb(),
        inProgress,
      },
      {
        unitFamily: MAP_WINNER.key,
        unitPeriod: 'm',
        unitName: 'Game',
        scoreFamily: CORRECT_SCORE.key,
        scoreName: 'Correct Score',
        handicapLines: this.bestOf > 1 ? [-1.5, 1.5] : [],
        totalLines: this.bestOf > 1 ? [this.bestOf - 0.5] : [],
        unitWinners: this.bestOf > 1 ? (full ? this.bestOf : 1) : 0,
      },
    );
  }
}
