// Compact encoding of live odds for the store: the event's updated_at, then 17 bytes a selection (id, odds, lock).
import type { MarketBook } from './market-book.js';

const HEADER = 8;
const ENTRY = 17;

/** Bytes of a row of n selections. */
export function oddsRowBytes(n: number): number {
  return HEADER + n * ENTRY;
}

/**
 * Encodes the current odds and locks of these outcomes of a book (by index), headed by the event's
 * `updated_at` — so a price tick needs no event document of its own. Written into `into` (exactly
 * `oddsRowBytes(outcomes.length)` bytes) when given, else into new memory.
 */
export function encodeOutcomes(
  book: MarketBook,
  outcomes: ArrayLike<number>,
  updatedAt: number,
  into?: Uint8Array,
): Uint8Array {
  const buf = into ?? new Uint8Array(oddsRowBytes(outcomes.length));
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  view.setFloat64(0, updatedAt, true);
  for (let k = 0; k < outcomes.length; k++) {
    const o = outcomes[k] as number;
    const at = HEADER + k * ENTRY;
    view.setFloat64(at, book.selectionId(o), true);
    view.setFloat64(at + 8, book.odds(o), true);
    view.setUint8(at + 16, book.isLocked(o) ? 1 : 0);
  }
  return buf;
}

/** Every selection of a book, for a full row (into `into` when given, as encodeOutcomes). */
export function encodeAllOdds(book: MarketBook, updatedAt: number, into?: Uint8Array): Uint8Array {
  const n = book.outcomeCount;
  const buf = into ?? new Uint8Array(oddsRowBytes(n));
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  view.setFloat64(0, updatedAt, true);
  for (let o = 0; o < n; o++) {
    const at = HEADER + o * ENTRY;
    view.setFloat64(at, book.selectionId(o), true);
    view.setFloat64(at + 8, book.odds(o), true);
    view.setUint8(at + 16, book.isLocked(o) ? 1 : 0);
  }
  return buf;
}

/** Visits every selection of a row; returns the event's `updated_at` the row was written with. */
export function decodeOdds(
  data: Uint8Array,
  visit: (selectionId: number, odds: number, locked: boolean) => void,
): number {
  if (data.byteLength < HEADER) return 0;
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  for (let at = HEADER; at + ENTRY <= data.byteLength; at += ENTRY) {
    visit(view.getFloat64(at, true), view.getFloat64(at + 8, true), view.getUint8(at + 16) === 1);
  }
  return view.getFloat64(0, true);
}
