// Write-behind of live data: changes are marked dirty and flushed to the store in batches.
import type { LiveEvent } from '../live/live-event.js';
import { BufferPool } from '../live/buffer-pool.js';
import { HistoryChunkWriter } from '../live/history-codec.js';
import type { OddsEntry } from '../live/log-entry.js';
import { changesRowBytes, encodeAllOdds, encodeChanges, oddsRowBytes } from '../live/odds-codec.js';
import { encodeOddsMarks } from '../live/odds-marks.js';
import type { ReadModel } from '../live/read-model.js';
import type { WriteBatch } from '../store/store.js';
export { isEmptyBatch } from '../store/store.js';

/** Odds changes of one event since the last flush. */
interface PendingOdds {
  /** The book layout the changes were made in. */
  layout: number;
  /** Every change since the last flush, in order, in the change log's compact form (copied from it). */
  changes: HistoryChunkWriter;
  /** Write every selection instead (after a failed flush, a layout change, or an event-wide lock). */
  full: boolean;
}

/** After this many delta rows an event gets a full row, and its older rows are deleted. */
const FULL_ROW_EVERY = 50;
/** Market documents an event's image may have written over it before the next flush images the event again (or 1/8 of its markets). */
const DOCS_OVER_IMAGE = 64;
/**
 * Odds and scores change many times a second; writing each change would make the store the
 * bottleneck. Changes are coalesced per event and flushed every interval, so a `kill -9` loses at
 * most one interval of live odds. Price and lock changes are written as compact odds rows (the
 * changes themselves in the change log's compact form, 5-7 bytes each, copied from the log's
 * own encoding), not as market documents: a tick of 100,000 changes is ~0.6 MB, where documents
 * would be 100 MB. An event whose markets were added or changed is written
 * whole, as one image of its book (book-image.ts), or, for a few markets of a book imaged before,
 * as their documents. Results never wait here: they commit at once. Nothing is deleted: withdrawn markets are
 * written with their `withdrawn` flag (they still settle).
 */
export class WriteBehind {
  private events = new Set<string>();
  private markets = new Map<string, Set<number>>();
  private odds = new Map<string, PendingOdds>();
  private rowsSinceFull = new Map<string, number>();
  /** Market documents written over each event's last image (absent: the event has no image this run). */
  private docsSinceImage = new Map<string, number>();
  /** Events whose opening or closing prices changed since the last flush. */
  private marked = new Set<string>();
  /**
   * Each ticking event's change writer, kept from one flush to the next: a ticking event fills it
   * again every interval, and new buffers per event per flush would be promoted memory that only
   * a full collection frees. One idle for a whole interval is let go.
   */
  private writers = new Map<string, HistoryChunkWriter>();
  /** Memory for the flushes' blocks of odds rows, and the block the flush in progress holds. */
  private readonly rowMemory = new BufferPool();
  private lentRows: Buffer | null = null;
  /** The last flush sequence number used (continues after a restart). */
  seq = 0;
  /**
   * Market documents waiting for a flush. They are what makes a flush expensive and its batch
   * large (a document is hundreds of bytes where an odds change is 17), so the pipeline holds
   * the feed back when too many wait (pipeline.ts, MAX_PENDING_MARKET_DOCS).
   */
  marketDocs = 0;

  constructor(private readonly readModel: ReadModel) {}

  get pending(): number {
    let n = this.events.size;
    for (const s of this.markets.values()) n += s.size;
    for (const p of this.odds.values()) n += p.full ? 1 : p.changes.count;
    return n;
  }

  markEvent(eventId: string): void {
    this.events.add(eventId);
  }

  /** The event's opening or closing prices changed (a first price move, going live, markets added then). */
  markOddsMarks(eventId: string): void {
    this.marked.add(eventId);
  }

  markMarkets(eventId: string, marketIds: Iterable<number>): void {
    let set = this.markets.get(eventId);
    if (set === undefined) this.markets.set(eventId, (set = new Set()));
    const before = set.size;
    for (const id of marketIds) set.add(id);
    this.marketDocs += set.size - before;
  }

  /**
   * An odds entry of the event, as it is appended (its changes' prices and locks are those of the
   * book now). `encoded`: the change log's compact bytes of its changes, copied when given.
   * `eventLocked`: the event as a whole is locked (a status or a stale feed), which the entry's
   * locks fold in: the row is then a full one, of each selection's own lock.
   */
  markOdds(le: LiveEvent, entry: OddsEntry, encoded: Uint8Array | null, eventLocked: boolean): void {
    const id = le.event.id;
    let p = this.odds.get(id);
    if (p === undefined) {
      let changes = this.writers.get(id);
      if (changes === undefined) this.writers.set(id, (changes = new HistoryChunkWriter()));
      p = { layout: entry.layout, changes, full: false };
      this.odds.set(id, p);
    }
    if (p.full) return;
    // Changes made in another layout, or with the event's lock folded in: the row becomes a full one.
    if (eventLocked || p.layout !== entry.layout) {
      p.full = true;
      p.changes.clear();
      return;
    }
    if (encoded !== null) p.changes.addEncoded(entry.at, entry.count, encoded);
    else p.changes.add(entry.at, entry.changes, 0, entry.count);
  }

