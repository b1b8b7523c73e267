// The sport catalog: the 19 sports of interface.md's sport table, their keys, display names, ids and what grading reads.

export interface SportInfo {
  /** Stable key used in filters and payloads (`soccer`, `cs2`…). */
  key: string;
  name: string;
  /** Integer id used by the outrights endpoints (`sport_id`). */
  sportId: number;
  /** Whether the main market has a draw (1x2) or not (moneyline). */
  hasDraw: boolean;
  esport: boolean;
  /**
   * What a full-game market grades on (docs/markets.md "What the full game is"): `regulation`, every
   * period row but extra time, overtime, penalties and shoot-outs; `final`, `score` as reported;
   * `units`, `score` counts units won (sets, games, frames, maps), one period row per unit.
   */
  fullGame: 'regulation' | 'final' | 'units';
  /** Rows of the key periods `@1h`/`@2h`: `Q1`+`Q2` / `Q3`+`Q4` where halves are two quarters. */
  halves?: 'quarters';
  /** Row of the key period `@mN` (esports): `MN` (maps) by default, `GN` where they are games. */
  unitRow?: 'G';
}

/** Every sport, one descriptor each. Adding a sport: a row here, its engine (feed/simulator/engines/registry.ts) and its plan (feed/simulator/catalog.ts). */
export const SPORTS: readonly SportInfo[] = [
  { key: 'soccer', name: 'Soccer', sportId: 1, hasDraw: true, esport: false, fullGame: 'regulation' },
  {
    key: 'basketball',
    name: 'Basketball',
    sportId: 2,
    hasDraw: false,
    esport: false,
    fullGame: 'final',
    halves: 'quarters',
  },
  { key: 'tennis', name: 'Tennis', sportId: 3, hasDraw: false, esport: false, fullGame: 'units' },
  { key: 'volleyball', name: 'Volleyball', sportId: 4, hasDraw: false, esport: false, fullGame: 'units' },
  { key: 'table_tennis', name: 'Table Tennis', sportId: 5, hasDraw: false, esport: false, fullGame: 'units' },
  { key: 'ice_hockey', name: 'Ice Hockey', sportId: 6, hasDraw: true, esport: false, fullGame: 'regulation' },
  {
    key: 'american_football',
    name: 'American Football',
    sportId: 7,
    hasDraw: false,
    esport: false,
    fullGame: 'final',
    halves: 'quarters',
  },
  { key: 'baseball', name: 'Baseball', sportId: 8, hasDraw: false, esport: false, fullGame: 'final' },
  { key: 'cs2', name: 'Counter-Strike 2', sportId: 9, hasDraw: false, esport: true, fullGame: 'units' },
  { key: 'valorant', name: 'Valorant', sportId: 10, hasDraw: false, esport: true, fullGame: 'units' },
  { key: 'dota2', name: 'Dota 2', sportId: 11, hasDraw: false, esport: true, fullGame: 'units', unitRow: 'G' },
  { key: 'lol', name: 'League of Legends', sportId: 12, hasDraw: false, esport: true, fullGame: 'units', unitRow: 'G' },
  { key: 'cricket', name: 'Cricket', sportId: 13, hasDraw: false, esport: false, fullGame: 'final' },
  { key: 'handball', name: 'Handball', sportId: 14, hasDraw: true, esport: false, fullGame: 'regulation' },
  { key: 'rugby', name: 'Rugby', sportId: 15, hasDraw: true, esport: false, fullGame: 'regulation' },
  { key: 'darts', name: 'Darts', sportId: 16, hasDraw: false, esport: false, fullGame: 'units' },
  { key: 'snooker', name: 'Snooker', sportId: 17, hasDraw: false, esport: false, fullGame: 'units' },
  { key: 'mma', name: 'MMA', sportId: 18, hasDraw: false, esport: false, fullGame: 'final' },
  { key: 'boxing', name: 'Boxing', sportId: 19, hasDraw: true, esport: false, fullGame: 'final' },
];

const byKey = new Map(SPORTS.map((s) => [s.key, s]));
const byId = new Map(SPORTS.map((s) => [s.sportId, s]));

export const SPORT_KEYS: readonly string[] = SPORTS.map((s) => s.key);

export function sportByKey(key: string): SportInfo | undefined {
  return byKey.get(key);
}

export function sportById(id: number): SportInfo | undefined {
  return byId.get(id);
}

/** Position of a sport in the catalog, for stable ordering of listings. */
export function sportOrder(key: string): number {
  const s = byKey.get(key);
  return s ? s.sportId : Number.MAX_SAFE_INTEGER;
}
