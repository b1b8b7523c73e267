// The provider's sport keys (`soccer_epl`) mapped to our sports and leagues (src/domain/sports.ts).
import { sportByKey } from '../../../domain/sports.js';

/** The provider's group prefix → our sport key. Sports we have no market catalog for are left out. */
const PREFIXES: ReadonlyArray<readonly [string, string]> = [
  ['soccer_', 'soccer'],
  ['basketball_', 'basketball'],
  ['americanfootball_', 'american_football'],
  ['icehockey_', 'ice_hockey'],
  ['baseball_', 'baseball'],
  ['tennis_', 'tennis'],
  ['mma_', 'mma'],
  ['boxing_', 'boxing'],
  ['rugbyleague_', 'rugby'],
  ['rugbyunion_', 'rugby'],
  ['cricket_', 'cricket'],
  ['handball_', 'handball'],
];

/** The country of well-known competitions; others say `International` (the provider does not say). */
const COUNTRIES: Readonly<Record<string, string>> = {
  soccer_epl: 'England',
  soccer_efl_champ: 'England',
  soccer_spain_la_liga: 'Spain',
  soccer_germany_bundesliga: 'Germany',
  soccer_italy_serie_a: 'Italy',
  soccer_france_ligue_one: 'France',
  basketball_nba: 'USA',
  americanfootball_nfl: 'USA',
  americanfootball_ncaaf: 'USA',
  icehockey_nhl: 'USA',
  baseball_mlb: 'USA',
};

export interface MappedLeague {
  sport: string;
  league: { slug: string; name: string; country: string };
}

/** Our sport and league for a provider sport key, or null when we have no such sport. */
export function leagueOf(sportKey: string, sportTitle: string | undefined): MappedLeague | null {
  const hit = PREFIXES.find(([prefix]) => sportKey.startsWith(prefix));
  if (hit === undefined || sportByKey(hit[1]) === undefined) return null;
  return {
    sport: hit[1],
    league: {
      slug: sportKey.replace(/_/g, '-'),
      name: sportTitle ?? sportKey,
      country: COUNTRIES[sportKey] ?? 'International',
    },
  };
}
