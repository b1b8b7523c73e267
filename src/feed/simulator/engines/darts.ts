// Darts: 501 legs visit by visit (scores, busts, checkouts), legs into sets, sets into the match.
import { SET_BETTING, SET_WINNER } from '../../../domain/families/index.js';
import type { PeriodScore } from '../../../domain/types.js';
import type { PlayerStats } from '../../messages.js';
import { normalCdf } from '../pricing/dist.js';
import type { FairMarket } from '../pricing/fair.js';
import { raceWin } from '../pricing/race.js';
import { seriesMarkets } from '../pricing/series.js';
import {
  playerLine,
  type EngineContext,
  type FinalResult,
  type MarketDepth,
  type MatchEngine,
  type Snapshot,
  type StepResult,
} from './types.js';

const VISIT_MS = 20_000;
const LEG_BREAK_MS = 45_000;
const SET_BREAK_MS = 120_000;

function checkoutChance(remaining: number): number {
  if (remaining > 170 || remaining < 2) return 0;
  if (remaining <= 40) return 0.42;
  if (remaining <= 100) return 0.28;
  if (remaining <= 130) return 0.14;
  return 0.05;
}

/** Visits a player needs on average to finish from `remaining` with a 3-dart average `avg`. */
function visitsToFinish(remaining: number, avg: number): number {
  return Math.max(0, remaining - 60) / avg + 1 / 0.36;
}

export class DartsEngine implements MatchEngine {
  private readonly avg: [number, number];
  private readonly bestOf: number;
  private readonly legsNeed: number;
  /** Legs won in each set, the last one in progress. */
  private readonly sets: Array<[number, number]> = [[0, 0]];
  private remaining: [number, number] = [501, 501];
  private throwing: 0 | 1;
  private legStarter: 0 | 1;
  private setBreak = false;
  private over = false;
  private readonly counters = [
    { visits: 0, scored: 0, one_eighties: 0, checkouts: 0, legs_won: 0 },
    { visits: 0, scored: 0, one_eighties: 0, checkouts: 0, legs_won: 0 },
  ];

  constructor(private readonly ctx: EngineContext) {
    const clamp = (x: number): number => Math.min(108, Math.max(76, x));
    this.avg = [clamp(93 + 4 * ctx.home.rating), clamp(93 + 4 * ctx.away.rating)];
    this.bestOf = ctx.league.plan.format?.bestOf ?? 5;
    this.legsNeed = Math.floor((ctx.league.plan.format?.legsBestOf ?? 5) / 2) + 1;
    this.throwing = ctx.rng.chance(0.5) ? 0 : 1;
    this.legStarter = this.throwing;
  }

  expectedDurationMs(): number {
    const sets = this.bestOf * 0.8;
    return sets * (this.legsNeed * 1.6) * (15 * VISIT_MS + LEG_BREAK_MS) + sets * SET_BREAK_MS;
  }

  private need(): number {
    return Math.floor(this.bestOf / 2) + 1;
  }

  private setsWon(): [number, number] {
    let h = 0;
    let a = 0;
    for (const [lh, la] of this.sets) {
      if (lh >= this.legsNeed) h++;
      else if (la >= this.legsNeed) a++;
    }
    return [h, a];
  }

  begin(): number {
    return VISIT_MS;
  }

  step(): StepResult {
    const { rng } = this.ctx;
    if (this.over) return { next: 60_000 };
    if (this.setBreak) {
      this.setBreak = false;
      this.sets.push([0, 0]);
      return { next: VISIT_MS };
    }
    const i = this.throwing;
    const c = this.counters[i]!;
    const rem = this.remaining[i];
    c.visits++;
    if (rng.chance(checkoutChance(rem) * (this.avg[i] / 95))) {
      c.scored += rem;
      c.checkouts++;
      c.legs_won++;
      return this.legWon(i);
    }
    // 171-179 cannot be scored with three darts: the top of the curve is the maximum, 180.
    const raw = Math.max(0, Math.round(rng.normal(this.avg[i], 24)));
    let visit = raw > 170 ? 180 : raw;
    // On a finish a missed checkout leaves a double to aim at rather than busting.
    if (rem <= 170)
      visit =
        rem > 60
          ? Math.min(visit, rem - rng.pick([40, 32, 36, 24, 16]))
          : rem % 2 === 1
            ? 1
            : rng.chance(0.5)
              ? rem / 2
              : 0;
    if (visit === 180) c.one_eighties++;
    if (rem - visit >= 2) {
      this.remaining[i] -= visit;
      c.scored += visit;
    }
    this.throwing = i === 0 ? 1 : 0;
    return { next: VISIT_MS };
  }

  private legWon(i: 0 | 1): StepResult {
    const set = this.sets[this.sets.length - 1]!;
    set[i]++;
    this.remaining = [501, 501];
    this.legStarter = this.legStarter === 0 ? 1 : 0;
    this.throwing = this.legStarter;
    if (set[i] >= this.legsNeed) {
      const [h, a] = this.setsWon();
      if (h >= this.need() || a >= this.need()) {
        this.over = true;
        return { next: 60_000 };
      }
      this.setBreak = true;
      return { next: SET_BREAK_MS, lockMs: 20_000 };
    }
    return { next: LEG_BREAK_MS, lockMs: 15_000 };
  }

