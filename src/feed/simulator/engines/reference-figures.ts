// Real-world scoring figures each match engine is calibrated against, with their sources and tolerance bands.

/** A real figure and the band a simulated sample of ~1,000-3,000 games must fall in. */
export interface ReferenceFigure {
  /** The real value (a mean, or a share between 0 and 1). */
  value: number;
  /** Lowest and highest simulated value accepted (sampling noise plus the engine's simplifications). */
  band: readonly [number, number];
  /** Where the real value comes from: a dataset file or a publication and its seasons. */
  source: string;
}

const NFL_FILE = 'shared/data/nfl/nfl-2012-2022-scores-lines.csv (2,974 games, regular season and playoffs)';
const EPL_FILE = 'shared/data/openfootball/en.1.2023-24.json (Premier League 2023-24, 380 matches)';
const BL_FILE = 'shared/data/openfootball/de.1.2023-24.json (Bundesliga 2023-24, 306 matches)';

/** MLB, 2023 and 2024 regular seasons (both with the extra-inning runner on second). */
export const BASEBALL = {
  runsPerTeam: {
    value: 4.5,
    band: [4.2, 4.9],
    source: 'Baseball-Reference, MLB batting league averages, 2023 (4.62 R/G) and 2024 (4.39 R/G)',
  },
  /** Share of games decided by one run. */
  oneRunShare: {
    value: 0.28,
    band: [0.24, 0.33],
    source: 'Baseball-Reference, MLB team one-run game records, 2023-2024 (about 27-29% of games)',
  },
  /** Share of games decided by 9 runs or more (blow-outs). */
  nineRunsOrMoreShare: {
    value: 0.05,
    band: [0.02, 0.08],
    source: 'Baseball-Reference, MLB game logs, 2023-2024 (a few per cent of games)',
  },
  extraInningsShare: {
    value: 0.08,
    band: [0.065, 0.11],
    source: 'Baseball-Reference, MLB extra-inning games, 2023-2024 (about 7-9% of games)',
  },
} satisfies Record<string, ReferenceFigure>;

/** NBA, 2023-24 regular season. */
export const BASKETBALL = {
  pointsPerTeam: {
    value: 114.2,
    band: [110, 118],
    source: 'Basketball-Reference, NBA league averages, 2023-24 (114.2 points per team per game)',
  },
  overtimeShare: {
    value: 0.06,
    band: [0.04, 0.085],
    source: 'Basketball-Reference, NBA 2023-24 schedule and results (about 6% of games to overtime)',
  },
} satisfies Record<string, ReferenceFigure>;

/** NHL, 2023-24 regular season (5-minute 3-on-3 overtime, then a shoot-out). */
export const ICE_HOCKEY = {
  goalsPerGame: {
    value: 6.2,
    band: [5.8, 6.6],
    source: 'Hockey-Reference, NHL league averages, 2023-24 (3.1 goals per team per game, shoot-out winners excluded)',
  },
  overtimeShare: {
    value: 0.23,
    band: [0.19, 0.27],
    source: 'NHL.com standings, 2023-24 (OT and shoot-out decisions: about 22-24% of games)',
  },
  shootoutShare: {
    value: 0.075,
    band: [0.05, 0.1],
    source: 'NHL.com standings, 2023-24 (shoot-out decisions: about 6-9% of all games)',
  },
} satisfies Record<string, ReferenceFigure>;

/** NFL 2012-2022, computed from the dataset file (see test/feed/simulator/engines/reference-figures.test.ts). */
export const AMERICAN_FOOTBALL = {
  pointsPerGame: { value: 45.86, band: [42.5, 49], source: NFL_FILE },
  homeWinShare: { value: 0.556, band: [0.51, 0.6], source: NFL_FILE },
  /** Standard deviation of the home margin (points). */
  marginSd: { value: 14.5, band: [12.5, 16.5], source: NFL_FILE },
  /** Share of games decided by 1 to 3 points. */
  withinThreeShare: { value: 0.23, band: [0.17, 0.29], source: NFL_FILE },
  /** The file has no overtime flag: published figure. */
  overtimeShare: {
    value: 0.055,
    band: [0.03, 0.08],
    source: 'Pro-Football-Reference, NFL overtime games 2012-2022 (about 5-6% of games)',
  },
} satisfies Record<string, ReferenceFigure>;

/** Top-flight soccer league games (no extra time), computed from the openfootball files. */
export const SOCCER = {
  goalsPerGame: { value: 3.25, band: [2.75, 3.45], source: `${EPL_FILE}; ${BL_FILE} (3.28 and 3.22)` },
  homeWinShare: { value: 0.45, band: [0.4, 0.5], source: `${EPL_FILE}; ${BL_FILE} (46.1% and 43.8%)` },
  drawShare: { value: 0.24, band: [0.2, 0.29], source: `${EPL_FILE}; ${BL_FILE} (21.6% and 26.5%)` },
  awayWinShare: { value: 0.31, band: [0.26, 0.36], source: `${EPL_FILE}; ${BL_FILE} (32.4% and 29.7%)` },
  goallessShare: { value: 0.035, band: [0.02, 0.07], source: `${EPL_FILE}; ${BL_FILE} (2.9% and 4.2%)` },
  cornersPerGame: {
    value: 10.2,
    band: [9, 11.5],
    source: 'FBref / Opta team stats, Premier League and Bundesliga 2023-24 (about 10 corners a match)',
  },
} satisfies Record<string, ReferenceFigure>;

/** Best-of-3 esports series (CS2, Valorant, Dota 2, League of Legends). */
export const ESPORTS = {
  /** Share of best-of-3 series that go to a third map or game. */
  bo3DeciderShare: {
    value: 0.35,
    band: [0.27, 0.43],
    source: 'HLTV / Liquipedia results, 2023 (best-of-3 series to a third map: about 30-40%)',
  },
} satisfies Record<string, ReferenceFigure>;

/** ATP and WTA tour singles. */
export const TENNIS = {
  /** Share of best-of-3 matches won in straight sets. */
  bo3StraightSetsShare: {
    value: 0.65,
    band: [0.6, 0.72],
    source: 'Tennis Abstract, ATP/WTA tour-level best-of-3 matches 2015-2023 (about 63-67% in straight sets)',
  },
} satisfies Record<string, ReferenceFigure>;
