// Rugby union: two halves of 40 minutes; tries (5) with conversions (2), penalty goals and drop goals (3).
import type { PlayerStats } from '../../messages.js';
import type { FairMarket } from '../pricing/fair.js';
import { halfLines, pointsMarkets, spreadLines, type PeriodOutlook, type TeamOutlook } from '../pricing/points.js';
import { TeamPlayers } from './team-players.js';
import { TimedEngine, type Tick } from './timed.js';
import type { EngineContext, MarketDepth } from './types.js';

/** Per team per minute at even strength. */
const TRY_RATE = 3.2 / 80;
const PENALTY_RATE = 2.2 / 80;
const DROP_RATE = 0.1 / 80;
/** Expected points per try (5 + 75% of a 2-point conversion) and the variance of a minute's points. */
const POINTS_PER_MINUTE = TRY_RATE * 6.5 + PENALTY_RATE * 0.8 * 3 + DROP_RATE * 3;
const VARIANCE_PER_MINUTE = TRY_RATE * (0.75 * 49 + 0.25 * 25) + PENALTY_RATE * 0.8 * 9 + DROP_RATE * 9;
const TRY_WEIGHT = (pos: string): number => (pos === 'BACK' ? 1.6 : 0.6);

export class RugbyEngine extends TimedEngine {
  private readonly strength: [number, number];
  private readonly tries: [number, number] = [0, 0];
  private readonly squads: [TeamPlayers, TeamPlayers];
  private readonly lines: { spread: number[]; total: number[]; halfTotal: number[] };

  constructor(ctx: EngineContext) {
    super(ctx, {
      periods: ['1H', '2H'],
      periodSeconds: 40 * 60,
      overtime: null,
      breakMs: () => 15 * 60_000,
      wallPerGameSecond: 1.25 * 1000,
      countdown: false,
    });
    const diff = (ctx.home.rating - ctx.away.rating) * 0.18;
    this.strength = [Math.exp(diff + 0.05), Math.exp(-diff - 0.05)];
    this.squads = [
      new TeamPlayers(ctx.home, 'home', ['tries', 'points']),
      new TeamPlayers(ctx.away, 'away', ['tries', 'points']),
    ];
    const tier = ctx.league.tier;
    const expH = 80 * POINTS_PER_MINUTE * this.strength[0];
    const expA = 80 * POINTS_PER_MINUTE * this.strength[1];
    this.lines = {
      spread: spreadLines(expH - expA, 3, tier === 1 ? 4 : 2),
      total: halfLines(expH + expA, 3, tier === 1 ? 4 : 2),
      halfTotal: halfLines((expH + expA) / 2, 3, 2),
    };
  }

  protected override peekSeconds(): number {
    return 60;
  }

  protected tick(): Tick {
    const { rng } = this.ctx;
    const seconds = Math.min(60, this.periodLength() - this.elapsed);
    let lockMs: number | undefined;
    for (const side of [0, 1] as const) {
      const s = this.strength[side];
      const squad = this.squads[side];
      const team = side === 0 ? 'home' : 'away';
      if (rng.chance(TRY_RATE * s)) {
        const scorer = squad.pick(rng, TRY_WEIGHT);
        squad.add(scorer, 'tries');
        squad.add(scorer, 'points', 5);
        this.tries[side]++;
        let pts = 5;
        if (rng.chance(0.75)) {
          pts += 2;
          squad.add(squad.top(1, (p) => (p === 'BACK' ? 1 : 0))[0] ?? null, 'points', 2);
        }
        this.score(team, pts);
        lockMs = rng.int(30, 60) * 1000;
      } else if (rng.chance(PENALTY_RATE * s)) {
        if (rng.chance(0.8)) {
          this.score(team, 3);
          squad.add(squad.top(1, (p) => (p === 'BACK' ? 1 : 0))[0] ?? null, 'points', 3);
          lockMs = Math.max(lockMs ?? 0, rng.int(20, 40) * 1000);
        }
      } else if (rng.chance(DROP_RATE * s)) {
        this.score(team, 3);
        lockMs = Math.max(lockMs ?? 0, rng.int(20, 40) * 1000);
      } else if (lockMs === undefined && rng.chance(0.04)) {
        lockMs = rng.int(5, 12) * 1000;
      }
    }
    return lockMs === undefined ? { seconds } : { seconds, lockMs };
  }

  protected sportData(): Record<string, unknown> {
    return {
      period: this.breakNow && this.periodIndex === 0 ? 'HT' : this.currentPeriod(),
      try_count: { home: this.tries[0], away: this.tries[1] },
    };
  }

  protected override boardExtras(): { headers: string[]; home: number[]; away: number[] } {
    return { headers: ['Tries'], home: [this.tries[0]], away: [this.tries[1]] };
  }

  private outlook(side: 0 | 1, seconds: number, current: number): TeamOutlook {
    const minutes = seconds / 60;
    return {
      current,
      mean: minutes * POINTS_PER_MINUTE * this.strength[side],
      variance: minutes * VARIANCE_PER_MINUTE * this.strength[side] + 2,
    };
  }

  markets(depth: MarketDepth): FairMarket[] {
    const full = depth === 'full';
    const [h, a] = this.total();
    const left = this.remainingRegulationSeconds();
    const [fh, fa] = this.periodPoints(0);
    const periods: PeriodOutlook[] = full
      ? [
          {
            code: '1h',
            name: '1st Half',
            home: this.outlook(0, this.remainingInPeriod(0), fh),
            away: this.outlook(1, this.remainingInPeriod(0), fa),
            spreadLines: [],
            totalLines: this.lines.halfTotal,
            threeWay: true,
          },
        ]
      : [];
    return pointsMarkets({
      names: this.ctx.names,
      home: this.outlook(0, left, h),
      away: this.outlook(1, left, a),
      hasDraw: true,
      tieHome: null,
      spreadLines: full ? this.lines.spread : this.lines.spread.slice(1, -1),
      totalLines: full ? this.lines.total : this.lines.total.slice(1, -1),
      teamTotalLines: [[], []],
      oddEven: false,
      periods,
      totalTitle: 'Total Points',
    });
  }

  stats(): PlayerStats[] {
    return [...this.squads[0].lines(), ...this.squads[1].lines()];
  }
}
