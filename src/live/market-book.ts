// An event's markets held column-wise (typed arrays, indexes of shared strings): ~17-25 bytes a selection, not ~300.
import type { Market, Outcome, TeamSide } from '../domain/types.js';
import { decodeBookImage, encodeBookImage } from './book-image.js';
import { familyGeneration, familyIdOfKey } from './market-families.js';
import { sharedStrings } from './shared-strings.js';

/**
 * Why columns: the service must hold 11,000 events with ~1,000 markets each (33M selections) in
 * well under 2 GB. One object per outcome plus a Map entry per selection costs ~300 bytes; here a
 * selection is a slot in a few typed arrays, two of them indexes of shared strings. Price and lock
 * changes (the hot path) write a slot in place; adding or removing markets rebuilds the columns,
 * which producers do rarely.
 */

const LOCKED = 1;
const HOME = 2;
const AWAY = 4;

/** Gives a collected book's strings back to the shared table (books are dropped without ceremony). */
const releaseOnCollect = new FinalizationRegistry<StringColumns>((cols) => releaseStrings(cols));

function sideBits(side: TeamSide | null): number {
  return side === 'home' ? HOME : side === 'away' ? AWAY : 0;
}

/** One market as the book receives it, plus its stored position. */
interface Row {
  market: Market | null;
  /** Index of an existing market to copy when `market` is null. */
  from: number;
  position: number;
}

export class MarketBook {
  /** Market ids; null while they run densely (id = marketBase + index), as most producers number them. */
  private marketIds: Float64Array | null = null;
  private marketBase = 0;
  /**
   * Keys, names, codes and labels are indexes into the shared string table (shared-strings.ts):
   * a string pointer per outcome would cost 8 bytes and a scan by every full collection.
   */
  private keyIdx = new Uint32Array(0);
  /** Family numbers by market index (built lazily, dropped when the keys change). */
  private familyCol: Uint32Array | null = null;
  private familyGen = -1;
  private nameIdx = new Uint32Array(0);
  /** Outcome range of market i: [starts[i], starts[i + 1]). */
  private starts = new Uint32Array(1);
  /** Stored positions; null while they run densely from positionBase (always, until markets are replaced or removed). */
  private positions: Float64Array | null = null;
  private positionBase = 0;
  /** 1 for a withdrawn market: kept for settlement, hidden from clients. */
  private withdrawnCol = new Uint8Array(0);

  /** Selection ids; null while they run densely from denseBase. */
  private selIds: Float64Array | null = null;
  private oddsCol = new Float64Array(0);
  private flags = new Uint8Array(0);
  private codeIdx = new Uint32Array(0);
  private labelIdx = new Uint32Array(0);
  /** Outcome indexes sorted by selection id, for lookups by id (built lazily). */
  private bySelection: Uint32Array | null = null;
  /** Market indexes sorted by market id (built lazily; a Map per event would cost ~50 bytes a market). */
  private byMarket: Uint32Array | null = null;
  /** Each outcome's market index, for books whose prices move (built lazily: buildMarketOf). */
  private marketOf: Uint16Array | Uint32Array | null = null;
  private nextPosition = 0;
  /**
   * The first selection id when ids run densely in book order (id = first + outcome index, as
   * producers that number selections per event do): a lookup is then one subtraction instead of a
   * binary search, which on a 100,000-change tick over 1,000 cold books is most of the apply, and
   * the id column is not kept (8 bytes a selection: ~180 MB across 22M selections). NaN otherwise.
   */
  private denseBase = NaN;
  /**
   * Each outcome's first price (opening odds), kept only once some price of the book moved:
   * until then every opening price is the current one, and 8 bytes a selection are saved on the
   * books that never change (most prematch events).
   */
  private openingCol: Float64Array | null = null;
  /** Each outcome's last prematch price (closing odds), from the moment the event went live; NaN: none (added live). */
  private closingCol: Float64Array | null = null;
  /** Opening or closing prices changed since the store last took them (write-behind's odds marks). */
  marksDirty = false;
  /** Raised whenever outcome indexes are reassigned (markets added or replaced). */
  layout = 0;
  private withdrawnCount = 0;

  get marketCount(): number {
    return this.starts.length - 1;
  }

  get outcomeCount(): number {
    return this.oddsCol.length;
  }

  // ---- reading ----