  private periodScores(): PeriodScore[] {
    return this.sets.map(([h, a], i) => ({ period: `S${i + 1}`, home: h, away: a }));
  }

  snapshot(): Snapshot {
    const [h, a] = this.setsWon();
    const cur = this.sets[this.sets.length - 1]!;
    const cols = Array.from({ length: this.bestOf }, (_, i) => `S${i + 1}`);
    const row = (side: 0 | 1): number[] => {
      const c = this.counters[side]!;
      return [
        ...cols.map((_, i) => this.sets[i]?.[side] ?? 0),
        side === 0 ? h : a,
        c.one_eighties,
        c.visits > 0 ? Math.round((c.scored / c.visits) * 10) / 10 : 0,
      ];
    };
    return {
      score: { home: h, away: a },
      period: `S${this.sets.length}`,
      clock: null,
      periodScores: this.periodScores(),
      sportData: {
        current_set: this.sets.length,
        current_leg: cur[0] + cur[1] + 1,
        home_legs: cur[0],
        away_legs: cur[1],
        home_remaining: this.remaining[0],
        away_remaining: this.remaining[1],
        home_throwing: this.throwing === 0,
        away_throwing: this.throwing === 1,
      },
      scoreboard: { headers: [...cols, 'Sets', '180s', 'Avg'], home: row(0), away: row(1) },
    };
  }

  inBreak(): boolean {
    return this.setBreak;
  }

  nearEnd(): boolean {
    if (this.over || this.setBreak) return false;
    const [h, a] = this.setsWon();
    const cur = this.sets[this.sets.length - 1]!;
    const need = this.need();
    // A match dart: the player to throw is a leg from the match and on a finish of one double or
    // two darts (40 or less). "Within 170" withdrew a minor tier's book for 1-2 minutes at a time,
    // through visits that could not end the match.
    const t = this.throwing;
    const won = t === 0 ? h : a;
    return won === need - 1 && cur[t] === this.legsNeed - 1 && this.remaining[t] <= 40;
  }

  finished(): boolean {
    return this.over;
  }

  result(): FinalResult {
    const [h, a] = this.setsWon();
    return { score: { home: h, away: a }, periodScores: this.periodScores(), winner: null };
  }

  stats(): PlayerStats[] {
    return [this.ctx.home, this.ctx.away].map((t, i) => {
      const c = this.counters[i]!;
      const average = c.visits > 0 ? Math.round((c.scored / c.visits) * 100) / 100 : 0;
      return playerLine(t.players[0]!.id, t.players[0]!.name, i === 0 ? 'home' : 'away', {
        one_eighties: c.one_eighties,
        checkouts: c.checkouts,
        legs_won: c.legs_won,
        average,
      });
    });
  }

  /** P(home wins a leg) from the remaining scores with `throwing` to throw next. */
  private legProb(remH: number, remA: number, homeNext: boolean): number {
    const vh = visitsToFinish(remH, this.avg[0]);
    const va = visitsToFinish(remA, this.avg[1]);
    return normalCdf((va - vh + (homeNext ? 0.5 : -0.5)) / 1.7);
  }

  markets(depth: MarketDepth): FairMarket[] {
    const fresh = (this.legProb(501, 501, true) + this.legProb(501, 501, false)) / 2;
    const cur = this.sets[this.sets.length - 1]!;
    const inProgress = !this.setBreak && !this.over;
    const pLeg = this.legProb(this.remaining[0], this.remaining[1], this.throwing === 0);
    const rules = { target: this.legsNeed, winByTwo: false };
    const pCurrent = inProgress
      ? pLeg * raceWin(cur[0] + 1, cur[1], fresh, rules) + (1 - pLeg) * raceWin(cur[0], cur[1] + 1, fresh, rules)
      : raceWin(0, 0, fresh, rules);
    const full = depth === 'full';
    const half = Math.floor(this.bestOf / 2);
    return seriesMarkets(
      {
        names: this.ctx.names,
        bestOf: this.bestOf,
        won: this.setsWon(),
        pCurrent,
        pFresh: raceWin(0, 0, fresh, rules),
        inProgress,
      },
      {
        unitFamily: SET_WINNER.key,
        unitPeriod: 's',
        unitName: 'Set',
        scoreFamily: SET_BETTING.key,
        scoreName: 'Set Betting',
        handicapLines:
          full && half > 1
            ? [-half + 0.5, -1.5, 1.5, half - 0.5].filter((x, i, all) => all.indexOf(x) === i)
            : [-1.5, 1.5],
        totalLines: this.bestOf > 3 ? [this.bestOf - 1.5] : [2.5],
        unitWinners: full ? this.bestOf : 1,
      },
    );
  }
}
