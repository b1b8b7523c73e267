// The change stream in Redis: the leader appends what it applied (a Redis Stream); every API node reads it in order.
import { Redis } from 'ioredis';
import type { JsonEntry } from '../live/log-entry.js';
import { compareLogPositions, formatLogPosition, parseLogPosition, type LogPosition } from '../live/log-position.js';
import type { BatchPositions } from '../live/log-replay.js';
import type { AppliedSink, PipelineLogger, PipelineMessage } from './pipeline.js';
import { decodeBatchPositions, encodeBatchPositions, encodeFeedBatch } from './stream-codec.js';

/** How a leader's world clock runs (an accelerated simulator): replicas run the same clock. */
export interface WorldClockParams {
  /** World epoch ms at `wallStartAt`. */
  startAt: number;
  wallStartAt: number;
  speed: number;
}

/** An entry's place: its stream id, and the leader epoch and sequence number it was written with. */
export interface StreamPosition {
  id: string;
  epoch: number;
  seq: number;
  /**
   * The leader's change-log position once this entry was published (`ms-seq`): what a replica's
   * log stands at when it has applied everything up to here. Absent from older leaders.
   */
  head?: string;
}

export type StreamEntryKind = 'leader' | 'feed' | 'settlement';

export interface StreamEntry extends StreamPosition {
  kind: StreamEntryKind;
  data: Buffer;
  /** For `feed`: the log positions the batch's entries took on the leader (null from an older leader). */
  positions: BatchPositions | null;
}

/**
 * Where a new leader's state stands: it replayed its predecessor's entries up to `epoch:seq`, and
 * its log continues after `head`. A replica that applied exactly those entries goes on with no
 * gap in its stream; any other takes a fresh snapshot.
 */
export interface Continuation {
  epoch: number;
  seq: number;
  head: string;
}

/** The `leader` record: a new leader's epoch and world clock, and what it continues (null: nothing it could prove). */
export interface LeaderRecord {
  epoch: number;
  clock: WorldClockParams;
  continues?: Continuation | null;
}

/** A settlement log entry as replicas append it: the leader's position and its stream data. */
export interface WireSettlementEntry {
  position: string;
  sport: string;
  league: string;
  at: number;
  json: string;
}

/** A settlement entry changed (the API nodes' settlement counters follow it, and their logs append `entry`). */
export interface SettlementNote {
  event_id: string;
  ended_at: number;
  pending: boolean;
  /** Absent from older leaders. */
  entry?: WireSettlementEntry;
}

/** The note of a settlement log entry, for replicas. */
export function settlementNote(entry: JsonEntry, endedAt: number, pending: boolean): SettlementNote {
  return {
    event_id: entry.eventId,
    ended_at: endedAt,
    pending,
    entry: {
      position: formatLogPosition(entry.position),
      sport: entry.sport,
      league: entry.league,
      at: entry.at,
      json: entry.json,
    },
  };
}

/** The settlement log entry a note carries (null when it carries none or a malformed one). */
export function settlementEntryOf(note: SettlementNote): JsonEntry | null {
  const e = note.entry;
  const position = e === undefined ? null : parseLogPosition(e.position);
  if (e === undefined || position === null) return null;
  return {
    kind: 'settlement',
    position,
    eventId: note.event_id,
    sport: e.sport,
    league: e.league,
    at: e.at,
    json: e.json,
    // As log-entries.ts estimates a JSON entry.
    bytes: 160 + 2 * e.json.length,
  };
}

/** Entries older than this are trimmed: a node further behind takes a fresh snapshot from the store. */
export const STREAM_RETENTION_MS = 30_000;
/**
 * A node loading a snapshot holds the entries after its watermark (a large store takes longer to
 * load than the retention), but never longer than this.
 */
export const STREAM_HOLD_MAX_MS = 10 * 60_000;
/** A hold not refreshed for this long is dropped (its node died while loading). */
export const STREAM_HOLD_TTL_MS = 60_000;
/**
 * Entries the leader holds while Redis does not take them (a reset connection, a restart), to
 * publish them in order once it does. Beyond this it gives them up: the API nodes reload from the
 * store, as after any hole. At a capacity feed (1.7 MB a tick every 300 ms) this is ~10 s of outage.
 */
