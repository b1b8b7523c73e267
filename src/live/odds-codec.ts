// Compact encoding of live odds for the store: 17 bytes a selection (id, decimal odds, lock).
import type { MarketBook } from './market-book.js';

const ENTRY = 17;

/** Encodes the current odds and locks of these selections of a book (unknown ids are skipped). */
export function encodeOdds(book: MarketBook, selectionIds: Iterable<number>): Uint8Array {
  const ids = [...selectionIds];
  const buf = new Uint8Array(ids.length * ENTRY);
  const view = new DataView(buf.buffer);
  let n = 0;
  for (const id of ids) {
    const o = book.indexOfSelection(id);
    if (o < 0) continue;
    view.setFloat64(n * ENTRY, id, true);
    view.setFloat64(n * ENTRY + 8, book.odds(o), true);
    view.setUint8(n * ENTRY + 16, book.isLocked(o) ? 1 : 0);
    n++;
  }
  return n === ids.length ? buf : buf.slice(0, n * ENTRY);
}

/** Every selection of a book, for a full row. */
export function encodeAllOdds(book: MarketBook): Uint8Array {
  const ids: number[] = [];
  for (let o = 0; o < book.outcomeCount; o++) ids.push(book.selectionId(o));
  return encodeOdds(book, ids);
}

export function decodeOdds(
  data: Uint8Array,
  visit: (selectionId: number, odds: number, locked: boolean) => void,
): void {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  for (let at = 0; at + ENTRY <= data.byteLength; at += ENTRY) {
    visit(view.getFloat64(at, true), view.getFloat64(at + 8, true), view.getUint8(at + 16) === 1);
  }
}
