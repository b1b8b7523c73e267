// The outright tournament each league runs: a league season or a knockout event, its rhythm and its markets.
import type { SimLeague } from '../world.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

export type OutrightFormat = 'league' | 'knockout';

/** A race of player counters (goals, 180s, centuries…) with a "top N" market settled with dead heats. */
export interface RacePlan {
  /** Market name of the top-1 race, e.g. 'Top goalscorer'. */
  market: string;
  /** Squad positions that take part (the best `perTeam` of them by skill, per team). */
  positions: readonly string[];
  perTeam: number;
  /** Expected count per match of an average racer. */
  rate: number;
  /** A second market on the same race: finish in the top `places` (e.g. 3). */
  top?: { places: number; market: string };
}

export interface OutrightPlan {
  format: OutrightFormat;
  /** From the first round to the settlement. */
  durationMs: number;
  /** Between the starts of two editions (whole days). */
  periodMs: number;
  /** UTC hour of the start. */
  startHour: number;
  /** League: rounds of the season. Knockout: derived from the draw. */
  rounds: number;
  /** Knockout: competitors in the draw (a power of two). */
  drawSize: number;
  /** League: "Top N finish" market (0: none). */
  top: number;
  /** League: "Relegation" market with this many places (0: none). */
  relegation: number;
  race: RacePlan | null;
  /** Word inserted in the tournament name ('Grand Prix', 'Prizefighter'). */
  title: string | null;
  /** Seasons are named by their season and months ("2026-27 (Nov-Dec)"), events by their start date. */
  label: 'season' | 'date';
  /**
   * How the real competition names its seasons: `split` for August-May leagues ("2026-27"),
   * `calendar` for those played within a calendar year ("2026"; the NFL names a season by its
   * opening year the same way).
   */
  seasonYears: 'split' | 'calendar';
}

/** How one match between two competitors of a sport goes, for the tournament models. */
export interface SportModel {
  /** Logistic slope on the rating difference: higher means favourites win more often. */
  k: number;
  /** Share of league games drawn. */
  drawRate: number;
  /** Table points for a win and a draw. */
  win: number;
  draw: number;
}

const W_L = { drawRate: 0, win: 1, draw: 0 };
export const SPORT_MODELS: Readonly<Record<string, SportModel>> = {
  soccer: { k: 0.9, drawRate: 0.26, win: 3, draw: 1 },
  basketball: { k: 1.2, ...W_L },
  tennis: { k: 1.4, ...W_L },
  volleyball: { k: 1.1, ...W_L },
  table_tennis: { k: 1.2, ...W_L },
  ice_hockey: { k: 0.8, drawRate: 0, win: 2, draw: 0 },
  american_football: { k: 1.1, ...W_L },
  baseball: { k: 0.6, ...W_L },
  cs2: { k: 1.0, ...W_L },
  valorant: { k: 1.0, ...W_L },
  dota2: { k: 1.0, ...W_L },
  lol: { k: 1.0, ...W_L },
  cricket: { k: 0.7, drawRate: 0, win: 2, draw: 0 },
  handball: { k: 1.1, drawRate: 0.08, win: 2, draw: 1 },
  rugby: { k: 1.2, drawRate: 0.04, win: 4, draw: 2 },
  darts: { k: 1.0, ...W_L },
  snooker: { k: 1.2, ...W_L },
  mma: { k: 0.9, ...W_L },
  boxing: { k: 1.1, ...W_L },
};

/** Player races of league seasons, by sport. */
const LEAGUE_RACES: Readonly<Record<string, RacePlan>> = {
  soccer: { market: 'Top goalscorer', positions: ['FW'], perTeam: 2, rate: 0.3 },
  ice_hockey: { market: 'Top goalscorer', positions: ['F'], perTeam: 2, rate: 0.3 },
  handball: { market: 'Top scorer', positions: ['FP'], perTeam: 2, rate: 4.5 },
  rugby: { market: 'Top try scorer', positions: ['BACK'], perTeam: 2, rate: 0.3 },
  cricket: { market: 'Top wicket-taker', positions: ['BOWL'], perTeam: 2, rate: 1.1 },
  baseball: { market: 'Most home runs', positions: ['B'], perTeam: 2, rate: 0.2 },
};

