// Soccer pricing: Poisson goal grids (full time, each half) drive every team family; Poisson counters over the minutes a player may still play drive player props.
import { TOTALS, TO_QUALIFY } from '../../../domain/families/index.js';
import type { TeamSide } from '../../../domain/types.js';
import { Grid, mixedPoissonAbove, normalCdf, poissonDist, type Dist } from './dist.js';
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
  /** Each stat's count still to come is Poisson with mean `perMinute` × the minutes he still plays. */
  outlook: PropOutlook;
  /** The player's lines per stat, fixed at kick-off (see `propLines`): keys and ids stay put all game. */
  lines: PropLines;
}

export type PropLines = Readonly<Record<PropStat, readonly number[]>>;

/**
 * What a player still makes: a rate per minute on the pitch per stat, and the minutes he still
 * plays as a distribution ([minutes, probability]): substitutions take a starter off or bring a
 * substitute on at a minute nobody knows, so the count is wider than one Poisson.
 */
export interface PropOutlook {
  perMinute: Readonly<Record<PropStat, number>>;
  minutes: ReadonlyArray<readonly [number, number]>;
}

/** P(the stat still to come > x) for each x. */
export function propOver(o: PropOutlook, stat: PropStat, xs: readonly number[]): number[] {
  return mixedPoissonAbove(o.perMinute[stat], o.minutes, xs);
}

/** Expected count still to come of a stat. */
export function propMean(o: PropOutlook, stat: PropStat): number {
  return o.minutes.reduce((s, [m, p]) => s + o.perMinute[stat] * m * p, 0);
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
  /** The player props already priced for this state's players (the engine keeps them from step to step). */
  props?: readonly FairMarket[];
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

/**
 * At most this many lines per player and stat, `step` apart (books quote passes in fives: 39.5, 44.5).
 * Which ones a player gets depends on what the player is expected to make (`propLines`).
 */
const PROP_SHAPE: Readonly<Record<PropStat, { max: number; step: number }>> = {
  goals: { max: 3, step: 1 },
  assists: { max: 2, step: 1 },
  shots: { max: 5, step: 1 },
  shots_on_target: { max: 3, step: 1 },
  passes: { max: 15, step: 2 },
  tackles: { max: 4, step: 1 },
  fouls: { max: 4, step: 1 },
  cards: { max: 1, step: 1 },
};
/**
 * A line is offered only if, at kick-off, its Over chance is within these: the long end as books
 * quote a defender to score (~1 in 100 at most), the short end with the Under still clear of 1.01.
 * One line for everyone put a defender's 2.5 goals at 1000/1.01, locked from the start (issue 17).
 * Between them an Under can still price below 1.01 after the margin; the book takes that side off
 * and offers the Over alone, as books do with long-shot props.
 */
const PROP_REACH: readonly [number, number] = [0.01, 0.97];

/**
 * The lines of one player's stat from the count expected at kick-off: every x.5 line on the stat's
 * step whose Over chance is within reach, the `max` nearest to even money, ascending. None when the
 * player is not expected to make the stat at all (a substitute defender's goals).
 */
export function playerPropLines(o: PropOutlook): PropLines {
  const out = {} as Record<PropStat, number[]>;
  for (const stat of PROP_STATS) out[stat] = propLines(stat, o);
  return out;
}

/** No line of any stat (a player the book was not told of at kick-off). */
export const NO_PROP_LINES: PropLines = playerPropLines({
  perMinute: { goals: 0, assists: 0, shots: 0, shots_on_target: 0, passes: 0, tackles: 0, fouls: 0, cards: 0 },
  minutes: [[0, 1]],
});

export function propLines(stat: PropStat, o: PropOutlook): number[] {
  const { max, step } = PROP_SHAPE[stat];
  const expected = propMean(o, stat);
  const top = expected + 6 * Math.sqrt(expected) + step + 1;
  const candidates: number[] = [];
  for (let line = step - 0.5; line <= top; line += step) candidates.push(line);
  const over = propOver(o, stat, candidates);
  const reachable: Array<[number, number]> = [];
  candidates.forEach((line, i) => {
    const p = over[i]!;
    if (p >= PROP_REACH[0] && p <= PROP_REACH[1]) reachable.push([line, Math.abs(p - 0.5)]);
  });
  return reachable
    .sort((a, b) => a[1] - b[1])
    .slice(0, max)
    .map(([line]) => line)
    .sort((a, b) => a - b);
}

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

/** The player-prop markets of a state's players (tier-1 full books). */
export function playerPropMarkets(s: Pick<SoccerPricingState, 'players'>): FairMarket[] {
  const out: FairMarket[] = [];
  playerProps(out, s);
  return out;
}

function playerProps(out: FairMarket[], s: Pick<SoccerPricingState, 'players'>): void {
  for (const pl of s.players) {
    for (const stat of PROP_STATS) {
      const lines = pl.lines[stat];
      const current = pl.counters[stat] ?? 0;
      const over = propOver(
        pl.outlook,
        stat,
        lines.map((line) => line - current),
      );
      lines.forEach((line, i) =>
        out.push(playerProp(stat, PROP_LABELS[stat], pl.id, pl.name, line, over[i]!, current, pl.side)),
      );
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
  if (s.tier === 1) {
    if (s.props !== undefined) out.push(...s.props);
    else playerProps(out, s);
  }
  return out;
}
