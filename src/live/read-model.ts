// The in-memory read model: every current event with indexes for the list filters and cached payloads.
import { createHash, randomBytes } from 'node:crypto';
import { sportByKey, sportOrder } from '../domain/sports.js';
import type { EventResult, Market, OddsFormat, SportEvent } from '../domain/types.js';
import { ChangeLog } from './change-log.js';
import {
  evictedEntry,
  marketsEntry,
  oddsEntry,
  resultEntry,
  scoreEntry,
  statsEntry,
  statusEntry,
  oddsEntryBytes,
  type LockReason,
} from './log-entries.js';
import { ODDS_CHANGE_MAX_BYTES, putVarint } from './log-codec.js';
import { ColumnSlab } from './column-slab.js';
import { PackedOddsEntry } from './packed-odds-entry.js';
import { queryKey, statusMatches, type EventQuery } from './event-query.js';
import { newLiveEvent, type LiveEvent } from './live-event.js';
import { PayloadCache } from './payload-cache.js';
import { BufferPool } from './buffer-pool.js';
import { CachedPayload } from './cached-payload.js';
import { CompressedForms, newCompressionStats, type CompressionStats } from './compressed-forms.js';
import { compress, type Coding } from './compression.js';
import type { MarketFilter } from './market-filter.js';
import { PatchablePayload } from './patchable-payload.js';
import {
  batchItemFrame,
  detailFrame,
  forcedLock,
  listItem,
  oddsFrame,
  openMarketsCount,
  statusLocks,
  type PayloadFrame,
} from './payloads.js';
import { tagPrefix, type ServedPayload } from './served-payload.js';
import { TaggedForms } from './tagged-forms.js';

/** Events that ended this recently stay in the live scores (interface.md: 5 minutes). */
export const RECENTLY_ENDED_MS = 5 * 60 * 1000;
const PLAYED_FINAL = new Set(['ended', 'abandoned', 'retired']);
const MAX_PAGE_ENTRIES = 2000;

export interface ReadModelOptions {
  now: () => number;
  /** Byte budget of the cache of large payloads (odds, detail, batch items) and their compressed forms. */
  payloadCacheBytes?: number;
  /** The change log every mutation appends to (default: a log of its own, one hour or 256 MB). */
  log?: ChangeLog;
  /** Byte budget of the compressed forms of batch responses (assembled per request, compressed once per change). */
  batchFormBytes?: number;
  /** Byte budget of the cache of filtered payloads (`markets=`), their compressed forms included. */
  variantCacheBytes?: number;
  /** Filtered payloads cached at most, whatever their size. */
  variantCacheEntries?: number;
}

/** A list page as cached: its bytes for one list version, their tag, and their compressed forms. */
class CachedPage implements ServedPayload {
  constructor(
    readonly body: Buffer,
    readonly version: number,
    readonly tag: string,
    readonly forms: CompressedForms,
  ) {}

  encoded(coding: Coding): Buffer | Promise<Buffer> {
    return this.forms.get(coding, this.body);
  }
}

/** Bytes no version describes (a page relative to the clock): a hash gives the tag, every request compresses. */
function uncached(body: Buffer): ServedPayload {
  return { body, tag: null, encoded: (coding) => compress(coding, body) };
}

export interface LeagueSummary {
  slug: string;
  name: string;
  country: string;
  sport: { key: string; name: string };
  active_events: number;
  live_events: number;
}

export interface SportSummary {
  key: string;
  name: string;
  sport_id: number;
  active_events: number;
  live_events: number;
  has_outrights: boolean;
}

export class ReadModel {
  private readonly events = new Map<string, LiveEvent>();
  private ordered: LiveEvent[] = [];
  private orderedBySport = new Map<string, LiveEvent[]>();
  private orderDirty = false;
  /** Raised by every change to any event: list pages and summaries built before it are stale. */
  private listVersion = 1;
  private readonly pages = new Map<string, CachedPage>();
  /** Where odds entries' compact bytes are written (see applyPrices). */
  private readonly packSlab = new ColumnSlab();
  private readonly payloads: PayloadCache;
  /**
   * Filtered payloads (a read's `markets=`), apart from the unfiltered ones: a client can name ever
   * new sets of families, and its variants must never push the hot full payloads out of their
   * budget. Bounded in bytes and in entries (most variants are small: a `1x2` is ~1 KB).
   */
  private readonly variants: PayloadCache;
  /** Compressed forms of batch responses by tag (a poller asking for the same events again reuses them). */
  private readonly batchForms: TaggedForms;
  /**
   * Part of every payload tag: versions restart with the process and differ between API nodes, so
   * a tag one process gave never matches in another (a client then gets a 200, never a wrong 304).
   */
  private readonly tagNonce = randomBytes(6).toString('base64url');
  /** Compressed forms of cached payloads, pages and batch responses: built, and reused. */
  readonly compression: CompressionStats = newCompressionStats();
  /** Memory of refreshed payloads, recycled once no response holds it. */
  readonly buffers = new BufferPool();
  /** Serialized list items per event, per format and base URL (small; rebuilt on the event's change). */
  private readonly items = new WeakMap<LiveEvent, { version: number; byKey: Map<string, string> }>();
  private readonly now: () => number;
  /** How many payloads were serialized (pages, items, odds, detail…): stays put while nothing changes. */
  serializations = 0;
  /** Selections written into odds, detail and batch payloads (a refresh writes only the moved ones). */
  selectionsWritten = 0;
  /** Bytes held by the cache of market payloads (their compressed forms included). */
  get payloadCacheBytes(): number {
    return this.payloads.usedBytes;
  }

