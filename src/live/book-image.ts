// A market book's columns as one compact binary image, the form the store keeps an event's markets in: a restart copies columns instead of parsing a JSON document per market.
import { sharedStrings } from './shared-strings.js';

/**
 * Why: a restart of the full world (11,000 events × 1,000 markets) parsed 11M JSON documents and
 * rebuilt each book from objects: ~10 ms an event, two minutes in all, and every document alive at
 * once ran the heap out. An image is the book's own columns (typed arrays, and its distinct strings
 * once each), so restoring an event is a few copies and one table lookup per distinct string.
 *
 * Layout (little-endian; every column starts on an 8-byte boundary):
 *   header (56 bytes): u8 version, u8 which optional columns follow (1 market ids, 2 positions,
 *     4 selection ids), u16 0, u32 markets, u32 outcomes, u32 strings, u32 string bytes,
 *     u32 0, f64 market id base, f64 position base, f64 selection id base, f64 next position
 *   u32 per string (its byte length; the top bit: UTF-16), the strings' bytes
 *   [f64 market ids] [f64 positions] [f64 selection ids] f64 odds
 *   u32 starts (markets + 1), keys, names (markets), codes, labels (outcomes) as string numbers
 *   u8 withdrawn (markets), u8 flags (outcomes)
 * Opening and closing prices are not in it: the store keeps them apart (odds marks).
 */
export const BOOK_IMAGE_VERSION = 1;

const HEADER_BYTES = 56;
const HAS_MARKET_IDS = 1;
const HAS_POSITIONS = 2;
const HAS_SELECTION_IDS = 4;
const WIDE = 0x8000_0000;

/** A book's columns; strings are indexes into the shared table (sharedStrings). */
export interface BookColumns<B extends ArrayBufferLike = ArrayBufferLike> {
  /** null while ids run densely from marketBase. */
  marketIds: Float64Array<B> | null;
  marketBase: number;
  positions: Float64Array<B> | null;
  positionBase: number;
  nextPosition: number;
  keys: Uint32Array<B>;
  names: Uint32Array<B>;
  /** Outcome range of market i: [starts[i], starts[i + 1]). */
  starts: Uint32Array<B>;
  withdrawn: Uint8Array<B>;
  /** null while ids run densely from selectionBase. */
  selectionIds: Float64Array<B> | null;
  selectionBase: number;
  odds: Float64Array<B>;
  flags: Uint8Array<B>;
  codes: Uint32Array<B>;
  labels: Uint32Array<B>;
}

const align8 = (n: number): number => (n + 7) & ~7;

/** The image of a book's columns. */
export function encodeBookImage(c: BookColumns): Uint8Array {
  const markets = c.keys.length;
  const outcomes = c.odds.length;
  // The book's distinct strings, numbered in order of first use.
  const local = new Map<number, number>();
  const order: number[] = [];
  const number = (col: Uint32Array, out: Uint32Array): void => {
    for (let k = 0; k < col.length; k++) {
      const g = col[k] as number;
      let l = local.get(g);
      if (l === undefined) {
        l = order.length;
        local.set(g, l);
        order.push(g);
      }
      out[k] = l;
    }
  };
  const keys = new Uint32Array(markets);
  const names = new Uint32Array(markets);
  const codes = new Uint32Array(outcomes);
  const labels = new Uint32Array(outcomes);
  number(c.keys, keys);
  number(c.names, names);
  number(c.codes, codes);
  number(c.labels, labels);
  const strings = order.map((g) => sharedStrings.encoded(g));
  let stringBytes = 0;
  for (const s of strings) stringBytes += s.bytes.length;

  let size = HEADER_BYTES + align8(4 * strings.length) + align8(stringBytes);
  if (c.marketIds !== null) size += 8 * markets;
  if (c.positions !== null) size += 8 * markets;
  if (c.selectionIds !== null) size += 8 * outcomes;
  size += 8 * outcomes + align8(4 * (markets + 1 + 2 * markets + 2 * outcomes)) + markets + outcomes;

  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  view.setUint8(0, BOOK_IMAGE_VERSION);
  view.setUint8(
    1,
    (c.marketIds !== null ? HAS_MARKET_IDS : 0) |
      (c.positions !== null ? HAS_POSITIONS : 0) |
      (c.selectionIds !== null ? HAS_SELECTION_IDS : 0),
  );
  view.setUint32(4, markets, true);
  view.setUint32(8, outcomes, true);
  view.setUint32(12, strings.length, true);
  view.setUint32(16, stringBytes, true);
  view.setFloat64(24, c.marketBase, true);
  view.setFloat64(32, c.positionBase, true);
  view.setFloat64(40, c.selectionBase, true);
  view.setFloat64(48, c.nextPosition, true);
  let at = HEADER_BYTES;
  strings.forEach((s, k) => view.setUint32(at + 4 * k, s.bytes.length | (s.wide ? WIDE : 0), true));
  at += align8(4 * strings.length);
  for (const s of strings) {
    out.set(s.bytes, at);
    at += s.bytes.length;
  }
  at = HEADER_BYTES + align8(4 * strings.length) + align8(stringBytes);
  const put = (col: ArrayBufferView): void => {
    out.set(new Uint8Array(col.buffer, col.byteOffset, col.byteLength), at);
    at += col.byteLength;
  };
  if (c.marketIds !== null) put(c.marketIds);
  if (c.positions !== null) put(c.positions);
  if (c.selectionIds !== null) put(c.selectionIds);
  put(c.odds);
  put(c.starts.subarray(0, markets + 1));
  put(keys);
  put(names);
  put(codes);
  put(labels);
  at = align8(at);
  put(c.withdrawn);
  put(c.flags);
  return out;
}

