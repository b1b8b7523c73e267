// The plan of the simulated world: for every sport its leagues (name, country, tier, size, rhythm and match format).

export type CompetitorKind = 'club' | 'person' | 'esports';

/** Match format options; each engine reads the ones it knows. */
export interface LeagueFormat {
  /** Soccer cup ties: a draw goes to extra time and penalties. */
  knockout?: boolean;
  /** Best-of for sets, games, maps or frames. */
  bestOf?: number;
  /** Darts: best-of legs inside a set. */
  legsBestOf?: number;
  /** Basketball quarter length in minutes. */
  quarterMinutes?: number;
  /** Basketball: mean game-clock seconds of a possession (the league's pace) and points scored per possession. */
  possessionSeconds?: number;
  pointsPerPossession?: number;
  /** Cricket overs per innings. */
  overs?: number;
  /** Baseball innings. */
  innings?: number;
  /** MMA and boxing: scheduled rounds and their length in minutes. */
  rounds?: number;
  roundMinutes?: number;
}

export interface LeaguePlan {
  name: string;
  country: string;
  tier: 1 | 2 | 3;
  /** Teams or players in the league. */
  size: number;
  /** Average fixtures per day. */
  perDay: number;
  /** Relative weight of each weekday, Sunday first (getUTCDay order). */
  weekdays?: readonly number[];
  /** UTC window of kick-off hours: [from, to); `to` may pass 24 (wraps past midnight). */
  hours: readonly [number, number];
  /** Kick-off times fall on multiples of this many minutes. */
  slotMinutes: number;
  format?: LeagueFormat;
  /** Who competes: women's competitions get women's names (default: men). */
  gender?: 'men' | 'women';
  /** City pools to name clubs from (default: the league's country). */
  cityPools?: readonly string[];
  /**
   * Kick-offs spread evenly over the window: the day's fixtures one to each equal share of it, at
   * slot `at` of its share (leagues at different slots interleave), or at a slot drawn in it when
   * `at` is absent, rather than each drawn anywhere in the window: a round-the-clock competition
   * keeps a steady flow of games at every stage instead of bunches and gaps.
   */
  stagger?: { at?: number };
  /** Whether the league runs a tournament with outright markets (default true; friendlies have no table). */
  tournament?: boolean;
  /** Written after every club name of the league (a women's or youth side of a club: "Akron United U21"). */
  teamSuffix?: string;
}

export interface SportPlan {
  key: string;
  kind: CompetitorKind;
  leagues: readonly LeaguePlan[];
}

const WEEKEND = [3, 0.3, 0.2, 1, 0.3, 0.6, 3] as const;
const EVERY_DAY = [1, 1, 1, 1, 1, 1, 1] as const;
const EUROPE = ['England', 'Spain', 'Germany', 'Italy', 'France', 'Netherlands', 'Poland', 'Denmark'];

