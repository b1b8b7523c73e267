// Odds changes held in typed arrays instead of one object per change: how large feed bodies reach the book.
import type { FeedMessage, OddsMessage } from './messages.js';

/**
 * The changes of one odds message, column-wise. A live tick is ~100,000 changes: as objects they
 * cost the parse and the garbage collector as much again; as three typed arrays (views into one
 * arena per body) they cost neither.
 */
export interface PackedChanges {
  ids: Float64Array;
  /** NaN where the change sets no price. */
  odds: Float64Array;
  /** -1 where the change sets no lock, else 0 or 1. */
  locks: Int8Array;
}

/** An odds message as a parsed feed body hands it over: its changes packed. */
export interface PackedOddsMessage {
  type: 'odds';
  ts?: string;
  event_id: string;
  packed: PackedChanges;
}

/** What the pipeline applies: a feed message, or an odds message with its changes packed. */
export type IngressMessage = FeedMessage | PackedOddsMessage;

/** Packs changes into fresh arrays (small messages: the simulator, tests, JSON bodies). */
export function packChanges(changes: OddsMessage['changes']): PackedChanges {
  const n = changes.length;
  const out: PackedChanges = { ids: new Float64Array(n), odds: new Float64Array(n), locks: new Int8Array(n) };
  fill(out, 0, changes);
  return out;
}

/** Writes changes into `into` from index `at`. */
export function fill(into: PackedChanges, at: number, changes: OddsMessage['changes']): void {
  for (let k = 0; k < changes.length; k++) {
    const c = changes[k]!;
    into.ids[at + k] = c.selection_id;
    into.odds[at + k] = c.odds === undefined ? NaN : c.odds;
    into.locks[at + k] = c.is_locked === undefined ? -1 : c.is_locked ? 1 : 0;
  }
}

/** The changes of an odds message, packed if they are not already. */
export function changesOf(msg: OddsMessage | PackedOddsMessage): PackedChanges {
  return 'packed' in msg ? msg.packed : packChanges(msg.changes);
}

/** Back to the message form (diagnostics and tests: a packed message reads like the one fed). */
export function unpack(msg: PackedOddsMessage): OddsMessage {
  const changes: OddsMessage['changes'] = [];
  const { ids, odds, locks } = msg.packed;
  for (let k = 0; k < ids.length; k++) {
    const c: OddsMessage['changes'][number] = { selection_id: ids[k]! };
    if (!Number.isNaN(odds[k]!)) c.odds = odds[k]!;
    if (locks[k]! >= 0) c.is_locked = locks[k] === 1;
    changes.push(c);
  }
  const out: OddsMessage = { type: 'odds', event_id: msg.event_id, changes };
  if (msg.ts !== undefined) out.ts = msg.ts;
  return out;
}
