// Reading the odds history: stored chunks plus what waits for the next flush, in order of time, paged, or folded into the prices at an instant.
import { decodeHistory, type HistoryColumns } from '../live/history-codec.js';
import type { Store } from '../store/store.js';
import type { OddsHistoryRecorder } from './odds-history.js';

/** One price or lock change. */
export interface HistoryChange {
  marketId: number;
  selectionId: number;
  odds: number;
  locked: boolean;
  /** World time, epoch ms. */
  at: number;
}

/** Where a page ends: the next starts after `skip` changes at exactly `at`. */
export interface HistoryCursor {
  at: number;
  skip: number;
}

export interface HistoryQuery {
  eventId: string;
  fromAt: number;
  toAt: number;
  marketId: number | null;
  selectionId: number | null;
  cursor: HistoryCursor | null;
  limit: number;
}

export interface HistoryPage {
  changes: HistoryChange[];
  next: HistoryCursor | null;
}

/** A selection's price and lock at an instant. */
export interface PriceAt {
  odds: number;
  locked: boolean;
  /** When it was set (world ms). */
  at: number;
}

/** Store chunks read per query round. */
const CHUNKS_PER_READ = 64;

type HistoryStore = Pick<Store, 'listOddsHistory'>;

/**
 * The history as a client sees it: changes ordered by time (then in the order they were
 * applied; a market re-sent unchanged was never recorded, see MarketsEntry.repriced). On a node that writes the store, changes not flushed yet are
 * included; an API replica sees what its leader has flushed (at most a flush interval behind).
 */
export class OddsHistoryReads {
  constructor(
    private readonly store: HistoryStore,
    private readonly recorder: OddsHistoryRecorder | null,
  ) {}

  async page(q: HistoryQuery): Promise<HistoryPage> {
    const from = Math.max(q.fromAt, q.cursor?.at ?? -Infinity);
    const skip = q.cursor?.skip ?? 0;
    const keep = (c: HistoryChange): boolean =>
      c.at >= from &&
      c.at <= q.toAt &&
      (q.marketId === null || c.marketId === q.marketId) &&
      (q.selectionId === null || c.selectionId === q.selectionId);
    // Enough to cut the page and know whether another follows.
    const changes = await this.changes(q.eventId, from, q.toAt, keep, skip + q.limit + 1);
    let start = 0;
    while (start < skip && start < changes.length && (changes[start] as HistoryChange).at === from) start++;
    const page = changes.slice(start, start + q.limit);
    if (start + q.limit >= changes.length) return { changes: page, next: null };
    const last = page[page.length - 1] as HistoryChange;
    let sameAt = 0;
    for (const c of page) if (c.at === last.at) sameAt++;
    return { changes: page, next: { at: last.at, skip: last.at === from ? start + sameAt : sameAt } };
  }

  /**
   * Every selection's price and lock as it stood at `at` (selections priced by then): the latest
   * change of each at or before `at`, the last applied among changes at one instant. Folded as the
   * columns are read (no object per change, no sort: an hour of a live event is a million changes).
   */
  async at(eventId: string, at: number): Promise<Map<number, PriceAt>> {
    return this.consistently(async () => {
      const out = new Map<number, PriceAt>();
      const fold = (cols: HistoryColumns, n: number): void => {
        for (let k = 0; k < n; k++) {
          const t = cols.at[k] as number;
          if (t > at) continue;
          const id = cols.selectionIds[k] as number;
          const seen = out.get(id);
          // Columns come in the order changes were applied: at one instant, the later one wins.
          if (seen === undefined) out.set(id, { odds: cols.odds[k] as number, locked: cols.locked[k] === 1, at: t });
          else if (t >= seen.at) {
            seen.odds = cols.odds[k] as number;
            seen.locked = cols.locked[k] === 1;
            seen.at = t;
          }
        }
      };
      let afterSeq = -1;
      for (;;) {
        const chunks = await this.store.listOddsHistory({
          eventId,
          fromAt: -1e15,
          toAt: at,
          afterSeq,
          limit: CHUNKS_PER_READ,
        });
        for (const chunk of chunks) fold(decodeHistory(chunk.data), chunk.count);
        if (chunks.length < CHUNKS_PER_READ) break;
        afterSeq = (chunks[chunks.length - 1] as { seq: number }).seq;
      }
      for (const { cols, n } of this.pendingOf(eventId)) fold(cols, n);
      return out;
    });
  }

