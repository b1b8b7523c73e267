// Handball: two halves of 30 minutes, attacks of about 30 s ending in a goal about half the time; draws stand.
import type { PlayerStats } from '../../messages.js';
import type { FairMarket } from '../pricing/fair.js';
import { halfLines, pointsMarkets, spreadLines, type PeriodOutlook, type TeamOutlook } from '../pricing/points.js';
import { TeamPlayers } from './team-players.js';
import { TimedEngine, type Tick } from './timed.js';
import type { EngineContext, MarketDepth } from './types.js';

const MEAN_ATTACK = 31;
const GOAL_WEIGHT = (pos: string): number => (pos === 'GK' ? 0.02 : 1);

export class HandballEngine extends TimedEngine {
  private readonly conversion: [number, number];
  private attacking: 0 | 1;
  private readonly squads: [TeamPlayers, TeamPlayers];
  private readonly lines: { spread: number[]; total: number[]; halfTotal: number[] };

  constructor(ctx: EngineContext) {
    super(ctx, {
      periods: ['1H', '2H'],
      periodSeconds: 30 * 60,
      overtime: null,
      breakMs: () => 15 * 60_000,
      wallPerGameSecond: 1.45 * 1000,
      countdown: false,
    });
    const diff = (ctx.home.rating - ctx.away.rating) * 0.025;
    this.conversion = [0.5 + diff + 0.01, 0.5 - diff - 0.01];
    this.attacking = ctx.rng.chance(0.5) ? 0 : 1;
    this.squads = [new TeamPlayers(ctx.home, 'home', ['goals']), new TeamPlayers(ctx.away, 'away', ['goals'])];
    const attacks = 3600 / MEAN_ATTACK / 2;
    this.lines = {
      spread: spreadLines((this.conversion[0] - this.conversion[1]) * attacks, 1, ctx.league.tier === 1 ? 4 : 2),
      total: halfLines((this.conversion[0] + this.conversion[1]) * attacks, 1, ctx.league.tier === 1 ? 4 : 2),
      halfTotal: halfLines(((this.conversion[0] + this.conversion[1]) * attacks) / 2, 1, 2),
    };
  }

  protected override peekSeconds(): number {
    return MEAN_ATTACK;
  }

  protected tick(): Tick {
    const { rng } = this.ctx;
    const seconds = Math.min(rng.uniform(15, 47), this.periodLength() - this.elapsed);
    const side = this.attacking;
    let lockMs: number | undefined;
    if (rng.chance(this.conversion[side])) {
      this.score(side === 0 ? 'home' : 'away', 1);
      this.squads[side].add(this.squads[side].pick(rng, GOAL_WEIGHT), 'goals');
    } else if (rng.chance(0.04)) {
      // A 7-metre throw awarded: a dangerous moment.
      lockMs = rng.int(5, 10) * 1000;
    }
    this.attacking = side === 0 ? 1 : 0;
    return lockMs === undefined ? { seconds } : { seconds, lockMs };
  }

  protected sportData(): Record<string, unknown> {
    return {
      period: this.breakNow && this.periodIndex === 0 ? 'HT' : this.currentPeriod(),
      attacking: this.attacking === 0 ? 'home' : 'away',
    };
  }

  private outlook(side: 0 | 1, seconds: number, current: number): TeamOutlook {
    const mean = (seconds / MEAN_ATTACK / 2) * this.conversion[side];
    return { current, mean, variance: mean * (1 - this.conversion[side]) + 1.5 };
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
      oddEven: full,
      periods,
      totalTitle: 'Total Goals',
    });
  }

  stats(): PlayerStats[] {
    return [...this.squads[0].lines(), ...this.squads[1].lines()];
  }
}