  /** Bytes and entries held by the cache of filtered payloads (`markets=`). */
  get variantCache(): { bytes: number; entries: number } {
    return { bytes: this.variants.usedBytes, entries: this.variants.size };
  }

  /** Bytes of compressed forms held: market payloads' (filtered ones too), list pages' and batch responses'. */
  get compressedBytes(): number {
    let pages = 0;
    for (const page of this.pages.values()) pages += page.forms.bytes;
    return this.payloads.compressedBytes + this.variants.compressedBytes + pages + this.batchForms.usedBytes;
  }
  /** Market payloads rendered whole (first read, change of shape, or evicted from the cache). */
  payloadBuilds = 0;
  payloadBuiltBytes = 0;
  /** Market payloads brought up to date in place after price ticks. */
  payloadRefreshes = 0;
  /** Team name behind each logo id, so logos can be drawn for any producer's ids. */
  readonly logoTeams = new Map<string, string>();
  /** Sports that have outright tournaments (filled by the outrights model later). */
  readonly sportsWithOutrights = new Set<string>();
  /** Every change made here, in order, with its position: what the stream, settlement and scale-out follow. */
  readonly log: ChangeLog;
  /** The archived results of the events held here (the result endpoint asks the store for older ones). */
  private readonly results = new Map<string, EventResult>();

  constructor(opts: ReadModelOptions) {
    this.now = opts.now;
    this.log = opts.log ?? new ChangeLog({ now: Date.now, windowMs: 3_600_000, maxBytes: 256 * 1024 * 1024 });
    // Room for the odds payloads of ~1,200 live 1,000-market events (a miss costs a full rebuild),
    // within the capacity run's 2 GB: at 512 MB the whole service peaked at 1.92 GB.
    this.payloads = new PayloadCache(opts.payloadCacheBytes ?? 384 * 1024 * 1024, (entry) => {
      entry.forms.clear();
      this.buffers.give(entry.payload.body);
    });
    this.variants = new PayloadCache(
      opts.variantCacheBytes ?? 32 * 1024 * 1024,
      (entry) => {
        entry.forms.clear();
        this.buffers.give(entry.payload.body);
      },
      opts.variantCacheEntries ?? 4096,
    );
    this.batchForms = new TaggedForms(opts.batchFormBytes ?? 32 * 1024 * 1024, this.compression);
  }

  get size(): number {
    return this.events.size;
  }

  get version(): number {
    return this.listVersion;
  }

  /** Bytes held by the cache of large payloads (odds, detail, batch items). */
  get cachedPayloadBytes(): number {
    return this.payloads.usedBytes;
  }

  get(id: string): LiveEvent | undefined {
    return this.events.get(id);
  }

  all(): IterableIterator<LiveEvent> {
    return this.events.values();
  }

  // ---- mutations (the pipeline is the only caller) ----

