// A resolved market as the settlement feed serves it (snake_case, as stored), parsing an entry's list, and its prices in an odds format.
import { formatOdds } from './odds.js';
import type { OddsFormat } from './types.js';

export interface ResolvedOutcome {
  label: string;
  /** The outcome's code as graded (`home`, `over`…); absent on entries settled before codes were kept. */
  code?: string;
  result: 'won' | 'lost' | 'refund';
  selection_id: number | null;
  /** The outcome's first price (decimal as stored); null on entries settled before prices were kept. */
  opening_odds: number | string | null;
  /** Its last prematch price (decimal as stored); null for a market added live, or when unknown. */
  closing_odds: number | string | null;
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
 * opening and closing prices were kept carries both fields; an older one (or an empty list) is
 * rewritten by {@link resolvedJson}.
 */
export function resolvedServedAsStored(json: string, format: OddsFormat): boolean {
  return format === 'decimal' && (json === '[]' || json.includes('"opening_odds"'));
}

/** Stored resolved markets as served: prices in `format`, and both price fields on every outcome. */
export function resolvedJson(json: string, format: OddsFormat): string {
  if (resolvedServedAsStored(json, format)) return json;
  return JSON.stringify(resolvedInFormat(parseResolved(json), format));
}

/** Resolved markets with their opening and closing prices in `format` (copies; stored decimals stay). */
export function resolvedInFormat(markets: readonly ResolvedMarket[], format: OddsFormat): ResolvedMarket[] {
  const price = (v: number | string | null | undefined): number | string | null =>
    typeof v === 'number' ? formatOdds(v, format) : (v ?? null);
  return markets.map((m) => ({
    ...m,
    outcomes: m.outcomes.map((o) => {
      const { void_factor: voidFactor, ...rest } = o;
      return {
        ...rest,
        opening_odds: price(o.opening_odds),
        closing_odds: price(o.closing_odds),
        ...(voidFactor !== undefined ? { void_factor: voidFactor } : {}),
      };
    }),
  }));
}
