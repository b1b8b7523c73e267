// A cached payload that embeds an event's markets array and is refreshed by re-rendering only the markets that moved.
import type { OddsFormat } from '../domain/types.js';
import type { LiveEvent } from './live-event.js';
import { forcedLock, marketJson, marketsVisible, type PayloadFrame } from './payloads.js';

/**
 * Why: a live event with 1,000 markets is ~300 KB of JSON, re-serialized in ~3 ms; a live price
 * tick moves ~100 of its markets. Kept as one Buffer plus the byte offset of every market in it, a
 * refresh copies the unchanged byte runs of the previous payload and renders only the moved
 * markets: ~10× less work per read of a ticking event, at 4 bytes a market of extra memory.
 */
export class PatchablePayload {
  body: Buffer;
  /** The event version this body reflects. */
  builtAt: number;
  /** The markets version it was built under: another one means a rebuild, not a refresh. */
  readonly marketsVersion: number;
  /** Book indexes of the markets shown, in order. */
  private readonly shown: Int32Array;
  /** Byte offset where shown market k's text (its leading comma included) ends; it starts at ends[k-1] (or `start`). */
  private ends: Uint32Array;
  /** Byte offset of the first market's text (just after `[`). */
  private start: number;

  private constructor(le: LiveEvent, shown: Int32Array, parts: readonly string[], frame: PayloadFrame) {
    this.builtAt = le.version;
    this.marketsVersion = le.marketsVersion;
    this.shown = shown;
    this.ends = new Uint32Array(shown.length);
    const { body, start } = assemble(frame, parts, this.ends, null);
    this.body = body;
    this.start = start;
  }

  /** Renders the payload whole. */
  static build(le: LiveEvent, format: OddsFormat, frame: PayloadFrame): PatchablePayload {
    const book = le.book;
    const shownList: number[] = [];
    const parts: string[] = [];
    if (marketsVisible(le)) {
      const locked = forcedLock(le);
      for (let i = 0; i < book.marketCount; i++) {
        if (book.isWithdrawn(i)) continue;
        parts.push((shownList.length === 0 ? '' : ',') + marketJson(book, i, format, locked));
        shownList.push(i);
      }
    }
    if (le.priceStamps === null || le.priceStamps.length !== book.outcomeCount) {
      le.priceStamps = new Float64Array(book.outcomeCount);
    }
    return new PatchablePayload(le, Int32Array.from(shownList), parts, frame);
  }

  /** Brings the body up to the event's version; returns how many markets were rendered again. */
  refresh(le: LiveEvent, format: OddsFormat, frame: PayloadFrame): number {
    const stamps = le.priceStamps;
    const parts: Array<string | null> = new Array<string | null>(this.shown.length).fill(null);
    let rendered = 0;
    if (stamps !== null) {
      const locked = forcedLock(le);
      for (let k = 0; k < this.shown.length; k++) {
        const i = this.shown[k] as number;
        const [a, b] = le.book.outcomeRange(i);
        let moved = false;
        for (let o = a; o < b && !moved; o++) moved = (stamps[o] as number) > this.builtAt;
        if (moved) {
          parts[k] = (k === 0 ? '' : ',') + marketJson(le.book, i, format, locked);
          rendered++;
        }
      }
    }
    const ends = new Uint32Array(this.shown.length);
    const { body, start } = assemble(frame, parts, ends, { body: this.body, start: this.start, ends: this.ends });
    this.body = body;
    this.start = start;
    this.ends = ends;
    this.builtAt = le.version;
    return rendered;
  }
}

interface Previous {
  body: Buffer;
  start: number;
  ends: Uint32Array;
}

/**
 * Writes prefix + `[` + parts + `]` + suffix into one new Buffer, filling `ends`. A null part is
 * copied from the previous body (runs of them in one copy). A new Buffer rather than in-place
 * writes: the previous one may still be queued on a socket.
 */
function assemble(
  frame: PayloadFrame,
  parts: ReadonlyArray<string | null>,
  ends: Uint32Array,
  prev: Previous | null,
): { body: Buffer; start: number } {
  const lengths = new Uint32Array(parts.length);
  let total = Buffer.byteLength(frame.prefix) + 2 + Buffer.byteLength(frame.suffix);
  for (let k = 0; k < parts.length; k++) {
    const p = parts[k];
    const n =
      p !== null && p !== undefined
        ? Buffer.byteLength(p)
        : (prev as Previous).ends[k]! - (k === 0 ? (prev as Previous).start : (prev as Previous).ends[k - 1]!);
    lengths[k] = n;
    total += n;
  }
  const body = Buffer.allocUnsafe(total);
  let at = body.write(frame.prefix, 0);
  body[at++] = 0x5b; // [
  const start = at;
  let k = 0;
  while (k < parts.length) {
    const p = parts[k];
    if (p !== null && p !== undefined) {
      at += body.write(p, at);
      ends[k] = at;
      k++;
      continue;
    }
    // A run of unchanged markets: one copy from the previous body.
    const old = prev as Previous;
    const runStart = at;
    const from = k === 0 ? old.start : old.ends[k - 1]!;
    let j = k;
    while (j < parts.length && (parts[j] === null || parts[j] === undefined)) {
      at += lengths[j]!;
      ends[j] = at;
      j++;
    }
    old.body.copy(body, runStart, from, old.ends[j - 1]!);
    k = j;
  }
  body[at++] = 0x5d; // ]
  at += body.write(frame.suffix, at);
  return { body, start };
}