  /** Inserts a new event or replaces an event's fixture/state (not its markets). */
  putEvent(event: SportEvent): LiveEvent {
    if (event.homeLogoId !== null) this.logoTeams.set(event.homeLogoId, event.homeTeam);
    if (event.awayLogoId !== null) this.logoTeams.set(event.awayLogoId, event.awayTeam);
    const existing = this.events.get(event.id);
    if (existing === undefined) {
      const le = newLiveEvent(event);
      // Cached payloads are keyed by event id and version. An id seen again after its event was
      // evicted must not restart at a version the old event's payloads still sit under; the list
      // version has passed every event version, so starting there is always new.
      le.version = ++this.listVersion;
      this.events.set(event.id, le);
      this.orderDirty = true;
      this.log.append(statusEntry('fixture', event, lockReason(le)));
      if (event.status !== 'prematch') this.log.append(scoreEntry(event));
      return le;
    }
    const before = existing.event;
    if (before.status !== event.status || before.startTime !== event.startTime || before.sport !== event.sport) {
      this.orderDirty = true;
    }
    existing.event = event;
    // Going live: every price now is its selection's closing price (the payloads are rebuilt below),
    // if they were offered before kick-off; prices first seen after it are live prices, not closing ones
    // (a whole event first priced late, or markets first offered late: `lateMarkets`).
    if (event.status === 'live' && before.status !== 'live' && event.pricedPrematch === true)
      existing.book.markClosing(event.lateMarkets);
    // New facts about the event are fresh data: a stale-feed lock lifts with them.
    const unlocked = existing.stale;
    existing.stale = false;
    // The status decides whether markets are shown and whether all are locked: the array's shape.
    if (before.status !== event.status || unlocked) this.touch(existing);
    else this.touchEvent(existing);
    if (before.status !== event.status || unlocked) {
      this.log.append(statusEntry('status', event, lockReason(existing)));
    } else if (fixtureChanged(before, event)) this.log.append(statusEntry('fixture', event, lockReason(existing)));
    if (scoreChanged(before, event)) this.log.append(scoreEntry(event));
    if (before.playerStats !== event.playerStats) this.log.append(statsEntry(event));
    return existing;
  }

  /** An event's archived result (a result message, or a final status): kept with the event. */
  putResult(le: LiveEvent, result: EventResult): void {
    this.results.set(le.event.id, result);
    this.log.append(resultEntry(le.event, result));
  }

  /** The result of an event held here, or undefined (ask the store). */
  result(eventId: string): EventResult | undefined {
    return this.results.get(eventId);
  }

  /** Every result held (a replica's restart). */
  clearResults(): void {
    this.results.clear();
  }

  /** Upserts markets: a known market keeps its place, new ones are appended; the event's updated_at becomes `at`. */
  upsertMarkets(le: LiveEvent, markets: Market[], at: number = le.event.updatedAt): void {
    this.notePrematchPrices(le, at, true);
    this.noteLateMarkets(le, markets, at);
    le.event.updatedAt = at;
    this.freshen(le);
    const allLocked = forcedLock(le);
    const repriced = repricedOutcomes(le, markets);
    le.book.upsert(markets);
    this.touch(le);
    this.log.append(marketsEntry(le, markets, [], allLocked, repriced));
  }

  /**
   * Prices given while the event is prematch and before its scheduled start are prematch prices.
   * Also at a price change: a book first priced after kick-off but re-priced before it went live
   * (a delayed start) has prematch prices by then. Kept on the event (`pricedPrematch`), so the
   * store has it and a restart, a new leader or a replica's reload knows it too; an event first
   * priced late says so (`false`), as opposed to a document written before this was kept.
   */
  private notePrematchPrices(le: LiveEvent, at: number, first: boolean): void {
    const e = le.event;
    if (e.pricedPrematch === true) return;
    // A delayed or postponed event has not started whatever the clock says.
    const prematch =
      (e.status === 'prematch' && at < e.startTime) || e.status === 'delayed' || e.status === 'postponed';
    if (!prematch && (!first || e.pricedPrematch === false)) return;
    e.pricedPrematch = prematch;
    // Markets entries write the event; a price change does not, so it asks for it.
    if (!first) le.eventDirty = true;
  }

  /**
   * Markets first offered after the scheduled start of an event priced before it, while its status
   * still says prematch (the live status lags), are priced in play: noted on the event (stored with
   * it, as markets entries write the event) so that going live gives them no closing price. A
   * market offered or re-offered while the event is delayed or postponed is priced prematch.
   */
  private noteLateMarkets(le: LiveEvent, markets: readonly Market[], at: number): void {
    const e = le.event;
    if (e.pricedPrematch !== true) return;
    if (e.status === 'delayed' || e.status === 'postponed') {
      if (e.lateMarkets === undefined) return;
      const offered = new Set(markets.map((m) => m.marketId));
      const late = e.lateMarkets.filter((id) => !offered.has(id));
      if (late.length > 0) e.lateMarkets = late;
      else delete e.lateMarkets;
      return;
    }
    if (e.status !== 'prematch' || at < e.startTime) return;
    const added = markets.filter((m) => le.book.indexOfMarket(m.marketId) < 0).map((m) => m.marketId);
    if (added.length > 0) e.lateMarkets = [...(e.lateMarkets ?? []), ...added];
  }

  /** Puts back markets loaded from the store with their stored positions (restart). */
  restoreMarkets(le: LiveEvent, markets: Market[], positions: number[]): void {
    le.book.upsert(markets, positions);
    this.touch(le);
  }

