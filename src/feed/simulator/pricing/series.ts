// Best-of-N series (sets, maps, games, frames): match winner, correct score, unit handicaps and totals, next-unit winners.
import { ASIAN_HANDICAP, TOTALS } from '../../../domain/families/index.js';
import { Dist } from './dist.js';
import { asianHandicap, key, moneyline, totals } from './families.js';
import { decidedIfCertain, fair, type FairMarket, type MatchNames } from './fair.js';

export interface SeriesState {
  names: MatchNames;
  bestOf: number;
  /** Units (sets, maps…) won so far. */
  won: [number, number];
  /** P(home wins the unit in progress), from its own state. */
  pCurrent: number;
  /** P(home wins a fresh unit). */
  pFresh: number;
  /** A unit is in progress (false between units and before the start). */
  inProgress: boolean;
}

export interface SeriesFinal {
  home: number;
  away: number;
  p: number;
}

/** Distribution of the final unit score of the series. */
export function seriesFinals(s: SeriesState): SeriesFinal[] {
  const need = Math.floor(s.bestOf / 2) + 1;
  const out = new Map<string, SeriesFinal>();
  const walk = (h: number, a: number, q: number, first: boolean): void => {
    if (q < 1e-15) return;
    if (h >= need || a >= need) {
      const k = `${h}-${a}`;
      const e = out.get(k);
      if (e) e.p += q;
      else out.set(k, { home: h, away: a, p: q });
      return;
    }
    const p = first && s.inProgress ? s.pCurrent : s.pFresh;
    walk(h + 1, a, q * p, false);
    walk(h, a + 1, q * (1 - p), false);
  };
  walk(s.won[0], s.won[1], 1, true);
  return [...out.values()];
}

export function seriesWin(finals: readonly SeriesFinal[]): number {
  return finals.reduce((sum, f) => sum + (f.home > f.away ? f.p : 0), 0);
}

function distOf(finals: readonly SeriesFinal[], value: (f: SeriesFinal) => number): Dist {
  const values = finals.map(value);
  const min = Math.min(...values);
  const max = Math.max(...values);
  const p = new Float64Array(max - min + 1);
  finals.forEach((f, i) => {
    p[values[i]! - min]! += f.p;
  });
  return new Dist(min, p);
}

export interface SeriesMarketOptions {
  /** Family of the per-unit winner market (`set_winner`, `map_winner`, `frame_winner`) and its period prefix. */
  unitFamily: string;
  unitPeriod: string;
  unitName: string;
  /** Family of the correct-score market in units (`set_betting` for sets, `correct_score` otherwise). */
  scoreFamily: string;
  scoreName: string;
  handicapLines: number[];
  totalLines: number[];
  /** Per-unit winner markets for units 1..n (a unit never played is refunded). */
  unitWinners: number;
}

export function seriesMarkets(s: SeriesState, o: SeriesMarketOptions): FairMarket[] {
  const finals = seriesFinals(s);
  const out: FairMarket[] = [moneyline(s.names, seriesWin(finals))];
  const need = Math.floor(s.bestOf / 2) + 1;
  const scores: Array<[number, number]> = [];
  for (let l = 0; l < need; l++) scores.push([need, l]);
  for (let w = need - 1; w >= 0; w--) scores.push([w, need]);
  out.push(
    decidedIfCertain(
      fair(
        key(o.scoreFamily),
        o.scoreName,
        scores.map(([h, a]) => ({
          code: `${h}-${a}`,
          label: `${h}-${a}`,
          side: null,
          p: finals.find((f) => f.home === h && f.away === a)?.p ?? 0,
        })),
      ),
    ),
  );
  const margin = distOf(finals, (f) => f.home - f.away);
  const total = distOf(finals, (f) => f.home + f.away);
  for (const line of o.handicapLines)
    out.push(asianHandicap(s.names, margin, line, null, null, ASIAN_HANDICAP.key, `${o.unitName} Handicap`));
  for (const line of o.totalLines) out.push(totals(total, line, null, null, TOTALS.key, `Total ${o.unitName}s`));
  const played = s.won[0] + s.won[1];
  for (let n = 1; n <= o.unitWinners; n++) {
    let p: number;
    if (n <= played) p = NaN;
    else if (n === played + 1) p = s.inProgress ? s.pCurrent : s.pFresh;
    else p = s.pFresh;
    const m = moneyline(s.names, Number.isNaN(p) ? 0.5 : p, `${o.unitPeriod}${n}`, `${o.unitName} ${n}`, o.unitFamily);
    out.push(Number.isNaN(p) ? { ...m, decided: true } : m);
  }
  return out;
}
