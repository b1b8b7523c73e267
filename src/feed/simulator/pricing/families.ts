// Builders of the common market families from score distributions (keys and names from domain/families/): 1x2, moneyline, totals…
import {
  ASIAN_HANDICAP,
  BTTS,
  CORRECT_SCORE,
  DOUBLE_CHANCE,
  DRAW_NO_BET,
  EXACT_TOTAL,
  HANDICAP_3WAY,
  HT_FT,
  MONEYLINE,
  ODD_EVEN,
  ONE_X_TWO,
  TOTALS,
  WINNING_MARGIN,
} from '../../../domain/families/index.js';
import type { TeamSide } from '../../../domain/types.js';
import { formatMarketKey, isQuarterLine, splitQuarterLine } from '../../../domain/market-key.js';
import type { Dist, Grid } from './dist.js';
import { decidedIfCertain, fair, signed, type FairMarket, type FairOutcome, type MatchNames } from './fair.js';

/** Keys by family, period and line: nested maps, as building a text id for the lookup cost as much as the key. */
const keyCache = new Map<string, Map<string | null, Map<number | null, string>>>();
let keysCached = 0;

/** The canonical key text; memoised because every price update rebuilds every key. */
export function key(family: string, period: string | null = null, line: number | null = null): string {
  let byPeriod = keyCache.get(family);
  if (byPeriod === undefined) keyCache.set(family, (byPeriod = new Map()));
  let byLine = byPeriod.get(period);
  if (byLine === undefined) byPeriod.set(period, (byLine = new Map()));
  let k = byLine.get(line);
  if (k === undefined) {
    k = formatMarketKey({ family, period, line });
    if (++keysCached > 200_000) {
      keyCache.clear();
      keysCached = 0;
    }
    byLine.set(line, k);
  }
  return k;
}

/** " - 1st Half" style suffix for market names; empty for the full match. */
export function inPeriod(periodName: string | null): string {
  return periodName === null ? '' : ` - ${periodName}`;
}

/**
 * Break-even shares of `x + line > 0` (pos) and `< 0` (neg) for x drawn from `dist`: a push
 * refunds, a quarter line is two half stakes on its neighbouring lines. `decided` when every
 * case pushes or one side is certain.
 */
export function lineShares(dist: Dist, line: number): { pos: number; neg: number; decided: boolean } {
  const parts = isQuarterLine(line) ? splitQuarterLine(line) : [line];
  let w = 0;
  let l = 0;
  for (const part of parts) {
    w += dist.above(-part) / parts.length;
    l += dist.below(-part) / parts.length;
  }
  if (w + l < 1e-12) return { pos: 0.5, neg: 0.5, decided: true };
  const pos = w / (w + l);
  return { pos, neg: 1 - pos, decided: pos >= 1 - 1e-9 || pos <= 1e-9 };
}

export function threeWayProbs(margin: Dist): [number, number, number] {
  return [margin.above(0), margin.at(0), margin.below(0)];
}

export function matchResult(
  names: MatchNames,
  margin: Dist,
  period: string | null = null,
  periodName: string | null = null,
): FairMarket {
  const [h, d, a] = threeWayProbs(margin);
  return decidedIfCertain(
    fair(key(ONE_X_TWO.key, period), `${ONE_X_TWO.name}${inPeriod(periodName)}`, [
      { code: 'home', label: names.home, side: 'home', p: h },
      { code: 'draw', label: 'Draw', side: null, p: d },
      { code: 'away', label: names.away, side: 'away', p: a },
    ]),
  );
}

export function moneyline(
  names: MatchNames,
  pHome: number,
  period: string | null = null,
  periodName: string | null = null,
  family = MONEYLINE.key,
  title = MONEYLINE.name,
): FairMarket {
  return decidedIfCertain(
    fair(key(family, period), `${title}${inPeriod(periodName)}`, [
      { code: 'home', label: names.home, side: 'home', p: pHome },
      { code: 'away', label: names.away, side: 'away', p: 1 - pHome },
    ]),
  );
}

export function doubleChance(
  names: MatchNames,
  margin: Dist,
  period: string | null = null,
  periodName: string | null = null,
): FairMarket {
  const [h, d, a] = threeWayProbs(margin);
  const m = fair(key(DOUBLE_CHANCE.key, period), `${DOUBLE_CHANCE.name}${inPeriod(periodName)}`, [
    { code: 'home_draw', label: `${names.home} or Draw`, side: 'home', p: h + d },
    { code: 'home_away', label: `${names.home} or ${names.away}`, side: null, p: h + a },
    { code: 'draw_away', label: `Draw or ${names.away}`, side: 'away', p: d + a },
  ]);
  // Each outcome covers two of the three results: decided only when one result is certain.
  return h >= 1 - 1e-9 || d >= 1 - 1e-9 || a >= 1 - 1e-9 ? { ...m, decided: true } : m;
}