  /** Restores an event's whole book from its stored image (book-image.ts; a restart). */
  restoreImage(le: LiveEvent, image: Uint8Array): void {
    le.book.restoreImage(image);
    this.touch(le);
  }

  /** Withdraws markets (unknown or already withdrawn ids are ignored); returns the ids withdrawn. */
  withdrawMarkets(le: LiveEvent, marketIds: number[] | 'all', at: number = le.event.updatedAt): number[] {
    const withdrawn = le.book.withdraw(marketIds);
    if (withdrawn.length > 0) {
      le.event.updatedAt = at;
      this.freshen(le);
      this.touch(le);
      this.log.append(marketsEntry(le, [], withdrawn, false));
    }
    return withdrawn;
  }

  /** Records that an event's markets changed shape (or anything may have): its payloads are rebuilt whole. */
  touch(le: LiveEvent): void {
    le.version++;
    le.marketsVersion = le.version;
    le.priceStamps = null;
    this.listVersion++;
    this.payloads.dropOwner(le.event.id);
    this.variants.dropOwner(le.event.id);
  }

  /** Records a change outside the markets array (score, clock, stats…): cached payloads refresh their frame only. */
  touchEvent(le: LiveEvent): void {
    le.version++;
    this.listVersion++;
  }

  /**
   * Sets prices and locks (per change: outcome index, price or NaN, lock 1/0 or -1), in order;
   * returns how many outcomes moved. When any did, the event's updated_at becomes `at` and the
   * change is logged once, with what moved. `ids`: each change's selection id (the feed message's).
   */
  applyPrices(
    le: LiveEvent,
    outcomes: Int32Array,
    odds: Float64Array,
    locks: Int8Array,
    at: number,
    ids: Float64Array | null = null,
  ): number {
    this.notePrematchPrices(le, at, false);
    const book = le.book;
    const n = outcomes.length;
    const movedAt = scratchOf(n);
    // Written now with the version the event takes below; a stale event's lift rebuilds its payloads whole.
    const stamps = le.stale ? null : le.priceStamps;
    const stamp = le.version + 1;
    // One pass: each change that moves is applied, stamped and written in the change log's compact
    // form (log-codec.ts) while its outcome is in cache. A tick is 100,000 changes; a pass per step
    // (apply, columns for the entry, their encoding for the window) was most of what it cost.
    const pack = ids !== null && !this.log.isQuiet;
    let region: Buffer | null = null;
    if (pack) {
      const room = this.packSlab.take(n * ODDS_CHANGE_MAX_BYTES);
      region = Buffer.from(room.buffer, room.offset, n * ODDS_CHANGE_MAX_BYTES);
    }
    const owner = pack ? book.owners() : null;
    // The event's lock by status folds into each change's; a stale feed's lock lifts below (fresh data).
    const allLocked = statusLocks(le);
    let p = 0;
    let market = 0;
    let selection = 0;
    let moved = 0;
    for (let k = 0; k < n; k++) {
      const o = outcomes[k] as number;
      const price = odds[k] as number;
      const lock = locks[k] as number;
      let changed = false;
      if (!Number.isNaN(price)) changed = book.setOdds(o, price);
      if (lock >= 0) changed = book.setLocked(o, lock === 1) || changed;
      if (!changed) continue;
      movedAt[moved++] = k;
      if (stamps !== null) stamps[o] = stamp;
      if (region === null) continue;
      const m = book.marketId((owner as Uint16Array)[o] as number);
      const s = (ids as Float64Array)[k] as number;
      if (m > MAX_PACKED_ID || s > MAX_PACKED_ID) {
        // Ids the compact form cannot hold: the entry is made of columns instead (below).
        region = null;
        continue;
      }
      p = putVarint(region, p, m >= market ? 2 * (m - market) : 2 * (market - m) - 1);
      p = putVarint(region, p, s >= selection ? 2 * (s - selection) : 2 * (selection - s) - 1);
      market = m;
      selection = s;
      const v = book.odds(o);
      const locked = allLocked || book.isLocked(o) ? 1 : 0;
      const milli = Math.round(v * 1000);
      if (milli >= 1 && milli <= 2 ** 50 && milli / 1000 === v) p = putVarint(region, p, milli * 2 + locked);
      else {
        region[p++] = locked;
        p = region.writeDoubleLE(v, p);
      }
    }
    if (pack) {
      const kept = this.packSlab.shrinkLast(region === null || moved === 0 ? 0 : p);
      if (!kept && region !== null) region = Buffer.from(region.subarray(0, p));
    }
    if (moved === 0) return 0;
    // In place: a copy of the event per price tick was part of what a live evening promoted to the
    // old generation, and so of how often full collections stalled the feed.
    le.event.updatedAt = at;
    // Lifted before the odds entry, so that entry carries the selections' own locks.
    if (le.stale) this.freshen(le);
    le.version++;
    this.listVersion++;
    if (this.log.isQuiet) return moved;
    const e = le.event;
    if (region !== null) {
      const packed = region.subarray(0, p);
      this.log.append(
        new PackedOddsEntry(
          e.id,
          e.sport,
          e.league.slug,
          e.updatedAt,
          moved,
          book.layout,
          packed,
          oddsEntryBytes(moved),
        ),
      );
      return moved;
    }
    const changed = new Int32Array(moved);
    for (let j = 0; j < moved; j++) changed[j] = outcomes[movedAt[j] as number] as number;
    const known = ids === null ? null : { ids, ks: movedAt.subarray(0, moved) };
    this.log.append(oddsEntry(le, changed, forcedLock(le), undefined, known));
    return moved;
  }