  /** Whether anything was ever recorded for the event (stored or pending). */
  async known(eventId: string): Promise<boolean> {
    return this.consistently(async () => {
      const first = await this.store.listOddsHistory({ eventId, fromAt: -1e15, toAt: 1e15, afterSeq: -1, limit: 1 });
      return first.length > 0 || this.pendingOf(eventId).length > 0;
    });
  }

  /** A read that sees each change once, stored or in memory, whatever flushes do meanwhile. */
  private consistently<T>(read: () => Promise<T>): Promise<T> {
    return this.recorder === null ? read() : this.recorder.consistently(read);
  }

  /**
   * Changes in [fromAt, toAt] accepted by `keep`, sorted by time, stably (stored in the order
   * written, then pending): at least the first `want` of them, exactly. Chunks are read in the
   * order written, which is nearly the order of time; reading stops once a whole round of chunks
   * starts after the `want`-th change found so far (none of them could come before it).
   */
  private changes(
    eventId: string,
    fromAt: number,
    toAt: number,
    keep: (c: HistoryChange) => boolean,
    want: number,
  ): Promise<HistoryChange[]> {
    return this.consistently(() => this.read(eventId, fromAt, toAt, keep, want));
  }

  private async read(
    eventId: string,
    fromAt: number,
    toAt: number,
    keep: (c: HistoryChange) => boolean,
    want: number,
  ): Promise<HistoryChange[]> {
    let out: HistoryChange[] = [];
    let afterSeq = -1;
    const lo = Number.isFinite(fromAt) ? fromAt : -1e15;
    const hi = Number.isFinite(toAt) ? toAt : 1e15;
    for (;;) {
      const chunks = await this.store.listOddsHistory({
        eventId,
        fromAt: lo,
        toAt: hi,
        afterSeq,
        limit: CHUNKS_PER_READ,
      });
      if (out.length >= want) {
        out.sort(byTime);
        const cut = (out[want - 1] as HistoryChange).at;
        if (chunks.every((c) => c.fromAt > cut)) break;
        out = out.slice(0, want);
      }
      for (const chunk of chunks) collect(decodeHistory(chunk.data), chunk.count, keep, out);
      if (chunks.length < CHUNKS_PER_READ) break;
      afterSeq = (chunks[chunks.length - 1] as { seq: number }).seq;
    }
    for (const { cols, n } of this.pendingOf(eventId)) collect(cols, n, keep, out);
    // Stable: changes at the same instant stay in the order they were applied.
    return out.sort(byTime);
  }

  private pendingOf(eventId: string): Array<{ cols: HistoryColumns; n: number }> {
    const r = this.recorder;
    if (r === null) return [];
    const out = r.unwrittenOf(eventId).map((c) => ({ cols: decodeHistory(c.data), n: c.count }));
    const pending = r.pendingOf(eventId);
    if (pending !== null) out.push(pending);
    return out;
  }
}

function collect(cols: HistoryColumns, n: number, keep: (c: HistoryChange) => boolean, out: HistoryChange[]): void {
  for (let k = 0; k < n; k++) {
    const c: HistoryChange = {
      marketId: cols.marketIds[k] as number,
      selectionId: cols.selectionIds[k] as number,
      odds: cols.odds[k] as number,
      locked: cols.locked[k] === 1,
      at: cols.at[k] as number,
    };
    if (keep(c)) out.push(c);
  }
}

const byTime = (a: HistoryChange, b: HistoryChange): number => a.at - b.at;
