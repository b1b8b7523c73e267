// Odds history chunks: every price and lock change of one event over a span, column-wise (~25 bytes a change before compression).

/** Price and lock changes in the order they happened (world time `at`, epoch ms). */
export interface HistoryColumns {
  at: Float64Array;
  marketIds: Float64Array;
  selectionIds: Float64Array;
  odds: Float64Array;
  locked: Uint8Array;
}

export const HISTORY_CODEC_VERSION = 1;
const HEADER = 1 + 1 + 4 + 8;
/** Flag: odds are written as float64 (some price has more than 3 decimals); else as uint32 thousandths. */
const ODDS_F64 = 1;

export class HistoryDecodeError extends Error {}

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
 * Encodes the first `n` changes. Times are offsets from the first (uint32 ms: a chunk spans far
 * less than 49 days); prices with at most 3 decimals (every price a book quotes) are uint32
 * thousandths, exact; otherwise the chunk keeps float64 prices, exact too.
 */
export function encodeHistory(c: HistoryColumns, n: number): Uint8Array {
  let f64 = false;
  for (let k = 0; k < n && !f64; k++) {
    const o = c.odds[k] as number;
    const t = Math.round(o * 1000);
    if (t / 1000 !== o || t > 0xffffffff) f64 = true;
  }
  const oddsBytes = f64 ? 8 : 4;
  const buf = new Uint8Array(HEADER + n * (4 + 8 + 8 + oddsBytes + 1));
  const view = new DataView(buf.buffer);
  const base = n > 0 ? (c.at[0] as number) : 0;
  view.setUint8(0, HISTORY_CODEC_VERSION);
  view.setUint8(1, f64 ? ODDS_F64 : 0);
  view.setUint32(2, n, true);
  view.setFloat64(6, base, true);
  let p = HEADER;
  for (let k = 0; k < n; k++, p += 4) view.setUint32(p, Math.max(0, (c.at[k] as number) - base), true);
  for (let k = 0; k < n; k++, p += 8) view.setFloat64(p, c.marketIds[k] as number, true);
  for (let k = 0; k < n; k++, p += 8) view.setFloat64(p, c.selectionIds[k] as number, true);
  if (f64) for (let k = 0; k < n; k++, p += 8) view.setFloat64(p, c.odds[k] as number, true);
  else for (let k = 0; k < n; k++, p += 4) view.setUint32(p, Math.round((c.odds[k] as number) * 1000), true);
  buf.set(c.locked.subarray(0, n), p);
  return buf;
}

/** Decodes a chunk written by encodeHistory; an unknown version or a short chunk is an error, never a guess. */
export function decodeHistory(data: Uint8Array): HistoryColumns {
  if (data.byteLength < HEADER) throw new HistoryDecodeError('odds history chunk shorter than its header');
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const version = view.getUint8(0);
  if (version !== HISTORY_CODEC_VERSION) throw new HistoryDecodeError(`odds history chunk version ${version}`);
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