export const SPORT_PLANS: readonly SportPlan[] = [
  {
    key: 'soccer',
    kind: 'club',
    leagues: [
      {
        name: 'Premier League',
        country: 'England',
        tier: 1,
        size: 20,
        perDay: 1.45,
        weekdays: WEEKEND,
        hours: [12, 20],
        slotMinutes: 30,
      },
      {
        name: 'La Liga',
        country: 'Spain',
        tier: 1,
        size: 20,
        perDay: 1.45,
        weekdays: WEEKEND,
        hours: [12, 21],
        slotMinutes: 15,
      },
      {
        name: 'Bundesliga',
        country: 'Germany',
        tier: 1,
        size: 18,
        perDay: 1.3,
        weekdays: WEEKEND,
        hours: [13, 20],
        slotMinutes: 30,
      },
      {
        name: 'Serie A',
        country: 'Italy',
        tier: 1,
        size: 20,
        perDay: 1.45,
        weekdays: WEEKEND,
        hours: [11, 20],
        slotMinutes: 15,
      },
      {
        name: 'Ligue 1',
        country: 'France',
        tier: 1,
        size: 18,
        perDay: 1.3,
        weekdays: WEEKEND,
        hours: [12, 21],
        slotMinutes: 15,
      },
      {
        name: 'Champions Cup',
        country: 'Europe',
        tier: 1,
        size: 32,
        perDay: 0.6,
        weekdays: [0, 0, 2, 2, 1, 0, 0],
        hours: [17, 21],
        slotMinutes: 60,
        format: { knockout: true },
        cityPools: EUROPE,
      },
      {
        name: 'Championship',
        country: 'England',
        tier: 2,
        size: 24,
        perDay: 2,
        weekdays: WEEKEND,
        hours: [11, 21],
        slotMinutes: 15,
      },
      {
        name: 'Eredivisie',
        country: 'Netherlands',
        tier: 2,
        size: 18,
        perDay: 1.3,
        weekdays: WEEKEND,
        hours: [11, 21],
        slotMinutes: 15,
      },
      {
        name: 'Serie A',
        country: 'Brazil',
        tier: 2,
        size: 20,
        perDay: 1.5,
        weekdays: EVERY_DAY,
        hours: [19, 25],
        slotMinutes: 30,
      },
      {
        name: 'National Cup',
        country: 'England',
        tier: 2,
        size: 32,
        perDay: 0.5,
        weekdays: [2, 0, 1, 1, 0, 0, 2],
        hours: [14, 21],
        slotMinutes: 15,
        format: { knockout: true },
      },
      {
        name: 'League Two',
        country: 'England',
        tier: 3,
        size: 24,
        perDay: 2,
        weekdays: WEEKEND,
        hours: [11, 21],
        slotMinutes: 15,
      },
      { name: 'Regionalliga', country: 'Germany', tier: 3, size: 18, perDay: 2, hours: [10, 20], slotMinutes: 30 },
      { name: 'Serie C', country: 'Italy', tier: 3, size: 20, perDay: 2, hours: [10, 21], slotMinutes: 15 },
    ],
  },
  {
    key: 'basketball',
    kind: 'club',
    leagues: [
      {
        name: 'NBA',
        country: 'United States',
        tier: 1,
        size: 30,
        perDay: 7,
        hours: [23, 28],
        slotMinutes: 30,
        // NBA 2023-24: 114.2 points a team a game (Basketball-Reference) at 115.3 points per 100
        // possessions (league offensive rating, Sportico 2024): ~99 possessions a team. At the
        // engine's defaults (14 s a possession, 1.2 points) an NBA game made ~251 points.
        format: { quarterMinutes: 12, possessionSeconds: 14.8, pointsPerPossession: 1.153 },
      },
      {
        name: 'EuroLeague',
        country: 'Europe',
        tier: 1,
        size: 18,
        perDay: 1.3,
        weekdays: [0, 0, 2, 0, 2, 2, 0],
        hours: [17, 21],
        slotMinutes: 15,
        format: { quarterMinutes: 10 },
        cityPools: EUROPE,
      },
      {
        name: 'Liga ACB',
        country: 'Spain',
        tier: 2,
        size: 18,
        perDay: 1.3,
        weekdays: WEEKEND,
        hours: [10, 20],
        slotMinutes: 15,
        format: { quarterMinutes: 10 },
      },
      {
        name: 'NBL',
        country: 'Australia',
        tier: 3,
        size: 12,
        perDay: 1.5,
        hours: [6, 12],
        slotMinutes: 30,
        format: { quarterMinutes: 10 },
      },
    ],
  },
  {
    key: 'tennis',
    kind: 'person',
    leagues: [
      {
        name: 'ATP Masters',
        country: 'World',
        tier: 1,
        size: 48,
        perDay: 10,
        hours: [9, 22],
        slotMinutes: 30,
        format: { bestOf: 3 },
      },
      {
        name: 'Grand Slam Men',
        country: 'World',
        tier: 1,
        size: 32,
        perDay: 3,
        hours: [10, 19],
        slotMinutes: 60,
        format: { bestOf: 5 },
      },
      {
        name: 'WTA 1000',
        country: 'World',
        gender: 'women',
        tier: 1,
        size: 48,
        perDay: 8,
        hours: [9, 22],
        slotMinutes: 30,
        format: { bestOf: 3 },
      },
      {
        name: 'ATP Challenger',
        country: 'World',
        tier: 2,
        size: 40,
        perDay: 14,
        hours: [0, 24],
        slotMinutes: 30,
        format: { bestOf: 3 },
      },
      {
        name: 'ITF World Tour',
        country: 'World',
        tier: 3,
        size: 60,
        perDay: 24,
        hours: [0, 24],
        slotMinutes: 15,
        format: { bestOf: 3 },
      },
    ],
  },
  {
    key: 'volleyball',
    kind: 'club',
    leagues: [
      {
        name: 'SuperLega',
        country: 'Italy',
        tier: 1,
        size: 12,
        perDay: 1.2,
        weekdays: WEEKEND,
        hours: [15, 20],
        slotMinutes: 30,
        format: { bestOf: 5 },
      },
      {
        name: 'PlusLiga',
        country: 'Poland',
        tier: 1,
        size: 16,
        perDay: 1.5,
        hours: [14, 20],
        slotMinutes: 30,
        format: { bestOf: 5 },
      },
      {
        name: 'V.League',
        country: 'Japan',
        tier: 3,
        size: 10,
        perDay: 2,
        hours: [4, 11],
        slotMinutes: 30,
        format: { bestOf: 5 },
      },
    ],
  },
  {
    key: 'table_tennis',
    kind: 'person',
    leagues: [
      {
        name: 'WTT Champions',
        country: 'World',
        tier: 1,
        size: 32,
        perDay: 4,
        hours: [8, 20],
        slotMinutes: 30,
        format: { bestOf: 7 },
      },
      {
        name: 'TT Elite Series',
        country: 'Poland',
        tier: 3,
        size: 24,
        perDay: 40,
        hours: [0, 24],
        slotMinutes: 15,
        format: { bestOf: 5 },
      },
      {
        name: 'Liga Pro',
        country: 'Russia',
        tier: 3,
        size: 24,
        perDay: 30,
        hours: [0, 24],
        slotMinutes: 15,
        format: { bestOf: 5 },
      },
    ],
  },
  {
    key: 'ice_hockey',
    kind: 'club',
    leagues: [
      {
        name: 'NHL',
        country: 'United States',
        tier: 1,
        size: 32,
        perDay: 6,
        hours: [23, 27],
        slotMinutes: 30,
        cityPools: ['United States', 'Canada'],
      },
      { name: 'KHL', country: 'Russia', tier: 1, size: 22, perDay: 4, hours: [14, 19], slotMinutes: 30 },
      { name: 'SHL', country: 'Sweden', tier: 2, size: 14, perDay: 2.5, hours: [16, 19], slotMinutes: 15 },
      { name: 'Liiga', country: 'Finland', tier: 2, size: 15, perDay: 2.5, hours: [15, 18], slotMinutes: 30 },
      { name: 'AHL', country: 'United States', tier: 3, size: 32, perDay: 5, hours: [23, 27], slotMinutes: 30 },
    ],
  },
  {
    key: 'american_football',
    kind: 'club',
    leagues: [
      {
        name: 'NFL',
        country: 'United States',
        tier: 1,
        size: 32,
        perDay: 2.3,
        weekdays: [12, 1, 0, 0, 1, 0, 2],
        hours: [17, 25],
        slotMinutes: 5,
      },
      {
        name: 'NCAA Division I',
        country: 'United States',
        tier: 2,
        size: 40,
        perDay: 4,
        weekdays: [0, 0, 0, 0.5, 1, 1, 12],
        hours: [16, 27],
        slotMinutes: 30,
      },
      { name: 'CFL', country: 'Canada', tier: 3, size: 9, perDay: 0.6, hours: [22, 26], slotMinutes: 30 },
    ],
  },
  {
    key: 'baseball',
    kind: 'club',
    leagues: [
      {
        name: 'MLB',
        country: 'United States',
        tier: 1,
        size: 30,
        perDay: 12,
        hours: [17, 27],
        slotMinutes: 5,
        format: { innings: 9 },
      },
      {
        name: 'NPB',
        country: 'Japan',
        tier: 2,
        size: 12,
        perDay: 5,
        hours: [9, 11],
        slotMinutes: 30,
        format: { innings: 9 },
      },
      {
        name: 'Triple-A',
        country: 'United States',
        tier: 3,
        size: 30,
        perDay: 8,
        hours: [16, 27],
        slotMinutes: 5,
        format: { innings: 9 },
      },
    ],
  },
  {
    key: 'cs2',
    kind: 'esports',
    leagues: [
      {
        name: 'CS2 Major Championship',
        country: 'World',
        tier: 1,
        size: 16,
        perDay: 4,
        hours: [10, 22],
        slotMinutes: 60,
        format: { bestOf: 3 },
      },
      {
        name: 'CS2 Pro League',
        country: 'Europe',
        tier: 2,
        size: 24,
        perDay: 6,
        hours: [12, 23],
        slotMinutes: 30,
        format: { bestOf: 3 },
      },
      {
        name: 'CS2 Challenger Cup',
        country: 'World',
        tier: 3,
        size: 32,
        perDay: 14,
        hours: [0, 24],
        slotMinutes: 30,
        format: { bestOf: 1 },
      },
    ],
  },
  {
    key: 'valorant',
    kind: 'esports',
    leagues: [
      {
        name: 'Valorant Champions Tour',
        country: 'World',
        tier: 1,
        size: 12,
        perDay: 2,
        hours: [13, 23],
        slotMinutes: 60,
        format: { bestOf: 3 },
      },
      {
        name: 'Valorant Challengers',
        country: 'World',
        tier: 3,
        size: 24,
        perDay: 8,
        hours: [0, 24],
        slotMinutes: 30,
        format: { bestOf: 1 },
      },
    ],
  },
  {
    key: 'dota2',
    kind: 'esports',
    leagues: [
      {
        name: 'Dota Pro Circuit',
        country: 'World',
        tier: 1,
        size: 16,
        perDay: 3,
        hours: [8, 22],
        slotMinutes: 60,
        format: { bestOf: 3 },
      },
      {
        name: 'Dota Regional League',
        country: 'World',
        tier: 3,
        size: 24,
        perDay: 8,
        hours: [0, 24],
        slotMinutes: 30,
        format: { bestOf: 1 },
      },
    ],
  },
  {
    key: 'lol',
    kind: 'esports',
    leagues: [
      {
        name: 'LoL World Championship',
        country: 'World',
        tier: 1,
        size: 16,
        perDay: 3,
        hours: [9, 21],
        slotMinutes: 60,
        format: { bestOf: 3 },
      },
      {
        name: 'LoL European Masters',
        country: 'Europe',
        tier: 2,
        size: 20,
        perDay: 4,
        hours: [14, 22],
        slotMinutes: 60,
        format: { bestOf: 1 },
      },
      {
        name: 'LoL Academy League',
        country: 'World',
        tier: 3,
        size: 24,
        perDay: 8,
        hours: [0, 24],
        slotMinutes: 30,
        format: { bestOf: 1 },
      },
    ],
  },
  {
    key: 'cricket',
    kind: 'club',
    leagues: [
      {
        name: 'Indian T20 League',
        country: 'India',
        tier: 1,
        size: 10,
        perDay: 1.5,
        hours: [10, 16],
        slotMinutes: 60,
        format: { overs: 20 },
      },
      {
        name: 'T20 Bash',
        country: 'Australia',
        tier: 1,
        size: 8,
        perDay: 1.2,
        hours: [3, 9],
        slotMinutes: 30,
        format: { overs: 20 },
      },
      {
        name: 'European Cricket League T10',
        country: 'Europe',
        tier: 3,
        size: 16,
        perDay: 12,
        hours: [6, 20],
        slotMinutes: 30,
        format: { overs: 10 },
        cityPools: EUROPE,
      },
    ],
  },
  {
    key: 'handball',
    kind: 'club',
    leagues: [
      {
        name: 'Handball-Bundesliga',
        country: 'Germany',
        tier: 1,
        size: 18,
        perDay: 1.5,
        hours: [14, 20],
        slotMinutes: 15,
      },
      {
        name: 'EHF Champions League',
        country: 'Europe',
        tier: 1,
        size: 16,
        perDay: 0.8,
        weekdays: [0, 0, 0, 2, 2, 0, 0],
        hours: [16, 20],
        slotMinutes: 15,
        cityPools: EUROPE,
      },
      { name: 'Handboldligaen', country: 'Denmark', tier: 2, size: 14, perDay: 1.5, hours: [15, 19], slotMinutes: 15 },
    ],
  },
  {
    key: 'rugby',
    kind: 'club',
    leagues: [
      {
        name: 'Premiership Rugby',
        country: 'England',
        tier: 1,
        size: 10,
        perDay: 0.9,
        weekdays: WEEKEND,
        hours: [13, 20],
        slotMinutes: 15,
      },
      {
        name: 'Top 14',
        country: 'France',
        tier: 1,
        size: 14,
        perDay: 1,
        weekdays: WEEKEND,
        hours: [13, 20],
        slotMinutes: 15,
      },
      {
        name: 'Super Rugby',
        country: 'New Zealand',
        tier: 1,
        size: 12,
        perDay: 0.9,
        weekdays: WEEKEND,
        hours: [5, 10],
        slotMinutes: 15,
        cityPools: ['New Zealand', 'Australia'],
      },
      {
        name: 'United Rugby Championship',
        country: 'Ireland',
        tier: 2,
        size: 16,
        perDay: 1,
        weekdays: WEEKEND,
        hours: [14, 20],
        slotMinutes: 15,
        cityPools: ['Ireland', 'South Africa'],
      },
    ],
  },
  {
    key: 'darts',
    kind: 'person',
    leagues: [
      {
        name: 'Premier League Darts',
        country: 'England',
        tier: 1,
        size: 16,
        perDay: 3,
        hours: [18, 23],
        slotMinutes: 30,
        format: { bestOf: 5, legsBestOf: 5 },
      },
      {
        name: 'Pro Tour',
        country: 'England',
        tier: 2,
        size: 48,
        perDay: 10,
        hours: [10, 22],
        slotMinutes: 15,
        format: { bestOf: 3, legsBestOf: 5 },
      },
      {
        name: 'Development Tour',
        country: 'World',
        tier: 3,
        size: 48,
        perDay: 16,
        hours: [0, 24],
        slotMinutes: 15,
        format: { bestOf: 3, legsBestOf: 3 },
      },
    ],
  },
  {
    key: 'snooker',
    kind: 'person',
    leagues: [
      {
        name: 'UK Championship',
        country: 'England',
        tier: 1,
        size: 32,
        perDay: 4,
        hours: [10, 20],
        slotMinutes: 60,
        format: { bestOf: 11 },
      },
      {
        name: 'Championship League',
        country: 'England',
        tier: 3,
        size: 32,
        perDay: 12,
        hours: [8, 22],
        slotMinutes: 30,
        format: { bestOf: 5 },
      },
    ],
  },
  {
    key: 'mma',
    kind: 'person',
    leagues: [
      {
        name: 'Ultimate Combat Championship',
        country: 'United States',
        tier: 1,
        size: 60,
        perDay: 4,
        weekdays: [0, 0, 0, 0, 0, 0, 7],
        hours: [22, 28],
        slotMinutes: 30,
        format: { rounds: 3, roundMinutes: 5 },
      },
      {
        name: 'Contender Fight Series',
        country: 'United States',
        tier: 2,
        size: 40,
        perDay: 3,
        hours: [0, 24],
        slotMinutes: 30,
        format: { rounds: 3, roundMinutes: 5 },
      },
    ],
  },
  {
    key: 'boxing',
    kind: 'person',
    leagues: [
      {
        name: 'World Title Fights',
        country: 'World',
        tier: 1,
        size: 30,
        perDay: 0.8,
        weekdays: [0, 0, 0, 0, 0, 1, 6],
        hours: [20, 24],
        slotMinutes: 30,
        format: { rounds: 12, roundMinutes: 3 },
      },
      {
        name: 'Fight Night Boxing',
        country: 'England',
        tier: 2,
        size: 40,
        perDay: 3,
        hours: [12, 24],
        slotMinutes: 30,
        format: { rounds: 8, roundMinutes: 3 },
      },
      {
        name: 'Prospects Boxing',
        country: 'World',
        tier: 3,
        size: 40,
        perDay: 4,
        hours: [0, 24],
        slotMinutes: 30,
        format: { rounds: 6, roundMinutes: 3 },
      },
    ],
  },
];

