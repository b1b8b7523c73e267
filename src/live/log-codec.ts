// Compact, versioned binary form of change-log entries: the replay window is stored as one segment per flush and restored after a restart.
import type { OutrightMarket } from '../domain/outrights.js';
import type { Market } from '../domain/types.js';
import { jsonEntryBytes, marketsEntryBytes, oddsEntryBytes, outrightEntryBytes } from './log-entries.js';
import type { JsonEntry, LogEntry, LogEntryKind, OddsEntry } from './log-entry.js';
import type { LogPosition } from './log-position.js';

/**
 * Segment layout, version 1: a version byte, then entries until the end. An entry is a kind byte
 * (flags in the high bits), its position (milliseconds as a delta from the previous entry's, then
 * the counter), its world time (a delta from the position's milliseconds), its event id, sport and
 * league (indexes into the segment's string table, a new string written where first used), then
 * a body by kind. Integers are LEB128 varints (signed ones zigzagged), exact up to 2^53. An odds
 * change is a market id and a selection id (deltas from the previous change's), and the price in
 * thousandths shifted left once with the lock bit: a tick's selection costs 5 to 7 bytes where
 * the odds rows spend 17. A price that thousandths cannot hold exactly is written as a float64.
 */
export const LOG_CODEC_VERSION = 1;

const KINDS: readonly LogEntryKind[] = [
  'fixture',
  'status',
  'score',
  'stats',
  'markets',
  'odds',
  'result',
  'settlement',
  'outright',
  'evicted',
];
const KIND_CODE = new Map(KINDS.map((k, i) => [k, i] as const));
/** The entry's world time is not a whole number of milliseconds: a float64 follows. */
const AT_FLOAT = 0x80;
/** An odds entry whose ids are not safe integers: its columns follow as float64s. */
const ODDS_RAW = 0x40;
const KIND_MASK = 0x3f;
const OUTRIGHT_CHANGES: ReadonlyArray<OutrightEntryChange> = ['tournament', 'market', 'result'];
type OutrightEntryChange = 'tournament' | 'market' | 'result';

/** One sealed segment: the entries from `from` to `to` (positions), encoded. */
export interface EncodedSegment {
  from: LogPosition;
  to: LogPosition;
  count: number;
  data: Buffer;
}

/**
 * Encodes entries as they are appended (the cost is spread over the ticks, not paid at the flush),
 * into a buffer reused from one segment to the next; seal() hands the segment over.
 */
export class LogSegmentWriter {
  private buf = Buffer.allocUnsafe(64 * 1024);
  private p = 0;
  private strings = new Map<string, number>();
  private lastMs = 0;
  private first: LogPosition | null = null;
  private last: LogPosition | null = null;
  private n = 0;
  private lastOdds: OddsEntry | null = null;
  private lastOddsStart = 0;

  constructor() {
    this.reset();
  }

  /** Entries written since the last seal. */
  get count(): number {
    return this.n;
  }

  /** Bytes written since the last seal. */
  get size(): number {
    return this.p;
  }

  write(entry: LogEntry): void {
    this.lastOdds = null;
    const atWhole = Number.isSafeInteger(entry.at) && Number.isSafeInteger(entry.at - entry.position.ms);
    const raw = entry.kind === 'odds' && !safeIds(entry);
    this.ensure(32);
    this.buf[this.p++] = (KIND_CODE.get(entry.kind) as number) | (atWhole ? 0 : AT_FLOAT) | (raw ? ODDS_RAW : 0);
    this.uvarint(entry.position.ms - this.lastMs);
    this.uvarint(entry.position.seq);
    this.lastMs = entry.position.ms;
    if (atWhole) this.svarint(entry.at - entry.position.ms);
    else this.float(entry.at);
    this.ref(entry.eventId);
    this.ref(entry.sport);
    this.ref(entry.league);
    switch (entry.kind) {
      case 'odds':
        if (raw) this.oddsRaw(entry);
        else this.odds(entry);
        break;
      case 'markets':
        this.string(JSON.stringify([entry.added, entry.withdrawn]));
        this.uvarint(entry.repriced.length);
        this.ensure(entry.repriced.length);
        this.buf.set(entry.repriced, this.p);
        this.p += entry.repriced.length;
        break;
      case 'outright':
        this.string(entry.tournament);
        this.ensure(2);
        this.buf[this.p++] = OUTRIGHT_CHANGES.indexOf(entry.change);
        this.string(JSON.stringify(entry.market));
        this.buf[this.p++] = entry.resultJson === null ? 0 : 1;
        if (entry.resultJson !== null) this.string(entry.resultJson);
        break;
      default:
        this.string(entry.json);
    }
    this.first ??= entry.position;
    this.last = entry.position;
    this.n++;
  }