  marketId(i: number): number {
    return this.marketIds === null ? this.marketBase + i : (this.marketIds[i] as number);
  }
  key(i: number): string {
    return sharedStrings.get(this.keyIdx[i] as number);
  }
  /** Market i's family number (market-families.ts), remembered per book until its markets change. */
  familyId(i: number): number {
    let col = this.familyCol;
    if (col === null || this.familyGen !== familyGeneration()) {
      col = new Uint32Array(this.marketCount);
      let gen: number;
      do {
        // Numbering these may start a new generation: then the column is numbered again in it.
        gen = familyGeneration();
        for (let m = 0; m < col.length; m++) col[m] = familyIdOfKey(this.key(m));
      } while (gen !== familyGeneration());
      this.familyCol = col;
      this.familyGen = gen;
    }
    return col[i] as number;
  }
  name(i: number): string {
    return sharedStrings.get(this.nameIdx[i] as number);
  }
  position(i: number): number {
    return this.positions === null ? this.positionBase + i : (this.positions[i] as number);
  }
  /** Whether any market is withdrawn (when none is, the hot path skips finding an outcome's market). */
  get hasWithdrawn(): boolean {
    return this.withdrawnCount > 0;
  }
  /** Withdrawn markets are kept (their bets still settle) but are not offered or returned. */
  isWithdrawn(i: number): boolean {
    return this.withdrawnCol[i] === 1;
  }
  /** First outcome index of market i and one past its last. */
  outcomeRange(i: number): [number, number] {
    return [this.starts[i] as number, this.starts[i + 1] as number];
  }
  selectionId(o: number): number {
    return this.selIds === null ? this.denseBase + o : (this.selIds[o] as number);
  }
  odds(o: number): number {
    return this.oddsCol[o] as number;
  }
  /** The outcome's first price. */
  openingOdds(o: number): number {
    return this.openingCol === null ? (this.oddsCol[o] as number) : (this.openingCol[o] as number);
  }
  /** The outcome's last prematch price once the event went live (null before, or for a market added live). */
  closingOdds(o: number): number | null {
    const v = this.closingCol?.[o];
    return v === undefined || Number.isNaN(v) ? null : v;
  }
  /** Whether the event went live with this book (closing prices are set). */
  get hasClosing(): boolean {
    return this.closingCol !== null;
  }
  isLocked(o: number): boolean {
    return ((this.flags[o] as number) & LOCKED) !== 0;
  }
  teamSide(o: number): TeamSide | null {
    const f = this.flags[o] as number;
    return f & HOME ? 'home' : f & AWAY ? 'away' : null;
  }
  code(o: number): string {
    return sharedStrings.get(this.codeIdx[o] as number);
  }
  label(o: number): string {
    return sharedStrings.get(this.labelIdx[o] as number);
  }

  /** Index of a market by id, or -1. */
  indexOfMarket(marketId: number): number {
    if (this.marketIds === null) return denseIndex(marketId - this.marketBase, this.marketCount);
    if (this.byMarket === null) this.byMarket = sortedOrder(this.marketIds);
    return search(this.byMarket, this.marketIds, marketId);
  }

  /** Index of the first offered (not withdrawn) market with this key, or -1. */
  indexOfKey(key: string): number {
    // Compared as table indexes: reading a key decodes it.
    const k = sharedStrings.find(key);
    if (k < 0) return -1;
    for (let i = 0; i < this.keyIdx.length; i++) if (this.keyIdx[i] === k && !this.isWithdrawn(i)) return i;
    return -1;
  }

  /** Outcome index of a selection id, or -1 (binary search over the sorted index). */
  indexOfSelection(selectionId: number): number {
    if (this.selIds === null) return denseIndex(selectionId - this.denseBase, this.outcomeCount);
    if (this.bySelection === null) this.bySelection = sortedOrder(this.selIds);
    return search(this.bySelection, this.selIds, selectionId);
  }

  /** The market id of each outcome, into `out` (a capacity tick asks this of 100,000 outcomes). */
  marketIdsOf(outcomes: ArrayLike<number>, out: Float64Array): void {
    const owner = this.owners();
    for (let k = 0; k < outcomes.length; k++) out[k] = this.marketId(owner[outcomes[k] as number] as number);
  }