const MOST_180S: RacePlan = { market: 'Most 180s', positions: ['P'], perTeam: 1, rate: 4 };

/** Player races of knockout events, by sport. */
const KNOCKOUT_RACES: Readonly<Record<string, RacePlan>> = {
  soccer: { market: 'Top goalscorer', positions: ['FW'], perTeam: 2, rate: 0.3 },
  darts: MOST_180S,
  snooker: { market: 'Most century breaks', positions: ['P'], perTeam: 1, rate: 1.2 },
};

/** Knockout events and other departures from the defaults, by `sport/league name`. */
interface Override {
  format?: OutrightFormat;
  days?: number;
  everyDays?: number;
  startHour?: number;
  rounds?: number;
  drawSize?: number;
  title?: string;
  race?: RacePlan | null;
}

const OVERRIDES: Readonly<Record<string, Override>> = {
  'soccer/Champions Cup': { format: 'knockout', days: 21, everyDays: 28, startHour: 19 },
  'soccer/National Cup': { format: 'knockout', days: 10, everyDays: 14, startHour: 18 },
  'tennis/ATP Masters': { format: 'knockout', days: 7, everyDays: 14, startHour: 10 },
  'tennis/Grand Slam Men': { format: 'knockout', days: 13, everyDays: 28, startHour: 10 },
  'tennis/WTA 1000': { format: 'knockout', days: 7, everyDays: 14, startHour: 10 },
  'tennis/ATP Challenger': { format: 'knockout', days: 5, everyDays: 7, startHour: 9 },
  'tennis/ITF World Tour': { format: 'knockout', days: 3, everyDays: 4, startHour: 8 },
  'tennis/WTA 125': { format: 'knockout', days: 5, everyDays: 7, startHour: 9 },
  "tennis/ITF Women's World Tour": { format: 'knockout', days: 3, everyDays: 4, startHour: 8 },
  'tennis/UTR Pro Tennis Tour': { format: 'knockout', days: 2, everyDays: 3, startHour: 6 },
  'table_tennis/WTT Champions': { format: 'knockout', days: 4, everyDays: 7, startHour: 9 },
  // Daily events: at any time one of them ends within a day.
  'table_tennis/TT Elite Series': { format: 'knockout', days: 0.5, everyDays: 1, startHour: 8, drawSize: 16 },
  'table_tennis/Liga Pro': { format: 'knockout', days: 0.5, everyDays: 1, startHour: 10, drawSize: 16 },
  'darts/Premier League Darts': {
    format: 'league',
    days: 21,
    everyDays: 28,
    startHour: 19,
    rounds: 15,
    race: { ...MOST_180S, rate: 5 },
  },
  'darts/Pro Tour': { format: 'knockout', days: 0.5, everyDays: 2, startHour: 11 },
  'darts/Development Tour': { format: 'knockout', days: 0.5, everyDays: 1, startHour: 10 },
  'snooker/UK Championship': { format: 'knockout', days: 9, everyDays: 21, startHour: 13 },
  'snooker/Championship League': { format: 'knockout', days: 0.5, everyDays: 2, startHour: 12, drawSize: 16 },
  'mma/Ultimate Combat Championship': {
    format: 'knockout',
    days: 21,
    everyDays: 28,
    startHour: 22,
    drawSize: 8,
    title: 'Grand Prix',
  },
  'mma/Contender Fight Series': {
    format: 'knockout',
    days: 0.25,
    everyDays: 3,
    startHour: 18,
    drawSize: 8,
    title: 'One-Night Tournament',
  },
  'boxing/World Title Fights': {
    format: 'knockout',
    days: 28,
    everyDays: 35,
    startHour: 21,
    drawSize: 8,
    title: 'Super Series',
  },
  'boxing/Fight Night Boxing': {
    format: 'knockout',
    days: 0.25,
    everyDays: 2,
    startHour: 19,
    drawSize: 8,
    title: 'Prizefighter',
  },
  'boxing/Prospects Boxing': {
    format: 'knockout',
    days: 0.25,
    everyDays: 3,
    startHour: 18,
    drawSize: 8,
    title: 'Prizefighter',
  },
  'cs2/CS2 Major Championship': { format: 'knockout', days: 5, everyDays: 14, startHour: 12, drawSize: 16 },
  'cs2/CS2 Challenger Cup': { format: 'knockout', days: 1.5, everyDays: 3, startHour: 10 },
  'valorant/Valorant Champions Tour': { format: 'knockout', days: 4, everyDays: 10, startHour: 14, drawSize: 8 },
  'dota2/Dota Pro Circuit': { format: 'knockout', days: 4, everyDays: 10, startHour: 11, drawSize: 16 },
  'lol/LoL World Championship': { format: 'knockout', days: 7, everyDays: 21, startHour: 12, drawSize: 16 },
  'lol/LoL European Masters': { format: 'knockout', days: 3, everyDays: 7, startHour: 15, drawSize: 16 },
  'cricket/European Cricket League T10': { format: 'knockout', days: 1, everyDays: 3, startHour: 9, drawSize: 16 },
};

