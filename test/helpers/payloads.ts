// The response shapes API tests read (as a client would declare them), so assertions stay typed.

export type OddsValue = number | string | null;

export interface ErrorBody {
  error: string;
  message: string;
  component?: string;
}

export interface Outcome {
  selection_id: number;
  code: string;
  label: string;
  odds: OddsValue;
  is_locked: boolean;
  team_side: 'home' | 'away' | null;
  opening_odds: OddsValue;
  closing_odds: OddsValue | null;
}

export interface Market {
  market_id: number;
  key: string;
  name: string;
  outcomes: Outcome[];
}

export interface EventItem {
  id: string;
  sport: { key: string; name: string };
  league: { slug: string; name: string; country: string };
  home_team: string;
  away_team: string;
  home_logo: string;
  away_logo: string;
  status: string;
  start_time: string;
  score: { home: number; away: number };
  clock: string | null;
  period: string;
  odds: { home: OddsValue; draw: OddsValue; away: OddsValue };
  odds_format: string;
  markets_count: number;
  winner: 'home' | 'away' | null;
  decided_by: string | null;
  updated_at: string;
}

export interface EventList {
  events: EventItem[];
  total: number;
  limit: number;
  offset: number;
}

export interface EventDetail extends EventItem {
  commence_time: string;
  markets: Market[];
  sport_data: Record<string, unknown> | null;
  scoreboard: { headers: string[]; home: unknown[]; away: unknown[] } | null;
  period_scores: Array<{ period: string; home: number; away: number }>;
}

export interface OddsPayload {
  id: string;
  status: string;
  odds_format: string;
  markets: Market[];
  updated_at: string;
}

export interface EventResult {
  id: string;
  status: string;
  score: { home: number; away: number };
  ended_at: string | null;
  period_scores: Array<{ period: string; home: number; away: number }>;
  winner: 'home' | 'away' | null;
  decided_by: string | null;
}

export interface BatchResponse {
  events: Record<string, EventItem & { markets: Market[] }>;
  found: number;
  requested: number;
}

/** Ids of a list page, in order: most list assertions are about which events and in what order. */
export const ids = (list: EventList): string[] => list.events.map((e) => e.id);

/** One change of `GET /v1/events/{id}/odds/history`. */
export interface HistoryChange {
  market_id: number;
  selection_id: number;
  odds: number;
  is_locked: boolean;
  at: string;
}

/** A page of `GET /v1/events/{id}/odds/history`. */
export interface HistoryPage {
  event_id: string;
  odds_format: string;
  history: HistoryChange[];
  limit: number;
  has_more: boolean;
  next_cursor: string | null;
}

/** `GET /v1/events/{id}/odds?at=…`: the odds payload as it stood then (decimal prices). */
export interface OddsAtPayload {
  id: string;
  status: string;
  markets: Array<{
    market_id: number;
    outcomes: Array<{ selection_id: number; odds: number; is_locked: boolean; closing_odds: number | null }>;
  }>;
  updated_at: string | null;
  at: string;
}
