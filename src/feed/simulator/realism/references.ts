// Real-world reference figures for the realism report: computed from the data files, or published league averages (sources cited).
import type { SportFigures } from './figures.js';
// Published league figures have one home, shared with the engines' calibration tests; the bands here are wider (a report's sample is smaller).
import { BASEBALL, BASKETBALL, ICE_HOCKEY } from '../engines/reference-figures.js';

export type FigureName = Exclude<keyof SportFigures, 'finals' | 'books' | 'liveSamples'>;

/** One real figure and the band a simulated figure must fall in to pass. */
export interface Reference {
  figure: FigureName;
  /** The real value (or the middle of a published range). */
  value: number;
  low: number;
  high: number;
  source: string;
}

// ---------------------------------------------------------------------------------------------
// Soccer: openfootball season files (football.json format: matches[].score.ft = [home, away]).

export interface SoccerSeasonFigures {
  matches: number;
  homeShare: number;
  drawShare: number;
  awayShare: number;
  goalsPerGame: number;
  nilNilShare: number;
  bigMarginShare: number;
}

/** Home/draw/away, goals per game, 0-0 and 4+ goal margins of the played matches of openfootball seasons. */
export function soccerSeasonFigures(seasons: readonly unknown[]): SoccerSeasonFigures {
  let n = 0;
  let home = 0;
  let draw = 0;
  let goals = 0;
  let nil = 0;
  let big = 0;
  for (const season of seasons) {
    const matches = (season as { matches?: unknown[] }).matches ?? [];
    for (const m of matches) {
      const ft = (m as { score?: { ft?: unknown } }).score?.ft;
      if (!Array.isArray(ft) || ft.length !== 2) continue;
      const [h, a] = ft as [number, number];
      n++;
      if (h > a) home++;
      else if (h === a) draw++;
      goals += h + a;
      if (h + a === 0) nil++;
      if (Math.abs(h - a) >= 4) big++;
    }
  }
  if (n === 0) throw new Error('no played matches in the openfootball seasons');
  return {
    matches: n,
    homeShare: home / n,
    drawShare: draw / n,
    awayShare: (n - home - draw) / n,
    goalsPerGame: goals / n,
    nilNilShare: nil / n,
    bigMarginShare: big / n,
  };
}

// ---------------------------------------------------------------------------------------------
// NFL: nfl-2012-2022-scores-lines.csv (scores with closing favourite spread and total).

export interface NflFigures {
  games: number;
  homeShare: number;
  tieShare: number;
  pointsPerGame: number;
  bigMarginShare: number;
  meanTotalLine: number;
  /** Closing favourite spreads (points, positive) at or beyond 3, 7 and 10. */
  spreadAtLeast3: number;
  spreadAtLeast7: number;
  spreadAtLeast10: number;
  /** Favourite moneyline implied by the closing spread (normal margin, sd 13.5) with a 5% margin: at <= 1.05 / 1.15. */
  favUnder105: number;
  favUnder115: number;
}

/** Standard deviation of an NFL final margin around the closing spread (points): the usual rule of thumb. */
const NFL_MARGIN_SD = 13.5;

function normalCdf(x: number): number {
  // Abramowitz–Stegun 7.1.26 on erf; plenty for a reference band.
  const z = Math.abs(x) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * z);
  const y =
    1 -
    ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-z * z);
  return x >= 0 ? (1 + y) / 2 : (1 - y) / 2;
}

/** The favourite's decimal price implied by a point spread, its probability grossed up by `margin`. */
export function favouritePriceFromSpread(spread: number, margin = 0.05): number {
  const p = normalCdf(Math.abs(spread) / NFL_MARGIN_SD);
  return 1 / (p * (1 + margin));
}

