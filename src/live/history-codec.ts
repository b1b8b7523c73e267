// Odds history chunks: every price and lock change of one event over a span, in groups of changes made at one instant (5-7 bytes a change before compression).
import {
  LogCodecError,
  ODDS_CHANGE_MAX_BYTES,
  oddsIdsSafe,
  putOddsChanges,
  putVarint,
  readOddsChanges,
  Reader,
  type OddsChangeColumns,
} from './log-codec.js';

/** Price and lock changes in the order they happened (world time `at`, epoch ms). */
export interface HistoryColumns {
  at: Float64Array;
  marketIds: Float64Array;
  selectionIds: Float64Array;
  odds: Float64Array;
  locked: Uint8Array;
}

/**
 * Chunk layout, version 2: a version byte, a flags byte (0), the change count (uint32) and the
 * first change's time (float64), then groups until the end. A group is the changes made at one
 * instant (an odds entry, a market's repriced selections): a varint head (count × 4, + 2 when its
 * ids are written as float64s, + 1 when its time is not a whole millisecond), its time (a zigzag
 * delta from the first, or a float64), then its changes in the change log's compact form
 * (log-codec's putOddsChanges: the very bytes the replay window holds, copied rather than encoded
 * twice). Version 1 (column-wise, 29 bytes a change) is still read.
 */
export const HISTORY_CODEC_VERSION = 2;
const HEADER = 1 + 1 + 4 + 8;
/** Version 1 flag: odds are written as float64 (some price has more than 3 decimals); else as uint32 thousandths. */
const ODDS_F64 = 1;
const GROUP_RAW = 2;
const GROUP_AT_FLOAT = 1;

export class HistoryDecodeError extends Error {}

/** Columns never read: changes given in the compact form (addEncoded). */
const NO_COLUMNS: OddsChangeColumns = { marketIds: [], selectionIds: [], odds: [], locked: [] };

/** An empty set of columns able to hold n changes. */
export function historyColumns(n: number): HistoryColumns {
  return {
    at: new Float64Array(n),
    marketIds: new Float64Array(n),
    selectionIds: new Float64Array(n),
    odds: new Float64Array(n),
    locked: new Uint8Array(n),
  };
}

/**
 * One event's changes since the last flush, encoded as they come (groups of version 2): a flush
 * takes them as a chunk with a copy, not a pass over every change.
 */
export class HistoryChunkWriter {
  private buf = Buffer.allocUnsafe(1024);
  private p = HEADER;
  /** Changes written since the last take. */
  count = 0;
  fromAt = Infinity;
  toAt = -Infinity;
  private base = 0;

  /**
   * Changes [from, from + n) made at `at`; `encoded`: the same changes already in the compact form
   * (the window's bytes of that odds entry), copied as they are when the ids allow it.
   */
  add(at: number, c: OddsChangeColumns, from: number, n: number, encoded: Uint8Array | null = null): void {
    if (n === 0) return;
    if (this.count === 0) this.base = at;
    // Bytes in the compact form exist only for ids it holds: their columns need no look.
    const raw = encoded === null && !oddsIdsSafe(c, from, n);
    const atWhole = Number.isSafeInteger(at) && Number.isSafeInteger(at - this.base);
    const room = 20 + (raw ? 25 * n : encoded !== null ? encoded.byteLength : ODDS_CHANGE_MAX_BYTES * n);
    this.ensure(room);
    const b = this.buf;
    let p = putVarint(b, this.p, n * 4 + (raw ? GROUP_RAW : 0) + (atWhole ? 0 : GROUP_AT_FLOAT));
    if (atWhole) {
      const d = at - this.base;
      p = putVarint(b, p, d >= 0 ? 2 * d : -2 * d - 1);
    } else p = b.writeDoubleLE(at, p);
    if (raw) {
      for (let k = from; k < from + n; k++) {
        p = b.writeDoubleLE(c.marketIds[k] as number, p);
        p = b.writeDoubleLE(c.selectionIds[k] as number, p);
        p = b.writeDoubleLE(c.odds[k] as number, p);
        b[p++] = c.locked[k] === 1 ? 1 : 0;
      }
    } else if (encoded !== null) {
      b.set(encoded, p);
      p += encoded.byteLength;
    } else p = putOddsChanges(b, p, c, from, n);
    this.p = p;
    this.count += n;
    if (at < this.fromAt) this.fromAt = at;
    if (at > this.toAt) this.toAt = at;
  }

  /** n changes made at `at`, given only in the compact form (an odds entry's packed bytes). */
  addEncoded(at: number, n: number, encoded: Uint8Array): void {
    this.add(at, NO_COLUMNS, 0, n, encoded);
  }

  /** The chunk of everything added since the last take (null if nothing); the writer starts again, keeping its memory. */
  take(): Uint8Array | null {
    if (this.count === 0) return null;
    const out = new Uint8Array(this.p);
    out.set(this.buf.subarray(0, this.p));
    writeHeader(out, this.count, this.base);
    this.p = HEADER;
    this.count = 0;
    this.fromAt = Infinity;
    this.toAt = -Infinity;
    return out;
  }

