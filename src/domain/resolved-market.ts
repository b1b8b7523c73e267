// A resolved market as the settlement feed serves it (snake_case, as stored), parsing an entry's list, and its prices in an odds format.
import { formatOdds } from './odds.js';
import type { OddsFormat, TeamSide } from './types.js';

export interface ResolvedOutcome {
  label: string;
  result: 'won' | 'lost' | 'refund';
  selection_id: number | null;
  /**
   * The outcome's canonical code (`home`, `over`, `2-1`…) and team side, as the live book had them:
   * a bet check by code finds its selection after the event has left memory, and explanations
   * regrade from the code grading read. Absent (null as served) on entries settled before they were kept.
   */
  code?: string | null;
  team_side?: TeamSide | null;
  /** The outcome's first price (decimal as stored); null on entries settled before prices were kept. */
  opening_odds: number | string | null;
  /** Its last prematch price (decimal as stored); null for a market added live, or when unknown. */
  closing_odds: number | string | null;
  /**
   * Its last price before the event ended (decimal as stored): what a bet check without odds uses,
   * in memory or not. Absent (null as served) on entries settled before it was kept.
   */
  last_odds?: number | string | null;
  /** The refunded share of a half-won or half-lost outcome (quarter lines). */
  void_factor?: number;
}

export interface ResolvedMarket {
  key: string;
  name: string;
  market_id: number | null;
  outcomes: ResolvedOutcome[];
}

export function parseResolved(json: string): ResolvedMarket[] {
  const value: unknown = JSON.parse(json);
  return Array.isArray(value) ? (value as ResolvedMarket[]) : [];
}

/**
 * Whether stored resolved markets can be served as they are (decimal): every entry written since
 * last prices (the newest fields) were kept carries every field; an older one (or an empty list)
 * is rewritten by {@link resolvedJson}.
 */
export function resolvedServedAsStored(json: string, format: OddsFormat): boolean {
  return format === 'decimal' && (json === '[]' || json.includes('"last_odds"'));
}

/** Stored resolved markets as served: prices in `format`, and every field on every outcome (null where an older entry lacks it). */
export function resolvedJson(json: string, format: OddsFormat): string {
  if (resolvedServedAsStored(json, format)) return json;
  return JSON.stringify(resolvedInFormat(parseResolved(json), format));
}

/** Resolved markets with their prices in `format` and every field present (copies; stored decimals stay). */
export function resolvedInFormat(markets: readonly ResolvedMarket[], format: OddsFormat): ResolvedMarket[] {
  const price = (v: number | string | null | undefined): number | string | null =>
    typeof v === 'number' ? formatOdds(v, format) : (v ?? null);
  return markets.map((m) => ({
    ...m,
    outcomes: m.outcomes.map((o) => {
      const { void_factor: voidFactor, ...rest } = o;
      return {
        ...rest,
        code: o.code ?? null,
        team_side: o.team_side ?? null,
        opening_odds: price(o.opening_odds),
        closing_odds: price(o.closing_odds),
        last_odds: price(o.last_odds),
        ...(voidFactor !== undefined ? { void_factor: voidFactor } : {}),
      };
    }),
  }));
}
