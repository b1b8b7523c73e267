// An odds entry's SSE frame (every change, or those a families filter keeps) written as bytes: the stream flush's hottest render, without building strings.
import type { OddsFormat } from '../../domain/types.js';
import type { OddsEntry } from '../../live/log-entry.js';
import { oddsJson } from '../../live/log-render.js';

/**
 * The format-independent part of each change, `{"market_id":…,"selection_id":…,"odds":`, as one
 * buffer with offsets: built once per entry, whatever formats its streams read.
 */
interface Heads {
  view: Uint8Array;
  /** Start of change k's head in `bytes`; the last element is its length. */
  at: Uint32Array;
}
const headsByEntry = new WeakMap<OddsEntry, Heads>();

function headsOf(entry: OddsEntry): Heads {
  let heads = headsByEntry.get(entry);
  if (heads !== undefined) return heads;
  const c = entry.changes;
  const n = c.odds.length;
  let text = '';
  const at = new Uint32Array(n + 1);
  for (let k = 0; k < n; k++) {
    at[k] = text.length;
    text += `{"market_id":${c.marketIds[k] as number},"selection_id":${c.selectionIds[k] as number},"odds":`;
  }
  at[n] = text.length;
  // Ids are numbers: the text is ASCII, one byte a character.
  const bytes = Buffer.from(text, 'latin1');
  heads = { view: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length), at };
  headsByEntry.set(entry, heads);
  return heads;
}

/** Decimal odds as JSON bytes per format (prices sit on a ladder: few distinct values). */
const oddsBytes: Record<OddsFormat, Map<number, Uint8Array>> = {
  decimal: new Map(),
  american: new Map(),
  fractional: new Map(),
  fractional_exact: new Map(),
};
const ODDS_BYTES_MAX = 1 << 16;

function priceBytes(decimal: number, format: OddsFormat): Uint8Array {
  const memo = oddsBytes[format];
  let b = memo.get(decimal);
  if (b === undefined) {
    if (memo.size >= ODDS_BYTES_MAX) memo.clear();
    b = Uint8Array.from(Buffer.from(oddsJson(decimal, format), 'latin1'));
    memo.set(decimal, b);
  }
  return b;
}

const LOCKED = Uint8Array.from(Buffer.from(',"is_locked":true}', 'latin1'));
const OPEN = Uint8Array.from(Buffer.from(',"is_locked":false}', 'latin1'));
const TAIL = Buffer.from(']}\n\n', 'latin1');

/**
 * The frame `id: …\nevent: odds\ndata: {"event_id":…,"changes":[…]}\n\n`, byte for byte what
 * sseFrame(renderEntryData(entry, {format, families})) gives: every change, or only those at the
 * indices `kept` (keptChanges of the families filter; never empty).
 */
export function oddsFrame(entry: OddsEntry, format: OddsFormat, id: string, kept?: Uint32Array): Buffer {
  const c = entry.changes;
  const n = kept === undefined ? c.odds.length : kept.length;
  const heads = headsOf(entry);
  const hb = heads.view;
  const at = heads.at;
  const head = `id: ${id}\nevent: odds\ndata: {"event_id":${JSON.stringify(entry.eventId)},"changes":[`;
  const headBytes = Buffer.byteLength(head);
  const prices = new Array<Uint8Array>(n);
  let size = headBytes + TAIL.length + Math.max(0, n - 1);
  for (let i = 0; i < n; i++) {
    const k = kept === undefined ? i : (kept[i] as number);
    const p = priceBytes(c.odds[k] as number, format);
    prices[i] = p;
    size += (at[k + 1] as number) - (at[k] as number) + p.length + (c.locked[k] === 1 ? LOCKED.length : OPEN.length);
  }
  const out = Buffer.allocUnsafe(size);
  let p = out.write(head, 0, headBytes);
  // Plain Uint8Array views: element stores on them are faster than on the Buffer subclass.
  const o = new Uint8Array(out.buffer, out.byteOffset, out.length);
  // Byte loops, not Buffer#copy: the pieces are a few dozen bytes, and copy() costs more per call.
  for (let i = 0; i < n; i++) {
    const k = kept === undefined ? i : (kept[i] as number);
    if (i > 0) o[p++] = 44; // ','
    for (let j = at[k] as number, end = at[k + 1] as number; j < end; j++) o[p++] = hb[j] as number;
    const price = prices[i] as Uint8Array;
    for (let j = 0; j < price.length; j++) o[p++] = price[j] as number;
    const lock = c.locked[k] === 1 ? LOCKED : OPEN;
    for (let j = 0; j < lock.length; j++) o[p++] = lock[j] as number;
  }
  TAIL.copy(out, p);
  return out;
}