export function nflFigures(csv: string): NflFigures {
  const lines = csv.trim().split(/\r?\n/);
  const head = lines[0]!.split(',');
  const col = (name: string): number => {
    const i = head.indexOf(name);
    if (i < 0) throw new Error(`nfl csv: no column ${name}`);
    return i;
  };
  const [sh, sa, sp, ou] = [col('score_home'), col('score_away'), col('spread_favorite'), col('over_under_line')];
  let n = 0;
  let home = 0;
  let tie = 0;
  let points = 0;
  let big = 0;
  let totals = 0;
  let totalsN = 0;
  const spreads: number[] = [];
  for (const line of lines.slice(1)) {
    const f = line.split(',');
    const h = Number(f[sh]);
    const a = Number(f[sa]);
    if (f[sh] === '' || !Number.isFinite(h) || !Number.isFinite(a)) continue;
    n++;
    if (h > a) home++;
    else if (h === a) tie++;
    points += h + a;
    if (Math.abs(h - a) >= 28) big++;
    const s = Number(f[sp]);
    if (f[sp] !== '' && Number.isFinite(s)) spreads.push(Math.abs(s));
    const t = Number(f[ou]);
    if (f[ou] !== '' && Number.isFinite(t)) {
      totals += t;
      totalsN++;
    }
  }
  const share = (pred: (s: number) => boolean): number => spreads.filter(pred).length / spreads.length;
  return {
    games: n,
    homeShare: home / n,
    tieShare: tie / n,
    pointsPerGame: points / n,
    bigMarginShare: big / n,
    meanTotalLine: totals / totalsN,
    spreadAtLeast3: share((s) => s >= 3),
    spreadAtLeast7: share((s) => s >= 7),
    spreadAtLeast10: share((s) => s >= 10),
    favUnder105: share((s) => favouritePriceFromSpread(s) <= 1.05),
    favUnder115: share((s) => favouritePriceFromSpread(s) <= 1.15),
  };
}

// ---------------------------------------------------------------------------------------------
// Tennis: how short prematch favourites are, from published price-band counts.

/**
 * football-data.co.uk, "Evidence for the Favourite–Longshot Bias in Tennis Betting Odds" (2013):
 * 7,957 ATP and WTA matches (April 2010 - May 2012), average prices of the odds comparison site,
 * mean overround 6.4%; 2,755 of the 15,914 prices (one a match: its favourite) at 1.25 or shorter.
 */
export const TENNIS_PRICE_BANDS = { matches: 7_957, favouritesAtOrUnder125: 2_755, overround: 0.064 } as const;

