// Write-behind of live data: changes are marked dirty and flushed to the store in batches.
import type { ReadModel } from '../live/read-model.js';
import type { WriteBatch } from '../store/store.js';

/**
 * Odds and scores change many times a second; writing each change would make the store the
 * bottleneck. Changes are coalesced per event and market and flushed every interval, so a
 * `kill -9` loses at most one interval of live odds. Results never wait here: they commit at once.
 * Nothing is deleted: withdrawn markets are written with their `withdrawn` flag (they still settle).
 */
export class WriteBehind {
  private events = new Set<string>();
  private markets = new Map<string, Set<number>>();

  constructor(private readonly readModel: ReadModel) {}

  get pending(): number {
    let n = this.events.size;
    for (const s of this.markets.values()) n += s.size;
    return n;
  }

  markEvent(eventId: string): void {
    this.events.add(eventId);
  }

  markMarkets(eventId: string, marketIds: Iterable<number>): void {
    let set = this.markets.get(eventId);
    if (set === undefined) this.markets.set(eventId, (set = new Set()));
    for (const id of marketIds) set.add(id);
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
    const marketIds =
      onlyEventId === undefined ? [...this.markets.keys()] : this.markets.has(onlyEventId) ? [onlyEventId] : [];
    for (const eventId of marketIds) {
      const ids = this.markets.get(eventId) ?? new Set<number>();
      this.markets.delete(eventId);
      const le = this.readModel.get(eventId);
      if (le === undefined) continue;
      for (const marketId of ids) {
        const i = le.book.indexOfMarket(marketId);
        if (i >= 0) batch.markets.push({ eventId, position: le.book.position(i), market: le.book.toMarket(i) });
      }
    }
    return batch;
  }

  /** Puts a batch that failed to write back into the pending sets, so the next flush retries it. */
  restore(batch: WriteBatch): void {
    for (const e of batch.events) this.events.add(e.id);
    for (const m of batch.markets) this.markMarkets(m.eventId, [m.market.marketId]);
  }
}

export function isEmptyBatch(b: WriteBatch): boolean {
  return b.events.length === 0 && b.markets.length === 0 && b.removedMarkets.length === 0;
}
