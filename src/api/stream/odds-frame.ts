// An odds entry's whole SSE frame (every market, no filter) written as bytes: the stream flush's hottest render, without building strings.
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
 * sseFrame(renderEntryData(entry, {format, families: null})) gives.
 */
export function oddsFrame(entry: OddsEntry, format: OddsFormat, id: string): Buffer {
  const c = entry.changes;
  const n = c.odds.length;
  const heads = headsOf(entry);
  const head = Buffer.from(`id: ${id}\nevent: odds\ndata: {"event_id":${JSON.stringify(entry.eventId)},"changes":[`);
  const prices = new Array<Uint8Array>(n);
  let size = head.length + heads.view.length + TAIL.length + Math.max(0, n - 1);
  for (let k = 0; k < n; k++) {
    const p = priceBytes(c.odds[k] as number, format);
    prices[k] = p;
    size += p.length + (c.locked[k] === 1 ? LOCKED.length : OPEN.length);
  }
  const out = Buffer.allocUnsafe(size);
  let p = head.copy(out, 0);
  // Plain Uint8Array views: element stores on them are faster than on the Buffer subclass.
  const o = new Uint8Array(out.buffer, out.byteOffset, out.length);
  const hb = heads.view;
  // Byte loops, not Buffer#copy: the pieces are a few dozen bytes, and copy() costs more per call.
  for (let k = 0; k < n; k++) {
    if (k > 0) o[p++] = 44; // ','
    for (let i = heads.at[k] as number, end = heads.at[k + 1] as number; i < end; i++) o[p++] = hb[i] as number;
    const price = prices[k] as Uint8Array;
    for (let i = 0; i < price.length; i++) o[p++] = price[i] as number;
    const lock = c.locked[k] === 1 ? LOCKED : OPEN;
    for (let i = 0; i < lock.length; i++) o[p++] = lock[i] as number;
  }
  TAIL.copy(out, p);
  return out;
}
