// Odds history capture: follows the change log and keeps every price and lock change per event until a flush writes it as one chunk.
import type { LogEntry } from '../live/change-log.js';
import { encodeHistory, historyColumns, type HistoryColumns } from '../live/history-codec.js';
import type { HistoryChunk } from '../store/store.js';

/** One event's changes since the last flush, in the order they happened. */
interface Pending {
  cols: HistoryColumns;
  n: number;
}

/** How many flushes in a row reads under way may hold the history back (a flush every 500 ms: 4 s). */
const MAX_DEFERRALS = 8;

/** A pending buffer never starts smaller than this (most ticks of a live event change tens of prices). */
const MIN_CAPACITY = 64;

/**
 * Every price and lock change of the change log (odds entries, and the prices a market is added
 * or re-sent with: a market's first prices are its opening odds) goes here, per event, and leaves
 * as one encoded chunk per event at each write-behind flush: the store writes them in the flush's
 * transaction. Unlike the odds rows of write-behind, nothing is coalesced: two changes of one
 * selection within a flush are two records.
 */
export class OddsHistoryRecorder {
  private pending = new Map<string, Pending>();
  /** Chunks of a failed flush, written first by the next one. */
  private unwritten: HistoryChunk[] = [];
  /** Changes recorded since start (metrics). */
  recorded = 0;
  /**
   * Raised each time a flush takes chunks: a read that saw it move while it read the store may
   * have missed the chunks in between (no longer in memory, not yet in what it read), and reads
   * again.
   */
  generation = 0;
  /** Reads of the history under way: flushes leave the chunks in memory meanwhile (a few times). */
  private readers = 0;
  private deferred = 0;
  /** The write of the chunks a flush took, until it succeeds or fails (then they are unwritten again). */
  private writing: Promise<void> | null = null;
  private endWriting: (() => void) | null = null;

  record(entry: LogEntry): void {
    if (entry.kind === 'odds') {
      const c = entry.changes;
      const n = c.selectionIds.length;
      const p = this.room(entry.eventId, n);
      for (let k = 0; k < n; k++) {
        this.put(
          p,
          entry.at,
          c.marketIds[k] as number,
          c.selectionIds[k] as number,
          c.odds[k] as number,
          c.locked[k] as number,
        );
      }
    } else if (entry.kind === 'markets') {
      const flags = entry.repriced;
      let n = 0;
      for (let k = 0; k < flags.length; k++) n += flags[k] as number;
      if (n === 0) return;
      const p = this.room(entry.eventId, n);
      let k = 0;
      for (const m of entry.added) {
        for (const o of m.outcomes) {
          if (flags[k++] === 1) this.put(p, entry.at, m.marketId, o.selectionId, o.odds, o.isLocked ? 1 : 0);
        }
      }
    }
  }

  /** Changes waiting for a flush. */
  get backlog(): number {
    let n = 0;
    for (const p of this.pending.values()) n += p.n;
    return n;
  }

  /**
   * What the next flush writes: chunks kept from a failed flush first, then every pending event's
   * changes encoded as one chunk each.
   */
  take(): HistoryChunk[] {
    // A read under way would miss what leaves memory now and is not stored yet: the chunks wait
    // for the next flush instead, unless reads have held them back for MAX_DEFERRALS flushes.
    if (this.writing !== null || (this.readers > 0 && this.deferred++ < MAX_DEFERRALS)) return [];
    this.deferred = 0;
    const out = this.unwritten;
    this.unwritten = [];
    for (const [eventId, p] of this.pending) {
      // Buffers are kept for the next flush (a ticking event fills them again every interval:
      // new ones each time would be megabytes a second for the collector); one idle for a whole
      // interval is let go.
      if (p.n === 0) {
        this.pending.delete(eventId);
        continue;
      }
      out.push({
        eventId,
        fromAt: minAt(p.cols.at, p.n),
        toAt: maxAt(p.cols.at, p.n),
        count: p.n,
        data: encodeHistory(p.cols, p.n),
      });
      p.n = 0;
    }
    if (out.length > 0) {
      this.generation++;
      this.writing = new Promise((resolve) => (this.endWriting = resolve));
    }
    return out;
  }

  /** The chunks of the last take() are stored, or (after restore()) back in memory: reads go on. */
  settled(): void {
    const end = this.endWriting;
    this.writing = null;
    this.endWriting = null;
    end?.();
  }

  /**
   * Runs a read of stored and in-memory changes so that it sees each change exactly once: after
   * any write under way, holding flushes' takes back while it runs, and again if one took chunks
   * all the same (reads held flushes back too long).
   */
  async consistently<T>(read: () => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      while (this.writing !== null) await this.writing;
      const generation = this.generation;
      this.readers++;
      try {
        const out = await read();
        if (generation === this.generation || attempt >= 3) return out;
      } finally {
        this.readers--;
      }
    }
  }

  /** A flush that failed: its chunks are written again by the next one, before what came since. */
  restore(chunks: readonly HistoryChunk[]): void {
    this.unwritten.unshift(...chunks);
  }

  /** An event that left the read model: its pending changes are still written; its buffers go. */
  forget(eventId: string): void {
    const p = this.pending.get(eventId);
    if (p !== undefined && p.n === 0) this.pending.delete(eventId);
  }

  /** Unwritten chunks of an event (a failed flush), oldest first. */
  unwrittenOf(eventId: string): HistoryChunk[] {
    return this.unwritten.filter((c) => c.eventId === eventId);
  }

  /** The pending (not yet encoded) changes of an event. */
  pendingOf(eventId: string): { cols: HistoryColumns; n: number } | null {
    const p = this.pending.get(eventId);
    return p === undefined || p.n === 0 ? null : { cols: p.cols, n: p.n };
  }

  private room(eventId: string, extra: number): Pending {
    let p = this.pending.get(eventId);
    if (p === undefined) {
      p = { cols: historyColumns(Math.max(MIN_CAPACITY, extra)), n: 0 };
      this.pending.set(eventId, p);
    } else if (p.n + extra > p.cols.at.length) {
      const grown = historyColumns(Math.max(p.n + extra, p.cols.at.length * 2));
      grown.at.set(p.cols.at.subarray(0, p.n));
      grown.marketIds.set(p.cols.marketIds.subarray(0, p.n));
      grown.selectionIds.set(p.cols.selectionIds.subarray(0, p.n));
      grown.odds.set(p.cols.odds.subarray(0, p.n));
      grown.locked.set(p.cols.locked.subarray(0, p.n));
      p.cols = grown;
    }
    return p;
  }

  private put(p: Pending, at: number, marketId: number, selectionId: number, odds: number, locked: number): void {
    const k = p.n++;
    p.cols.at[k] = at;
    p.cols.marketIds[k] = marketId;
    p.cols.selectionIds[k] = selectionId;
    p.cols.odds[k] = odds;
    p.cols.locked[k] = locked;
    this.recorded++;
  }
}

function minAt(at: Float64Array, n: number): number {
  let m = Infinity;
  for (let k = 0; k < n; k++) if ((at[k] as number) < m) m = at[k] as number;
  return m;
}

function maxAt(at: Float64Array, n: number): number {
  let m = -Infinity;
  for (let k = 0; k < n; k++) if ((at[k] as number) > m) m = at[k] as number;
  return m;
}
