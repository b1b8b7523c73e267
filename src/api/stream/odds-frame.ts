// An odds entry's SSE frame (every change, or those a families filter keeps) written as bytes: the stream flush's hottest render, without building strings.
import type { OddsFormat } from '../../domain/types.js';
import type { OddsEntry } from '../../live/log-entry.js';
import { oddsJson } from '../../live/log-render.js';
import type { FrameArena } from './frame-arena.js';

/**
 * Everything of an entry's changes but the prices, as one buffer: change k's
 * `{"market_id":…,"selection_id":…,"odds":` ends at `lockAt[k]`, where its `,"is_locked":…}`
 * begins, followed by `,` and the next change, and `]}\n\n` after the last one. Built once per
 * entry whatever formats its streams read: a frame of every change is then these bytes with the
 * prices put between, a copy of one run per change (the previous way, three runs per change,
 * cost ~1.5× as much).
 */
interface Pieces {
  bytes: Uint8Array;
  /** Where each change's lock member starts; `lockAt[n]` is the length of `bytes`. */
  lockAt: Uint32Array;
  /** The event id as JSON, and its length in bytes (it may not be ASCII). */
  eventJson: string;
}
const piecesByEntry = new WeakMap<OddsEntry, Pieces>();

const LOCKED = ',"is_locked":true}';
const OPEN = ',"is_locked":false}';
const TAIL = ']}\n\n';
const COMMA = 44;

function piecesOf(entry: OddsEntry): Pieces {
  let pieces = piecesByEntry.get(entry);
  if (pieces !== undefined) return pieces;
  const c = entry.changes;
  const n = c.odds.length;
  let text = '';
  const lockAt = new Uint32Array(n + 1);
  for (let k = 0; k < n; k++) {
    text += `{"market_id":${c.marketIds[k] as number},"selection_id":${c.selectionIds[k] as number},"odds":`;
    lockAt[k] = text.length;
    text += c.locked[k] === 1 ? LOCKED : OPEN;
    if (k + 1 < n) text += ',';
  }
  text += TAIL;
  lockAt[n] = text.length;
  // Ids are numbers: the text is ASCII, one byte a character.
  const b = Buffer.from(text, 'latin1');
  pieces = {
    bytes: new Uint8Array(b.buffer, b.byteOffset, b.length),
    lockAt,
    eventJson: JSON.stringify(entry.eventId),
  };
  piecesByEntry.set(entry, pieces);
  return pieces;
}

/** Decimal odds as JSON bytes per format (prices sit on a ladder: few distinct values). */
const oddsBytes: Record<OddsFormat, Map<number, Uint8Array>> = {
  decimal: new Map(),
  american: new Map(),
  fractional: new Map(),
  fractional_exact: new Map(),
};
const ODDS_BYTES_MAX = 1 << 16;
/**
 * The same by hundredths for prices with at most two decimals (nearly all of them): an array
 * index costs a fifth of a Map lookup keyed by a double (measured: ~10 against ~46 ns).
 */
const HUNDREDTHS_MAX = 100_000;
const byHundredths: Record<OddsFormat, Array<Uint8Array | undefined>> = {
  decimal: [],
  american: [],
  fractional: [],
  fractional_exact: [],
};

function priceBytes(decimal: number, format: OddsFormat): Uint8Array {
  const h = Math.round(decimal * 100);
  if (h / 100 === decimal && h >= 0 && h < HUNDREDTHS_MAX) {
    const table = byHundredths[format];
    let b = table[h];
    if (b === undefined) table[h] = b = Uint8Array.from(Buffer.from(oddsJson(decimal, format), 'latin1'));
    return b;
  }
  const memo = oddsBytes[format];
  let b = memo.get(decimal);
  if (b === undefined) {
    if (memo.size >= ODDS_BYTES_MAX) memo.clear();
    b = Uint8Array.from(Buffer.from(oddsJson(decimal, format), 'latin1'));
    memo.set(decimal, b);
  }
  return b;
}

/** Runs longer than this are copied with TypedArray#set (a memcpy), shorter ones byte by byte (set's view costs more). */
const SET_FROM = 48;

