// Soccer pricing: Poisson goal grids (full time, each half) drive every team family; Poisson counters drive player props.
import { TOTALS, TO_QUALIFY } from '../../../domain/families/index.js';
import type { TeamSide } from '../../../domain/types.js';
import { Grid, normalCdf, poissonAbove, poissonDist, type Dist } from './dist.js';
import {
  asianHandicap,
  btts,
  correctScore,
  doubleChance,
  drawNoBet,
  europeanHandicap,
  exactTotal,
  htFt,
  key,
  matchResult,
  oddEven,
  playerProp,
  teamTotals,
  totals,
  winningMargin,
} from './families.js';
import { decidedIfCertain, fair, type FairMarket, type MatchNames } from './fair.js';

export const PROP_STATS = [
  'goals',
  'assists',
  'shots',
  'shots_on_target',
  'passes',
  'tackles',
  'fouls',
  'cards',
] as const;
export type PropStat = (typeof PROP_STATS)[number];

export interface PropPlayer {
  id: string;
  name: string;
  side: TeamSide;
  counters: Readonly<Record<string, number>>;
  /** Expected count still to come of each stat. */
  expected: Readonly<Record<PropStat, number>>;
  lines: { passes: number[] };
}

export interface SoccerPricingState {
  names: MatchNames;
  tier: number;
  knockout: boolean;
  phase: string;
  goals: { h1: number[]; h2: number[]; et: number[] };
  /** Expected goals still to come, [home, away], per half (`et`: all of extra time if it is played). */
  remaining: { h1: [number, number]; h2: [number, number]; et: [number, number] };
  pens: number[];
  penKicks: number;
  players: PropPlayer[];
}

const MAX_GOALS = 10;
const ladder = (from: number, to: number, step: number): number[] => {
  const out: number[] = [];
  for (let x = from; x <= to + 1e-9; x += step) out.push(Math.round(x * 100) / 100);
  return out;
};

const AH_FULL = ladder(-3.5, 3.5, 0.25);
const AH_HALF = ladder(-2, 2, 0.25);
const TOTALS_FULL = ladder(0.5, 6.5, 0.25);
const TOTALS_HALF = ladder(0.5, 3.5, 0.25);
const TEAM_TOTALS_FULL = ladder(0.5, 4.5, 0.25);
const TEAM_TOTALS_HALF = ladder(0.5, 2.5, 0.5);
const EURO_HANDICAPS = [-3, -2, -1, 1, 2, 3];
const AH_MAIN = [-1.5, -1, -0.5, -0.25, 0, 0.25, 0.5, 1, 1.5];
const TOTALS_MAIN = [1.5, 2, 2.5, 3, 3.5];
const AH_MINOR = [-1, -0.5, 0, 0.5, 1];
const TOTALS_MINOR = [1.5, 2.5, 3.5];

const PROP_LINES: Readonly<Record<Exclude<PropStat, 'passes'>, number[]>> = {
  goals: [0.5, 1.5, 2.5],
  assists: [0.5, 1.5],
  shots: [0.5, 1.5, 2.5, 3.5],
  shots_on_target: [0.5, 1.5, 2.5],
  tackles: [0.5, 1.5, 2.5],
  fouls: [0.5, 1.5, 2.5],
  cards: [0.5],
};
const PROP_LABELS: Readonly<Record<PropStat, string>> = {
  goals: 'Goals',
  assists: 'Assists',
  shots: 'Shots',
  shots_on_target: 'Shots on Target',
  passes: 'Passes',
  tackles: 'Tackles',
  fouls: 'Fouls',
  cards: 'Cards',
};

function teamDist(current: number, lambda: number): Dist {
  return poissonDist(lambda, MAX_GOALS).shift(current);
}

function grid(cur: number[], rem: [number, number]): Grid {
  return new Grid(teamDist(cur[0]!, rem[0]), teamDist(cur[1]!, rem[1]));
}

function sum2(a: number[], b: number[]): number[] {
  return [a[0]! + b[0]!, a[1]! + b[1]!];
}

function htFtJoint(s: SoccerPricingState): Map<string, number> {
  const m1 = grid(s.goals.h1, s.remaining.h1).margin();
  const m2 = grid(s.goals.h2, s.remaining.h2).margin();
  const joint = new Map<string, number>();
  for (let i = 0; i < m1.p.length; i++) {
    const d = m1.min + i;
    const p = m1.p[i]!;
    if (p === 0) continue;
    const ht = d > 0 ? 'home' : d < 0 ? 'away' : 'draw';
    const add = (ft: string, q: number): void => {
      joint.set(`${ht}/${ft}`, (joint.get(`${ht}/${ft}`) ?? 0) + p * q);
    };
    add('home', m2.above(-d));
    add('draw', m2.at(-d));
    add('away', m2.below(-d));
  }
  return joint;
}

/** P(home wins the shoot-out) from its state: regulation kicks left scored at 76%, sudden death even. */
function shootoutHome(s: SoccerPricingState): number {
  const kicksH = Math.ceil(s.penKicks / 2);
  const kicksA = Math.floor(s.penKicks / 2);
  const remH = Math.max(0, 5 - kicksH);
  const remA = Math.max(0, 5 - kicksA);
  const eff = s.pens[0]! + 0.76 * remH - (s.pens[1]! + 0.76 * remA);
  const sd = Math.sqrt(0.18 * (remH + remA) + 0.35);
  return normalCdf(eff / sd);
}

