// The store's tables as Kysely sees them: column names and types shared by every SQL dialect.
/** One row per event; `doc` is the whole SportEvent as JSON, the other columns are for queries. */
export interface EventsTable {
  id: string;
  sport: string;
  league_slug: string;
  status: string;
  /** Epoch milliseconds (integer). */
  start_time: number;
  updated_at: number;
  ended_at: number | null;
  doc: string;
}

/** One row per market of an event; `doc` is the Market as JSON. */
export interface MarketsTable {
  event_id: string;
  market_id: number;
  /** The producer's order of the market within its event. */
  position: number;
  doc: string;
  /** The write-behind flush that wrote this document (odds logged later apply on top). */
  seq: number;
}

/** Compact live odds: per event and flush, the selections that changed (or all of them). */
export interface OddsLogTable {
  event_id: string;
  seq: number;
  data: Uint8Array;
}

/** Odds history: every price and lock change of an event over [from_at, to_at], one compressed chunk a flush. */
export interface OddsHistoryTable {
  event_id: string;
  from_at: number;
  to_at: number;
  /** Order of chunks written at the same from_at (a flush sequence): chunks never overlap in order. */
  seq: number;
  count: number;
  data: Uint8Array;
}

/** Opening and closing prices of an event's selections (odds-marks.ts), rewritten whole when they change. */
export interface OddsMarksTable {
  event_id: string;
  data: Uint8Array;
}

/** An event's markets and current prices as one image (live/book-image.ts), written by flush `seq`. */
export interface BookImagesTable {
  event_id: string;
  seq: number;
  data: Uint8Array;
}

/** Official results, kept forever: nothing in the store deletes a row here. */
export interface ResultsTable {
  event_id: string;
  status: string;
  home: number;
  away: number;
  /** PeriodScore[] as JSON. */
  period_scores: string;
  winner: string | null;
  ended_at: number;
  revision: number;
  recorded_at: number;
}

export interface ApiKeysTable {
  id: string;
  key_hash: string;
  name: string;
  plan: string;
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
  /** The portal account that owns the key; null for keys made by the CLI or the demo key. */
  account_id: string | null;
}

/** Portal accounts: the email is stored lower-cased; only a password hash is kept. */
export interface AccountsTable {
  id: string;
  email: string;
  password_hash: string;
  created_at: number;
}

/** Signed-in portal sessions: only the SHA-256 hash of the cookie's token is kept. */
export interface PortalSessionsTable {
  token_hash: string;
  account_id: string;
  created_at: number;
  expires_at: number;
}

/** Counted requests per key per UTC day (`YYYY-MM-DD`), and how many were answered 4xx/5xx. */
export interface ApiUsageTable {
  key_id: string;
  day: string;
  requests: number;
  errors: number;
}

/** Credits an upstream adapter spent in one UTC month (`YYYY-MM`): its budget survives restarts and failovers. */
export interface UpstreamSpendTable {
  provider: string;
  month: string;
  credits: number;
  updated_at: number;
}

/** One row per settled event: counts, the entry's header fields and resolved markets as JSON text. */
export interface SettlementsTable {
  event_id: string;
  ended_at: number;
  updated_at: number;
  revision: number;
  resolved_count: number;
  total_count: number;
  pending_count: number;
  /** SettlementHeader as JSON. */
  header: string;
  /** The `resolved_markets` array as served (JSON text). */
  markets: string;
}

/** One row per outright tournament. */
export interface OutrightTournamentsTable {
  tournament_id: string;
  tournament: string;
  sport: string;
  sport_id: number;
}

/** One row per outright market; `selections` as JSON, `result` (winners, void, settled_at) once settled. */
export interface OutrightMarketsTable {
  tournament_id: string;
  market_id: number;
  market: string;
  /** OutrightSelection[] as JSON, in the producer's order. */
  selections: string;
  updated_at: number;
  /** OutrightResult as JSON, or null while the market is open. */
  result: string | null;
}

/** The outright settlement feed: one row per selection of a settled market. */
export interface OutrightSettlementsTable {
  entry_id: string;
  tournament_id: string;
  tournament: string;
  market_id: number;
  market: string;
  selection_id: number;
  selection: string;
  result: string;
  dead_heat_factor: number | null;
  settled_at: number;
  sport: string;
}

export interface WriteProbeTable {
  id: number;
  at: number;
}

/** One stored segment of the change log's replay window (log-codec.ts encodes `data`). */
export interface LogSegmentsTable {
  from_ms: number;
  from_seq: number;
  to_ms: number;
  to_seq: number;
  count: number;
  data: Uint8Array;
}

/** Named counters of the stored log window: `facts`, `covered`, `origin_ms`, `origin_seq`. */
export interface LogStateTable {
  name: string;
  value: number;
}

/** A webhook subscription (domain/webhooks.ts); lists are JSON text, `enabled` 0 or 1. */
export interface WebhooksTable {
  id: string;
  key_id: string;
  url: string;
  types: string;
  sport: string | null;
  league: string | null;
  event_ids: string | null;
  markets: string | null;
  odds_format: string;
  enabled: number;
  disabled_reason: string | null;
  secret: string;
  previous_secret: string | null;
  previous_secret_until: number | null;
  failing_since: number | null;
  created_at: number;
  updated_at: number;
}

/** One message to one subscription: the outbox and, once delivered, the delivery log. */
export interface WebhookDeliveriesTable {
  id: string;
  webhook_id: string;
  seq: number;
  type: string;
  body: string;
  position: string;
  created_at: number;
  status: string;
  attempts: number;
  next_attempt_at: number;
  last_attempt_at: number | null;
  last_status: number | null;
  last_error: string | null;
  last_latency_ms: number | null;
  delivered_at: number | null;
}

/** The change-log position the outbox is derived up to (one row, id 1). */
export interface WebhookCursorTable {
  id: number;
  pos_ms: number;
  pos_seq: number;
}

export interface StoreDatabase {
  events: EventsTable;
  markets: MarketsTable;
  results: ResultsTable;
  api_keys: ApiKeysTable;
  settlements: SettlementsTable;
  odds_log: OddsLogTable;
  odds_history: OddsHistoryTable;
  odds_marks: OddsMarksTable;
  book_images: BookImagesTable;
  outright_tournaments: OutrightTournamentsTable;
  outright_markets: OutrightMarketsTable;
  outright_settlements: OutrightSettlementsTable;
  accounts: AccountsTable;
  api_usage: ApiUsageTable;
  portal_sessions: PortalSessionsTable;
  write_probe: WriteProbeTable;
  log_segments: LogSegmentsTable;
  log_state: LogStateTable;
  upstream_spend: UpstreamSpendTable;
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_cursor: WebhookCursorTable;
}