export const OUTBOX_MAX_BYTES = 64 * 1024 * 1024;
/** While entries are held, how often the leader tries again (besides when the connection is ready again). */
const OUTBOX_RETRY_MS = 250;

const HOLDING =
  'the change stream cannot be written now: holding its entries to publish them in order when Redis takes them';

/** An entry the leader has numbered and not yet seen Redis acknowledge. */
interface Outgoing {
  kind: StreamEntryKind;
  epoch: number;
  seq: number;
  head: { head?: string };
  fields: Array<string | number | Buffer>;
  bytes: number;
  /** Handed to Redis and not yet answered. */
  sent: boolean;
}

/** Key names, under the installation's REDIS_PREFIX. */
export class ChangeStreamKeys {
  constructor(readonly prefix: string) {}
  get stream(): string {
    return `${this.prefix}:changes`;
  }
  /** Incremented by each new leader: entries of an older epoch are ignored. */
  get epoch(): string {
    return `${this.prefix}:changes:epoch`;
  }
  /** The last entry the store is known to reflect (JSON StreamPosition): where a snapshot continues. */
  get watermark(): string {
    return `${this.prefix}:changes:watermark`;
  }
  /** The current leader's record (JSON LeaderRecord), for nodes that join later. */
  get leader(): string {
    return `${this.prefix}:changes:leader`;
  }
  /** Nodes loading a snapshot: node id → JSON {id, until}, the entries they still need. */
  get holds(): string {
    return `${this.prefix}:changes:holds`;
  }
}

/** A hold: the first entry a loading node still needs, and until when the hold counts. */
interface Hold {
  id: string;
  until: number;
}

/** The milliseconds part of a stream id. */
export function streamIdMs(id: string): number {
  return Number(id.split('-')[0]);
}

/** `a` before `b` as stream ids (`ms-seq`). */
export function compareStreamIds(a: string, b: string): number {
  const [am = 0, as = 0] = a.split('-').map(Number);
  const [bm = 0, bs = 0] = b.split('-').map(Number);
  return am - bm || as - bs;
}

/** Redis server time minus local time (stream ids are server milliseconds). */
async function serverOffsetMs(redis: Redis): Promise<number> {
  const [sec, usec] = await redis.time();
  return Number(sec) * 1000 + Math.floor(Number(usec) / 1000) - Date.now();
}

/**
 * Connects to REDIS_URL and checks it answers; rejects naming the server (password hidden).
 * Commands fail at once while the connection is down (no offline queue to pile up entries in);
 * the connection is retried in the background. `failInFlight` (the writer's connection): a command
 * in flight when the connection closes fails rather than being sent again by the client after the
 * reconnect, so the writer alone decides what is published again, and in which order.
 */
export async function connectStreamRedis(
  url: string,
  name: string,
  opts: { failInFlight?: boolean } = {},
): Promise<Redis> {
  const failInFlight = opts.failInFlight === true;
  const redis = new Redis(url, {
    lazyConnect: true,
    connectTimeout: 5000,
    maxRetriesPerRequest: failInFlight ? 0 : 1,
    autoResendUnfulfilledCommands: !failInFlight,
    enableOfflineQueue: false,
    retryStrategy: (times) => Math.min(times * 100, 2000),
    connectionName: name,
  });
  // The readers and the writer report failures themselves; the first error names the cause at boot.
  let cause: Error | null = null;
  redis.on('error', (err: Error) => {
    cause ??= err;
  });
  try {
    await redis.connect();
    await redis.ping();
  } catch (failure) {
    const error: unknown = cause ?? failure;
    redis.disconnect();
    let where = url;
    try {
      const u = new URL(url);
      if (u.password !== '') u.password = '***';
      where = u.toString();
    } catch {
      where = 'the configured REDIS_URL';
    }
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`Redis at ${where} (REDIS_URL) does not answer: ${reason || 'connection failed'}`, {
      cause: error,
    });
  }
  return redis;
}