  /** The segment written since the last seal (null when empty); the writer starts a new one. */
  seal(): EncodedSegment | null {
    if (this.first === null || this.last === null) return null;
    const out: EncodedSegment = {
      from: this.first,
      to: this.last,
      count: this.n,
      data: Buffer.from(this.buf.subarray(0, this.p)),
    };
    this.reset(this.p);
    return out;
  }

  /** The memory the writer holds for the next segment (tests). */
  get capacity(): number {
    return this.buf.length;
  }

  /** Starts a new segment; `used`: what the segment just sealed took. */
  private reset(used = 0): void {
    this.p = 0;
    this.buf[this.p++] = LOG_CODEC_VERSION;
    this.strings = new Map();
    this.lastMs = 0;
    this.lastOdds = null;
    this.first = this.last = null;
    this.n = 0;
    // A buffer grown by a burst (a bulk load's markets) is not kept for the smaller segments after
    // it: more than four times what the last segment took shrinks to twice that.
    if (this.buf.length > 1024 * 1024 && this.buf.length > 4 * used) {
      const next = Buffer.allocUnsafe(Math.max(64 * 1024, 2 * used));
      next[0] = LOG_CODEC_VERSION;
      this.buf = next;
    }
  }

  private odds(entry: OddsEntry): void {
    const n = entry.count;
    this.uvarint(n);
    const packed = entry.packed;
    if (packed !== null) {
      // Encoded as the changes were applied (ReadModel.applyPrices): copied as it is.
      this.ensure(packed.byteLength);
      this.buf.set(packed, this.p);
      this.lastOdds = entry;
      this.lastOddsStart = this.p;
      this.p += packed.byteLength;
      return;
    }
    const c = entry.changes;
    // Room for the worst case once, then the loop writes with no call and no check per byte: a
    // capacity tick is 100,000 selections every 300 ms, encoded on the event loop as they append.
    this.ensure(n * ODDS_CHANGE_MAX_BYTES);
    const start = this.p;
    this.p = putOddsChanges(this.buf, this.p, c, 0, n);
    this.lastOdds = entry;
    this.lastOddsStart = start;
  }

  /**
   * The compact bytes of an odds entry's changes if it is the last entry written (the odds
   * history keeps the very same bytes: one encoding pass for both), else null. A view into the
   * writer's buffer: valid until the next write or seal, so copy it at once.
   */
  oddsBytesOf(entry: OddsEntry): Uint8Array | null {
    return this.lastOdds === entry ? this.buf.subarray(this.lastOddsStart, this.p) : null;
  }

  private oddsRaw(entry: OddsEntry): void {
    const c = entry.changes;
    const n = entry.count;
    this.uvarint(n);
    this.ensure(25 * n);
    for (let k = 0; k < n; k++) {
      this.float(c.marketIds[k] as number);
      this.float(c.selectionIds[k] as number);
      this.float(c.odds[k] as number);
      this.buf[this.p++] = c.locked[k] === 1 ? 1 : 0;
    }
  }

  private ref(s: string): void {
    const known = this.strings.get(s);
    if (known !== undefined) {
      this.uvarint(known);
      return;
    }
    const index = this.strings.size;
    this.strings.set(s, index);
    this.uvarint(index);
    this.string(s);
  }

  private string(s: string): void {
    const n = Buffer.byteLength(s, 'utf8');
    this.ensure(n + 10);
    this.uvarint(n);
    this.p += this.buf.write(s, this.p, 'utf8');
  }

  private float(v: number): void {
    this.ensure(8);
    this.buf.writeDoubleLE(v, this.p);
    this.p += 8;
  }

  private svarint(v: number): void {
    this.uvarint(v >= 0 ? 2 * v : -2 * v - 1);
  }

  private uvarint(v: number): void {
    this.ensure(10);
    this.p = putVarint(this.buf, this.p, v);
  }

  private ensure(n: number): void {
    if (this.p + n <= this.buf.length) return;
    const bigger = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.p + n));
    this.buf.copy(bigger, 0, 0, this.p);
    this.buf = bigger;
  }
}

/** The most bytes putOddsChanges writes for one change (three varints, or a lock byte and a float64). */
export const ODDS_CHANGE_MAX_BYTES = 38;

/** Price and lock changes as columns (an odds entry's, or a market's repriced selections). */
export interface OddsChangeColumns {
  marketIds: ArrayLike<number>;
  selectionIds: ArrayLike<number>;
  odds: ArrayLike<number>;
  locked: ArrayLike<number>;
}

