// Feed message builders and response shapes for outright tests (spec/feed.md: tournament, outright_market, outright_result).
import { sportByKey } from '../../src/domain/sports.js';

export function tournament(id: string, sport: string, name = `Tournament ${id}`, ts?: string): Record<string, unknown> {
  const info = sportByKey(sport);
  if (info === undefined) throw new Error(`unknown sport ${sport}`);
  return {
    type: 'tournament',
    tournament_id: id,
    tournament: name,
    sport,
    sport_id: info.sportId,
    ...(ts !== undefined ? { ts } : {}),
  };
}

/** An outright market; selections are [selection_id, name, decimal odds]. */
export function outrightMarket(
  tournamentId: string,
  marketId: number,
  selections: Array<[number, string, number]>,
  market = 'Winner',
): Record<string, unknown> {
  return {
    type: 'outright_market',
    tournament_id: tournamentId,
    market_id: marketId,
    market,
    selections: selections.map(([selection_id, selection, odds]) => ({ selection_id, selection, odds })),
  };
}

/** An outright result: winners as selection ids or [id, dead_heat_factor], or 'void'. */
export function outrightResult(
  tournamentId: string,
  marketId: number,
  winners: Array<number | [number, number]> | 'void',
  ts?: string,
): Record<string, unknown> {
  return {
    type: 'outright_result',
    tournament_id: tournamentId,
    market_id: marketId,
    ...(winners === 'void'
      ? { void: true }
      : {
          winners: winners.map((w) =>
            typeof w === 'number' ? { selection_id: w } : { selection_id: w[0], dead_heat_factor: w[1] },
          ),
        }),
    ...(ts !== undefined ? { ts } : {}),
  };
}

export interface OutrightList {
  tournaments: Array<{
    tournament_id: string;
    tournament: string;
    sport: string;
    sport_id: number;
    markets: Array<{
      market_id: number;
      market: string;
      selections: Array<{ selection_id: number; selection: string; odds: number | string }>;
    }>;
  }>;
  total: number;
}

export interface OutrightSports {
  sports: Array<{ sport_id: number; name: string; tournament_count: number }>;
  total: number;
}

export interface OutrightEntry {
  entry_id: string;
  tournament_id: string;
  tournament: string;
  market_id: number;
  market: string;
  selection_id: number;
  selection: string;
  result: string;
  dead_heat_factor?: number;
  settled_at: string;
  sport: string;
}

export interface OutrightFeed {
  outright_settlements: OutrightEntry[];
  total: number;
  limit: number;
  offset: number;
  has_more: boolean;
  next_cursor: string | null;
  applied_filters: { tournament_ids_count: number; using_cursor: boolean };
}