/**
 * Leagues whose real season sits in one calendar year (or is named by its opening year): baseball,
 * gridiron, Brazil's Série A, Super Rugby, the IPL-style T20 league, Premier League Darts and the
 * esports circuits. Every other league runs August-May and writes "2026-27".
 */
const CALENDAR_YEAR_SPORTS = new Set(['baseball', 'american_football', 'cs2', 'valorant', 'dota2', 'lol']);
const CALENDAR_YEAR_LEAGUES = new Set([
  'soccer/Serie A/Brazil',
  'rugby/Super Rugby/New Zealand',
  'cricket/Indian T20 League/India',
  'darts/Premier League Darts/England',
]);

function seasonYearsOf(league: SimLeague): 'split' | 'calendar' {
  return CALENDAR_YEAR_SPORTS.has(league.sport) ||
    CALENDAR_YEAR_LEAGUES.has(`${league.sport}/${league.name}/${league.country}`)
    ? 'calendar'
    : 'split';
}

/** League seasons by tier: days of play (a week's break follows). */
const SEASON_DAYS: Readonly<Record<1 | 2 | 3, number>> = { 1: 42, 2: 28, 3: 21 };
const SEASON_BREAK_DAYS = 7;
const MAX_LEAGUE_ROUNDS = 40;
const MAX_DRAW = 64;

function largestPowerOfTwo(n: number): number {
  let p = 1;
  while (p * 2 <= n) p *= 2;
  return p;
}

/** The tournament plan of a league of the world. */
export function outrightPlanOf(league: SimLeague): OutrightPlan {
  const o = OVERRIDES[`${league.sport}/${league.name}`] ?? {};
  const n = league.teams.length;
  const format: OutrightFormat = o.format ?? (league.plan.format?.knockout === true ? 'knockout' : 'league');
  const days = o.days ?? SEASON_DAYS[league.tier];
  const everyDays = o.everyDays ?? days + SEASON_BREAK_DAYS;
  const base = {
    format,
    durationMs: days * DAY,
    periodMs: everyDays * DAY,
    startHour: o.startHour ?? 12,
    title: o.title ?? null,
    seasonYears: seasonYearsOf(league),
  };
  if (format === 'knockout') {
    const drawSize = o.drawSize ?? largestPowerOfTwo(Math.min(n, MAX_DRAW));
    return {
      ...base,
      rounds: Math.log2(drawSize),
      drawSize,
      top: 0,
      relegation: 0,
      race: o.race !== undefined ? o.race : (KNOCKOUT_RACES[league.sport] ?? null),
      label: 'date',
    };
  }
  const race = o.race !== undefined ? o.race : (LEAGUE_RACES[league.sport] ?? null);
  // Domestic soccer leagues go down three (two in small leagues); the top flights also price a top-3 race.
  const domesticSoccer = league.sport === 'soccer';
  return {
    ...base,
    rounds: o.rounds ?? Math.min(2 * (n - 1), MAX_LEAGUE_ROUNDS),
    drawSize: n,
    top: n >= 10 ? 4 : 2,
    relegation: domesticSoccer ? (n >= 18 ? 3 : 2) : 0,
    race:
      race !== null && domesticSoccer && league.tier === 1
        ? { ...race, top: { places: 3, market: 'Top 3 goalscorer' } }
        : race,
    label: 'season',
  };
}