/** Copies bytes[from, to) to o at p; returns the new p. */
function copyRun(o: Uint8Array, p: number, bytes: Uint8Array, from: number, to: number): number {
  if (to - from > SET_FROM) {
    o.set(bytes.subarray(from, to), p);
    return p + to - from;
  }
  for (let j = from; j < to; j++) o[p++] = bytes[j] as number;
  return p;
}

/** About the bytes of any frame of this entry in any format, rounded up (sizes a flush's arena). */
export function oddsFrameBound(entry: OddsEntry): number {
  return piecesOf(entry).bytes.length + entry.changes.odds.length * 24 + entry.eventId.length * 6 + 200;
}

/**
 * The frame `id: …\nevent: odds\ndata: {"event_id":…,"changes":[…]}\n\n`, byte for byte what
 * sseFrame(renderEntryData(entry, {format, families})) gives: every change, or only those at the
 * indices `kept` (keptChanges of the families filter; never empty). Written into `arena` when one
 * is given (a view of it is returned), into a buffer of its own otherwise.
 */
export function oddsFrame(
  entry: OddsEntry,
  format: OddsFormat,
  id: string,
  kept?: Uint32Array,
  arena?: FrameArena,
): Buffer {
  const c = entry.changes;
  const n = kept === undefined ? c.odds.length : kept.length;
  const { bytes, lockAt, eventJson } = piecesOf(entry);
  const head = `id: ${id}\nevent: odds\ndata: {"event_id":${eventJson},"changes":[`;
  const headBytes = Buffer.byteLength(head);
  const prices = new Array<Uint8Array>(n);
  let size = headBytes;
  for (let i = 0; i < n; i++) {
    const k = kept === undefined ? i : (kept[i] as number);
    const p = priceBytes(c.odds[k] as number, format);
    prices[i] = p;
    size += p.length;
  }
  if (kept === undefined) size += bytes.length;
  else {
    // Each kept change: its head and lock member, a comma between, the tail after the last.
    for (let i = 0; i < n; i++) {
      const k = kept[i] as number;
      const start = k === 0 ? 0 : (lockAt[k - 1] as number) + (c.locked[k - 1] === 1 ? LOCKED : OPEN).length + 1;
      size += (lockAt[k] as number) - start + (c.locked[k] === 1 ? LOCKED : OPEN).length;
    }
    size += Math.max(0, n - 1) + TAIL.length;
  }
  let out: Buffer;
  let p: number;
  if (arena === undefined) {
    out = Buffer.allocUnsafe(size);
    p = 0;
  } else {
    const room = arena.reserve(size);
    out = room.slab;
    p = room.at;
  }
  const start = p;
  p += out.write(head, p, headBytes, 'utf8');
  // A plain Uint8Array view: element stores on it are faster than on the Buffer subclass.
  const o = new Uint8Array(out.buffer, out.byteOffset, out.length);
  if (kept === undefined) {
    let from = 0;
    for (let k = 0; k < n; k++) {
      p = copyRun(o, p, bytes, from, lockAt[k] as number);
      const price = prices[k] as Uint8Array;
      for (let j = 0; j < price.length; j++) o[p++] = price[j] as number;
      from = lockAt[k] as number;
    }
    p = copyRun(o, p, bytes, from, bytes.length);
  } else {
    for (let i = 0; i < n; i++) {
      const k = kept[i] as number;
      if (i > 0) o[p++] = COMMA;
      const from = k === 0 ? 0 : (lockAt[k - 1] as number) + (c.locked[k - 1] === 1 ? LOCKED : OPEN).length + 1;
      p = copyRun(o, p, bytes, from, lockAt[k] as number);
      const price = prices[i] as Uint8Array;
      for (let j = 0; j < price.length; j++) o[p++] = price[j] as number;
      const lockEnd = (lockAt[k] as number) + (c.locked[k] === 1 ? LOCKED : OPEN).length;
      p = copyRun(o, p, bytes, lockAt[k] as number, lockEnd);
    }
    p += out.write(TAIL, p, TAIL.length, 'latin1');
  }
  return arena === undefined ? out : arena.commit(p - start);
}