  /**
   * Records price or lock changes made on the book of the given outcome indexes (a caller that
   * set them itself): cached payloads refresh by re-rendering only those outcomes.
   */
  touchPrices(le: LiveEvent, outcomes: ArrayLike<number>): void {
    if (le.stale) this.freshen(le);
    le.version++;
    this.listVersion++;
    if (!this.log.isQuiet) this.log.append(oddsEntry(le, outcomes, forcedLock(le)));
    const stamps = le.priceStamps;
    if (stamps === null) return;
    for (let k = 0; k < outcomes.length; k++) stamps[outcomes[k] as number] = le.version;
  }

  /**
   * Locks every selection of a live event whose feed went quiet, or lifts that lock; returns
   * whether anything changed. Payloads are rebuilt whole and a `status` entry tells followers.
   */
  setStale(le: LiveEvent, stale: boolean): boolean {
    if (le.stale === stale || (stale && le.event.status !== 'live')) return false;
    le.stale = stale;
    this.touch(le);
    this.log.append(statusEntry('status', le.event, lockReason(le)));
    return true;
  }

  /** Events whose selections are all locked because their feed went quiet (metrics). */
  staleCount(): number {
    let n = 0;
    for (const le of this.events.values()) if (le.stale) n++;
    return n;
  }

  /** Fresh data for an event that was stale-locked: the lock lifts before the change is logged. */
  private freshen(le: LiveEvent): void {
    if (le.stale) this.setStale(le, false);
  }

  evict(id: string): boolean {
    const le = this.events.get(id);
    if (le === undefined) return false;
    this.events.delete(id);
    this.results.delete(id);
    this.payloads.dropOwner(id);
    this.variants.dropOwner(id);
    this.orderDirty = true;
    this.listVersion++;
    this.log.append(evictedEntry(le.event, this.now()));
    return true;
  }

  // ---- queries ----

  /** Events matching a query in list order, with the total before paging. */
  query(q: EventQuery): { total: number; page: LiveEvent[] } {
    const source = q.sport === null ? this.order() : (this.orderBySport().get(q.sport) ?? []);
    const league = q.league?.toLowerCase() ?? null;
    const country = q.country?.toLowerCase() ?? null;
    const horizon = q.startsWithinMs === null ? null : this.now() + q.startsWithinMs;
    let total = 0;
    const page: LiveEvent[] = [];
    for (const le of source) {
      const e = le.event;
      if (!statusMatches(q.status, e.status)) continue;
      if (horizon !== null && (e.status !== 'prematch' || e.startTime > horizon)) continue;
      if (q.fromMs !== null && e.startTime < q.fromMs) continue;
      if (q.toMs !== null && e.startTime >= q.toMs) continue;
      if (league !== null && e.league.slug !== q.league && !e.league.name.toLowerCase().includes(league)) continue;
      if (country !== null && !e.league.country.toLowerCase().includes(country)) continue;
      if (total >= q.offset && page.length < q.limit) page.push(le);
      total++;
    }
    return { total, page };
  }

  /** The serialized `{events, total, limit, offset}` page; rebuilt only after a change. */
  listPage(q: EventQuery, format: OddsFormat, baseUrl: string): Buffer {
    return this.listPagePayload(q, format, baseUrl).body;
  }