/** Thrown for bytes that are not a book image this version reads (a corrupt or foreign row). */
export class BookImageError extends Error {}

/**
 * The columns of an image, with its strings entered in the shared table: each distinct string
 * counted once (the book owns that count and gives it back when its columns go).
 */
export function decodeBookImage(bytes: Uint8Array): BookColumns<ArrayBuffer> {
  if (bytes.length < HEADER_BYTES) throw new BookImageError(`a book image of ${bytes.length} bytes is too short`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = view.getUint8(0);
  if (version !== BOOK_IMAGE_VERSION) throw new BookImageError(`book image version ${version} is not readable here`);
  const has = view.getUint8(1);
  const markets = view.getUint32(4, true);
  const outcomes = view.getUint32(8, true);
  const stringCount = view.getUint32(12, true);
  const stringBytes = view.getUint32(16, true);
  let at = HEADER_BYTES + align8(4 * stringCount) + align8(stringBytes);
  let size = at + 8 * outcomes + align8(4 * (3 * markets + 1 + 2 * outcomes)) + markets + outcomes;
  if (has & HAS_MARKET_IDS) size += 8 * markets;
  if (has & HAS_POSITIONS) size += 8 * markets;
  if (has & HAS_SELECTION_IDS) size += 8 * outcomes;
  if (bytes.length !== size) throw new BookImageError(`a book image of ${bytes.length} bytes should have ${size}`);

  // Columns are copied out: the row's buffer belongs to the driver.
  const take = <T extends Float64Array<ArrayBuffer> | Uint32Array<ArrayBuffer> | Uint8Array<ArrayBuffer>>(
    make: (n: number) => T,
    n: number,
  ): T => {
    const col = make(n);
    new Uint8Array(col.buffer).set(bytes.subarray(at, at + col.byteLength));
    at += col.byteLength;
    return col;
  };
  const f64 = (n: number): Float64Array<ArrayBuffer> => new Float64Array(n);
  const u32 = (n: number): Uint32Array<ArrayBuffer> => new Uint32Array(n);
  const u8 = (n: number): Uint8Array<ArrayBuffer> => new Uint8Array(n);
  const marketIds = has & HAS_MARKET_IDS ? take(f64, markets) : null;
  const positions = has & HAS_POSITIONS ? take(f64, markets) : null;
  const selectionIds = has & HAS_SELECTION_IDS ? take(f64, outcomes) : null;
  const odds = take(f64, outcomes);
  const starts = take(u32, markets + 1);
  const keys = take(u32, markets);
  const names = take(u32, markets);
  const codes = take(u32, outcomes);
  const labels = take(u32, outcomes);
  at = align8(at);
  const withdrawn = take(u8, markets);
  const flags = take(u8, outcomes);
  let ordered = starts[0] === 0 && starts[markets] === outcomes;
  for (let i = 0; ordered && i < markets; i++) ordered = (starts[i] as number) <= (starts[i + 1] as number);
  if (!ordered) throw new BookImageError('a book image whose outcome ranges do not cover its outcomes');

  for (const col of [keys, names, codes, labels]) {
    for (let k = 0; k < col.length; k++) {
      if ((col[k] as number) >= stringCount) throw new BookImageError('a book image names a string it does not hold');
    }
  }
  let total = 0;
  for (let k = 0; k < stringCount; k++) total += view.getUint32(HEADER_BYTES + 4 * k, true) & ~WIDE;
  if (total !== stringBytes) throw new BookImageError("a book image's string lengths do not add up");

  // Strings last, once the image is known whole: nothing is counted for a corrupt one.
  const global = new Uint32Array(stringCount);
  let from = HEADER_BYTES + align8(4 * stringCount);
  for (let k = 0; k < stringCount; k++) {
    const word = view.getUint32(HEADER_BYTES + 4 * k, true);
    const n = word & ~WIDE;
    global[k] = sharedStrings.acquireEncoded(bytes, from, n, (word & WIDE) !== 0);
    from += n;
  }
  for (const col of [keys, names, codes, labels]) {
    for (let k = 0; k < col.length; k++) col[k] = global[col[k] as number] as number;
  }
  return {
    marketIds,
    marketBase: view.getFloat64(24, true),
    positions,
    positionBase: view.getFloat64(32, true),
    nextPosition: view.getFloat64(48, true),
    keys,
    names,
    starts,
    withdrawn,
    selectionIds,
    selectionBase: view.getFloat64(40, true),
    odds,
    flags,
    codes,
    labels,
  };
}
