// Opening and closing prices of an event's selections as the store keeps them: ids, then first prices, then last prematch prices (NaN: none).

export interface OddsMarks {
  selectionIds: Float64Array;
  opening: Float64Array;
  /** Null while the event has not gone live. */
  closing: Float64Array | null;
}

const HEADER = 5;

export function encodeOddsMarks(m: OddsMarks): Uint8Array {
  const n = m.selectionIds.length;
  const buf = new Uint8Array(HEADER + n * (m.closing === null ? 16 : 24));
  const view = new DataView(buf.buffer);
  view.setUint32(0, n, true);
  view.setUint8(4, m.closing === null ? 0 : 1);
  let p = HEADER;
  for (const col of m.closing === null ? [m.selectionIds, m.opening] : [m.selectionIds, m.opening, m.closing]) {
    for (let k = 0; k < n; k++, p += 8) view.setFloat64(p, col[k] as number, true);
  }
  return buf;
}

/** Decodes what encodeOddsMarks wrote; null for bytes of another shape (the marks are then not restored). */
export function decodeOddsMarks(data: Uint8Array): OddsMarks | null {
  if (data.byteLength < HEADER) return null;
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const n = view.getUint32(0, true);
  const hasClosing = view.getUint8(4) === 1;
  if (data.byteLength !== HEADER + n * (hasClosing ? 24 : 16)) return null;
  const read = (from: number): Float64Array => {
    const out = new Float64Array(n);
    for (let k = 0; k < n; k++) out[k] = view.getFloat64(from + 8 * k, true);
    return out;
  };
  return {
    selectionIds: read(HEADER),
    opening: read(HEADER + 8 * n),
    closing: hasClosing ? read(HEADER + 16 * n) : null,
  };
}