/**
 * The leader's side: every applied batch becomes one entry, written in apply order on one
 * connection (so Redis assigns ids in that order), without waiting (the producer's answer does not
 * wait for Redis). Each entry carries the leader's epoch and a sequence number without holes, so a
 * reader notices a lost entry (Redis lost its data, the entry trimmed, the leader gave up holding
 * it) and takes a fresh snapshot. An entry Redis does not take at once (a reset connection) is
 * held and published again in order (publish()). After every committed flush the watermark says
 * which entries the store now reflects.
 */
export class ChangeStreamWriter implements AppliedSink {
  private epoch = 0;
  private seq = 0;
  private offsetMs = 0;
  /** The last entry Redis acknowledged. */
  private acknowledged: StreamPosition | null = null;
  private watermarkId: string | null = null;
  private failing = false;
  /** The oldest entry a loading node holds (stream ms), or null; refreshed every second. */
  private holdFloorMs: number | null = null;
  private holdTimer: NodeJS.Timeout | null = null;
  /** Between begin() and stop(): this node leads and publishes. */
  private active = false;
  /** This leader's record (JSON), written again when Redis comes back without it. */
  private record: string | null = null;
  /** The last log position published (the `head` of the entries written). */
  private head: LogPosition | null = null;
  /** Entries numbered and not yet acknowledged, oldest first (see publish()). */
  private outbox: Outgoing[] = [];
  private outboxBytes = 0;
  /** An entry failed: nothing more is sent until every entry in flight has answered and Redis is ready. */
  private blocked = false;
  private retryTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly redis: Redis,
    private readonly keys: ChangeStreamKeys,
    private readonly log: PipelineLogger,
    private readonly retentionMs = STREAM_RETENTION_MS,
    private readonly outboxMaxBytes = OUTBOX_MAX_BYTES,
  ) {
    // A connection back (after a reset or a restart): what is held goes out at once, in order.
    redis.on('ready', () => this.pump());
  }

  /** This leader's epoch (0 before begin()): its stored replay window's run says it. */
  get leaderEpoch(): number {
    return this.epoch;
  }

  /** The last entry handed to Redis (`epoch:seq`): what a node waits for to read its own writes. */
  get position(): string {
    return `${this.epoch}:${this.seq}`;
  }

  /**
   * Starts a new epoch: the `leader` record tells every reader to take a fresh snapshot (the store
   * as this leader loaded it), and the watermark points at it.
   */
  async begin(
    clock: WorldClockParams,
    continues: Continuation | null = null,
    head: LogPosition | null = null,
  ): Promise<void> {
    this.stop();
    this.active = true;
    this.offsetMs = await serverOffsetMs(this.redis);
    this.epoch = await this.redis.incr(this.keys.epoch);
    this.seq = 0;
    this.head = head;
    const record: LeaderRecord = { epoch: this.epoch, clock, continues };
    const text = JSON.stringify(record);
    this.record = text;
    await this.redis.set(this.keys.leader, text);
    const id = await this.append('leader', Buffer.from(text));
    await this.writeWatermark({ id, epoch: this.epoch, seq: 0, ...this.headField() });
    await this.refreshHolds();
    this.holdTimer = setInterval(() => void this.refreshHolds().catch(() => undefined), 1000);
    this.holdTimer.unref();
  }

  /** Ends this leader's epoch: nothing more is written (a deposed leader's last batches are not published). */
  stop(): void {
    this.active = false;
    if (this.holdTimer) clearInterval(this.holdTimer);
    this.holdTimer = null;
    this.outbox = [];
    this.outboxBytes = 0;
    this.blocked = false;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
  }

  /** Reads the holds of loading nodes (dropping those past their time); every second after begin(). */
  async refreshHolds(): Promise<void> {
    const all = await this.redis.hgetall(this.keys.holds);
    const now = Date.now() + this.offsetMs;
    let floor: number | null = null;
    for (const [node, text] of Object.entries(all)) {
      const hold = JSON.parse(text) as Hold;
      if (hold.until < now) {
        await this.redis.hdel(this.keys.holds, node);
        continue;
      }
      const ms = Math.max(streamIdMs(hold.id), now - STREAM_HOLD_MAX_MS);
      floor = floor === null ? ms : Math.min(floor, ms);
    }
    this.holdFloorMs = floor;
  }

  applied(messages: PipelineMessage[], positions: BatchPositions): void {
    if (!this.active) return;
    const n = positions.kinds.length;
    if (n > 0) this.advance({ ms: positions.ms[n - 1] as number, seq: positions.seq[n - 1] as number });
    this.publish('feed', encodeFeedBatch(messages), encodeBatchPositions(positions));
  }

  settlement(note: SettlementNote): void {
    if (!this.active) return;
    const position = note.entry === undefined ? null : parseLogPosition(note.entry.position);
    if (position !== null) this.advance(position);
    this.publish('settlement', Buffer.from(JSON.stringify(note)));
  }

  private advance(position: LogPosition): void {
    if (this.head === null || compareLogPositions(position, this.head) > 0) this.head = position;
  }

  private headField(): { head?: string } {
    return this.head === null ? {} : { head: formatLogPosition(this.head) };
  }

  /**
   * Hands a new leader, in order, what the previous leader published after the watermark (the
   * store's state), a page at a time, before it publishes anything. Returns the watermark and the
   * last entry handed over; null when that cannot be known exactly (no watermark, entries trimmed
   * or lost, another epoch after it), possibly after handing over some (replaying published
   * entries never hurts); 'first' when no leader ever published here.
   */
  async tail(
    each: (entry: StreamEntry) => Promise<void>,
  ): Promise<{ mark: StreamPosition; last: StreamPosition } | 'first' | null> {
    const text = await this.redis.get(this.keys.watermark);
    // No leader ever began here: nothing to continue.
    if (text === null) return (await this.redis.exists(this.keys.epoch)) === 0 ? 'first' : null;
    const mark = JSON.parse(text) as StreamPosition;
    // The watermark's own entry must still be there, or the stream lost entries before the tail.
    if ((await this.redis.xrange(this.keys.stream, mark.id, mark.id)).length === 0) return null;
    let last: StreamPosition = mark;
    for (;;) {
      const page = await this.redis.xrangeBuffer(this.keys.stream, `(${last.id}`, '+', 'COUNT', 200);
      if (page.length === 0) break;
      for (const item of page) {
        const e = parseStreamEntry(item);
        if (e.epoch !== mark.epoch) {
          last = { ...last, id: e.id }; // a later epoch's record (a leader that began and died)
          continue;
        }
        if (e.seq <= last.seq) continue; // published again after a reset connection: applied once
        if (e.seq !== last.seq + 1) return null; // a hole: what the store lacks is not all here
        await each(e);
        last = e;
      }
    }
    return { mark, last: { id: last.id, epoch: last.epoch, seq: last.seq } };
  }

  mark(): StreamPosition | null {
    return this.acknowledged;
  }

  /** The leader record this writer began with (tests, diagnostics). */
  get leaderRecord(): LeaderRecord | null {
    return this.record === null ? null : (JSON.parse(this.record) as LeaderRecord);
  }

  flushed(mark: unknown): void {
    const pos = mark as StreamPosition | null;
    if (!this.active || pos === null || pos.epoch !== this.epoch || pos.id === this.watermarkId) return;
    this.writeWatermark(pos).catch((err: unknown) => this.warn(err, 'the change stream watermark was not written'));
  }

  private async writeWatermark(pos: StreamPosition): Promise<void> {
    await this.redis.set(this.keys.watermark, JSON.stringify(pos));
    this.watermarkId = pos.id;
  }

  /**
   * Numbers an entry and publishes it without waiting (the producer's answer does not wait for
   * Redis). Entries go out in order on one connection, pipelined. An entry Redis did not take (the
   * connection reset or down, an error reply) is not lost: it stays in the outbox with every entry
   * after it, nothing more is sent until every entry in flight has answered, and then the outbox
   * goes out again from its first entry, in order, once Redis is ready. An entry Redis wrote but
   * whose answer was lost with the connection is written twice; readers skip an entry whose
   * sequence number they have applied (Follower, tail()), so each is applied once.
   */
  private publish(kind: StreamEntryKind, data: Buffer, positions?: Buffer): void {
    const fields: Array<string | number | Buffer> = ['e', this.epoch, 's', ++this.seq, 'k', kind, 'd', data];
    if (positions !== undefined) fields.push('p', positions);
    const bytes = data.length + (positions?.length ?? 0) + 64;
    this.outbox.push({ kind, epoch: this.epoch, seq: this.seq, head: this.headField(), fields, bytes, sent: false });
    this.outboxBytes += bytes;
    if (this.outboxBytes > this.outboxMaxBytes) this.giveUp();
    this.pump();
  }

  /** Sends every entry of the outbox not yet sent, in order, unless a failure is still being answered. */
  private pump(): void {
    if (!this.active || this.outbox.length === 0) return;
    if (this.blocked) {
      // Resend only from a quiet connection: an answer still due could land after the resent entries.
      if (this.outbox.some((o) => o.sent) || this.redis.status !== 'ready') return this.retryLater();
      this.blocked = false;
    }
    if (this.redis.status !== 'ready') {
      this.blocked = true;
      this.warn(new Error(`the connection is ${this.redis.status}`), HOLDING);
      return this.retryLater();
    }
    for (const o of this.outbox) {
      if (o.sent) continue;
      o.sent = true;
      this.xadd(o.fields).then(
        (id) => this.onAck(o, id),
        (err: unknown) => this.onFail(o, err),
      );
    }
  }

  private onAck(o: Outgoing, id: string): void {
    o.sent = false;
    const i = this.outbox.indexOf(o);
    if (i >= 0) {
      this.outbox.splice(i, 1);
      this.outboxBytes -= o.bytes;
    }
    if (o.epoch !== this.epoch) return;
    if (this.acknowledged === null || this.acknowledged.epoch !== o.epoch || this.acknowledged.seq < o.seq)
      this.acknowledged = { id, epoch: o.epoch, seq: o.seq, ...o.head };
    if (this.failing && this.outbox.length === 0) {
      this.failing = false;
      this.log.warn({}, 'the change stream is written again: the entries held meanwhile were published in order');
      this.reannounce().catch((err: unknown) => this.warn(err, 'the leader record was not written again'));
    }
    if (this.blocked) this.pump();
  }

  private onFail(o: Outgoing, err: unknown): void {
    o.sent = false;
    this.blocked = true;
    this.warn(err, HOLDING);
    // Never at once: a connection whose close is not yet known refuses a resend synchronously, and
    // resending from here would spin without ever letting the close be noticed.
    this.retryLater();
  }

  private retryLater(): void {
    if (this.retryTimer !== null) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.pump();
    }, OUTBOX_RETRY_MS);
    this.retryTimer.unref();
  }

  /** Too much held for too long: the held entries are dropped, and the API nodes reload from the store at the hole. */
  private giveUp(): void {
    const dropped = this.outbox.filter((o) => !o.sent);
    this.outbox = this.outbox.filter((o) => o.sent);
    this.outboxBytes = this.outbox.reduce((n, o) => n + o.bytes, 0);
    this.log.error(
      { entries: dropped.length, maxBytes: this.outboxMaxBytes },
      'change stream entries were lost (Redis did not take them for too long); API nodes will reload from the store',
    );
  }

  /** The leader record: written at once, awaited (begin() fails if Redis does not take it). */
  private append(kind: 'leader', data: Buffer): Promise<string> {
    const epoch = this.epoch;
    const head = this.headField();
    return this.xadd(['e', epoch, 's', 0, 'k', kind, 'd', data]).then((id) => {
      this.acknowledged = { id, epoch, seq: 0, ...head };
      return id;
    });
  }

  /** One XADD, trimming what no node needs any more (older than the retention and every hold). */
  private xadd(fields: Array<string | number | Buffer>): Promise<string> {
    const byAge = Math.floor(Date.now() + this.offsetMs - this.retentionMs);
    const minId = Math.max(0, this.holdFloorMs === null ? byAge : Math.min(byAge, this.holdFloorMs));
    return this.redis.xadd(this.keys.stream, 'MINID', '~', String(minId), '*', ...fields).then((id) => {
      if (id === null) throw new Error('XADD returned no id');
      return id;
    });
  }

  /**
   * Redis may have come back empty (restarted without persistence): the epoch and the leader record
   * (a joining node's world clock) are written again unless they are there.
   */
  private async reannounce(): Promise<void> {
    if (!this.active || this.record === null) return;
    await this.redis.set(this.keys.epoch, String(this.epoch), 'NX');
    await this.redis.set(this.keys.leader, this.record, 'NX');
  }

  private warn(err: unknown, msg: string): void {
    if (this.failing) return; // one line per outage
    this.failing = true;
    this.log.error({ err }, msg);
  }
}

