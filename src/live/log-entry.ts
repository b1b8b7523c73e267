// What one change-log entry holds: its kind, what it concerns (for filters), and its facts, rendered once per odds format.
import type { Market } from '../domain/types.js';
import type { OutrightMarket } from '../domain/outrights.js';
import type { LogPosition } from './log-position.js';

/**
 * Every kind of change to the read state. `fixture` (a new event or new fixture facts), `stats` and
 * `evicted` are followed inside the service (settlement, write-behind, scale-out); the stream
 * shows `fixture` as a `status` event and does not show the other two.
 */
export type LogEntryKind =
  'fixture' | 'status' | 'score' | 'stats' | 'markets' | 'odds' | 'result' | 'settlement' | 'outright' | 'evicted';

/** Price and lock changes of one event, column-wise (a tick of the capacity world is 100,000 of them). */
export interface OddsChanges {
  marketIds: Float64Array;
  selectionIds: Float64Array;
  /** Decimal odds. */
  odds: Float64Array;
  /** 1 when the selection is locked (including a lock of the whole event). */
  locked: Uint8Array;
}

interface EntryBase {
  position: LogPosition;
  /** Event id, or tournament id for `outright`. */
  eventId: string;
  sport: string;
  /** League slug ('' for outrights). */
  league: string;
  /** World time of the change (epoch ms). */
  at: number;
  /** Estimated memory held (the replay window's byte budget). */
  bytes: number;
}

/** An entry whose stream data does not depend on the odds format: rendered once, at append. */
export interface JsonEntry extends EntryBase {
  kind: 'fixture' | 'status' | 'score' | 'stats' | 'result' | 'settlement' | 'evicted';
  /** The stream event's `data` (a JSON object with `event_id`). */
  json: string;
}

export interface OddsEntry extends EntryBase {
  kind: 'odds';
  /** How many changes (without decoding them). */
  count: number;
  /** The book layout the changes were made in (write-behind: another one means a full row); -1 unknown. */
  layout: number;
  /**
   * The changes in the compact form (log-codec's putOddsChanges), when the entry was made in that
   * form: the window, the odds history and the odds rows copy these bytes as they are.
   */
  packed: Uint8Array | null;
  /** The changes as columns (decoded from `packed` on first use: a tick nobody streams is never decoded). */
  readonly changes: OddsChanges;
}

export interface MarketsEntry extends EntryBase {
  kind: 'markets';
  /** Markets added or changed (with their current prices), in the book's order. */
  added: Market[];
  withdrawn: number[];
  /**
   * Per outcome of `added`, in order: 1 when its price or lock is new (a new selection, or one
   * that moved), 0 when the market was re-sent with it unchanged (the odds history keeps changes only).
   */
  repriced: Uint8Array;
}

export interface OutrightEntry extends EntryBase {
  kind: 'outright';
  tournament: string;
  /** What changed: the tournament itself, a market (with prices), or a market's result. */
  change: 'tournament' | 'market' | 'result';
  market: OutrightMarket | null;
  /** For `result`: the settled market's id and its result JSON (format-independent). */
  resultJson: string | null;
}

export type LogEntry = JsonEntry | OddsEntry | MarketsEntry | OutrightEntry;

/** An entry before the log gives it its position. */
export type LogEntryInput =
  | Omit<JsonEntry, 'position'>
  | Omit<OddsEntry, 'position'>
  | Omit<MarketsEntry, 'position'>
  | Omit<OutrightEntry, 'position'>;