  /** Takes everything pending (or only one event's share) out as a batch built from current state. */
  take(onlyEventId?: string): WriteBatch {
    const seq = ++this.seq;
    const batch: WriteBatch = { events: [], markets: [], removedMarkets: [], seq, oddsLog: [], oddsLogPrune: [] };
    const only = <T>(m: Map<string, T> | Set<string>): string[] =>
      onlyEventId === undefined ? [...m.keys()] : m.has(onlyEventId) ? [onlyEventId] : [];

    for (const id of only(this.events)) {
      this.events.delete(id);
      const le = this.readModel.get(id);
      // A stale-feed lock is stored with the event (rare: a copy only then), so a reload keeps it.
      if (le !== undefined) batch.events.push(le.stale ? { ...le.event, feedStale: true } : le.event);
    }
    for (const eventId of only(this.marked)) {
      this.marked.delete(eventId);
      const marks = this.readModel.get(eventId)?.book.marks();
      if (marks != null) (batch.oddsMarks ??= []).push({ eventId, data: encodeOddsMarks(marks) });
    }
    // An event whose markets changed is written whole, as one image of its book: a restart then
    // copies columns instead of parsing a document per market (book-image.ts). The image holds
    // its current prices too, so the event needs no odds row in this flush.
    // A few markets changed in a book already imaged (live lines added and taken off) go as
    // documents, which a restart applies over the image, until they are many.
    const imaged = new Set<string>();
    for (const eventId of only(this.markets)) {
      const ids = this.markets.get(eventId) ?? new Set<number>();
      this.markets.delete(eventId);
      this.marketDocs -= ids.size;
      const le = this.readModel.get(eventId);
      if (le === undefined) continue;
      const docs = this.docsSinceImage.get(eventId);
      if (docs === undefined || docs + ids.size > Math.max(DOCS_OVER_IMAGE, le.book.marketCount / 8)) {
        (batch.bookImages ??= []).push({ eventId, data: le.book.image() });
        this.docsSinceImage.set(eventId, 0);
        imaged.add(eventId);
        continue;
      }
      this.docsSinceImage.set(eventId, docs + ids.size);
      for (const marketId of ids) {
        const i = le.book.indexOfMarket(marketId);
        if (i >= 0) batch.markets.push({ eventId, position: le.book.position(i), market: le.book.toMarket(i) });
      }
    }
    // Rows are written into one block per flush, reused by the next flush once the store has
    // taken this one (returnRows): new memory per row per flush (~2 MB a flush at 1,000 ticking
    // events) lived until the commit, was promoted, and made V8 start full collections.
    const rows: Array<{ eventId: string; le: LiveEvent; pending: PendingOdds; full: boolean }> = [];
    let bytes = 0;
    const taken = new Set<string>();
    for (const eventId of only(this.odds)) {
      taken.add(eventId);
      const pending = this.odds.get(eventId);
      this.odds.delete(eventId);
      const le = this.readModel.get(eventId);
      if (le === undefined || pending === undefined) continue;
      if (imaged.has(eventId)) {
        // The image is this flush's full row: older rows go with it.
        this.rowsSinceFull.set(eventId, 1);
        pending.changes.clear();
        continue;
      }
      const since = this.rowsSinceFull.get(eventId) ?? 0;
      const full = since >= FULL_ROW_EVERY || pending.full || pending.layout !== le.book.layout;
      if (full) pending.changes.clear();
      else if (pending.changes.count === 0) continue;
      this.rowsSinceFull.set(eventId, full ? 1 : since + 1);
      rows.push({ eventId, le, pending, full });
      bytes += full ? oddsRowBytes(le.book.outcomeCount) : changesRowBytes(pending.changes);
    }
    // A writer idle for a whole interval is let go (its event stopped ticking, or left).
    if (onlyEventId === undefined) {
      for (const id of this.writers.keys()) if (!taken.has(id)) this.writers.delete(id);
    }
    let block: Uint8Array = new Uint8Array(0);
    if (onlyEventId !== undefined) block = new Uint8Array(bytes);
    else if (bytes > 0) block = this.lentRows = this.rowMemory.take(bytes);
    let at = 0;
    for (const { eventId, le, pending, full } of rows) {
      if (full) {
        const into = block.subarray(at, (at += oddsRowBytes(le.book.outcomeCount)));
        batch.oddsLog?.push({ eventId, data: encodeAllOdds(le.book, le.event.updatedAt, into) });
        batch.oddsLogPrune?.push({ eventId, beforeSeq: seq });
      } else {
        const into = block.subarray(at, (at += changesRowBytes(pending.changes)));
        batch.oddsLog?.push({ eventId, data: encodeChanges(pending.changes, le.event.updatedAt, into) });
      }
    }
    return batch;
  }

  /** The store has taken (or failed) the last flush: its row block may be written again. */
  returnRows(): void {
    if (this.lentRows !== null) this.rowMemory.give(this.lentRows);
    this.lentRows = null;
  }

  /** Puts a batch that failed to write back into the pending sets, so the next flush retries it. */
  restore(batch: WriteBatch): void {
    for (const e of batch.events) this.events.add(e.id);
    for (const m of batch.oddsMarks ?? []) this.marked.add(m.eventId);
    for (const m of batch.markets) this.markMarkets(m.eventId, [m.market.marketId]);
    for (const b of batch.bookImages ?? []) {
      // Not stored: the next flush images the event again.
      this.docsSinceImage.delete(b.eventId);
      if (!this.markets.has(b.eventId)) this.markets.set(b.eventId, new Set());
    }
    for (const r of batch.oddsLog ?? []) {
      // The failed row's content is current state again at the next flush: a full row is safest.
      this.rowsSinceFull.set(r.eventId, FULL_ROW_EVERY);
      const pending = this.odds.get(r.eventId);
      if (pending !== undefined) {
        pending.full = true;
        pending.changes.clear();
      } else this.odds.set(r.eventId, { layout: -1, changes: new HistoryChunkWriter(), full: true });
    }
  }

  /** An event that left the read model: nothing more to track for it. */
  forget(eventId: string): void {
    this.rowsSinceFull.delete(eventId);
    this.writers.delete(eventId);
    this.docsSinceImage.delete(eventId);
  }
}