export function drawNoBet(
  names: MatchNames,
  margin: Dist,
  period: string | null = null,
  periodName: string | null = null,
): FairMarket {
  const s = lineShares(margin, 0);
  return fair(
    key(DRAW_NO_BET.key, period),
    `${DRAW_NO_BET.name}${inPeriod(periodName)}`,
    [
      { code: 'home', label: names.home, side: 'home', p: s.pos },
      { code: 'away', label: names.away, side: 'away', p: s.neg },
    ],
    s.decided,
  );
}

export function asianHandicap(
  names: MatchNames,
  margin: Dist,
  line: number,
  period: string | null = null,
  periodName: string | null = null,
  family = ASIAN_HANDICAP.key,
  title = ASIAN_HANDICAP.name,
): FairMarket {
  const s = lineShares(margin, line);
  const m = fair(
    key(family, period, line),
    `${title} ${signed(line)}${inPeriod(periodName)}`,
    [
      { code: 'home', label: `${names.home} ${signed(line)}`, side: 'home', p: s.pos },
      { code: 'away', label: `${names.away} ${signed(-line)}`, side: 'away', p: s.neg },
    ],
    s.decided,
  );
  m.line = {
    group: key(family, period),
    value: line,
    rises: true,
    at: (other) => asianHandicap(names, margin, other, period, periodName, family, title),
  };
  return m;
}

export function totals(
  total: Dist,
  line: number,
  period: string | null = null,
  periodName: string | null = null,
  family = TOTALS.key,
  title = TOTALS.name,
): FairMarket {
  const s = lineShares(total, -line);
  const m = fair(
    key(family, period, line),
    `${title} ${line}${inPeriod(periodName)}`,
    [
      { code: 'over', label: `Over ${line}`, side: null, p: s.pos },
      { code: 'under', label: `Under ${line}`, side: null, p: s.neg },
    ],
    s.decided,
  );
  m.line = {
    group: key(family, period),
    value: line,
    rises: false,
    at: (other) => totals(total, other, period, periodName, family, title),
  };
  return m;
}

export function teamTotals(
  side: 'home' | 'away',
  names: MatchNames,
  dist: Dist,
  line: number,
  period: string | null = null,
  periodName: string | null = null,
): FairMarket {
  return totals(dist, line, period, periodName, `team_totals_${side}`, `${names[side]} Total`);
}

export function btts(grid: Grid, period: string | null = null, periodName: string | null = null): FairMarket {
  const p = grid.home.above(0) * grid.away.above(0);
  return decidedIfCertain(
    fair(key(BTTS.key, period), `${BTTS.name}${inPeriod(periodName)}`, [
      { code: 'yes', label: 'Yes', side: null, p },
      { code: 'no', label: 'No', side: null, p: 1 - p },
    ]),
  );
}

export function oddEven(total: Dist, period: string | null = null, periodName: string | null = null): FairMarket {
  let odd = 0;
  for (let i = 0; i < total.p.length; i++) if ((total.min + i) % 2 !== 0) odd += total.p[i]!;
  return decidedIfCertain(
    fair(key(ODD_EVEN.key, period), `${ODD_EVEN.name}${inPeriod(periodName)}`, [
      { code: 'odd', label: 'Odd', side: null, p: odd },
      { code: 'even', label: 'Even', side: null, p: 1 - odd },
    ]),
  );
}

/** Correct score over 0..maxGoals for each side, plus `other` for any score not listed. */
export function correctScore(
  grid: Grid,
  maxGoals: number,
  period: string | null = null,
  periodName: string | null = null,
): FairMarket {
  const outcomes: FairOutcome[] = [];
  let listed = 0;
  for (let h = 0; h <= maxGoals; h++) {
    for (let a = 0; a <= maxGoals; a++) {
      const p = grid.cell(h, a);
      listed += p;
      outcomes.push({ code: `${h}-${a}`, label: `${h}-${a}`, side: null, p });
    }
  }
  outcomes.push({ code: 'other', label: 'Any Other Score', side: null, p: Math.max(0, 1 - listed) });
  return decidedIfCertain(
    fair(key(CORRECT_SCORE.key, period), `${CORRECT_SCORE.name}${inPeriod(periodName)}`, outcomes),
  );
}

