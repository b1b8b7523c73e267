// A batch of log entries packed for the stream process: odds changes in a few long columns (a structured clone of them is a copy), the rest as they are.
import type { LogEntry, OddsEntry } from '../../live/log-entry.js';

/**
 * A tick of the capacity world is 1,000 odds entries of 100 changes: cloned one by one they cost
 * the service ~37 ms a tick to send (5,000 small typed arrays), packed ~6 ms.
 */
export interface PackedBatch {
  /** Per entry in order: 1 an odds entry (the next of the columns), 0 the next of `others`. */
  order: Uint8Array;
  others: LogEntry[];
  eventIds: string[];
  sports: string[];
  leagues: string[];
  /** Per odds entry: position, world time, and how many changes it has. */
  ms: Float64Array;
  seq: Float64Array;
  at: Float64Array;
  counts: Uint32Array;
  /** Per change, the odds entries' in order. */
  marketIds: Float64Array;
  selectionIds: Float64Array;
  odds: Float64Array;
  locked: Uint8Array;
  /** The change's market family number (the service's numbering; 0 unknown). */
  families: Uint32Array;
}

/** Packs entries; `familiesOf` gives an odds entry's family number per change. */
export function packBatch(entries: readonly LogEntry[], familiesOf: (entry: OddsEntry) => Uint32Array): PackedBatch {
  const order = new Uint8Array(entries.length);
  const others: LogEntry[] = [];
  const odds: OddsEntry[] = [];
  let changes = 0;
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i] as LogEntry;
    if (e.kind === 'odds') {
      order[i] = 1;
      odds.push(e);
      changes += e.changes.odds.length;
    } else others.push(e);
  }
  const n = odds.length;
  const b: PackedBatch = {
    order,
    others,
    eventIds: new Array<string>(n),
    sports: new Array<string>(n),
    leagues: new Array<string>(n),
    ms: new Float64Array(n),
    seq: new Float64Array(n),
    at: new Float64Array(n),
    counts: new Uint32Array(n),
    marketIds: new Float64Array(changes),
    selectionIds: new Float64Array(changes),
    odds: new Float64Array(changes),
    locked: new Uint8Array(changes),
    families: new Uint32Array(changes),
  };
  let at = 0;
  for (let j = 0; j < n; j++) {
    const e = odds[j] as OddsEntry;
    const c = e.changes;
    b.eventIds[j] = e.eventId;
    b.sports[j] = e.sport;
    b.leagues[j] = e.league;
    b.ms[j] = e.position.ms;
    b.seq[j] = e.position.seq;
    b.at[j] = e.at;
    b.counts[j] = c.odds.length;
    b.marketIds.set(c.marketIds, at);
    b.selectionIds.set(c.selectionIds, at);
    b.odds.set(c.odds, at);
    b.locked.set(c.locked, at);
    b.families.set(familiesOf(e), at);
    at += c.odds.length;
  }
  return b;
}

/** The entries again, in order (odds changes as views of the columns), each odds entry with its family numbers. */
export function unpackBatch(b: PackedBatch): Array<{ entry: LogEntry; families: Uint32Array | null }> {
  const out: Array<{ entry: LogEntry; families: Uint32Array | null }> = [];
  let other = 0;
  let j = 0;
  let at = 0;
  for (let i = 0; i < b.order.length; i++) {
    if (b.order[i] === 0) {
      out.push({ entry: b.others[other++] as LogEntry, families: null });
      continue;
    }
    const n = b.counts[j] as number;
    const end = at + n;
    const entry: OddsEntry = {
      kind: 'odds',
      position: { ms: b.ms[j] as number, seq: b.seq[j] as number },
      eventId: b.eventIds[j] as string,
      sport: b.sports[j] as string,
      league: b.leagues[j] as string,
      at: b.at[j] as number,
      bytes: 0,
      count: end - at,
      layout: -1,
      packed: null,
      changes: {
        marketIds: b.marketIds.subarray(at, end),
        selectionIds: b.selectionIds.subarray(at, end),
        odds: b.odds.subarray(at, end),
        locked: b.locked.subarray(at, end),
      },
    };
    out.push({ entry, families: b.families.subarray(at, end) });
    j++;
    at = end;
  }
  return out;
}