/** A league added to the world after the sports' first leagues (SPORT_PLANS). */
export interface AddedLeague {
  sport: string;
  plan: LeaguePlan;
}

const AMERICAS_AND_ASIA = [
  'United States',
  'Canada',
  'Mexico',
  'Colombia',
  'Chile',
  'Argentina',
  'Brazil',
  'Japan',
  'South Korea',
  'China',
  'Indonesia',
  'India',
  'Australia',
  'New Zealand',
  'Turkey',
  'Portugal',
  'Ireland',
  'Nigeria',
  'Egypt',
  'South Africa',
];

/**
 * Leagues added after the first 69, appended to the world in this order: a league's position is
 * part of every event id (docs/simulator.md, "Ids"), so the earlier leagues keep theirs, and their
 * teams, players and fixtures stay what they were. They are the competitions of the other time
 * zones (the Americas at night, Asia and Oceania in the European morning) and the round-the-clock
 * ones a real feed carries, so that the world plays its major sports at every hour as the real one
 * does: a world started at any time has games about to start, in every period and in their last
 * minutes (issue 31).
 */
export const ADDED_LEAGUES: readonly AddedLeague[] = [
  {
    sport: 'soccer',
    plan: {
      name: 'Major League Soccer',
      country: 'United States',
      tier: 2,
      size: 28,
      perDay: 2.2,
      weekdays: WEEKEND,
      hours: [23, 28],
      slotMinutes: 30,
      cityPools: ['United States', 'Canada'],
    },
  },
  {
    sport: 'soccer',
    plan: {
      name: 'Liga MX',
      country: 'Mexico',
      tier: 2,
      size: 18,
      perDay: 1.3,
      weekdays: WEEKEND,
      hours: [0, 5],
      slotMinutes: 15,
    },
  },
  {
    sport: 'soccer',
    plan: {
      name: 'Liga Profesional',
      country: 'Argentina',
      tier: 2,
      size: 28,
      perDay: 2,
      hours: [18, 27],
      slotMinutes: 15,
    },
  },
  {
    sport: 'soccer',
    plan: {
      name: 'J1 League',
      country: 'Japan',
      tier: 2,
      size: 20,
      perDay: 1.5,
      weekdays: WEEKEND,
      hours: [5, 11],
      slotMinutes: 30,
    },
  },
  {
    sport: 'soccer',
    plan: {
      name: 'A-League',
      country: 'Australia',
      tier: 2,
      size: 12,
      perDay: 1,
      weekdays: WEEKEND,
      hours: [4, 11],
      slotMinutes: 15,
      cityPools: ['Australia', 'New Zealand'],
    },
  },
  {
    sport: 'soccer',
    plan: {
      name: 'K League 1',
      country: 'South Korea',
      tier: 2,
      size: 12,
      perDay: 1,
      weekdays: WEEKEND,
      hours: [5, 12],
      slotMinutes: 30,
    },
  },
  {
    sport: 'soccer',
    plan: { name: 'Super League', country: 'China', tier: 2, size: 16, perDay: 1.2, hours: [7, 13], slotMinutes: 30 },
  },
  {
    sport: 'soccer',
    plan: {
      name: 'Süper Lig',
      country: 'Turkey',
      tier: 2,
      size: 18,
      perDay: 1.3,
      weekdays: WEEKEND,
      hours: [10, 20],
      slotMinutes: 30,
    },
  },
  {
    sport: 'basketball',
    plan: {
      name: 'NCAA Basketball',
      country: 'United States',
      tier: 2,
      size: 240,
      perDay: 48,
      hours: [15, 29],
      slotMinutes: 15,
      stagger: {},
      format: { quarterMinutes: 10 },
    },
  },
  {
    sport: 'basketball',
    plan: {
      name: 'CBA',
      country: 'China',
      tier: 2,
      size: 20,
      perDay: 5,
      hours: [10, 14],
      slotMinutes: 30,
      format: { quarterMinutes: 12 },
    },
  },
  {
    sport: 'basketball',
    plan: {
      name: 'B.League',
      country: 'Japan',
      tier: 3,
      size: 24,
      perDay: 4,
      weekdays: WEEKEND,
      hours: [5, 11],
      slotMinutes: 30,
      format: { quarterMinutes: 10 },
    },
  },
  {
    sport: 'basketball',
    plan: {
      name: 'KBL',
      country: 'South Korea',
      tier: 3,
      size: 10,
      perDay: 2.5,
      hours: [6, 11],
      slotMinutes: 30,
      format: { quarterMinutes: 10 },
    },
  },
  {
    sport: 'basketball',
    plan: {
      name: 'Liga Nacional',
      country: 'Argentina',
      tier: 3,
      size: 19,
      perDay: 3,
      hours: [22, 27],
      slotMinutes: 30,
      format: { quarterMinutes: 10 },
    },
  },
  {
    sport: 'basketball',
    plan: {
      name: 'NBL1',
      country: 'Australia',
      tier: 3,
      size: 60,
      perDay: 12,
      hours: [0, 12],
      slotMinutes: 15,
      stagger: {},
      format: { quarterMinutes: 10 },
      cityPools: ['Australia', 'New Zealand'],
    },
  },
  {
    sport: 'basketball',
    plan: {
      name: 'PBA',
      country: 'Philippines',
      tier: 3,
      size: 12,
      perDay: 3,
      hours: [7, 13],
      slotMinutes: 30,
      format: { quarterMinutes: 12 },
    },
  },
  {
    sport: 'basketball',
    plan: {
      name: 'Basketball Bundesliga',
      country: 'Germany',
      tier: 2,
      size: 18,
      perDay: 1.5,
      weekdays: WEEKEND,
      hours: [13, 20],
      slotMinutes: 30,
      format: { quarterMinutes: 10 },
    },
  },
  {
    sport: 'basketball',
    plan: {
      name: 'Lega Basket',
      country: 'Italy',
      tier: 3,
      size: 16,
      perDay: 1.3,
      weekdays: WEEKEND,
      hours: [11, 20],
      slotMinutes: 15,
      format: { quarterMinutes: 10 },
    },
  },
  {
    sport: 'basketball',
    plan: {
      name: 'LNB Élite',
      country: 'France',
      tier: 3,
      size: 16,
      perDay: 1.3,
      hours: [17, 21],
      slotMinutes: 15,
      format: { quarterMinutes: 10 },
    },
  },
  {
    sport: 'tennis',
    plan: {
      name: 'WTA 125',
      country: 'World',
      gender: 'women',
      tier: 2,
      size: 32,
      perDay: 8,
      hours: [0, 24],
      slotMinutes: 30,
      format: { bestOf: 3 },
    },
  },
  {
    sport: 'tennis',
    plan: {
      name: "ITF Women's World Tour",
      country: 'World',
      gender: 'women',
      tier: 3,
      size: 96,
      perDay: 40,
      hours: [0, 24],
      slotMinutes: 15,
      format: { bestOf: 3 },
    },
  },
  {
    sport: 'tennis',
    plan: {
      name: 'UTR Pro Tennis Tour',
      country: 'World',
      tier: 3,
      size: 96,
      perDay: 40,
      hours: [0, 24],
      slotMinutes: 15,
      format: { bestOf: 3 },
    },
  },
  // Round the clock: friendlies of men's, women's and under-21 sides (each club plays 2-3 a week), a
  // kick-off every 15 minutes of the day in each, so that a soccer game ends every few minutes.
  ...(['men', 'women', 'u21'] as const).map((side, i): AddedLeague => ({
    sport: 'soccer',
    plan: {
      name: side === 'men' ? 'Club Friendlies' : side === 'women' ? "Women's Club Friendlies" : 'U21 Club Friendlies',
      country: 'World',
      tier: 3,
      size: 500,
      perDay: 96,
      hours: [0, 24],
      slotMinutes: 5,
      // Each league to its own slot of every quarter of an hour: together, a kick-off every 5 minutes.
      stagger: { at: i },
      tournament: false,
      cityPools: AMERICAS_AND_ASIA,
      ...(side === 'women' ? { gender: 'women' as const, teamSuffix: 'Women' } : {}),
      ...(side === 'u21' ? { teamSuffix: 'U21' } : {}),
    },
  })),
];