/** Exact total: 0..max-1 and `max+` (codes `0`, `1`, …, `6+`). */
export function exactTotal(
  total: Dist,
  max: number,
  period: string | null = null,
  periodName: string | null = null,
  title = EXACT_TOTAL.name,
): FairMarket {
  const outcomes: FairOutcome[] = [];
  for (let k = 0; k < max; k++) outcomes.push({ code: String(k), label: String(k), side: null, p: total.at(k) });
  outcomes.push({ code: `${max}+`, label: `${max} or more`, side: null, p: total.above(max - 1) });
  return decidedIfCertain(fair(key(EXACT_TOTAL.key, period), `${title}${inPeriod(periodName)}`, outcomes));
}

/** Winning margin bands: `home_1`, `home_2`, `home_3+`, `draw`, `away_1`, `away_2`, `away_3+`. */
export function winningMargin(
  names: MatchNames,
  margin: Dist,
  period: string | null = null,
  periodName: string | null = null,
): FairMarket {
  const band = (side: 'home' | 'away', n: number, plus: boolean): FairOutcome => {
    const sign = side === 'home' ? 1 : -1;
    const p = plus ? (side === 'home' ? margin.above(n - 1) : margin.below(-(n - 1))) : margin.at(sign * n);
    return { code: `${side}_${n}${plus ? '+' : ''}`, label: `${names[side]} by ${n}${plus ? '+' : ''}`, side, p };
  };
  return decidedIfCertain(
    fair(key(WINNING_MARGIN.key, period), `${WINNING_MARGIN.name}${inPeriod(periodName)}`, [
      band('home', 1, false),
      band('home', 2, false),
      band('home', 3, true),
      { code: 'draw', label: 'Draw', side: null, p: margin.at(0) },
      band('away', 1, false),
      band('away', 2, false),
      band('away', 3, true),
    ]),
  );
}

/** 3-way (European) handicap with a whole line from the home side: a tie after the handicap is the draw. */
export function europeanHandicap(
  names: MatchNames,
  margin: Dist,
  line: number,
  period: string | null = null,
  periodName: string | null = null,
): FairMarket {
  const shifted = margin.shift(line);
  const [h, d, a] = threeWayProbs(shifted);
  return decidedIfCertain(
    fair(key(HANDICAP_3WAY.key, period, line), `${HANDICAP_3WAY.name} ${signed(line)}${inPeriod(periodName)}`, [
      { code: 'home', label: `${names.home} ${signed(line)}`, side: 'home', p: h },
      { code: 'draw', label: `Draw ${signed(line)}`, side: null, p: d },
      { code: 'away', label: `${names.away} ${signed(-line)}`, side: 'away', p: a },
    ]),
  );
}

/** Probabilities of `home/draw/away` results, by code. */
export type ThreeWay = Readonly<Record<'home' | 'draw' | 'away', number>>;

/** Half-time/full-time from the joint probabilities of (1H result, FT result). */
export function htFt(names: MatchNames, joint: ReadonlyMap<string, number>): FairMarket {
  const results = ['home', 'draw', 'away'] as const;
  const label = (r: (typeof results)[number]): string => (r === 'draw' ? 'Draw' : names[r]);
  const outcomes: FairOutcome[] = [];
  for (const ht of results) {
    for (const ft of results) {
      outcomes.push({
        code: `${ht}/${ft}`,
        label: `${label(ht)}/${label(ft)}`,
        side: null,
        p: joint.get(`${ht}/${ft}`) ?? 0,
      });
    }
  }
  return decidedIfCertain(fair(key(HT_FT.key), HT_FT.name, outcomes));
}

/** Over/under on a player's counter (`player_<stat>_<player_id>:<line>`) of the `side` team: P(final > line). */
export function playerProp(
  stat: string,
  statLabel: string,
  playerId: string,
  playerName: string,
  line: number,
  pOver: number,
  current: number,
  side: TeamSide,
): FairMarket {
  const p = current > line ? 1 : pOver;
  const m = decidedIfCertain(
    fair(key(`player_${stat}_${playerId}`, null, line), `${playerName} ${statLabel} ${line}`, [
      { code: 'over', label: `Over ${line}`, side: null, p },
      { code: 'under', label: `Under ${line}`, side: null, p: 1 - p },
    ]),
  );
  // A fresh object either way (fair or decidedIfCertain's copy): set in place, no third copy.
  m.player = { side, stat };
  return m;
}