  /** A list page as served: its bytes, tag and compressed forms, all rebuilt only after a change. */
  listPagePayload(q: EventQuery, format: OddsFormat, baseUrl: string): ServedPayload {
    const key = `${queryKey(q)}|${format}|${baseUrl}`;
    const hit = this.pages.get(key);
    if (hit !== undefined && hit.version === this.listVersion && q.startsWithinMs === null) return hit;
    const { total, page } = this.query(q);
    this.serializations++;
    const body = Buffer.from(
      `{"events":[${page.map((le) => this.listItemJson(le, format, baseUrl)).join(',')}],"total":${total},"limit":${q.limit},"offset":${q.offset}}`,
    );
    // A page relative to the clock (starts_within) changes without a change of the list.
    if (q.startsWithinMs !== null) return uncached(body);
    if (this.pages.size >= MAX_PAGE_ENTRIES) this.pages.clear();
    const cached = new CachedPage(
      body,
      this.listVersion,
      tagPrefix(this.tagNonce, `l|${key}`) + this.listVersion.toString(36),
      new CompressedForms(this.compression),
    );
    this.pages.set(key, cached);
    return cached;
  }

  /** A serialized list item, cached per event version. */
  listItemJson(le: LiveEvent, format: OddsFormat, baseUrl: string): string {
    let cached = this.items.get(le);
    if (cached === undefined || cached.version !== le.version) {
      cached = { version: le.version, byKey: new Map() };
      this.items.set(le, cached);
    }
    const key = `${format}|${baseUrl}`;
    let body = cached.byKey.get(key);
    if (body === undefined) {
      body = JSON.stringify(listItem(le, format, baseUrl));
      this.serializations++;
      if (cached.byKey.size < 8) cached.byKey.set(key, body);
    }
    return body;
  }

  /**
   * Marks a payload as being sent (its memory is not recycled until the returned function runs):
   * whoever sends a payload of this model after the current turn of the event loop must hold it.
   */
  hold(body: Buffer): () => void {
    return this.buffers.hold(body);
  }

  oddsJson(le: LiveEvent, format: OddsFormat): Buffer {
    return this.oddsPayload(le, format).body;
  }

  detailJson(le: LiveEvent, format: OddsFormat, baseUrl: string): Buffer {
    return this.detailPayload(le, format, baseUrl).body;
  }

  batchItemJson(le: LiveEvent, format: OddsFormat, baseUrl: string, filter: MarketFilter | null = null): Buffer {
    return this.cached(le, `b|${format}|${baseUrl}`, format, () => batchItemFrame(le, format, baseUrl), filter).body;
  }

  /** The odds payload as served (pooled bytes: hold them while sending); `filter` keeps some families only. */
  oddsPayload(le: LiveEvent, format: OddsFormat, filter: MarketFilter | null = null): ServedPayload {
    return this.cached(le, `o|${format}`, format, () => oddsFrame(le, format), filter);
  }

  /** The event detail as served (pooled bytes: hold them while sending); `filter` keeps some families only. */
  detailPayload(le: LiveEvent, format: OddsFormat, baseUrl: string, filter: MarketFilter | null = null): ServedPayload {
    return this.cached(le, `d|${format}|${baseUrl}`, format, () => detailFrame(le, format, baseUrl), filter);
  }

  /**
   * The batch lookup `{events: {id: item}, found, requested}` of distinct ids (unknown ones are
   * skipped). The body is assembled per request from the cached items (plain memory, no hold
   * needed); its tag comes from the items' versions, and its compressed forms are kept by tag.
   */
  batch(
    ids: readonly string[],
    format: OddsFormat,
    baseUrl: string,
    filter: MarketFilter | null = null,
  ): ServedPayload {
    const parts: Buffer[] = [];
    // A filtered batch is tagged with its families too (the unfiltered tag is as it always was).
    const versions: Array<string | number> = [format, baseUrl, ids.length];
    if (filter !== null) versions.push(`m=${filter.value}`);
    // Held until copied: a later item's build may evict an earlier one, whose memory a refresh
    // after it could then overwrite.
    const releases: Array<() => void> = [];
    for (const id of ids) {
      const le = this.events.get(id);
      if (le === undefined) continue;
      const item = this.batchItemJson(le, format, baseUrl, filter);
      releases.push(this.hold(item));
      versions.push(id, le.version);
      parts.push(Buffer.from(`${parts.length === 0 ? '' : ','}${JSON.stringify(id)}:`), item);
    }
    const found = parts.length / 2;
    parts.unshift(Buffer.from('{"events":{'));
    parts.push(Buffer.from(`},"found":${found},"requested":${ids.length}}`));
    const body = Buffer.concat(parts);
    for (const release of releases) release();
    const digest = createHash('sha1').update(JSON.stringify(versions)).digest('base64url').slice(0, 16);
    const tag = `${this.tagNonce}.${digest}`;
    return { body, tag, encoded: (coding) => this.batchForms.get(tag, coding, body) };
  }

  /** Live events first, then the rest, each by start time. */
  order(): LiveEvent[] {
    if (this.orderDirty) this.rebuildOrder();
    return this.ordered;
  }

