// The durable store's interface: what must survive a restart (events, markets, results, API keys).
import type { OutrightEntry, OutrightMarket, OutrightResult, TournamentInfo } from '../domain/outrights.js';
import type { EventResult, Market, PlayerStats, SportEvent } from '../domain/types.js';
import type { StoreHealth } from './store-health.js';
import type { WebhookStore } from './webhook-store.js';

/** An API key as stored: only the SHA-256 hash of the secret is kept. */
export interface ApiKeyRecord {
  id: string;
  keyHash: string;
  name: string;
  plan: string;
  createdAt: number;
  lastUsedAt: number | null;
  revokedAt: number | null;
  /** The portal account that owns the key; null for keys made by the CLI and the demo key. */
  accountId: string | null;
}

/** A portal account. The email is stored lower-cased (lookups ignore case); only a password hash is kept. */
export interface AccountRecord {
  id: string;
  email: string;
  passwordHash: string;
  createdAt: number;
}

/** A signed-in portal session; the cookie carries the token, the store only its SHA-256 hash. */
export interface PortalSessionRecord {
  tokenHash: string;
  accountId: string;
  createdAt: number;
  expiresAt: number;
}

/** A key's counted requests on one UTC day, and how many of them were answered 4xx/5xx. */
export interface UsageDay {
  keyId: string;
  /** `YYYY-MM-DD` (UTC). */
  date: string;
  requests: number;
  errors: number;
}

/** One batch of usage counters: absolute day totals (a repeated write changes nothing) and last use per key. */
export interface UsageWrite {
  days: UsageDay[];
  lastUsed: Array<{ keyId: string; at: number }>;
}

/** One write-behind flush: applied atomically (all of it or none). */
export interface WriteBatch {
  /** Events to insert or replace (fixture, status, score…), without their markets. */
  events: SportEvent[];
  /** Markets to insert or replace; `position` keeps the producer's order within the event. */
  markets: Array<{ eventId: string; position: number; market: Market }>;
  /**
   * Whole books (live/book-image.ts) at `seq`: each replaces the event's stored markets (image and
   * documents) and makes its odds rows before `seq` redundant.
   */
  bookImages?: Array<{ eventId: string; data: Uint8Array }>;
  /** Markets withdrawn from an event. */
  removedMarkets: Array<{ eventId: string; marketIds: number[] }>;
  /** The flush this batch is (increasing); market documents and odds rows record it. Default 0. */
  seq?: number;
  /** Compact odds rows to append at `seq` (one per event). */
  oddsLog?: Array<{ eventId: string; data: Uint8Array }>;
  /** Odds rows made redundant by a full row: those of the event before `beforeSeq` are deleted. */
  oddsLogPrune?: Array<{ eventId: string; beforeSeq: number }>;
  /** Odds history chunks to append (every change since the last flush, per event). */
  history?: HistoryChunk[];
  /** Opening and closing prices of events (odds-marks.ts), replacing what was stored. */
  oddsMarks?: Array<{ eventId: string; data: Uint8Array }>;
  /** The change log's entries since the last flush, written with the facts they describe. */
  logWindow?: LogWindowWrite;
}

/** A position of the change log as stored (wall milliseconds, then a counter within them). */
export interface StoredLogPosition {
  ms: number;
  seq: number;
}

/** One segment of the change log's replay window: the entries from `from` to `to`, encoded. */
export interface LogSegment {
  from: StoredLogPosition;
  to: StoredLogPosition;
  count: number;
  data: Uint8Array;
}

/** A stored segment as a restart loads it: `data` is empty when only its `size` was read (loadLogWindow's `dataBytes`). */
export interface LoadedLogSegment extends LogSegment {
  size: number;
}

/** What a flush writes of the change log (pipeline/log-window.ts). */
export interface LogWindowWrite {
  /** Usually one; more after failed flushes (theirs are written with the next). */
  segments: LogSegment[];
  /** How many committed facts (countFact) the stored segments account for, after this write. */
  covered: number;
  /** The first position the log ever had (kept once stored: an id older than it is from before a reset). */
  origin: StoredLogPosition | null;
  /** Segments that end before this position left the replay window: deleted. */
  pruneBefore: StoredLogPosition;
  /** Scaled out, the pipeline leader's term (pipeline/log-window.ts, "Scaled out"); absent with ROLE=all. */
  run?: LogWindowRun;
}

/**
 * What a scaled-out leader's write says of its run: the stored segments hold every entry of its
 * change log after `from` and up to `through`, contiguously, and were written in `epoch` (the
 * change stream's leader epoch). `reset`: the term's first write deletes every older segment first.
 */
