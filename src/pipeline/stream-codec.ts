// The change stream's wire form of a batch of applied messages (odds packed, 17 bytes a change; the rest, stale-feed locks too, as JSON) and of its log positions.
import { changesOf, type PackedOddsMessage } from '../feed/packed-odds.js';
import type { LogEntryKind } from '../live/log-entry.js';
import type { BatchPositions } from '../live/log-replay.js';
import type { PipelineMessage } from './pipeline.js';

const JSON_MESSAGE = 1;
const PACKED_ODDS = 2;

/**
 * One stream entry holds every message of one applied batch, in order. A live tick of 100,000
 * odds changes is ~1.7 MB this way, against ~5 MB as JSON, and decodes with three copies instead of
 * a parse. Typed arrays are copied in the host's byte order: every platform Node supports here is
 * little-endian, and all nodes of a deployment run the same build.
 */
export function encodeFeedBatch(messages: readonly PipelineMessage[]): Buffer {
  const parts: Buffer[] = [];
  for (const m of messages) {
    if (m.type === 'odds') {
      const packed = changesOf(m);
      const header = Buffer.from(JSON.stringify({ event_id: m.event_id, ts: m.ts }));
      const head = Buffer.allocUnsafe(9);
      head.writeUInt8(PACKED_ODDS, 0);
      head.writeUInt32LE(header.length, 1);
      head.writeUInt32LE(packed.ids.length, 5);
      parts.push(
        head,
        header,
        Buffer.from(packed.ids.buffer, packed.ids.byteOffset, packed.ids.byteLength),
        Buffer.from(packed.odds.buffer, packed.odds.byteOffset, packed.odds.byteLength),
        Buffer.from(packed.locks.buffer, packed.locks.byteOffset, packed.locks.byteLength),
      );
    } else {
      const body = Buffer.from(JSON.stringify(m));
      const head = Buffer.allocUnsafe(5);
      head.writeUInt8(JSON_MESSAGE, 0);
      head.writeUInt32LE(body.length, 1);
      parts.push(head, body);
    }
  }
  return Buffer.concat(parts);
}

/** Copies `bytes` bytes at `offset` into a fresh (aligned) typed array. */
function copyOut<T extends Float64Array | Int8Array>(buf: Buffer, offset: number, into: T): T {
  new Uint8Array(into.buffer, into.byteOffset, into.byteLength).set(buf.subarray(offset, offset + into.byteLength));
  return into;
}

export class StreamDecodeError extends Error {}

/** The messages of an entry written by encodeFeedBatch (odds come back packed). */
export function decodeFeedBatch(buf: Buffer): PipelineMessage[] {
  const out: PipelineMessage[] = [];
  let o = 0;
  const need = (n: number): void => {
    if (o + n > buf.length) throw new StreamDecodeError(`truncated stream entry at byte ${o}`);
  };
  while (o < buf.length) {
    need(5);
    const tag = buf.readUInt8(o);
    const len = buf.readUInt32LE(o + 1);
    if (tag === JSON_MESSAGE) {
      o += 5;
      need(len);
      out.push(JSON.parse(buf.toString('utf8', o, o + len)) as PipelineMessage);
      o += len;
    } else if (tag === PACKED_ODDS) {
      need(9);
      const n = buf.readUInt32LE(o + 5);
      o += 9;
      need(len + 17 * n);
      const header = JSON.parse(buf.toString('utf8', o, o + len)) as { event_id: string; ts?: string };
      o += len;
      const ids = copyOut(buf, o, new Float64Array(n));
      o += 8 * n;
      const odds = copyOut(buf, o, new Float64Array(n));
      o += 8 * n;
      const locks = copyOut(buf, o, new Int8Array(n));
      o += n;
      const msg: PackedOddsMessage = { type: 'odds', event_id: header.event_id, packed: { ids, odds, locks } };
      if (header.ts !== undefined) msg.ts = header.ts;
      out.push(msg);
    } else {
      throw new StreamDecodeError(`unknown record tag ${tag} at byte ${o}`);
    }
  }
  return out;
}

/** Entry kinds by their one-byte code on the wire (append only: codes never change meaning). */
const KIND_CODES: readonly LogEntryKind[] = [
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
const CODE_OF = new Map(KIND_CODES.map((k, i) => [k, i]));

/**
 * The log positions a batch's entries took on the leader: runs of consecutive positions (16
 * bytes a run: milliseconds, first counter, length) and one byte a kind. A capacity tick's ~1,000
 * entries land in a few dozen milliseconds, so a few dozen runs: ~1.5 KB beside its 1.7 MB.
 */
export function encodeBatchPositions(p: BatchPositions): Buffer {
  const n = p.kinds.length;
  const runs: Array<[number, number, number]> = [];
  for (let i = 0; i < n; i++) {
    const ms = p.ms[i] as number;
    const seq = p.seq[i] as number;
    const run = runs[runs.length - 1];
    if (run !== undefined && run[0] === ms && run[1] + run[2] === seq) run[2]++;
    else runs.push([ms, seq, 1]);
  }
  const buf = Buffer.allocUnsafe(8 + 16 * runs.length + n);
  buf.writeUInt32LE(n, 0);
  buf.writeUInt32LE(runs.length, 4);
  let o = 8;
  for (const [ms, seq, len] of runs) {
    buf.writeDoubleLE(ms, o);
    buf.writeUInt32LE(seq, o + 8);
    buf.writeUInt32LE(len, o + 12);
    o += 16;
  }
  for (let i = 0; i < n; i++) buf.writeUInt8(CODE_OF.get(p.kinds[i] as LogEntryKind) ?? 255, o + i);
  return buf;
}

export function decodeBatchPositions(buf: Buffer): BatchPositions {
  if (buf.length < 8) throw new StreamDecodeError('truncated positions');
  const n = buf.readUInt32LE(0);
  const runCount = buf.readUInt32LE(4);
  if (buf.length !== 8 + 16 * runCount + n) throw new StreamDecodeError('positions of the wrong length');
  const out: BatchPositions = { ms: [], seq: [], kinds: [] };
  let o = 8;
  for (let r = 0; r < runCount; r++) {
    const ms = buf.readDoubleLE(o);
    const seq = buf.readUInt32LE(o + 8);
    const len = buf.readUInt32LE(o + 12);
    for (let k = 0; k < len; k++) {
      out.ms.push(ms);
      out.seq.push(seq + k);
    }
    o += 16;
  }
  if (out.ms.length !== n) throw new StreamDecodeError('positions and kinds disagree');
  for (let i = 0; i < n; i++) {
    const kind = KIND_CODES[buf.readUInt8(o + i)];
    if (kind === undefined) throw new StreamDecodeError(`unknown entry kind code at ${i}`);
    out.kinds.push(kind);
  }
  return out;
}
