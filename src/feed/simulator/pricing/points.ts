// Pricing of points sports (basketball, handball, rugby, American football, cricket) by normal approximations of what is still to come.
import { ASIAN_HANDICAP, TOTALS } from '../../../domain/families/index.js';
import { diffDist, normalDist, sumDist, type Dist } from './dist.js';
import {
  asianHandicap,
  doubleChance,
  drawNoBet,
  matchResult,
  moneyline,
  oddEven,
  teamTotals,
  totals,
} from './families.js';
import type { FairMarket, MatchNames } from './fair.js';

export interface TeamOutlook {
  /** Points so far. */
  current: number;
  /** Expected points still to come. */
  mean: number;
  /** Variance of the points still to come. */
  variance: number;
}

export function finalDist(t: TeamOutlook): Dist {
  // Nothing still to come (a period over): the count stands, so the period's markets are decided.
  if (t.mean <= 0) return normalDist(t.current, 0);
  return normalDist(t.current + t.mean, Math.sqrt(Math.max(0, t.variance))).clampBelow(t.current);
}

export interface PeriodOutlook {
  /** Period suffix of the keys (`q1`, `1h`…) and its display name. */
  code: string;
  name: string;
  home: TeamOutlook;
  away: TeamOutlook;
  spreadLines: number[];
  totalLines: number[];
  /** 3-way result of the period (a period can be drawn). */
  threeWay: boolean;
}

export interface PointsBook {
  names: MatchNames;
  home: TeamOutlook;
  away: TeamOutlook;
  /** Draws stand (1x2, double chance, draw no bet); otherwise a moneyline where a tie goes on. */
  hasDraw: boolean;
  /** When a tie goes on (overtime): P(home wins it). Null when a tie stands as a draw. */
  tieHome: number | null;
  spreadLines: number[];
  totalLines: number[];
  teamTotalLines: [number[], number[]];
  oddEven: boolean;
  periods: PeriodOutlook[];
  totalTitle: string;
}

export function pointsMarkets(b: PointsBook): FairMarket[] {
  const h = finalDist(b.home);
  const a = finalDist(b.away);
  const margin = diffDist(h, a);
  const total = sumDist(h, a);
  const out: FairMarket[] = [];
  if (b.hasDraw) {
    out.push(matchResult(b.names, margin));
    out.push(doubleChance(b.names, margin));
    out.push(drawNoBet(b.names, margin));
  }
  if (b.tieHome !== null) out.push(moneyline(b.names, margin.above(0) + margin.at(0) * b.tieHome));
  for (const line of b.spreadLines)
    out.push(asianHandicap(b.names, margin, line, null, null, ASIAN_HANDICAP.key, 'Handicap'));
  for (const line of b.totalLines) out.push(totals(total, line, null, null, TOTALS.key, b.totalTitle));
  b.teamTotalLines[0].forEach((line) => out.push(teamTotals('home', b.names, h, line)));
  b.teamTotalLines[1].forEach((line) => out.push(teamTotals('away', b.names, a, line)));
  if (b.oddEven) out.push(oddEven(total));
  for (const p of b.periods) {
    const ph = finalDist(p.home);
    const pa = finalDist(p.away);
    const pm = diffDist(ph, pa);
    const pt = sumDist(ph, pa);
    if (p.threeWay) out.push(matchResult(b.names, pm, p.code, p.name));
    for (const line of p.spreadLines)
      out.push(asianHandicap(b.names, pm, line, p.code, p.name, ASIAN_HANDICAP.key, 'Handicap'));
    for (const line of p.totalLines) out.push(totals(pt, line, p.code, p.name, TOTALS.key, b.totalTitle));
  }
  return out;
}

/** Half lines around a centre: centre ± step × k (k = 0..n-1 each way), e.g. 215.5 ± 5. */
export function halfLines(centre: number, step: number, n: number): number[] {
  const c = Math.floor(centre) + 0.5;
  const out: number[] = [];
  for (let k = -(n - 1); k <= n - 1; k++) out.push(c + k * step);
  return out.filter((x) => x > 0);
}

/** Handicap half lines from the home side around an expected home margin. */
export function spreadLines(expectedMargin: number, step: number, n: number): number[] {
  const c = -Math.round(expectedMargin) + 0.5;
  const out: number[] = [];
  for (let k = -(n - 1); k <= n - 1; k++) out.push(c + k * step);
  return out;
}