/**
 * Writes changes [from, from + n) in the compact form (ids as zigzag deltas from the previous
 * change's, starting at 0; the price in thousandths shifted left once with the lock bit, or a lock
 * byte and a float64 when thousandths cannot hold it) at p, with room for n ×
 * ODDS_CHANGE_MAX_BYTES; returns the position after. Ids must pass oddsIdsSafe. The change log's
 * segments and the odds history share it (readOddsChanges reads it back).
 */
export function putOddsChanges(b: Buffer, p: number, c: OddsChangeColumns, from: number, n: number): number {
  let market = 0;
  let selection = 0;
  for (let k = from; k < from + n; k++) {
    const m = c.marketIds[k] as number;
    const s = c.selectionIds[k] as number;
    p = putVarint(b, p, m >= market ? 2 * (m - market) : 2 * (market - m) - 1);
    p = putVarint(b, p, s >= selection ? 2 * (s - selection) : 2 * (selection - s) - 1);
    market = m;
    selection = s;
    const o = c.odds[k] as number;
    const locked = c.locked[k] === 1 ? 1 : 0;
    const milli = Math.round(o * 1000);
    if (milli >= 1 && milli <= 2 ** 50 && milli / 1000 === o) p = putVarint(b, p, milli * 2 + locked);
    else {
      b[p++] = locked;
      b.writeDoubleLE(o, p);
      p += 8;
    }
  }
  return p;
}

/** Reads n changes written by putOddsChanges (or, `raw`, as float64 columns) into the columns at `at`. */
export function readOddsChanges(
  r: Reader,
  n: number,
  raw: boolean,
  out: { marketIds: Float64Array; selectionIds: Float64Array; odds: Float64Array; locked: Uint8Array },
  at: number,
): void {
  let market = 0;
  let selection = 0;
  for (let k = at; k < at + n; k++) {
    if (raw) {
      out.marketIds[k] = r.float();
      out.selectionIds[k] = r.float();
      out.odds[k] = r.float();
      out.locked[k] = r.byte();
      continue;
    }
    market += r.svarint();
    selection += r.svarint();
    out.marketIds[k] = market;
    out.selectionIds[k] = selection;
    const v = r.uvarint();
    if (v < 2) {
      out.locked[k] = v;
      out.odds[k] = r.float();
    } else {
      out.locked[k] = v % 2;
      out.odds[k] = Math.floor(v / 2) / 1000;
    }
  }
}

/** Whether changes [from, from + n) have ids the compact form holds exactly (safe integers within 2^50). */
export function oddsIdsSafe(c: OddsChangeColumns, from: number, n: number): boolean {
  for (let k = from; k < from + n; k++) {
    const m = c.marketIds[k] as number;
    const s = c.selectionIds[k] as number;
    if (!Number.isSafeInteger(m) || !Number.isSafeInteger(s)) return false;
    if (Math.abs(m) > 2 ** 50 || Math.abs(s) > 2 ** 50) return false;
  }
  return true;
}

/** Writes a varint (LEB128) of a non-negative integer up to 2^53 at p; returns the position after it. */
export function putVarint(b: Uint8Array, p: number, v: number): number {
  if (v < 128) {
    b[p] = v;
    return p + 1;
  }
  if (v < 16384) {
    b[p] = (v & 127) | 128;
    b[p + 1] = v >>> 7;
    return p + 2;
  }
  // Below 2^31, integer bit operations; a tick's id deltas are mostly here (float division costs more).
  if (v < 2147483648) {
    while (v >= 128) {
      b[p++] = (v & 127) | 128;
      v >>>= 7;
    }
    b[p] = v;
    return p + 1;
  }
  while (v >= 128) {
    b[p++] = (v % 128) | 128;
    v = Math.floor(v / 128);
  }
  b[p] = v;
  return p + 1;
}

function safeIds(entry: OddsEntry): boolean {
  return entry.packed !== null || oddsIdsSafe(entry.changes, 0, entry.count);
}

/** Encodes entries as one segment (tests, and a segment written at once). */
export function encodeLogSegment(entries: readonly LogEntry[]): EncodedSegment | null {
  const w = new LogSegmentWriter();
  for (const e of entries) w.write(e);
  return w.seal();
}

/** A segment that cannot be read: written by a newer version, or damaged. */
export class LogCodecError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LogCodecError';
  }
}

