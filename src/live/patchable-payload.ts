// A cached payload that embeds an event's markets array and is refreshed by rewriting only the prices and locks that moved.
import type { OddsFormat } from '../domain/types.js';
import type { BufferPool } from './buffer-pool.js';
import type { LiveEvent } from './live-event.js';
import {
  forcedLock,
  lockText,
  LOCK_MEMBER,
  marketsVisible,
  oddsText,
  writeMarket,
  type MarketSink,
  type PayloadFrame,
} from './payloads.js';

const LOCK_MEMBER_BYTES = Buffer.byteLength(LOCK_MEMBER);
const T = 0x74; // 't' of true

/**
 * Why: a live event with 1,000 markets is ~300 KB of JSON, serialized in ~3 ms; a price tick
 * moves ~100 of its selections. Kept as one Buffer plus the byte offsets of every outcome's odds
 * value, a refresh copies the unchanged runs of the previous payload and writes only the new odds
 * and lock values: a read of a ticking event costs a copy of its bytes plus a few microseconds a
 * moved selection, at 8 bytes a selection of extra memory while the payload is cached.
 */
export class PatchablePayload {
  body: Buffer;
  /** The event version this body reflects. */
  builtAt: number;
  /** The markets version it was built under: another one means a rebuild, not a refresh. */
  readonly marketsVersion: number;
  /** Outcome indexes in body order (the shown markets' outcomes). */
  private readonly outcomes: Uint32Array;
  /** Byte offsets of each outcome's odds value (start, end), in body order. */
  private readonly oddsAt: Uint32Array;
  /** Bytes before the first market's text: the frame's prefix and `[`. */
  private head: number;
  /** Bytes of the markets array's text after its `[` and before its `]`. */
  private tailAt: number;

  private constructor(
    le: LiveEvent,
    outcomes: Uint32Array,
    oddsAt: Uint32Array,
    body: Buffer,
    head: number,
    tailAt: number,
  ) {
    this.builtAt = le.version;
    this.marketsVersion = le.marketsVersion;
    this.outcomes = outcomes;
    this.oddsAt = oddsAt;
    this.body = body;
    this.head = head;
    this.tailAt = tailAt;
  }

  /** Selections in the payload. */
  get selections(): number {
    return this.outcomes.length;
  }

  /**
   * Renders the payload whole; into pooled memory when a pool is given, so that the body can be
   * recycled like a refreshed one (a first refresh then allocates nothing). `keep` leaves out the
   * markets it refuses (a read's `markets` filter); a refresh then rewrites the kept ones only.
   */
  static build(
    le: LiveEvent,
    format: OddsFormat,
    frame: PayloadFrame,
    pool?: BufferPool,
    keep?: (market: number) => boolean,
  ): PatchablePayload {
    const book = le.book;
    const pieces: string[] = [frame.prefix, '['];
    let bytes = Buffer.byteLength(frame.prefix) + 1;
    const head = bytes;
    const order: number[] = [];
    const at: number[] = [];
    const sink: MarketSink = {
      text(s) {
        pieces.push(s);
        bytes += Buffer.byteLength(s);
      },
      odds(o, s) {
        order.push(o);
        at.push(bytes, bytes + s.length);
        pieces.push(s);
        bytes += s.length;
      },
      lock(s) {
        pieces.push(s);
        bytes += s.length;
      },
    };
    if (marketsVisible(le)) {
      const locked = forcedLock(le);
      let first = true;
      for (let i = 0; i < book.marketCount; i++) {
        if (book.isWithdrawn(i)) continue;
        if (keep !== undefined && !keep(i)) continue;
        if (!first) sink.text(',');
        first = false;
        writeMarket(book, i, format, locked, sink);
      }
    }
    const tailAt = bytes;
    pieces.push(']', frame.suffix);
    if (le.priceStamps === null || le.priceStamps.length !== book.outcomeCount) {
      le.priceStamps = new Uint32Array(book.outcomeCount);
    }
    const text = pieces.join('');
    let body: Buffer;
    if (pool === undefined) body = Buffer.from(text);
    else {
      body = pool.take(Buffer.byteLength(text));
      body.write(text, 0);
    }
    return new PatchablePayload(le, Uint32Array.from(order), Uint32Array.from(at), body, head, tailAt);
  }