function toQualify(s: SoccerPricingState): FairMarket {
  const reg = sum2(s.goals.h1, s.goals.h2);
  const ftMargin = grid(reg, [s.remaining.h1[0] + s.remaining.h2[0], s.remaining.h1[1] + s.remaining.h2[1]]).margin();
  const etMargin = grid(s.goals.et, s.remaining.et).margin();
  const pens = s.phase === 'PEN' || s.phase === 'PEN_BREAK' || s.phase === 'END' ? shootoutHome(s) : 0.5;
  let p = 0;
  for (let i = 0; i < ftMargin.p.length; i++) {
    const d = ftMargin.min + i;
    const q = ftMargin.p[i]!;
    if (d > 0) p += q;
    else if (d === 0) p += q * (etMargin.above(0) + etMargin.at(0) * pens);
  }
  return decidedIfCertain(
    fair(key(TO_QUALIFY.key), TO_QUALIFY.name, [
      { code: 'home', label: s.names.home, side: 'home', p },
      { code: 'away', label: s.names.away, side: 'away', p: 1 - p },
    ]),
  );
}

function periodFamilies(
  out: FairMarket[],
  s: SoccerPricingState,
  g: Grid,
  period: string | null,
  periodName: string | null,
  ah: number[],
  tot: number[],
  teamTot: number[],
  csMax: number,
  exactMax: number,
): void {
  const margin = g.margin();
  const total = g.total();
  out.push(matchResult(s.names, margin, period, periodName));
  out.push(doubleChance(s.names, margin, period, periodName));
  out.push(drawNoBet(s.names, margin, period, periodName));
  out.push(btts(g, period, periodName));
  out.push(oddEven(total, period, periodName));
  out.push(correctScore(g, csMax, period, periodName));
  out.push(exactTotal(total, exactMax, period, periodName));
  for (const line of ah) out.push(asianHandicap(s.names, margin, line, period, periodName));
  for (const line of tot) out.push(totals(total, line, period, periodName, TOTALS.key, 'Total Goals'));
  for (const side of ['home', 'away'] as const) {
    for (const line of teamTot)
      out.push(teamTotals(side, s.names, side === 'home' ? g.home : g.away, line, period, periodName));
  }
}

function playerProps(out: FairMarket[], s: SoccerPricingState): void {
  for (const pl of s.players) {
    for (const stat of PROP_STATS) {
      const lines = stat === 'passes' ? pl.lines.passes : PROP_LINES[stat];
      const current = pl.counters[stat] ?? 0;
      for (const line of lines) {
        out.push(
          playerProp(
            stat,
            PROP_LABELS[stat],
            pl.id,
            pl.name,
            line,
            poissonAbove(pl.expected[stat], line - current),
            current,
          ),
        );
      }
    }
  }
}

/** Every soccer market of a state, in a fixed order; the set depends only on tier, format and depth. */
export function soccerMarkets(s: SoccerPricingState, depth: 'main' | 'full'): FairMarket[] {
  const out: FairMarket[] = [];
  const reg = sum2(s.goals.h1, s.goals.h2);
  const ft = grid(reg, [s.remaining.h1[0] + s.remaining.h2[0], s.remaining.h1[1] + s.remaining.h2[1]]);
  const h1 = grid(s.goals.h1, s.remaining.h1);
  const h2 = grid(s.goals.h2, s.remaining.h2);
  const margin = ft.margin();
  const total = ft.total();
  const full = depth === 'full' && s.tier <= 2;
  if (!full) {
    const minor = s.tier >= 3;
    out.push(matchResult(s.names, margin));
    out.push(doubleChance(s.names, margin));
    out.push(drawNoBet(s.names, margin));
    out.push(btts(ft));
    for (const line of minor ? AH_MINOR : AH_MAIN) out.push(asianHandicap(s.names, margin, line));
    for (const line of minor ? TOTALS_MINOR : TOTALS_MAIN)
      out.push(totals(total, line, null, null, TOTALS.key, 'Total Goals'));
    out.push(matchResult(s.names, h1.margin(), '1h', '1st Half'));
    for (const line of [0.5, 1.5]) out.push(totals(h1.total(), line, '1h', '1st Half', TOTALS.key, 'Total Goals'));
    if (!minor) {
      out.push(oddEven(total));
      out.push(correctScore(ft, 5));
    }
    if (s.knockout) out.push(toQualify(s));
    return out;
  }
  periodFamilies(out, s, ft, null, null, AH_FULL, TOTALS_FULL, TEAM_TOTALS_FULL, 5, 6);
  out.push(htFt(s.names, htFtJoint(s)));
  out.push(winningMargin(s.names, margin));
  for (const line of EURO_HANDICAPS) out.push(europeanHandicap(s.names, margin, line));
  periodFamilies(out, s, h1, '1h', '1st Half', AH_HALF, TOTALS_HALF, TEAM_TOTALS_HALF, 3, 3);
  periodFamilies(out, s, h2, '2h', '2nd Half', AH_HALF, TOTALS_HALF, TEAM_TOTALS_HALF, 3, 3);
  if (s.knockout) out.push(toQualify(s));
  if (s.tier === 1) playerProps(out, s);
  return out;
}