  /** Drops what was added since the last take (kept memory aside). */
  clear(): void {
    this.p = HEADER;
    this.count = 0;
    this.fromAt = Infinity;
    this.toAt = -Infinity;
  }

  /** Bytes take() would return. */
  get byteLength(): number {
    return this.count === 0 ? 0 : this.p;
  }

  /** As take(), into `out` at `at` (exactly byteLength bytes); returns the end. */
  takeInto(out: Uint8Array, at: number): number {
    if (this.count === 0) return at;
    const end = at + this.p;
    out.set(this.buf.subarray(0, this.p), at);
    writeHeader(out.subarray(at, end), this.count, this.base);
    this.p = HEADER;
    this.count = 0;
    this.fromAt = Infinity;
    this.toAt = -Infinity;
    return end;
  }

  /** What take() would return, without taking it (reads of changes not yet stored). */
  peek(): Uint8Array | null {
    if (this.count === 0) return null;
    const out = new Uint8Array(this.p);
    out.set(this.buf.subarray(0, this.p));
    writeHeader(out, this.count, this.base);
    return out;
  }

  private ensure(n: number): void {
    if (this.p + n <= this.buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.p + n));
    this.buf.copy(next, 0, 0, this.p);
    this.buf = next;
  }
}

function writeHeader(out: Uint8Array, n: number, base: number): void {
  const view = new DataView(out.buffer, out.byteOffset, out.byteLength);
  view.setUint8(0, HISTORY_CODEC_VERSION);
  view.setUint8(1, 0);
  view.setUint32(2, n, true);
  view.setFloat64(6, base, true);
}

/** Encodes the first `n` changes as one chunk (tests, and columns at hand): consecutive changes at one instant form a group. */
export function encodeHistory(c: HistoryColumns, n: number): Uint8Array {
  const w = new HistoryChunkWriter();
  let from = 0;
  for (let k = 1; k <= n; k++) {
    if (k === n || c.at[k] !== c.at[from]) {
      w.add(c.at[from] as number, c, from, k - from);
      from = k;
    }
  }
  return w.take() ?? emptyChunk();
}

function emptyChunk(): Uint8Array {
  const out = new Uint8Array(HEADER);
  writeHeader(out, 0, 0);
  return out;
}

/** Decodes a chunk (version 1 or 2); an unknown version or a damaged chunk is an error, never a guess. */
export function decodeHistory(data: Uint8Array): HistoryColumns {
  if (data.byteLength < HEADER) throw new HistoryDecodeError('odds history chunk shorter than its header');
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const version = view.getUint8(0);
  if (version === 1) return decodeV1(data, view);
  if (version !== HISTORY_CODEC_VERSION) throw new HistoryDecodeError(`odds history chunk version ${version}`);
  const n = view.getUint32(2, true);
  const base = view.getFloat64(6, true);
  // A change takes at least 3 bytes: a count the chunk cannot hold is damage, not an allocation.
  if (n > data.byteLength) throw new HistoryDecodeError('odds history chunk is damaged');
  const c = historyColumns(n);
  const r = new Reader(data.subarray(HEADER));
  let k = 0;
  try {
    while (!r.done) {
      const head = r.uvarint();
      const count = Math.floor(head / 4);
      if (count === 0 || k + count > n) throw new HistoryDecodeError('odds history chunk is damaged');
      const at = (head & GROUP_AT_FLOAT) !== 0 ? r.float() : base + r.svarint();
      c.at.fill(at, k, k + count);
      readOddsChanges(r, count, (head & GROUP_RAW) !== 0, c, k);
      k += count;
    }
  } catch (err) {
    if (err instanceof LogCodecError) throw new HistoryDecodeError(`odds history chunk is damaged: ${err.message}`);
    throw err;
  }
  if (k !== n) throw new HistoryDecodeError('odds history chunk of the wrong length');
  return c;
}

function decodeV1(data: Uint8Array, view: DataView): HistoryColumns {
  const f64 = (view.getUint8(1) & ODDS_F64) !== 0;
  const n = view.getUint32(2, true);
  const base = view.getFloat64(6, true);
  if (data.byteLength !== HEADER + n * (4 + 8 + 8 + (f64 ? 8 : 4) + 1)) {
    throw new HistoryDecodeError('odds history chunk of the wrong length');
  }
  const c = historyColumns(n);
  let p = HEADER;
  for (let k = 0; k < n; k++, p += 4) c.at[k] = base + view.getUint32(p, true);
  for (let k = 0; k < n; k++, p += 8) c.marketIds[k] = view.getFloat64(p, true);
  for (let k = 0; k < n; k++, p += 8) c.selectionIds[k] = view.getFloat64(p, true);
  if (f64) for (let k = 0; k < n; k++, p += 8) c.odds[k] = view.getFloat64(p, true);
  else for (let k = 0; k < n; k++, p += 4) c.odds[k] = view.getUint32(p, true) / 1000;
  c.locked.set(data.subarray(p, p + n));
  return c;
}
