// Odds history capture: follows the change log and keeps every price and lock change per event until a flush writes it as one chunk.
import type { LogEntry } from '../live/change-log.js';
import { decodeHistory, HistoryChunkWriter, type HistoryColumns } from '../live/history-codec.js';
import type { OddsEntry } from '../live/log-entry.js';
import type { HistoryChunk } from '../store/store.js';

/** How many flushes in a row reads under way may hold the history back (a flush every 500 ms: 4 s). */
const MAX_DEFERRALS = 8;

/**
 * Every price and lock change of the change log (odds entries, and the prices a market is added
 * or re-sent with: a market's first prices are its opening odds) goes here, per event, and leaves
 * as one encoded chunk per event at each write-behind flush: the store writes them in the flush's
 * transaction. Unlike the odds rows of write-behind, nothing is coalesced: two changes of one
 * selection within a flush are two records.
 */
export class OddsHistoryRecorder {
  /** Each event's changes since the last flush, encoded as they come. */
  private pending = new Map<string, HistoryChunkWriter>();
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

  /**
   * `encoded`: the change log's own compact bytes of an odds entry's changes while its listeners
   * run (ChangeLog.encodedOddsOf), copied instead of encoding the same changes twice.
   */
  constructor(private readonly encoded: (entry: OddsEntry) => Uint8Array | null = () => null) {}

  record(entry: LogEntry): void {
    if (entry.kind === 'odds') {
      const n = entry.count;
      const encoded = this.encoded(entry);
      const writer = this.writerOf(entry.eventId);
      if (encoded !== null) writer.addEncoded(entry.at, n, encoded);
      else writer.add(entry.at, entry.changes, 0, n);
      this.recorded += n;
    } else if (entry.kind === 'markets') {
      const flags = entry.repriced;
      let n = 0;
      for (let k = 0; k < flags.length; k++) n += flags[k] as number;
      if (n === 0) return;
      const cols = {
        marketIds: new Float64Array(n),
        selectionIds: new Float64Array(n),
        odds: new Float64Array(n),
        locked: new Uint8Array(n),
      };
      let k = 0;
      let j = 0;
      for (const m of entry.added) {
        for (const o of m.outcomes) {
          if (flags[k++] !== 1) continue;
          cols.marketIds[j] = m.marketId;
          cols.selectionIds[j] = o.selectionId;
          cols.odds[j] = o.odds;
          cols.locked[j++] = o.isLocked ? 1 : 0;
        }
      }
      this.writerOf(entry.eventId).add(entry.at, cols, 0, n);
      this.recorded += n;
    }
  }

  /** Changes waiting for a flush. */
  get backlog(): number {
    let n = 0;
    for (const w of this.pending.values()) n += w.count;
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
    for (const [eventId, w] of this.pending) {
      // Writers keep their buffer for the next flush (a ticking event fills it again every
      // interval: a new one each time would be megabytes a second for the collector); one idle
      // for a whole interval is let go.
      if (w.count === 0) {
        this.pending.delete(eventId);
        continue;
      }
      const { fromAt, toAt, count } = w;
      out.push({ eventId, fromAt, toAt, count, data: w.take() as Uint8Array });
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
    const w = this.pending.get(eventId);
    if (w !== undefined && w.count === 0) this.pending.delete(eventId);
  }

  /** Unwritten chunks of an event (a failed flush), oldest first. */
  unwrittenOf(eventId: string): HistoryChunk[] {
    return this.unwritten.filter((c) => c.eventId === eventId);
  }

  /** The pending (not yet stored) changes of an event. */
  pendingOf(eventId: string): { cols: HistoryColumns; n: number } | null {
    const chunk = this.pending.get(eventId)?.peek() ?? null;
    if (chunk === null) return null;
    const cols = decodeHistory(chunk);
    return { cols, n: cols.at.length };
  }

  private writerOf(eventId: string): HistoryChunkWriter {
    let w = this.pending.get(eventId);
    if (w === undefined) {
      w = new HistoryChunkWriter();
      this.pending.set(eventId, w);
    }
    return w;
  }
}
