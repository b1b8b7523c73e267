// Stable integer ids of outright markets and selections, from (league, edition, market, position).

/** Room for 100,000 editions per league: daily events reach that after 270 years of epoch days. */
const EDITIONS_PER_SERIES = 100_000;
const MARKETS_PER_TOURNAMENT = 100;
const SELECTIONS_PER_MARKET = 1_000;

/**
 * Number of edition `k` of a league's tournament. Market ids (number × 100 + index) stay below
 * 10^9 and selection ids (market id × 1000 + position) below 10^12, so they never collide with the
 * ids of match markets (at least 10^11) and selections (at least 10^12).
 */
export function tournamentNumber(leagueIndex: number, edition: number): number {
  if (edition < 0 || edition >= EDITIONS_PER_SERIES) throw new RangeError(`edition ${edition} out of range`);
  return (leagueIndex + 1) * EDITIONS_PER_SERIES + edition;
}

export function outrightMarketId(tournamentNum: number, index: number): number {
  if (index < 0 || index >= MARKETS_PER_TOURNAMENT) throw new RangeError(`outright market index ${index}`);
  return tournamentNum * MARKETS_PER_TOURNAMENT + index;
}

export function outrightSelectionId(marketId: number, position: number): number {
  if (position < 0 || position >= SELECTIONS_PER_MARKET) throw new RangeError(`outright selection ${position}`);
  return marketId * SELECTIONS_PER_MARKET + position;
}