function normalQuantile(p: number): number {
  // Bisection on normalCdf: plenty for a reference band.
  let lo = -10;
  let hi = 10;
  for (let i = 0; i < 100; i++) {
    const mid = (lo + hi) / 2;
    if (normalCdf(mid) < p) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

const logit = (p: number): number => Math.log(p / (1 - p));

/**
 * The shares of tennis favourites at 1.05 and 1.15 or shorter in a book with `margin` (shared
 * evenly between the two sides, as the simulator's), from TENNIS_PRICE_BANDS: the favourite's
 * chance is taken as a logistic of a normal spread, its spread fitted to the share priced at 1.25
 * or shorter (34.6%). It gives ~6% of matches with an outsider at 10.00 or longer (at a 2.5% margin):
 * Pinnacle's tennis articles (2018) show 1.2-1.7% of winning outsiders at over 10.00 (a third of
 * matches are won by outsiders, and those priced over 10.00 win ~6%), i.e. ~6% of matches.
 */
export function tennisFavouriteShares(margin = 0.05): { favUnder105: number; favUnder115: number } {
  const b = TENNIS_PRICE_BANDS;
  const shareAt = (price: number, m: number): number => {
    // A favourite at `price` has the chance 1/price less its half of the margin.
    const x = logit(1 / price - m / 2);
    return 2 * (1 - normalCdf(x / sd));
  };
  // The spread of logit(favourite's chance) that puts 34.6% at 1.25 or shorter at a 6.4% overround.
  const share125 = b.favouritesAtOrUnder125 / b.matches;
  const sd = logit(1 / 1.25 - b.overround / 2) / normalQuantile(1 - share125 / 2);
  return { favUnder105: shareAt(1.05, margin), favUnder115: shareAt(1.15, margin) };
}

// ---------------------------------------------------------------------------------------------
// The reference table.

const ref = (figure: FigureName, value: number, low: number, high: number, source: string): Reference => ({
  figure,
  value,
  low,
  high,
  source,
});

/** Every sport's books: 4.7–5.3% overround is the target of the simulator's 5% margin (DEFAULT_SIM_CONFIG). */
const OVERROUND = ref('overround', 0.05, 0.04, 0.07, 'typical main-market margin of European books');
/** Live books keep markets open: a live look with nothing to bet on is rare; never a decided market or a bound price. */
const IN_PLAY: readonly Reference[] = [
  ref('noOpenShare', 0.02, 0, 0.08, 'issue 17 item 2: locks only for real reasons and briefly'),
  ref('decidedOpenShare', 0, 0, 0.001, 'issue 17 item 2: a decided market is closed at once'),
  ref('boundPriceShare', 0, 0, 0.01, 'issue 17 item 2: no outcome offered at the price bounds'),
];
/**
 * A main market's overround stays where bookmakers set it: a few per cent (tennis: 6.4% on average
 * at average prices, 0.0% at the best prices across books, TENNIS_PRICE_BANDS' source); a book
 * under 1% gives money away, one over 12% is no market anyone bets. The simulator's books: 5%,
 * so any book outside 1-12% is a pricing fault (a near-certain favourite at the 1.01 bound against
 * an outsider at the maximum).
 */
const OVERROUND_OUT = ref(
  'overroundOutShare',
  0,
  0,
  0.01,
  'bookmakers keep main-market margins at a few per cent (tennis: 6.4% average, football-data.co.uk 2013)',
);
/** Prematch books drift: most main prices move at least once before kick-off. */
const MOVES = ref('mainMovedShare', 0.9, 0.6, 1, 'issue 17 item 3: real books drift before kick-off');

/** The references of every sport, given the figures computed from the data files. */
export function referenceTable(soccer: SoccerSeasonFigures, nfl: NflFigures): Map<string, Reference[]> {
  const of = 'openfootball en.1 + de.1 2023-24';
  const nflSrc = 'nfl-2012-2022-scores-lines.csv';
  const t = new Map<string, Reference[]>();
  const common = [OVERROUND, OVERROUND_OUT, MOVES, ...IN_PLAY];
  t.set('soccer', [
    ref('homeShare', soccer.homeShare, soccer.homeShare - 0.06, soccer.homeShare + 0.06, of),
    ref('drawShare', soccer.drawShare, soccer.drawShare - 0.06, soccer.drawShare + 0.06, of),
    ref('awayShare', soccer.awayShare, soccer.awayShare - 0.06, soccer.awayShare + 0.06, of),
    ref(
      'pointsPerGame',
      soccer.goalsPerGame,
      soccer.goalsPerGame - 0.5,
      soccer.goalsPerGame + 0.3,
      `${of} (goals per game; lower leagues score less)`,
    ),
    ref('nilNilShare', soccer.nilNilShare, soccer.nilNilShare / 2, soccer.nilNilShare + 0.05, of),
    ref(
      'bigMarginShare',
      soccer.bigMarginShare,
      soccer.bigMarginShare / 3,
      soccer.bigMarginShare * 1.3,
      `${of} (4+ goals)`,
    ),
    ref(
      'favUnder105',
      0,
      0,
      0.01,
      'league 1X2 favourites below 1.05 are essentially unseen (football-data.co.uk closing odds)',
    ),
    ref(
      'favUnder115',
      0.03,
      0,
      0.06,
      'a few home games of the strongest club per season (football-data.co.uk closing odds)',
    ),
    ...common,
  ]);
  t.set('american_football', [
    ref('homeShare', nfl.homeShare, nfl.homeShare - 0.06, nfl.homeShare + 0.06, nflSrc),
    ref('pointsPerGame', nfl.pointsPerGame, nfl.pointsPerGame - 4, nfl.pointsPerGame + 4, nflSrc),
    ref('bigMarginShare', nfl.bigMarginShare, 0, nfl.bigMarginShare * 2, `${nflSrc} (28+ points)`),
    ref(
      'overtimeShare',
      0.055,
      0.03,
      0.09,
      'NFL regular seasons ~5-6% of games to overtime (Pro-Football-Reference, 2012-2022)',
    ),
    ref('favUnder105', nfl.favUnder105, 0, nfl.favUnder105 + 0.01, `${nflSrc} closing spreads → implied moneyline`),
    ref('favUnder115', nfl.favUnder115, 0, nfl.favUnder115 + 0.04, `${nflSrc} closing spreads → implied moneyline`),
    ...common,
  ]);
  t.set('baseball', [
    ref('homeShare', 0.53, 0.49, 0.57, 'MLB home win share ~53% (Baseball-Reference, 2015-2023)'),
    ref('pointsPerGame', 2 * BASEBALL.runsPerTeam.value, 8, 10, BASEBALL.runsPerTeam.source),
    ref('bigMarginShare', BASEBALL.nineRunsOrMoreShare.value, 0, 0.08, BASEBALL.nineRunsOrMoreShare.source),
    ref('overtimeShare', BASEBALL.extraInningsShare.value, 0.05, 0.11, BASEBALL.extraInningsShare.source),
    ref('favUnder105', 0, 0, 0.005, 'MLB moneylines almost never below -500 (1.20): none at 1.05'),
    ref('favUnder115', 0, 0, 0.01, 'MLB moneylines almost never below ~1.15 (closing lines, e.g. covers.com archives)'),
    ...common,
  ]);
  t.set('basketball', [
    ref('homeShare', 0.56, 0.52, 0.62, 'NBA home win share ~55-58% (Basketball-Reference, 2015-2024)'),
    ref(
      'pointsPerGame',
      2 * BASKETBALL.pointsPerTeam.value,
      200,
      240,
      `${BASKETBALL.pointsPerTeam.source}; European leagues ~160`,
    ),
    ref('overtimeShare', BASKETBALL.overtimeShare.value, 0.03, 0.09, BASKETBALL.overtimeShare.source),
    ref('favUnder105', 0.02, 0, 0.05, 'NBA closing moneylines below 1.05 only in the biggest mismatches'),
    ref('favUnder115', 0.1, 0.03, 0.2, 'NBA closing moneylines: ~10% of favourites at 1.15 or shorter'),
    ...common,
  ]);
  // The NBA on its own: the sport's figure mixes it with 40-minute leagues (NCAA, Europe).
  t.set('basketball NBA', [
    ref(
      'pointsPerGame',
      2 * BASKETBALL.pointsPerTeam.value,
      218,
      239,
      `${BASKETBALL.pointsPerTeam.source} (the NBA's games alone)`,
    ),
  ]);
  t.set('ice_hockey', [
    ref('homeShare', 0.54, 0.5, 0.58, 'NHL home win share incl. OT ~54% (Hockey-Reference, 2015-2024)'),
    ref('pointsPerGame', ICE_HOCKEY.goalsPerGame.value, 5.5, 6.8, ICE_HOCKEY.goalsPerGame.source),
    ref('overtimeShare', ICE_HOCKEY.overtimeShare.value, 0.18, 0.28, ICE_HOCKEY.overtimeShare.source),
    ref('shootoutShare', ICE_HOCKEY.shootoutShare.value, 0.05, 0.12, ICE_HOCKEY.shootoutShare.source),
    ...common,
  ]);
  const tennisFav = tennisFavouriteShares();
  const tennisSrc =
    'football-data.co.uk 2013: 34.6% of 7,957 ATP/WTA favourites at <= 1.25 (fitted spread); Pinnacle 2018: ~6% of matches with an outsider over 10.00';
  t.set('tennis', [
    ref('straightSetsShare', 0.65, 0.55, 0.75, 'ATP/WTA best-of-3 ~63-67% straight sets (Tennis Abstract, 2015-2023)'),
    ref('tieBreakSetShare', 0.16, 0.12, 0.22, 'ATP ~16-18% of sets, WTA ~12% go to a tie-break (Tennis Abstract)'),
    ref('favUnder105', tennisFav.favUnder105, 0, 0.08, tennisSrc),
    ref('favUnder115', tennisFav.favUnder115, 0.1, 0.25, tennisSrc),
    ...common,
  ]);
  for (const s of ['cs2', 'valorant', 'dota2', 'lol'])
    t.set(s, [
      ref(
        'deciderShare',
        0.35,
        0.25,
        0.45,
        'best-of-3 series to a third map ~30-40% (HLTV / Liquipedia results, 2023)',
      ),
      ...common,
    ]);
  return t;
}

/** Common references of a sport with no sport-specific entry. */
export function defaultReferences(): Reference[] {
  return [OVERROUND, OVERROUND_OUT, MOVES, ...IN_PLAY];
}
