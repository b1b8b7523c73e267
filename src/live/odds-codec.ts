// Compact encoding of live odds for the store: the event's updated_at, then 17 bytes a selection (id, odds, lock), or the changes themselves in the change log's compact form.
import { decodeHistory, HistoryDecodeError, type HistoryChunkWriter } from './history-codec.js';
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

/**
 * A row of changes: a marker byte, the event's `updated_at`, the chunk's length (uint32), then an
 * odds history chunk (history-codec.ts) of every change since the last flush, in order. The change
 * log has already encoded those changes (5-7 bytes each) and the flush copies them, where a row of
 * selections re-reads the book and writes 17 bytes for each. A row of selections is always
 * HEADER + 17n bytes long; a row of changes never is (a zero byte is added when it would be), so
 * rows stored before need no marker of their own.
 */
const CHUNK_ROW = 0xb2;
const CHUNK_HEADER = 1 + 8 + 4;

/** Bytes of a row of changes holding the chunk the writer holds now. */
export function changesRowBytes(chunk: HistoryChunkWriter): number {
  const n = CHUNK_HEADER + chunk.byteLength;
  return (n - HEADER) % ENTRY === 0 ? n + 1 : n;
}

/** Writes the writer's changes as a row into `into` (exactly changesRowBytes bytes); the writer starts again. */
export function encodeChanges(chunk: HistoryChunkWriter, updatedAt: number, into: Uint8Array): Uint8Array {
  const view = new DataView(into.buffer, into.byteOffset, into.byteLength);
  const length = chunk.byteLength;
  view.setUint8(0, CHUNK_ROW);
  view.setFloat64(1, updatedAt, true);
  view.setUint32(9, length, true);
  chunk.takeInto(into, CHUNK_HEADER);
  if (into.byteLength > CHUNK_HEADER + length) into[CHUNK_HEADER + length] = 0;
  return into;
}

function isChangesRow(data: Uint8Array): boolean {
  return data.byteLength >= CHUNK_HEADER && (data.byteLength - HEADER) % ENTRY !== 0 && data[0] === CHUNK_ROW;
}

/**
 * Visits every selection of a row (a row of changes: every change, in order); returns the event's
 * `updated_at` the row was written with. A damaged row of changes throws (HistoryDecodeError).
 */
export function decodeOdds(
  data: Uint8Array,
  visit: (selectionId: number, odds: number, locked: boolean) => void,
): number {
  if (isChangesRow(data)) {
    const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
    const length = view.getUint32(9, true);
    if (CHUNK_HEADER + length > data.byteLength) throw new HistoryDecodeError('odds row of changes is cut short');
    const c = decodeHistory(data.subarray(CHUNK_HEADER, CHUNK_HEADER + length));
    for (let k = 0; k < c.selectionIds.length; k++)
      visit(c.selectionIds[k] as number, c.odds[k] as number, c.locked[k] === 1);
    return view.getFloat64(1, true);
  }
  if (data.byteLength < HEADER) return 0;
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  for (let at = HEADER; at + ENTRY <= data.byteLength; at += ENTRY) {
    visit(view.getFloat64(at, true), view.getFloat64(at + 8, true), view.getUint8(at + 16) === 1);
  }
  return view.getFloat64(0, true);
}
