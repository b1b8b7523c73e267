// The sport catalog: the 19 sports of interface.md's sport table, their keys, display names and ids.

export interface SportInfo {
  /** Stable key used in filters and payloads (`soccer`, `cs2`…). */
  key: string;
  name: string;
  /** Integer id used by the outrights endpoints (`sport_id`). */
  sportId: number;
  /** Whether the main market has a draw (1x2) or not (moneyline). */
  hasDraw: boolean;
  esport: boolean;
}

export const SPORTS: readonly SportInfo[] = [
  { key: 'soccer', name: 'Soccer', sportId: 1, hasDraw: true, esport: false },
  { key: 'basketball', name: 'Basketball', sportId: 2, hasDraw: false, esport: false },
  { key: 'tennis', name: 'Tennis', sportId: 3, hasDraw: false, esport: false },
  { key: 'volleyball', name: 'Volleyball', sportId: 4, hasDraw: false, esport: false },
  { key: 'table_tennis', name: 'Table Tennis', sportId: 5, hasDraw: false, esport: false },
  { key: 'ice_hockey', name: 'Ice Hockey', sportId: 6, hasDraw: true, esport: false },
  { key: 'american_football', name: 'American Football', sportId: 7, hasDraw: false, esport: false },
  { key: 'baseball', name: 'Baseball', sportId: 8, hasDraw: false, esport: false },
  { key: 'cs2', name: 'Counter-Strike 2', sportId: 9, hasDraw: false, esport: true },
  { key: 'valorant', name: 'Valorant', sportId: 10, hasDraw: false, esport: true },
  { key: 'dota2', name: 'Dota 2', sportId: 11, hasDraw: false, esport: true },
  { key: 'lol', name: 'League of Legends', sportId: 12, hasDraw: false, esport: true },
  { key: 'cricket', name: 'Cricket', sportId: 13, hasDraw: false, esport: false },
  { key: 'handball', name: 'Handball', sportId: 14, hasDraw: true, esport: false },
  { key: 'rugby', name: 'Rugby', sportId: 15, hasDraw: true, esport: false },
  { key: 'darts', name: 'Darts', sportId: 16, hasDraw: false, esport: false },
  { key: 'snooker', name: 'Snooker', sportId: 17, hasDraw: false, esport: false },
  { key: 'mma', name: 'MMA', sportId: 18, hasDraw: false, esport: false },
  { key: 'boxing', name: 'Boxing', sportId: 19, hasDraw: true, esport: false },
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
