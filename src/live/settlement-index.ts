// Counters of the settlement feed (total, fully settled, score only) without counting rows per request.

/** A sorted multiset of numbers with O(log n) rank queries; inserts at the end are O(1). */
class SortedTimes {
  private values = new Float64Array(1024);
  private n = 0;

  get size(): number {
    return this.n;
  }

  /** How many values are >= x. */
  countAtLeast(x: number): number {
    let lo = 0;
    let hi = this.n;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.values[mid] as number) < x) lo = mid + 1;
      else hi = mid;
    }
    return this.n - lo;
  }

  insert(x: number): void {
    if (this.n === this.values.length) {
      const grown = new Float64Array(this.values.length * 2);
      grown.set(this.values);
      this.values = grown;
    }
    // Entries mostly arrive newest last, so the scan from the end is short.
    let i = this.n;
    while (i > 0 && (this.values[i - 1] as number) > x) {
      this.values[i] = this.values[i - 1] as number;
      i--;
    }
    this.values[i] = x;
    this.n++;
  }

  remove(x: number): void {
    let i = this.n - 1;
    while (i >= 0 && this.values[i] !== x) i--;
    if (i < 0) return;
    this.values.copyWithin(i, i + 1, this.n);
    this.n--;
  }
}

/**
 * `total` = entries in the feed window, `score_only` = those older than the detail window,
 * `fully_settled` = those within the detail window with nothing pending. Kept in memory from the
 * store's summaries at start and every save after, so a page never counts a million rows.
 */
export class SettlementIndex {
  private readonly entries = new Map<string, { endedAt: number; settled: boolean }>();
  private readonly all = new SortedTimes();
  private readonly settled = new SortedTimes();

  get size(): number {
    return this.entries.size;
  }

  has(eventId: string): boolean {
    return this.entries.has(eventId);
  }

  /** An entry's end time and whether it is fully settled (the change stream passes it to other nodes). */
  get(eventId: string): { endedAt: number; settled: boolean } | undefined {
    const e = this.entries.get(eventId);
    return e === undefined ? undefined : { endedAt: e.endedAt, settled: e.settled };
  }

  /** Whether an entry still has markets pending. */
  pending(eventId: string): boolean {
    const e = this.entries.get(eventId);
    return e !== undefined && !e.settled;
  }

  upsert(eventId: string, endedAt: number, pendingCount: number): void {
    const old = this.entries.get(eventId);
    const settled = pendingCount === 0;
    if (old !== undefined) {
      if (old.endedAt === endedAt && old.settled === settled) return;
      this.all.remove(old.endedAt);
      if (old.settled) this.settled.remove(old.endedAt);
    }
    this.entries.set(eventId, { endedAt, settled });
    this.all.insert(endedAt);
    if (settled) this.settled.insert(endedAt);
  }

  delete(eventId: string): void {
    const old = this.entries.get(eventId);
    if (old === undefined) return;
    this.entries.delete(eventId);
    this.all.remove(old.endedAt);
    if (old.settled) this.settled.remove(old.endedAt);
  }

  /** Entries that ended before a time (leaving the feed window). */
  idsEndedBefore(before: number): string[] {
    const out: string[] = [];
    for (const [id, e] of this.entries) if (e.endedAt < before) out.push(id);
    return out;
  }

  /** Counts for the whole feed: `feedFrom` and `detailFrom` are the two windows' oldest ended_at. */
  counts(feedFrom: number, detailFrom: number): { total: number; fullySettled: number; scoreOnly: number } {
    const total = this.all.countAtLeast(feedFrom);
    const detailed = this.all.countAtLeast(Math.max(feedFrom, detailFrom));
    return {
      total,
      fullySettled: this.settled.countAtLeast(Math.max(feedFrom, detailFrom)),
      scoreOnly: total - detailed,
    };
  }

  /** Counts for a set of event ids (the event_id / event_ids filters). */
  countsFor(eventIds: readonly string[], feedFrom: number, detailFrom: number) {
    let total = 0;
    let fullySettled = 0;
    let scoreOnly = 0;
    for (const id of new Set(eventIds)) {
      const e = this.entries.get(id);
      if (e === undefined || e.endedAt < feedFrom) continue;
      total++;
      if (e.endedAt < detailFrom) scoreOnly++;
      else if (e.settled) fullySettled++;
    }
    return { total, fullySettled, scoreOnly };
  }
}
