// The stream hub: follows the change log and hands each batch of new entries to every open stream; heartbeats and metering.
import type { ChangeLog, LogEntry } from '../../live/change-log.js';
import { compareLogPositions, formatLogPosition } from '../../live/log-position.js';
import type { OddsFormat } from '../../domain/types.js';
import type { OddsEntry } from '../../live/log-entry.js';
import type { FrameJob, FrameWorkEntry } from './frame-work.js';
import type { FrameRenderer } from './frame-renderer.js';
import { FrameCache } from './frame-cache.js';
import type { SharedBatches, StreamConnection } from './stream-connection.js';
import type { StreamMetrics } from './stream-metrics.js';

/** Each started period of an open stream counts one more request (decisions.md: 5 minutes). */
export const STREAM_CHARGE_PERIOD_MS = 5 * 60_000;

/**
 * A stream following events looks only at theirs when they are this many times fewer than the
 * entries of the batch (below that, walking the batch costs less than gathering from the index).
 */
const NARROW_FACTOR = 4;

export interface StreamHubOptions {
  log: ChangeLog;
  metrics: StreamMetrics;
  /** Wall clock. */
  now: () => number;
  /** World clock (the heartbeat's `time`). */
  worldNow: () => number;
  heartbeatMs: number;
  /**
   * Counts one more request against a key's quota for a stream open another period; resolves
   * false when the quota is exhausted (the stream is then closed).
   */
  charge: (keyId: string) => Promise<boolean> | boolean;
  /**
   * Writes a flush's odds frames off the main thread (STREAM_FRAME_WORKER); without it, or when it
   * fails, the main thread writes them.
   */
  renderer?: FrameRenderer;
}

/** A flush whose odds frames are being written by the frame worker. */
interface InFlight {
  batch: LogEntry[];
  plan: FramePlan;
  /** The worker's frames once it answered (null: it failed, the main thread renders them). */
  frames: Buffer[] | null | undefined;
  /** Set once its entries have been handed to the streams (by the worker's answer or a flush that could not wait). */
  delivered: boolean;
}

export class StreamHub {
  private readonly connections = new Set<StreamConnection>();
  /** The open streams that follow every event (StreamConnection.wide), handed each flush first. */
  private readonly wide = new Set<StreamConnection>();
  private readonly perKey = new Map<string, number>();
  /** Open streams per subscription (StreamConnection.group): a flush renders a shared batch for groups of two or more. */
  private readonly perGroup = new Map<string, number>();
  private pending: LogEntry[] = [];
  private scheduled = false;
  /** Flushes at the frame worker, oldest first: handed out in this order as their frames come back. */
  private flights: InFlight[] = [];
  private readonly unsubscribe: () => void;
  private readonly unsubscribeLost: () => void;
  private readonly unsubscribeSettled: () => void;
  private readonly heartbeatTimer: NodeJS.Timeout;
  private readonly meterTimer: NodeJS.Timeout;

