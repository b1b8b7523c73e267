// A resolved market as the settlement feed serves it (snake_case, as stored), and parsing an entry's list.
export interface ResolvedOutcome {
  label: string;
  result: 'won' | 'lost' | 'refund';
  selection_id: number | null;
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