export interface LogWindowRun {
  epoch: number;
  from: StoredLogPosition;
  through: StoredLogPosition;
  reset: boolean;
}

/** The stored replay window a restart restores. */
export interface StoredLogWindow {
  origin: StoredLogPosition | null;
  /**
   * Commits of facts that the change log reports after they are stored (results, settlements,
   * outrights), counted in their own transactions: more than `covered` means the store holds a
   * fact whose entry reached no stored segment.
   */
  facts: number;
  covered: number;
  /** Where the last segment written ends (null before the first). */
  through: StoredLogPosition | null;
  /** Segments ending at or after the asked time (the newest within the asked bytes), oldest first. */
  segments: LoadedLogSegment[];
  /** Whether `segments` are every segment stored (none left out by the asked time or bytes). */
  complete: boolean;
  /** The scaled-out leader's run the segments belong to (null: written by ROLE=all, or none). */
  run: { epoch: number; from: StoredLogPosition } | null;
}

/** Every price and lock change of one event over [fromAt, toAt] (history-codec.ts). */
export interface HistoryChunk {
  eventId: string;
  fromAt: number;
  toAt: number;
  count: number;
  data: Uint8Array;
}

/** A stored history chunk (inflated if it was stored deflated), in the order written. */
export interface StoredHistoryChunk extends HistoryChunk {
  seq: number;
}

/** True when a batch would write nothing. */
export function isEmptyBatch(b: WriteBatch): boolean {
  return (
    b.events.length === 0 &&
    b.markets.length === 0 &&
    (b.bookImages ?? []).length === 0 &&
    b.removedMarkets.length === 0 &&
    (b.oddsLog ?? []).length === 0 &&
    (b.oddsLogPrune ?? []).length === 0 &&
    (b.history ?? []).length === 0 &&
    (b.oddsMarks ?? []).length === 0 &&
    b.logWindow === undefined
  );
}

/** True when a usage write would write nothing. */
export function isEmptyUsage(w: UsageWrite): boolean {
  return w.days.length === 0 && w.lastUsed.length === 0;
}

/** What a restart restores: every event with its markets in order, as last committed. */
export interface StoredEvent {
  event: SportEvent;
  markets: Market[];
  /** Stored position of each market (parallel to `markets`), so later writes keep the order. */
  positions: number[];
  /** The flush that wrote each market document (parallel to `markets`). */
  marketSeqs: number[];
  /** The event's book as last imaged (live/book-image.ts) and the flush that wrote it; null: documents only. */
  image: { seq: number; data: Uint8Array } | null;
  /** Odds rows written after the documents, in `seq` order. */
  oddsLog: Array<{ seq: number; data: Uint8Array }>;
  /** Opening and closing prices (odds-marks.ts), or null when none were kept apart from current prices. */
  oddsMarks: Uint8Array | null;
}

/** The fields of a settlement entry that come from the event (kept with the entry: events age out). */
export interface SettlementHeader {
  homeTeam: string;
  awayTeam: string;
  homeLogoId: string | null;
  awayLogoId: string | null;
  finalScore: { home: number; away: number };
  sport: string;
  league: string;
  country: string;
  startTime: number;
  /** Revision of the result the entry was graded from (a higher one means a correction to apply). */
  resultRevision: number;
}

/** A settlement entry as stored: one per settled event. */
export interface SettlementRecord {
  eventId: string;
  endedAt: number;
  /** When a market last resolved or was corrected. */
  updatedAt: number;
  revision: number;
  resolvedCount: number;
  totalCount: number;
  pendingCount: number;
  header: SettlementHeader;
  /** The `resolved_markets` array exactly as served, as JSON text. */
  marketsJson: string;
}

/** A position in the feed: entries strictly after it (newest first: ended_at desc, event_id desc). */
export interface FeedPosition {
  at: number;
  eventId: string;
}

export interface SettlementPageQuery {
  /** Oldest `ended_at` still in the feed (retention). */
  minEndedAt: number;
  eventIds: string[] | null;
  /** Newest first after this position (the cursor), or from the top. */
  after: FeedPosition | null;
  limit: number;
  offset: number;
}

export interface SettlementChangesQuery {
  minEndedAt: number;
  eventIds: string[] | null;
  /** Changes strictly after this `(updated_at, event_id)`, oldest first. */
  after: FeedPosition;
  limit: number;
}