  constructor(private readonly opts: StreamHubOptions) {
    // Entries are gathered for one turn of the event loop: a feed body's changes go out together.
    this.unsubscribe = opts.log.subscribe((entry) => {
      if (this.connections.size === 0) return;
      this.pending.push(entry);
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flushSoon());
      }
    });
    // A feed batch applied: its entries go out now. Waiting for the turn scheduled above would let
    // every read that arrived meanwhile run first (under read load, tens of milliseconds a tick).
    this.unsubscribeSettled = opts.log.onSettled(() => {
      if (this.pending.length > 0) this.flushSoon();
    });
    // A replica that reloaded cannot replay what it missed: its open streams start again too.
    this.unsubscribeLost = opts.log.onLost((span) => {
      this.flush();
      for (const conn of this.connections) {
        const before = conn.continuity !== opts.log.continuity;
        if (before && compareLogPositions(conn.lastPosition, span.before) < 0) conn.lost(span.before);
      }
    });
    this.heartbeatTimer = setInterval(() => this.heartbeat(), opts.heartbeatMs);
    this.heartbeatTimer.unref();
    this.meterTimer = setInterval(() => void this.meter(), 1000);
    this.meterTimer.unref();
  }

  get size(): number {
    return this.connections.size;
  }

  /** Nothing gathered or being written: every entry so far has been handed to the streams. */
  get idle(): boolean {
    return this.flights.length === 0 && this.pending.length === 0 && !this.scheduled;
  }

  /** The open streams now (a copy: the caller may close or hand some over). */
  list(): StreamConnection[] {
    return [...this.connections];
  }

  /** Streams a key holds open on this node. */
  openFor(keyId: string): number {
    return this.perKey.get(keyId) ?? 0;
  }

  add(conn: StreamConnection): void {
    this.connections.add(conn);
    if (conn.wide) this.wide.add(conn);
    this.perKey.set(conn.keyId, this.openFor(conn.keyId) + 1);
    this.perGroup.set(conn.group, (this.perGroup.get(conn.group) ?? 0) + 1);
  }

  /** Called by a connection when it ends, whoever ended it. */
  remove(conn: StreamConnection): void {
    if (!this.connections.delete(conn)) return;
    this.wide.delete(conn);
    const n = this.openFor(conn.keyId) - 1;
    if (n > 0) this.perKey.set(conn.keyId, n);
    else this.perKey.delete(conn.keyId);
    const g = (this.perGroup.get(conn.group) ?? 0) - 1;
    if (g > 0) this.perGroup.set(conn.group, g);
    else this.perGroup.delete(conn.group);
  }

  /**
   * Hands the gathered entries to every stream now, on this thread (flushes still at the frame
   * worker are handed out first: streams receive entries in order).
   */
  flush(): void {
    this.scheduled = false;
    const flights = this.flights;
    this.flights = [];
    for (const f of flights) this.handOut(f);
    const batch = this.pending;
    if (batch.length === 0) return;
    this.pending = [];
    this.deliverBatch(batch, new FrameCache(batch));
  }

  /**
   * The flush after new entries: with a frame worker, their odds frames are written there while
   * this thread goes on (the next flush may be sent before this one comes back), and each flush is
   * handed out, in order, once its frames are back.
   */
  private flushSoon(): void {
    this.scheduled = false;
    const renderer = this.opts.renderer;
    if (renderer === undefined) return this.flush();
    if (this.pending.length === 0) return;
    const batch = this.pending;
    this.pending = [];
    const plan = this.plan(batch);
    if (plan.jobs.length === 0 && this.flights.length === 0) return this.deliverBatch(batch, new FrameCache(batch));
    const flight: InFlight = { batch, plan, frames: plan.jobs.length === 0 ? [] : undefined, delivered: false };
    this.flights.push(flight);
    if (plan.jobs.length === 0) return this.land();
    renderer.render(plan.entries, plan.jobs).then(
      (frames) => {
        flight.frames = frames;
        this.land();
      },
      () => {
        flight.frames = null;
        this.land();
      },
    );
  }

  /** Hands out the flushes whose frames are back, oldest first, up to the first still at the worker. */
  private land(): void {
    while (this.flights.length > 0 && (this.flights[0] as InFlight).frames !== undefined) {
      this.handOut(this.flights.shift() as InFlight);
    }
  }

  private handOut(flight: InFlight): void {
    if (flight.delivered) return;
    flight.delivered = true;
    const cache = new FrameCache(flight.batch);
    const { frames, plan } = flight;
    if (frames !== null && frames !== undefined) {
      for (let j = 0; j < frames.length; j++) {
        const { key, entry } = plan.targets[j] as FrameTarget;
        cache.set(key, entry, frames[j] as Buffer);
      }
    }
    // Frames the worker did not write (it failed, or a flush could not wait) are rendered here.
    this.deliverBatch(flight.batch, cache, cache.byKey.size > 0 ? 'worker' : 'main');
  }

  /** The odds frames a batch needs, once per rendering and entry (streams of one subscription planned once). */
  private plan(batch: readonly LogEntry[]): FramePlan {
    const entries: FrameWorkEntry[] = [];
    const jobs: FrameJob[] = [];
    const targets: FrameTarget[] = [];
    const entryIndex = new Map<OddsEntry, number>();
    const planned = new Map<string, Set<OddsEntry>>();
    const groups = new Set<string>();
    const want = (key: string, entry: OddsEntry, format: OddsFormat, kept: Uint32Array | null): void => {
      let seen = planned.get(key);
      if (seen === undefined) planned.set(key, (seen = new Set()));
      if (seen.has(entry)) return;
      seen.add(entry);
      let e = entryIndex.get(entry);
      if (e === undefined) {
        e = entries.length;
        entryIndex.set(entry, e);
        const c = entry.changes;
        // A view into a larger buffer would be copied whole to the worker: such columns go alone.
        const own = <T extends Float64Array | Uint8Array>(a: T): T =>
          a.byteLength === a.buffer.byteLength ? a : (a.slice() as T);
        entries.push({
          eventId: entry.eventId,
          marketIds: own(c.marketIds),
          selectionIds: own(c.selectionIds),
          odds: own(c.odds),
          locked: own(c.locked),
        });
      }
      jobs.push({ e, format, kept, id: formatLogPosition(entry.position) });
      targets.push({ key, entry });
    };
    let byEvent: Map<string, number[]> | null = null;
    for (const conn of this.connections) {
      if (groups.has(conn.group)) continue;
      groups.add(conn.group);
      const ids = conn.eventIds;
      if (ids !== null && ids.size * NARROW_FACTOR < batch.length) {
        byEvent ??= indexByEvent(batch);
        conn.planFrames(entriesOf(batch, byEvent, ids), want);
      } else conn.planFrames(batch, want);
    }
    return { entries, jobs, targets };
  }

  /**
   * Hands a batch to every stream. A frame is rendered once per rendering (format and market
   * families) unless the cache has it already, a batch's bytes once per subscription shared by
   * several streams, and a stream following a few events is handed only their entries.
   */
  private deliverBatch(batch: LogEntry[], cache: FrameCache, frames: 'main' | 'worker' = 'main'): void {
    if (batch.length === 0) return;
    this.opts.metrics.flushes.inc({ frames });
    const shared: SharedBatches = new Map();
    const through = (batch[batch.length - 1] as LogEntry).position;
    let byEvent: Map<string, number[]> | null = null;
    const deliver = (conn: StreamConnection): void => {
      const sharing = (this.perGroup.get(conn.group) ?? 0) > 1 ? shared : undefined;
      const ids = conn.eventIds;
      if (ids !== null && ids.size * NARROW_FACTOR < batch.length) {
        byEvent ??= indexByEvent(batch);
        conn.deliver(entriesOf(batch, byEvent, ids), cache, through, sharing);
      } else conn.deliver(batch, cache, undefined, sharing);
    };
    // Streams that take every event first: their frames are then rendered in order, back to back.
    for (const conn of this.wide) deliver(conn);
    for (const conn of this.connections) if (!this.wide.has(conn)) deliver(conn);
  }

  /** A heartbeat to every stream that has been written everything before the log's head. */
  heartbeat(): void {
    // Changes are on their way (the frame worker is writing them): they say more than a heartbeat.
    if (this.flights.length > 0) return;
    this.flush();
    const position = formatLogPosition(this.opts.log.head);
    const time = new Date(this.opts.worldNow()).toISOString();
    for (const conn of this.connections) conn.heartbeat(position, time);
  }

  /** Charges streams entering a new period, and closes the stalled ones. */
  private async meter(): Promise<void> {
    const now = this.opts.now();
    for (const conn of [...this.connections]) {
      if (conn.stalled(now)) {
        conn.close('too_slow', 'the client accepted nothing for too long; reconnect with Last-Event-ID');
        continue;
      }
      const due = Math.floor((now - conn.openedAt) / STREAM_CHARGE_PERIOD_MS) + 1;
      while (conn.charged < due && !conn.closed) {
        conn.charged++;
        let ok: boolean;
        try {
          ok = await this.opts.charge(conn.keyId);
        } catch {
          // The usage counters are down: the stream goes on uncharged rather than being cut.
          ok = true;
        }
        if (!ok) conn.close('quota_exhausted', "the key's monthly quota is exhausted");
      }
    }
  }

  /** Closes every stream (the service is shutting down): clients reconnect elsewhere with their last id. */
  closeAll(): void {
    clearInterval(this.heartbeatTimer);
    clearInterval(this.meterTimer);
    this.unsubscribe();
    this.unsubscribeLost();
    this.unsubscribeSettled();
    this.flush();
    void this.opts.renderer?.close();
    for (const conn of [...this.connections]) {
      conn.close('shutting_down', 'the service is shutting down; reconnect with Last-Event-ID');
    }
  }
}

/** What a flush asks the frame worker for, and where each answer goes (rendering key and entry). */
interface FrameTarget {
  key: string;
  entry: OddsEntry;
}
interface FramePlan {
  entries: FrameWorkEntry[];
  jobs: FrameJob[];
  targets: FrameTarget[];
}

/** Where each event's entries are in a batch. */
function indexByEvent(batch: readonly LogEntry[]): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (let i = 0; i < batch.length; i++) {
    const id = (batch[i] as LogEntry).eventId;
    const list = out.get(id);
    if (list === undefined) out.set(id, [i]);
    else list.push(i);
  }
  return out;
}

/** The entries of these events, in the batch's (position) order. */
function entriesOf(batch: readonly LogEntry[], byEvent: Map<string, number[]>, ids: ReadonlySet<string>): LogEntry[] {
  let at: number[] = [];
  let lists = 0;
  for (const id of ids) {
    const list = byEvent.get(id);
    if (list === undefined) continue;
    at = lists === 0 ? list : at.concat(list);
    lists++;
  }
  if (lists > 1) at.sort((a, b) => a - b);
  return at.map((i) => batch[i] as LogEntry);
}