function field(fields: Buffer[], name: string): Buffer | undefined {
  for (let i = 0; i + 1 < fields.length; i += 2) if (fields[i]?.toString() === name) return fields[i + 1];
  return undefined;
}

/** One stream item as read (an entry with a malformed positions field has none: its replica reloads). */
function parseStreamEntry([id, fields]: [Buffer, Buffer[]]): StreamEntry {
  const p = field(fields, 'p');
  let positions: BatchPositions | null = null;
  if (p !== undefined) {
    try {
      positions = decodeBatchPositions(p);
    } catch {
      positions = null;
    }
  }
  return {
    id: id.toString(),
    epoch: Number(field(fields, 'e')?.toString() ?? 0),
    seq: Number(field(fields, 's')?.toString() ?? 0),
    kind: (field(fields, 'k')?.toString() ?? '') as StreamEntryKind,
    data: field(fields, 'd') ?? Buffer.alloc(0),
    positions,
  };
}

/** The reader's side: blocking reads of the entries after an id, and the watermark and leader records. */
export class ChangeStreamReader {
  constructor(
    private readonly redis: Redis,
    readonly keys: ChangeStreamKeys,
  ) {}

  /** Redis server time minus local time. */
  offsetMs(): Promise<number> {
    return serverOffsetMs(this.redis);
  }

