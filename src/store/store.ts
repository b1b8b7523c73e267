// The durable store's interface: what must survive a restart (events, markets, results, API keys).
import type { EventResult, Market, SportEvent } from '../domain/types.js';

/** An API key as stored: only the SHA-256 hash of the secret is kept. */
export interface ApiKeyRecord {
  id: string;
  keyHash: string;
  name: string;
  plan: string;
  createdAt: number;
  lastUsedAt: number | null;
  revokedAt: number | null;
}

/** One write-behind flush: applied atomically (all of it or none). */
export interface WriteBatch {
  /** Events to insert or replace (fixture, status, score…), without their markets. */
  events: SportEvent[];
  /** Markets to insert or replace; `position` keeps the producer's order within the event. */
  markets: Array<{ eventId: string; position: number; market: Market }>;
  /** Markets withdrawn from an event. */
  removedMarkets: Array<{ eventId: string; marketIds: number[] }>;
}

/** What a restart restores: every event with its markets in order, as last committed. */
export interface StoredEvent {
  event: SportEvent;
  markets: Market[];
  /** Stored position of each market (parallel to `markets`), so later writes keep the order. */
  positions: number[];
}

export interface Store {
  readonly kind: 'sqlite' | 'postgres';
  /** Applies pending migrations; safe to call on every start. */
  migrate(): Promise<void>;
  /** Round-trips a trivial query; resolves to the latency in milliseconds, rejects when unreachable. */
  ping(): Promise<number>;
  /** Every stored event with its markets. */
  loadEvents(): Promise<StoredEvent[]>;
  /** Write-behind flush of live data; atomic. */
  writeBatch(batch: WriteBatch): Promise<void>;
  /**
   * Commits an official result together with the event's state (and any pending writes in `batch`)
   * in one transaction, before the result is acknowledged. Results are kept forever.
   */
  saveResult(result: EventResult, batch: WriteBatch): Promise<void>;
  getResult(eventId: string): Promise<EventResult | null>;
  findApiKeyByHash(keyHash: string): Promise<ApiKeyRecord | null>;
  /** Inserts the key, or updates name/plan/revocation of the key with the same id. */
  saveApiKey(key: ApiKeyRecord): Promise<void>;
  listApiKeys(): Promise<ApiKeyRecord[]>;
  close(): Promise<void>;
}