  /** Brings the body up to the event's version; returns how many selections were rewritten. */
  refresh(le: LiveEvent, format: OddsFormat, frame: PayloadFrame, pool: BufferPool): number {
    const stamps = le.priceStamps;
    const book = le.book;
    const locked = forcedLock(le);
    const old = this.body;
    const oldAt = this.oddsAt;
    // The moved selections (body order) and their new value texts.
    const moved: number[] = [];
    const texts: string[] = [];
    let delta = 0;
    if (stamps !== null) {
      for (let k = 0; k < this.outcomes.length; k++) {
        const o = this.outcomes[k] as number;
        if ((stamps[o] as number) <= this.builtAt) continue;
        const oddsEnd = oldAt[2 * k + 1] as number;
        const lockStart = oddsEnd + LOCK_MEMBER_BYTES;
        const oldLockBytes = old[lockStart] === T ? 4 : 5;
        const odds = oddsText(book, o, format);
        const lock = lockText(book, o, locked);
        moved.push(k);
        texts.push(odds, lock);
        delta += odds.length - (oddsEnd - (oldAt[2 * k] as number)) + lock.length - oldLockBytes;
      }
    }
    const prefix = Buffer.byteLength(frame.prefix);
    const suffix = Buffer.byteLength(frame.suffix);
    const shift = prefix + 1 - this.head;
    const body = pool.take(old.length + delta + shift + suffix - (old.length - this.tailAt - 1));
    body.write(frame.prefix, 0);
    body[prefix] = 0x5b; // [
    // Offsets are moved in place: each entry is read before it is written, and a new array per
    // refresh (16 KB for 2,000 selections, thousands of refreshes a second) was what made V8 start
    // a full collection every second for "external memory pressure".
    const at = this.oddsAt;
    // Copy from the old body in runs, writing new values for the moved selections.
    let from = this.head;
    let to = prefix + 1;
    let offset = shift;
    let next = 0;
    for (let m = 0; m < moved.length; m++) {
      const k = moved[m] as number;
      if (offset !== 0) for (; next < k; next++) shiftPair(at, next, offset);
      const oddsStart = at[2 * k] as number;
      const oddsEnd = at[2 * k + 1] as number;
      to += old.copy(body, to, from, oddsStart);
      const odds = texts[2 * m] as string;
      const lock = texts[2 * m + 1] as string;
      at[2 * k] = to;
      at[2 * k + 1] = to + odds.length;
      // One write for the odds value, the member between and the lock value (all ASCII).
      to += body.write(odds + LOCK_MEMBER + lock, to, 'latin1');
      from = oddsEnd + LOCK_MEMBER_BYTES + (old[oddsEnd + LOCK_MEMBER_BYTES] === T ? 4 : 5);
      offset = to - from;
      next = k + 1;
    }
    if (offset !== 0) for (; next < this.outcomes.length; next++) shiftPair(at, next, offset);
    to += old.copy(body, to, from, this.tailAt);
    const tailAt = to;
    body[to++] = 0x5d; // ]
    to += body.write(frame.suffix, to);
    this.body = to === body.length ? body : body.subarray(0, to);
    pool.give(old);
    this.head = prefix + 1;
    this.tailAt = tailAt;
    this.builtAt = le.version;
    return moved.length;
  }
}

/** Moves the odds value offsets of body-order selection k by `offset` bytes. */
function shiftPair(at: Uint32Array, k: number, offset: number): void {
  at[2 * k] = (at[2 * k] as number) + offset;
  at[2 * k + 1] = (at[2 * k + 1] as number) + offset;
}