  /** Each outcome's market index (see buildMarketOf): for a loop that asks it of many outcomes. */
  owners(): Uint16Array | Uint32Array {
    return (this.marketOf ??= this.buildMarketOf());
  }

  /**
   * Each outcome's market index. Built for the books whose prices move (a live event's odds
   * entries name each change's market): a tick's changes come in no particular order, and a
   * binary search per change was most of the cost of logging it. 2 bytes a selection (4 past
   * 65,535 markets), only on books that tick; dropped when the layout changes.
   */
  private buildMarketOf(): Uint16Array | Uint32Array {
    const n = this.outcomeCount;
    const owner = this.marketCount <= 0xffff ? new Uint16Array(n) : new Uint32Array(n);
    for (let i = 0; i < this.marketCount; i++) owner.fill(i, this.starts[i] as number, this.starts[i + 1] as number);
    return owner;
  }

  /** Market index that holds outcome o. */
  marketOfOutcome(o: number): number {
    let lo = 0;
    let hi = this.marketCount - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if ((this.starts[mid] as number) <= o) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /**
   * Market i as a plain object (for the store and settlement; not on the hot path). With `prices`,
   * each outcome carries its opening and closing price too (what clients see; the store keeps those
   * apart, in the odds marks).
   */
  toMarket(i: number, prices = false): Market {
    const [a, b] = this.outcomeRange(i);
    const outcomes: Outcome[] = [];
    for (let o = a; o < b; o++) {
      const outcome: Outcome = {
        selectionId: this.selectionId(o),
        code: this.code(o),
        label: this.label(o),
        odds: this.odds(o),
        teamSide: this.teamSide(o),
        isLocked: this.isLocked(o),
      };
      if (prices) {
        outcome.openingOdds = this.openingOdds(o);
        outcome.closingOdds = this.closingOdds(o);
      }
      outcomes.push(outcome);
    }
    const m: Market = { marketId: this.marketId(i), key: this.key(i), name: this.name(i), outcomes };
    if (this.isWithdrawn(i)) m.withdrawn = true;
    return m;
  }

  markets(): Market[] {
    const out: Market[] = [];
    for (let i = 0; i < this.marketCount; i++) out.push(this.toMarket(i));
    return out;
  }

  /** Whether market i holds exactly this content. */
  sameAs(i: number, m: Market): boolean {
    const [a, b] = this.outcomeRange(i);
    if (this.key(i) !== m.key || this.name(i) !== m.name || b - a !== m.outcomes.length) return false;
    if (this.isWithdrawn(i) !== (m.withdrawn === true)) return false;
    return m.outcomes.every((x, k) => {
      const o = a + k;
      return (
        this.selectionId(o) === x.selectionId &&
        this.code(o) === x.code &&
        this.label(o) === x.label &&
        this.odds(o) === x.odds &&
        this.teamSide(o) === x.teamSide &&
        this.isLocked(o) === x.isLocked
      );
    });
  }

  /** Offered markets with at least one unlocked selection. */
  openMarketCount(): number {
    let n = 0;
    for (let i = 0; i < this.marketCount; i++) {
      if (this.isWithdrawn(i)) continue;
      const [a, b] = this.outcomeRange(i);
      for (let o = a; o < b; o++) {
        if (!this.isLocked(o)) {
          n++;
          break;
        }
      }
    }
    return n;
  }

  // ---- writing ----

  /** Sets a price; returns whether it changed. */
  setOdds(o: number, odds: number): boolean {
    if (this.oddsCol[o] === odds) return false;
    if (this.openingCol === null) {
      // The first move of any price: from now on opening prices are kept apart from current ones.
      this.openingCol = this.oddsCol.slice();
      this.marksDirty = true;
    }
    this.oddsCol[o] = odds;
    return true;
  }

  /**
   * The event went live: every price now is its outcome's closing price, except in `inPlay` markets
   * (first offered after the scheduled start: none). Once only; returns whether it was set now.
   */
  markClosing(inPlay: readonly number[] = []): boolean {
    if (this.closingCol !== null) return false;
    this.closingCol = this.oddsCol.slice();
    for (const id of inPlay) {
      const i = this.indexOfMarket(id);
      if (i < 0) continue;
      const [a, b] = this.outcomeRange(i);
      this.closingCol.fill(NaN, a, b);
    }
    this.marksDirty = true;
    return true;
  }

  /**
   * Opening and closing prices as stored (a restart), by selection id: `closing` null when the
   * event had not gone live. Selections not listed keep what they have.
   */
  restoreMarks(marks: { selectionIds: Float64Array; opening: Float64Array; closing: Float64Array | null }): void {
    const n = this.oddsCol.length;
    const opening = this.openingCol ?? this.oddsCol.slice();
    const closing = marks.closing === null ? this.closingCol : (this.closingCol ?? new Float64Array(n).fill(NaN));
    for (let k = 0; k < marks.selectionIds.length; k++) {
      const o = this.indexOfSelection(marks.selectionIds[k] as number);
      if (o < 0) continue;
      opening[o] = marks.opening[k] as number;
      if (closing !== null && marks.closing !== null) closing[o] = marks.closing[k] as number;
    }
    this.openingCol = opening;
    this.closingCol = closing;
  }

  /** Opening and closing prices of every outcome, for the store (null: nothing to keep apart from current prices). */
  marks(): { selectionIds: Float64Array; opening: Float64Array; closing: Float64Array | null } | null {
    if (this.openingCol === null && this.closingCol === null) return null;
    const n = this.oddsCol.length;
    const selectionIds = new Float64Array(n);
    for (let o = 0; o < n; o++) selectionIds[o] = this.selectionId(o);
    return {
      selectionIds,
      opening: (this.openingCol ?? this.oddsCol).slice(),
      closing: this.closingCol === null ? null : this.closingCol.slice(),
    };
  }

  /** Sets a lock; returns whether it changed. */
  setLocked(o: number, locked: boolean): boolean {
    const f = this.flags[o] as number;
    const next = locked ? f | LOCKED : f & ~LOCKED;
    if (next === f) return false;
    this.flags[o] = next;
    return true;
  }

  /**
   * Inserts or replaces markets. A known market keeps its place (and stored position); new ones
   * are appended in the given order. `positions` (restart) gives the stored position of each.
   */
  upsert(markets: readonly Market[], positions?: readonly number[]): void {
    const rows: Row[] = [];
    for (let i = 0; i < this.marketCount; i++) rows.push({ market: null, from: i, position: this.position(i) });
    const at = new Map<number, number>();
    rows.forEach((r, idx) => at.set(this.marketId(r.from), idx));
    markets.forEach((m, k) => {
      const existing = at.get(m.marketId);
      const stored = positions?.[k];
      if (existing !== undefined) {
        const row = rows[existing] as Row;
        row.market = m;
        if (stored !== undefined) row.position = stored;
      } else {
        const position = stored ?? this.nextPosition;
        at.set(m.marketId, rows.length);
        rows.push({ market: m, from: -1, position });
      }
      this.nextPosition = Math.max(this.nextPosition, (stored ?? this.nextPosition) + 1);
    });
    this.rebuild(rows);
  }

  /** The book's markets and current prices as one compact image (book-image.ts), as the store keeps them. */
  image(): Uint8Array {
    return encodeBookImage({
      marketIds: this.marketIds,
      marketBase: this.marketBase,
      positions: this.positions,
      positionBase: this.positionBase,
      nextPosition: this.nextPosition,
      keys: this.keyIdx,
      names: this.nameIdx,
      starts: this.starts,
      withdrawn: this.withdrawnCol,
      selectionIds: this.selIds,
      selectionBase: this.denseBase,
      odds: this.oddsCol,
      flags: this.flags,
      codes: this.codeIdx,
      labels: this.labelIdx,
    });
  }

  /**
   * Replaces the whole book with a stored image (a restart): markets, positions and current
   * prices. Opening and closing prices are restored apart (restoreMarks). Throws BookImageError
   * for bytes that are not an image, leaving the book as it was.
   */
  restoreImage(bytes: Uint8Array): void {
    const c = decodeBookImage(bytes);
    releaseOnCollect.unregister(this);
    releaseStrings({ keys: this.keyIdx, names: this.nameIdx, codes: this.codeIdx, labels: this.labelIdx });
    this.marketIds = c.marketIds;
    this.marketBase = c.marketBase;
    this.positions = c.positions;
    this.positionBase = c.positionBase;
    this.nextPosition = c.nextPosition;
    this.keyIdx = c.keys;
    this.familyCol = null;
    this.nameIdx = c.names;
    this.starts = c.starts;
    this.withdrawnCol = c.withdrawn;
    this.withdrawnCount = c.withdrawn.reduce((n, w) => n + w, 0);
    this.selIds = c.selectionIds;
    this.denseBase = c.selectionBase;
    this.oddsCol = c.odds;
    this.flags = c.flags;
    this.codeIdx = c.codes;
    this.labelIdx = c.labels;
    this.openingCol = null;
    this.closingCol = null;
    this.marksDirty = false;
    releaseOnCollect.register(this, { keys: c.keys, names: c.names, codes: c.codes, labels: c.labels }, this);
    this.bySelection = null;
    this.byMarket = null;
    this.marketOf = null;
    this.layout++;
  }

  /** Withdraws offered markets by id (unknown or already withdrawn ids are ignored); returns those withdrawn. */
  withdraw(marketIds: readonly number[] | 'all'): number[] {
    const drop = marketIds === 'all' ? null : new Set(marketIds);
    const withdrawn: number[] = [];
    for (let i = 0; i < this.marketCount; i++) {
      const id = this.marketId(i);
      if (this.isWithdrawn(i) || (drop !== null && !drop.has(id))) continue;
      this.withdrawnCol[i] = 1;
      this.withdrawnCount++;
      withdrawn.push(id);
    }
    return withdrawn;
  }

  private rebuild(rows: Row[]): void {
    let total = 0;
    for (const r of rows)
      total +=
        r.market !== null ? r.market.outcomes.length : this.outcomeRange(r.from)[1] - this.outcomeRange(r.from)[0];
    const marketIds = new Float64Array(rows.length);
    // Each distinct string is counted once per book: the table counts books, not uses. Strings of
    // kept markets are counted by index (no decoding); new markets' by text.
    const counted = new Set<number>();
    const local = new Map<string, number>();
    const index = (text: string): number => {
      let k = local.get(text);
      if (k === undefined) {
        k = sharedStrings.acquire(text);
        if (counted.has(k)) sharedStrings.release(k);
        else counted.add(k);
        local.set(text, k);
      }
      return k;
    };
    const keep = (k: number): number => {
      if (!counted.has(k)) {
        sharedStrings.retain(k);
        counted.add(k);
      }
      return k;
    };
    const keys = new Uint32Array(rows.length);
    const names = new Uint32Array(rows.length);
    const starts = new Uint32Array(rows.length + 1);
    const positions = new Float64Array(rows.length);
    const withdrawn = new Uint8Array(rows.length);
    const selIds = new Float64Array(total);
    const odds = new Float64Array(total);
    const flags = new Uint8Array(total);
    const codes = new Uint32Array(total);
    const labels = new Uint32Array(total);
    // Opening and closing prices follow their selections (by id within a replaced market); a new
    // selection opens at its first price and has no closing price once the event is live.
    const oldOpening = this.openingCol;
    const oldClosing = this.closingCol;
    const opening = new Float64Array(total);
    let closing = oldClosing === null ? null : new Float64Array(total);
    let openingMoved = oldOpening !== null;
    let o = 0;
    rows.forEach((r, i) => {
      starts[i] = o;
      positions[i] = r.position;
      if (r.market !== null) {
        const m = r.market;
        withdrawn[i] = m.withdrawn === true ? 1 : 0;
        marketIds[i] = m.marketId;
        keys[i] = index(m.key);
        names[i] = index(m.name);
        const [oa, ob] = r.from >= 0 ? this.outcomeRange(r.from) : [0, 0];
        for (const x of m.outcomes) {
          let old = -1;
          for (let s = oa; s < ob && old < 0; s++) if (this.selectionId(s) === x.selectionId) old = s;
          const open = x.openingOdds ?? (old >= 0 ? (oldOpening?.[old] ?? (this.oddsCol[old] as number)) : x.odds);
          opening[o] = open;
          if (open !== x.odds) openingMoved = true;
          // A closing price comes with a stored market (a reload) or is kept from the replaced one; a
          // null one says nothing (a market stored before kick-off must not mark the book as gone live).
          const given = typeof x.closingOdds === 'number' ? x.closingOdds : null;
          if (given !== null && closing === null) closing = new Float64Array(total).fill(NaN);
          if (closing !== null) {
            closing[o] = given ?? (old >= 0 && oldClosing !== null ? (oldClosing[old] as number) : NaN);
          }
          selIds[o] = x.selectionId;
          odds[o] = x.odds;
          flags[o] = (x.isLocked ? LOCKED : 0) | sideBits(x.teamSide);
          codes[o] = index(x.code);
          labels[o] = index(x.label);
          o++;
        }
      } else {
        withdrawn[i] = this.withdrawnCol[r.from] ?? 0;
        marketIds[i] = this.marketId(r.from);
        keys[i] = keep(this.keyIdx[r.from] as number);
        names[i] = keep(this.nameIdx[r.from] as number);
        const [a, b] = this.outcomeRange(r.from);
        for (let s = a; s < b; s++) selIds[o + s - a] = this.selectionId(s);
        odds.set(this.oddsCol.subarray(a, b), o);
        opening.set((oldOpening ?? this.oddsCol).subarray(a, b), o);
        if (closing !== null) {
          if (oldClosing !== null) closing.set(oldClosing.subarray(a, b), o);
          else closing.fill(NaN, o, o + b - a);
        }
        flags.set(this.flags.subarray(a, b), o);
        for (let s = a; s < b; s++) {
          codes[o] = keep(this.codeIdx[s] as number);
          labels[o] = keep(this.labelIdx[s] as number);
          o++;
        }
      }
    });
    starts[rows.length] = o;
    this.marketBase = denseStart(marketIds);
    this.marketIds = this.marketBase === this.marketBase ? null : marketIds;
    this.positionBase = denseStart(positions);
    this.positions = this.positionBase === this.positionBase ? null : positions;
    releaseOnCollect.unregister(this);
    releaseStrings({ keys: this.keyIdx, names: this.nameIdx, codes: this.codeIdx, labels: this.labelIdx });
    this.keyIdx = keys;
    this.familyCol = null;
    this.nameIdx = names;
    this.starts = starts;
    this.withdrawnCol = withdrawn;
    this.oddsCol = odds;
    this.flags = flags;
    this.codeIdx = codes;
    this.labelIdx = labels;
    this.openingCol = openingMoved ? opening : null;
    this.closingCol = closing;
    // Kept apart from current prices: the store's copy must learn the new selections' too.
    if (this.openingCol !== null || this.closingCol !== null) this.marksDirty = true;
    releaseOnCollect.register(this, { keys, names, codes, labels }, this);
    this.bySelection = null;
    this.byMarket = null;
    this.marketOf = null;
    this.layout++;
    this.withdrawnCount = withdrawn.reduce((n, w) => n + w, 0);
    this.denseBase = denseStart(selIds);
    this.selIds = this.denseBase === this.denseBase ? null : selIds;
  }
}

interface StringColumns {
  keys: Uint32Array;
  names: Uint32Array;
  codes: Uint32Array;
  labels: Uint32Array;
}

/** Releases each distinct string of a book's columns once. */
function releaseStrings(cols: StringColumns): void {
  const distinct = new Set<number>();
  for (const col of [cols.keys, cols.names, cols.codes, cols.labels]) for (const k of col) distinct.add(k);
  for (const k of distinct) sharedStrings.release(k);
}

/**
 * The first value when a column runs densely (value = first + index, integers), else NaN. An empty
 * column counts as dense: nothing to keep.
 */
function denseStart(values: Float64Array): number {
  if (values.length === 0) return 0;
  const first = values[0] as number;
  if (!Number.isInteger(first)) return NaN;
  for (let i = 1; i < values.length; i++) if (values[i] !== first + i) return NaN;
  return first;
}

/** Index `offset` of a dense column of `length` values, or -1 when no value there matches. */
function denseIndex(offset: number, length: number): number {
  return offset >= 0 && offset < length && Number.isInteger(offset) ? offset : -1;
}

/** Indexes of `values` sorted by value. */
function sortedOrder(values: Float64Array): Uint32Array {
  const order = new Uint32Array(values.length);
  for (let i = 0; i < order.length; i++) order[i] = i;
  return order.sort((a, b) => (values[a] as number) - (values[b] as number));
}

/** Binary search of `value` through a sorted order; the index into `values`, or -1. */
function search(order: Uint32Array, values: Float64Array, value: number): number {
  let lo = 0;
  let hi = order.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const i = order[mid] as number;
    const v = values[i] as number;
    if (v === value) return i;
    if (v < value) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}
