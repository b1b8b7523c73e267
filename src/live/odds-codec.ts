// Compact encoding of live odds for the store: the event's updated_at, then 17 bytes a selection (id, odds, lock).
import type { MarketBook } from './market-book.js';

const HEADER = 8;
const ENTRY = 17;

/**
 * Encodes the current odds and locks of these outcomes of a book (by index), headed by the event's
 * `updated_at` — so a price tick needs no event document of its own.
 */
export function encodeOutcomes(book: MarketBook, outcomes: ArrayLike<number>, updatedAt: number): Uint8Array {
  const buf = new Uint8Array(HEADER + outcomes.length * ENTRY);
  const view = new DataView(buf.buffer);
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

/** Every selection of a book, for a full row. */
export function encodeAllOdds(book: MarketBook, updatedAt: number): Uint8Array {
  const all = new Uint32Array(book.outcomeCount);
  for (let o = 0; o < all.length; o++) all[o] = o;
  return encodeOutcomes(book, all, updatedAt);
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