  /** Live events plus those that finished within the last 5 minutes. */
  scores(sport: string | null): LiveEvent[] {
    const cutoff = this.now() - RECENTLY_ENDED_MS;
    const source = sport === null ? this.order() : (this.orderBySport().get(sport) ?? []);
    const live: LiveEvent[] = [];
    const ended: LiveEvent[] = [];
    for (const le of source) {
      const e = le.event;
      if (e.status === 'live') live.push(le);
      else if (PLAYED_FINAL.has(e.status) && (e.endedAt ?? e.statusChangedAt) >= cutoff) ended.push(le);
    }
    ended.sort((a, b) => (b.event.endedAt ?? b.event.statusChangedAt) - (a.event.endedAt ?? a.event.statusChangedAt));
    return live.concat(ended);
  }

  /** Most prominent live and upcoming events: league tier, then market depth, then start time. */
  featured(sport: string | null, limit: number): LiveEvent[] {
    const source = sport === null ? this.order() : (this.orderBySport().get(sport) ?? []);
    const candidates = source.filter((le) => le.event.status === 'live' || le.event.status === 'prematch');
    const depth = new Map(candidates.map((le) => [le, openMarketsCount(le)]));
    candidates.sort(
      (a, b) =>
        a.event.league.tier - b.event.league.tier ||
        (depth.get(b) ?? 0) - (depth.get(a) ?? 0) ||
        a.event.startTime - b.event.startTime ||
        (a.event.id < b.event.id ? -1 : 1),
    );
    return candidates.slice(0, limit);
  }

  /** Leagues with live or upcoming events. */
  leagues(): LeagueSummary[] {
    const map = new Map<string, LeagueSummary & { tier: number }>();
    for (const le of this.order()) {
      const e = le.event;
      if (e.status !== 'live' && e.status !== 'prematch') continue;
      let s = map.get(e.league.slug);
      if (s === undefined) {
        const sport = sportByKey(e.sport);
        s = {
          slug: e.league.slug,
          name: e.league.name,
          country: e.league.country,
          sport: { key: e.sport, name: sport ? sport.name : e.sport },
          active_events: 0,
          live_events: 0,
          tier: e.league.tier,
        };
        map.set(e.league.slug, s);
      }
      s.active_events++;
      if (e.status === 'live') s.live_events++;
    }
    return [...map.values()]
      .sort(
        (a, b) =>
          sportOrder(a.sport.key) - sportOrder(b.sport.key) ||
          a.tier - b.tier ||
          a.name.localeCompare(b.name) ||
          a.slug.localeCompare(b.slug),
      )
      .map(({ tier: _tier, ...rest }) => rest);
  }

  /** Sports with live or upcoming events, or with outrights. */
  sports(): SportSummary[] {
    const counts = new Map<string, { active: number; live: number }>();
    for (const le of this.events.values()) {
      const e = le.event;
      if (e.status !== 'live' && e.status !== 'prematch') continue;
      const c = counts.get(e.sport) ?? { active: 0, live: 0 };
      c.active++;
      if (e.status === 'live') c.live++;
      counts.set(e.sport, c);
    }
    const keys = new Set([...counts.keys(), ...this.sportsWithOutrights]);
    return [...keys]
      .sort((a, b) => sportOrder(a) - sportOrder(b))
      .flatMap((key) => {
        const info = sportByKey(key);
        if (info === undefined) return [];
        const c = counts.get(key) ?? { active: 0, live: 0 };
        return [
          {
            key,
            name: info.name,
            sport_id: info.sportId,
            active_events: c.active,
            live_events: c.live,
            has_outrights: this.sportsWithOutrights.has(key),
          },
        ];
      });
  }

  /** Counts for the status endpoint. */
  counts(): { live: number; prematch: number; activeSports: number } {
    let live = 0;
    let prematch = 0;
    const sports = new Set<string>();
    for (const le of this.events.values()) {
      const s = le.event.status;
      if (s === 'live') live++;
      else if (s === 'prematch') prematch++;
      else continue;
      sports.add(le.event.sport);
    }
    return { live, prematch, activeSports: sports.size };
  }

