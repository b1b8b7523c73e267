// Write-behind of live data: changes are marked dirty and flushed to the store in batches.
import type { ReadModel } from '../live/read-model.js';
import type { WriteBatch } from '../store/store.js';

/**
 * Odds and scores change many times a second; writing each change would make the store the
 * bottleneck. Changes are coalesced per event and market and flushed every interval, so a
 * `kill -9` loses at most one interval of live odds. Results never wait here: they commit at once.
 */
export class WriteBehind {
  private events = new Set<string>();
  private markets = new Map<string, Set<number>>();
  private removed = new Map<string, Set<number>>();

  constructor(private readonly readModel: ReadModel) {}

  get pending(): number {
    let n = this.events.size;
    for (const s of this.markets.values()) n += s.size;
    for (const s of this.removed.values()) n += s.size;
    return n;
  }

  markEvent(eventId: string): void {
    this.events.add(eventId);
  }

  markMarkets(eventId: string, marketIds: Iterable<number>): void {
    let set = this.markets.get(eventId);
    if (set === undefined) this.markets.set(eventId, (set = new Set()));
    const gone = this.removed.get(eventId);
    for (const id of marketIds) {
      set.add(id);
      gone?.delete(id);
    }
  }

  markRemoved(eventId: string, marketIds: Iterable<number>): void {
    let set = this.removed.get(eventId);
    if (set === undefined) this.removed.set(eventId, (set = new Set()));
    const dirty = this.markets.get(eventId);
    for (const id of marketIds) {
      set.add(id);
      dirty?.delete(id);
    }
  }

  /** Takes everything pending (or only one event's share) out as a batch built from current state. */
  take(onlyEventId?: string): WriteBatch {
    const batch: WriteBatch = { events: [], markets: [], removedMarkets: [] };
    const eventIds = onlyEventId === undefined ? [...this.events] : this.events.has(onlyEventId) ? [onlyEventId] : [];
    for (const id of eventIds) {
      this.events.delete(id);
      const le = this.readModel.get(id);
      if (le !== undefined) batch.events.push(le.event);
    }
    const marketEntries =
      onlyEventId === undefined
        ? [...this.markets]
        : this.markets.has(onlyEventId)
          ? [[onlyEventId, this.markets.get(onlyEventId) as Set<number>] as const]
          : [];
    for (const [eventId, ids] of marketEntries) {
      this.markets.delete(eventId);
      const le = this.readModel.get(eventId);
      if (le === undefined) continue;
      for (const marketId of ids) {
        const i = le.book.indexOfMarket(marketId);
        if (i >= 0) batch.markets.push({ eventId, position: le.book.position(i), market: le.book.toMarket(i) });
      }
    }
    const removedEntries =
      onlyEventId === undefined
        ? [...this.removed]
        : this.removed.has(onlyEventId)
          ? [[onlyEventId, this.removed.get(onlyEventId) as Set<number>] as const]
          : [];
    for (const [eventId, ids] of removedEntries) {
      this.removed.delete(eventId);
      if (ids.size > 0) batch.removedMarkets.push({ eventId, marketIds: [...ids] });
    }
    return batch;
  }

  /** Puts a batch that failed to write back into the pending sets, so the next flush retries it. */
  restore(batch: WriteBatch): void {
    for (const e of batch.events) this.events.add(e.id);
    for (const m of batch.markets) this.markMarkets(m.eventId, [m.market.marketId]);
    for (const r of batch.removedMarkets) this.markRemoved(r.eventId, r.marketIds);
  }
}

export function isEmptyBatch(b: WriteBatch): boolean {
  return b.events.length === 0 && b.markets.length === 0 && b.removedMarkets.length === 0;
}
