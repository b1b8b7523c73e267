// Team-strength spread per sport and league tier: how far apart a league's ratings are, calibrated on real books' favourites.

/**
 * Standard deviation of SimTeam.rating per sport (default 1), optionally per tier. Engines turn a
 * rating difference into their own parameters, so this one number sets how lopsided fixtures are,
 * in results and in prematch prices alike. Calibrated with `npm run realism` against the share of
 * main-market favourites at <= 1.05 and <= 1.15 (docs/simulator.md, "Realism report").
 */
export const RATING_SPREAD: Readonly<Record<string, number | Readonly<Partial<Record<1 | 2 | 3, number>>>>> = {
  // Top flights: ~4% of 1X2 favourites at 1.15 or shorter, none at 1.05 (Manchester City at home);
  // at 1 the Premier League had 3.6% at <= 1.05 and 11% at <= 1.15.
  soccer: 0.78,
  // NBA: ~10% of moneyline favourites at 1.15 or shorter, a couple of per cent at 1.05.
  basketball: 0.8,
  // NFL: closing spreads of nfl-2012-2022-scores-lines.csv imply ~0.3% at <= 1.05 and ~5% at <= 1.15.
  american_football: 0.36,
  // MLB: moneylines almost never shorter than ~1.15 (at 1: 12% at <= 1.05, 26% at <= 1.15).
  baseball: 0.33,
};

/** The rating spread of a league of `sport` in `tier`. */
export function ratingSpread(sport: string, tier: 1 | 2 | 3): number {
  const s = RATING_SPREAD[sport];
  if (s === undefined) return 1;
  if (typeof s === 'number') return s;
  return s[tier] ?? 1;
}