/** The `updated_since` counters' query: the changes after a position, and where the detail window starts. */
export interface SettlementChangesCount extends Omit<SettlementChangesQuery, 'limit'> {
  /** Entries that ended before this are score only (their market detail aged out). */
  detailFrom: number;
}

/** An envelope's counters over the entries a filter matched (decisions.md). */
export interface SettlementCounts {
  total: number;
  /** Entries with no pending market, inside the detail window. */
  fullySettled: number;
  /** Entries whose market detail aged out. */
  scoreOnly: number;
}

/** An outright tournament as stored, with every market (open or settled) by market id. */
export interface StoredTournament {
  tournament: TournamentInfo;
  markets: Array<{ market: OutrightMarket; result: OutrightResult | null }>;
}

/** A page of the outright settlement feed, newest first (settled_at desc, entry_id desc). */
export interface OutrightSettlementQuery {
  /** Only these tournaments (an empty list matches nothing), or all. */
  tournamentIds: string[] | null;
  /** Strictly after this position (the cursor), or from the top. */
  after: { settledAt: number; entryId: string } | null;
  limit: number;
  offset: number;
}

/** The webhook part (webhook-store.ts) is in the same store: its outbox follows the facts it announces. */
export interface Store extends WebhookStore {
  readonly kind: 'sqlite' | 'postgres';
  /** Applies pending migrations; safe to call on every start. */
  migrate(): Promise<void>;
  /** Round-trips a trivial query; resolves to the latency in milliseconds, rejects when unreachable. */
  ping(): Promise<number>;
  /**
   * Whether reads and writes work, from the outcome of every operation (health reports it). Every
   * operation that fails for a datastore fault (connection refused or dropped, disk full, file
   * read-only…) rejects with a 503 `service_unavailable` ServiceError naming the `datastore`.
   */
  readonly health: StoreHealth;
  /** Writes one tiny row: a ping only reads, so it cannot tell that writes work again. */
  checkWrites(): Promise<void>;
  /** Every stored event with its markets. */
  loadEvents(): Promise<StoredEvent[]>;
  /**
   * The same as loadEvents, handed over `batchEvents` events at a time (default 50) as they are
   * read, all from one committed state: a restart restores each batch and lets its documents go.
   * `total`: how many events there are in all (a restart's progress).
   */
  loadEventBatches(onBatch: (events: StoredEvent[], total: number) => void, batchEvents?: number): Promise<void>;
  /** Write-behind flush of live data; atomic. */
  writeBatch(batch: WriteBatch): Promise<void>;
  /**
   * The change log's stored replay window: state, and the segments ending at or after `fromMs`,
   * the newest ones only once `maxBytes` of segment data is read (default: no limit). A segment
   * comes with its bytes while less than `dataBytes` (default: no limit) were read before it; older
   * ones come with `data` empty and their `size` (a restart keeps only its memory's share of the
   * window in memory).
   */
  loadLogWindow(fromMs: number, maxBytes?: number, dataBytes?: number): Promise<StoredLogWindow>;
  /** The stored segments ending within [`from`, `to`], oldest first (a resume reaching past what the log holds in memory). */
  readLogSegments(from: StoredLogPosition, to: StoredLogPosition): Promise<LogSegment[]>;
  /**
   * Commits an official result together with the event's state (and any pending writes in `batch`)
   * in one transaction, before the result is acknowledged. Results are kept forever. This and the
   * other commits whose change-log entries come after them (settlements, outrights) count one
   * fact each in their transaction (StoredLogWindow.facts).
   */
  saveResult(result: EventResult, batch: WriteBatch): Promise<void>;
  getResult(eventId: string): Promise<EventResult | null>;
  /**
   * The player statistics last stored with an event (null: none, or an event never stored), read
   * once the event has left memory (explanations of player props). Optional: stores that keep no
   * event documents leave it out.
   */
  getPlayerStats?(eventId: string): Promise<PlayerStats | null>;
  /** Inserts or replaces an event's settlement entry. */
  saveSettlement(record: SettlementRecord): Promise<void>;
  getSettlement(eventId: string): Promise<SettlementRecord | null>;
  /** A page of the feed, newest first (ended_at desc, event_id desc). */
  listSettlements(q: SettlementPageQuery): Promise<SettlementRecord[]>;
  /** Entries changed after a position, oldest change first (updated_at asc, event_id asc). */
  listSettlementChanges(q: SettlementChangesQuery): Promise<SettlementRecord[]>;
  /** How many entries changed after a position, settled and score only among them (an `updated_since` page's counters). */
  countSettlementChanges(q: SettlementChangesCount): Promise<SettlementCounts>;
  /** (ended_at, pending_count) of every entry ended at or after `minEndedAt`: the counters' start. */
  settlementSummaries(minEndedAt: number): Promise<Array<{ eventId: string; endedAt: number; pendingCount: number }>>;
  /** Drops entries that ended before `before` (out of the feed window); results are not touched. */
  deleteSettlementsBefore(before: number): Promise<number>;
  /**
   * An event's history chunks that reach `fromAt` or later (to_at >= fromAt) and start at or
   * before `toAt`, in the order written, at most `limit` (a page continues after the last seq).
   */
  listOddsHistory(q: {
    eventId: string;
    fromAt: number;
    toAt: number;
    afterSeq: number;
    limit: number;
  }): Promise<StoredHistoryChunk[]>;
  /** Drops history chunks whose last change is older than `before` (retention). */
  deleteOddsHistoryBefore(before: number): Promise<number>;
  /** Inserts or updates an outright tournament (name, sport). */
  saveTournament(t: TournamentInfo): Promise<void>;
  /** Inserts or replaces an open outright market of a stored tournament (its result is never touched). */
  saveOutrightMarket(tournamentId: string, market: OutrightMarket): Promise<void>;
  /**
   * Records a market's result and replaces its settlement entries with `entries`, in one
   * transaction (a correction never shows old and new entries together, nor none).
   */
  settleOutrightMarket(
    tournamentId: string,
    marketId: number,
    result: OutrightResult,
    entries: readonly OutrightEntry[],
  ): Promise<void>;
  /** Every tournament with its markets and results (the outright book after a restart). */
  loadOutrights(): Promise<StoredTournament[]>;
  /** A page of outright settlement entries, newest first. */
  listOutrightSettlements(q: OutrightSettlementQuery): Promise<OutrightEntry[]>;
  /** How many outright settlement entries match the tournament filter. */
  countOutrightSettlements(tournamentIds: string[] | null): Promise<number>;
  findApiKeyByHash(keyHash: string): Promise<ApiKeyRecord | null>;
  /** Inserts the key, or updates name/plan/revocation of the key with the same id. */
  saveApiKey(key: ApiKeyRecord): Promise<void>;
  listApiKeys(): Promise<ApiKeyRecord[]>;
  findApiKeyById(id: string): Promise<ApiKeyRecord | null>;
  /** The keys of an account, oldest first. */
  listApiKeysOfAccount(accountId: string): Promise<ApiKeyRecord[]>;
  /** Revokes a key (a second revocation keeps the first time); the key as now stored, or null if unknown. */
  revokeApiKey(id: string, at: number): Promise<ApiKeyRecord | null>;
  /** Renames a key; the key as now stored, or null if unknown. */
  renameApiKey(id: string, name: string): Promise<ApiKeyRecord | null>;
  /** Moves a key to another plan; the key as now stored, or null if unknown. */
  setApiKeyPlan(id: string, plan: string): Promise<ApiKeyRecord | null>;
  /** Creates an account; false (and nothing written) when the email, ignoring case, is taken. */
  createAccount(account: AccountRecord): Promise<boolean>;
  /** The account of that email, ignoring case. */
  findAccountByEmail(email: string): Promise<AccountRecord | null>;
  findAccountById(id: string): Promise<AccountRecord | null>;
  /** Records a portal session (the token hash is unique). */
  createPortalSession(session: PortalSessionRecord): Promise<void>;
  /** The session of that token hash, expired or not (the caller compares `expiresAt`). */
  findPortalSession(tokenHash: string): Promise<PortalSessionRecord | null>;
  /** Ends a session (signing out); unknown hashes are ignored. */
  deletePortalSession(tokenHash: string): Promise<void>;
  /** Sweeps sessions that expired at or before `at`; how many went. */
  deleteExpiredPortalSessions(at: number): Promise<number>;
  /** Usage rows of every key from `fromDate` (`YYYY-MM-DD`, inclusive) on. */
  loadUsage(fromDate: string): Promise<UsageDay[]>;
  /** Writes usage day totals (insert or replace) and raises keys' last-used times, in one transaction. */
  saveUsage(write: UsageWrite): Promise<void>;
  /** Credits `provider` spent in UTC month `month` (`YYYY-MM`) as last stored; 0 when none were. */
  loadUpstreamSpend(provider: string, month: string): Promise<number>;
  /** Stores the month's spend (insert or replace: the one writer is this node, or the pipeline leader). */
  saveUpstreamSpend(provider: string, month: string, credits: number, at: number): Promise<void>;
  close(): Promise<void>;
}