  /**
   * A payload that embeds the event's markets: served as cached while the event is unchanged,
   * refreshed (moved markets only) after price ticks, rebuilt whole after a change of shape.
   * A filtered one (some families only) lives in a cache of its own, under its families' digest,
   * which is also part of its tag: each variant has its own ETag and compressed forms.
   */
  private cached(
    le: LiveEvent,
    kind: string,
    format: OddsFormat,
    frame: () => PayloadFrame,
    filter: MarketFilter | null = null,
  ): CachedPayload {
    const cache = filter === null ? this.payloads : this.variants;
    const key = filter === null ? `${le.event.id}|${kind}` : `${le.event.id}|${kind}|m=${filter.digest}`;
    const hit = cache.get(key, le.marketsVersion);
    if (hit !== undefined) {
      if (hit.payload.builtAt !== le.version) {
        this.selectionsWritten += hit.payload.refresh(le, format, frame(), this.buffers);
        // The compressed forms were of the old bytes: freed now, built again when next asked for.
        hit.forms.clear();
        this.serializations++;
        this.payloadRefreshes++;
        cache.resized(hit);
      }
      return hit;
    }
    const payload =
      filter === null
        ? PatchablePayload.build(le, format, frame(), this.buffers)
        : PatchablePayload.build(le, format, frame(), this.buffers, filter.keepsMarket(le.book));
    this.serializations++;
    this.payloadBuilds++;
    this.payloadBuiltBytes += payload.body.length;
    this.selectionsWritten += payload.selections;
    const entry = new CachedPayload(
      key,
      payload,
      tagPrefix(this.tagNonce, key),
      this.compression,
      (b) => this.buffers.hold(b),
      (e) => cache.resized(e),
    );
    cache.set(entry, le.event.id);
    return entry;
  }

  private orderBySport(): Map<string, LiveEvent[]> {
    if (this.orderDirty) this.rebuildOrder();
    return this.orderedBySport;
  }

  private rebuildOrder(): void {
    const list = [...this.events.values()];
    list.sort((a, b) => {
      const la = a.event.status === 'live' ? 0 : 1;
      const lb = b.event.status === 'live' ? 0 : 1;
      return la - lb || a.event.startTime - b.event.startTime || (a.event.id < b.event.id ? -1 : 1);
    });
    this.ordered = list;
    const bySport = new Map<string, LiveEvent[]>();
    for (const le of list) {
      let arr = bySport.get(le.event.sport);
      if (arr === undefined) bySport.set(le.event.sport, (arr = []));
      arr.push(le);
    }
    this.orderedBySport = bySport;
    this.orderDirty = false;
  }
}

/** Why every selection of an event is reported locked now, or null (a stopped game before a quiet feed). */
export function lockReason(le: LiveEvent): LockReason | null {
  if (statusLocks(le)) return le.event.status as LockReason;
  if (forcedLock(le)) return 'stale_feed';
  return null;
}

function fixtureChanged(a: SportEvent, b: SportEvent): boolean {
  return (
    a.startTime !== b.startTime ||
    a.homeTeam !== b.homeTeam ||
    a.awayTeam !== b.awayTeam ||
    a.league.slug !== b.league.slug ||
    a.league.name !== b.league.name ||
    a.homeLogoId !== b.homeLogoId ||
    a.awayLogoId !== b.awayLogoId
  );
}

function sameJsonValue(a: unknown, b: unknown): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}

function scoreChanged(a: SportEvent, b: SportEvent): boolean {
  return (
    a.score.home !== b.score.home ||
    a.score.away !== b.score.away ||
    a.clock !== b.clock ||
    a.period !== b.period ||
    !sameJsonValue(a.periodScores, b.periodScores) ||
    !sameJsonValue(a.sportData, b.sportData) ||
    !sameJsonValue(a.scoreboard, b.scoreboard)
  );
}

/**
 * Which outcomes of markets about to be upserted bring a new price or lock (1) rather than
 * repeating what the book holds (0): a market re-sent unchanged is no price change to keep.
 */
function repricedOutcomes(le: LiveEvent, markets: readonly Market[]): Uint8Array {
  let n = 0;
  for (const m of markets) n += m.outcomes.length;
  const flags = new Uint8Array(n).fill(1);
  const book = le.book;
  if (book.outcomeCount === 0) return flags;
  let k = 0;
  for (const m of markets) {
    for (const o of m.outcomes) {
      const i = book.indexOfSelection(o.selectionId);
      // The selection's own lock: a lock of the whole event is the event's state, not a price change.
      if (i >= 0 && book.odds(i) === o.odds && book.isLocked(i) === o.isLocked) flags[k] = 0;
      k++;
    }
  }
  return flags;
}

/** Ids the compact form of a change holds (its zigzag deltas stay exact below 2^53). */
const MAX_PACKED_ID = 2 ** 50;

/** Which changes of an odds message moved, reused from one message to the next (a tick is 1,000 messages). */
let movedScratch = new Int32Array(1024);

function scratchOf(n: number): Int32Array {
  if (movedScratch.length < n) movedScratch = new Int32Array(Math.max(n, 2 * movedScratch.length));
  return movedScratch;
}