/** Decodes a segment into entries (odds entries carry no book indexes: `layout` -1, no outcomes). */
export function decodeLogSegment(data: Uint8Array): LogEntry[] {
  const r = new Reader(data);
  const version = r.byte();
  if (version !== LOG_CODEC_VERSION) throw new LogCodecError(`log segment version ${version} is not readable`);
  const strings: string[] = [];
  const ref = (): string => {
    const i = r.uvarint();
    if (i < strings.length) return strings[i] as string;
    if (i !== strings.length) throw new LogCodecError('log segment string table is damaged');
    const s = r.string();
    strings.push(s);
    return s;
  };
  const out: LogEntry[] = [];
  let ms = 0;
  while (!r.done) {
    const head = r.byte();
    const kind = KINDS[head & KIND_MASK];
    if (kind === undefined) throw new LogCodecError(`unknown log entry kind ${head & KIND_MASK}`);
    ms += r.uvarint();
    const position = { ms, seq: r.uvarint() };
    const at = (head & AT_FLOAT) !== 0 ? r.float() : ms + r.svarint();
    const base = { position, at, eventId: ref(), sport: ref(), league: ref() };
    switch (kind) {
      case 'odds':
        out.push(decodeOdds(r, base, (head & ODDS_RAW) !== 0));
        break;
      case 'markets': {
        const [added, withdrawn] = JSON.parse(r.string()) as [Market[], number[]];
        const repriced = new Uint8Array(r.bytes(r.uvarint()));
        out.push({
          kind,
          ...base,
          added,
          withdrawn,
          repriced,
          bytes: marketsEntryBytes(added, withdrawn.length, repriced.length),
        });
        break;
      }
      case 'outright': {
        const tournament = r.string();
        const change = OUTRIGHT_CHANGES[r.byte()];
        if (change === undefined) throw new LogCodecError('unknown outright change');
        const market = JSON.parse(r.string()) as OutrightMarket | null;
        const resultJson = r.byte() === 1 ? r.string() : null;
        out.push({
          kind,
          ...base,
          tournament,
          change,
          market,
          resultJson,
          bytes: outrightEntryBytes(market, resultJson),
        });
        break;
      }
      default: {
        const json = r.string();
        out.push({ kind, ...base, json, bytes: jsonEntryBytes(json) } as JsonEntry);
      }
    }
  }
  return out;
}

function decodeOdds(
  r: Reader,
  base: Omit<OddsEntry, 'kind' | 'changes' | 'bytes' | 'count' | 'layout' | 'packed'>,
  raw: boolean,
): OddsEntry {
  const n = r.uvarint();
  if (n > r.remaining) throw new LogCodecError('log segment odds entry is damaged');
  const marketIds = new Float64Array(n);
  const selectionIds = new Float64Array(n);
  const odds = new Float64Array(n);
  const locked = new Uint8Array(n);
  readOddsChanges(r, n, raw, { marketIds, selectionIds, odds, locked }, 0);
  return {
    kind: 'odds',
    ...base,
    count: n,
    layout: -1,
    packed: null,
    changes: { marketIds, selectionIds, odds, locked },
    bytes: oddsEntryBytes(n),
  };
}

/** Reads a segment (or an odds history chunk): varints, floats and strings, never past its end. */
export class Reader {
  private p = 0;
  private readonly view: DataView;

  constructor(private readonly data: Uint8Array) {
    this.view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  }

  get done(): boolean {
    return this.p >= this.data.byteLength;
  }

  get remaining(): number {
    return this.data.byteLength - this.p;
  }

  byte(): number {
    if (this.p >= this.data.byteLength) throw new LogCodecError('log segment is truncated');
    return this.data[this.p++] as number;
  }

  uvarint(): number {
    const p = this.p;
    const d = this.data;
    if (p + 1 < d.length) {
      const b0 = d[p] as number;
      if (b0 < 128) {
        this.p = p + 1;
        return b0;
      }
      const b1 = d[p + 1] as number;
      if (b1 < 128) {
        this.p = p + 2;
        return (b0 & 127) | (b1 << 7);
      }
    }
    let v = 0;
    let scale = 1;
    for (;;) {
      const b = this.byte();
      v += (b & 127) * scale;
      if (b < 128) return v;
      scale *= 128;
      if (scale > 2 ** 56) throw new LogCodecError('log segment varint is too long');
    }
  }

  svarint(): number {
    const z = this.uvarint();
    return z % 2 === 0 ? z / 2 : -(z + 1) / 2;
  }

  float(): number {
    if (this.p + 8 > this.data.byteLength) throw new LogCodecError('log segment is truncated');
    const v = this.view.getFloat64(this.p, true);
    this.p += 8;
    return v;
  }

  bytes(n: number): Uint8Array {
    if (this.p + n > this.data.byteLength) throw new LogCodecError('log segment is truncated');
    const out = this.data.subarray(this.p, this.p + n);
    this.p += n;
    return out;
  }

  string(): string {
    const b = this.bytes(this.uvarint());
    return Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('utf8');
  }
}