  /** Entries after `afterId`, waiting up to `blockMs` for the first. */
  async read(afterId: string, blockMs: number, count: number): Promise<StreamEntry[]> {
    const reply = await this.redis.xreadBuffer('COUNT', count, 'BLOCK', blockMs, 'STREAMS', this.keys.stream, afterId);
    const out: StreamEntry[] = [];
    if (reply === null) return out;
    for (const [, items] of reply as Array<[Buffer, Array<[Buffer, Buffer[]]>]>) {
      for (const [id, fields] of items) {
        if (field(fields, 'k') === undefined || field(fields, 'd') === undefined) continue;
        out.push(parseStreamEntry([id, fields]));
      }
    }
    return out;
  }

  /** The id of the stream's last entry now ('0' when empty): what a snapshot just loaded may already reflect. */
  async tip(): Promise<string> {
    const [last] = await this.redis.xrevrange(this.keys.stream, '+', '-', 'COUNT', 1);
    return last?.[0] ?? '0';
  }

  async watermark(): Promise<StreamPosition | null> {
    const text = await this.redis.get(this.keys.watermark);
    return text === null ? null : (JSON.parse(text) as StreamPosition);
  }

  async leader(): Promise<LeaderRecord | null> {
    const text = await this.redis.get(this.keys.leader);
    return text === null ? null : (JSON.parse(text) as LeaderRecord);
  }

  /** The epoch of the current leader (null: no leader since Redis was emptied). */
  async currentEpoch(): Promise<number | null> {
    const text = await this.redis.get(this.keys.epoch);
    return text === null ? null : Number(text);
  }

  /** Keeps the entries after `id` in the stream for this node (while it loads and catches up). */
  async hold(node: string, id: string, offsetMs: number): Promise<void> {
    const hold: Hold = { id, until: Date.now() + offsetMs + STREAM_HOLD_TTL_MS };
    await this.redis.hset(this.keys.holds, node, JSON.stringify(hold));
  }

  async release(node: string): Promise<void> {
    await this.redis.hdel(this.keys.holds, node);
  }

  /** Closes the connection (a blocked read ends at once). */
  close(): void {
    this.redis.disconnect();
  }
}
