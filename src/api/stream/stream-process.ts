// STREAM_PROCESS=on: a second process writes the streams, so their delivery does not wait behind the reads and the feed on this one.
import { fork, type ChildProcess } from 'node:child_process';
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { Gauge, type Registry } from 'prom-client';
import type { ChangeLog, LogEntry } from '../../live/change-log.js';
import { compareLogPositions } from '../../live/log-position.js';
import { changeFamilies, type FamilyIdOf } from '../../live/log-render.js';
import { familyGeneration, familyNameOf } from '../../live/market-families.js';
import { packBatch } from './stream-batch.js';
import type { HoldLimits, StreamConnection } from './stream-connection.js';
import type { StreamHub } from './stream-hub.js';
import type { StreamMetrics } from './stream-metrics.js';
import type { ClockSample, FromStreamProcess, ToStreamProcess } from './stream-process-protocol.js';

export interface StreamProcessOptions {
  log: ChangeLog;
  /** The streams of this process: caught-up ones move to the stream process. */
  hub: StreamHub;
  metrics: StreamMetrics;
  familyIdOf: FamilyIdOf;
  clock: () => ClockSample;
  heartbeatMs: number;
  bufferBytes: number;
  limits: HoldLimits;
  charge: (keyId: string) => Promise<boolean> | boolean;
  /** Warnings (the process exited, a socket could not move). */
  warn: (message: string) => void;
  /** How often open streams are looked at for a move (ms). */
  sweepMs?: number;
  /** Where `stream_process_connections` is registered. */
  registry?: Registry;
  /** How far behind (the oldest batch not yet written, ms) the stream process may fall before its streams are shed. */
  maxLagMs?: number;
  /** How long no stream moves after a shed (ms; doubles at each shed within twice that, up to 16×). */
  backoffMs?: number;
}

const MAX_LAG_MS = 5000;
const BACKOFF_MS = 30_000;

/** Why the counters the stream process reports are ours: the service's /metrics shows every stream. */
type Counters = Pick<
  StreamMetrics,
  'eventsSent' | 'conflated' | 'closed' | 'resumes' | 'bytesSent' | 'lost' | 'flushes'
>;

/**
 * Every stream opens here (its resume or snapshot is served from this process's log and read
 * model); once it has caught up — nothing held, every byte handed to the socket, at the log's
 * head — its socket moves to the stream process, which from then on receives each batch of new
 * entries (packed, with the odds changes' family numbers) and writes them. The quota
 * and the per-key stream counts stay here; the stream process asks for each period's charge and
 * reports its counters every second.
 */
export class StreamProcess {
  private child: ChildProcess | null = null;
  private readonly perKey = new Map<string, number>();
  private moved = 0;
  private pending: LogEntry[] = [];
  private scheduled = false;
  private readonly sentNames = new Set<number>();
  private sentGen = -1;
  private closing = false;
  /** A socket is on its way to the stream process. */
  private moving = false;
  private seq = 0;
  private acked = 0;
  /** When each batch not yet acknowledged was sent (wall ms), oldest first. */
  private unacked: Array<{ seq: number; at: number }> = [];
  /** No stream moves before this (wall ms): the stream process was shed of its streams. */
  private pausedUntil = 0;
  private backoff = 0;
  private lastShed = 0;
  private closedAll: (() => void) | null = null;
  private readonly unsubscribe: () => void;
  private readonly unsubscribeLost: () => void;
  private readonly sweepTimer: NodeJS.Timeout;
  private readonly clockTimer: NodeJS.Timeout;
  private readonly counters: Map<string, Counters[keyof Counters]>;

  constructor(private readonly opts: StreamProcessOptions) {
    const m = opts.metrics;
    this.counters = new Map<string, Counters[keyof Counters]>([
      ['stream_events_sent_total', m.eventsSent],
      ['stream_events_conflated_total', m.conflated],
      ['stream_clients_closed_total', m.closed],
      ['stream_resumes_total', m.resumes],
      ['stream_bytes_sent_total', m.bytesSent],
      ['stream_lost_total', m.lost],
      ['stream_flushes_total', m.flushes],
    ]);
    this.unsubscribe = opts.log.subscribe((entry) => {
      if (this.moved === 0) return;
      this.pending.push(entry);
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.ship());
      }
    });
    this.unsubscribeLost = opts.log.onLost((span) => {
      this.ship();
      this.post({ t: 'lost', before: span.before, continuity: opts.log.continuity });
    });
    if (opts.registry !== undefined) {
      const lag = (): number => {
        const oldest = this.unacked[0];
        return oldest === undefined ? 0 : (Date.now() - oldest.at) / 1000;
      };
      new Gauge({
        name: 'stream_process_lag_seconds',
        help: 'How long the oldest batch sent to the stream process has waited to be written (0: it is keeping up; above 5 its streams are shed)',
        registers: [opts.registry],
        collect() {
          this.set(lag());
        },
      });
      const size = (): number => this.moved;
      new Gauge({
        name: 'stream_process_connections',
        help: 'Open streams written by the stream process (STREAM_PROCESS=on); included in stream_connections',
        registers: [opts.registry],
        collect() {
          this.set(size());
        },
      });
    }
    this.sweepTimer = setInterval(() => this.sweep(), opts.sweepMs ?? 250);
    this.sweepTimer.unref();
    this.clockTimer = setInterval(() => this.post({ t: 'clock', clock: opts.clock() }), 1000);
    this.clockTimer.unref();
    this.start();
  }

  /** Streams the stream process writes now. */
  get size(): number {
    return this.moved;
  }

  /** Streams of a key the stream process writes now. */
  openFor(keyId: string): number {
    return this.perKey.get(keyId) ?? 0;
  }

  private start(): void {
    if (this.closing) return;
    const child = fork(new URL('./stream-process-main.js', import.meta.url), [], {
      serialization: 'advanced',
      // STREAM_PROCESS_PROFILE=<dir>: a CPU profile of the stream process, written when it stops (bench/README.md).
      execArgv: process.env.STREAM_PROCESS_PROFILE
        ? ['--cpu-prof', `--cpu-prof-dir=${process.env.STREAM_PROCESS_PROFILE}`]
        : [],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.child = child;
    child.on('message', (m: FromStreamProcess) => this.onMessage(m));
    child.on('error', (err) => this.opts.warn(`stream process: ${err.message}`));
    child.on('exit', (code, signal) => {
      if (this.child !== child) return;
      this.child = null;
      // Its streams went with it: their clients reconnect here with Last-Event-ID.
      this.perKey.clear();
      this.moved = 0;
      this.pending = [];
      this.moving = false;
      this.unacked = [];
      this.closedAll?.();
      if (this.closing) return;
      this.opts.warn(`stream process exited (${signal ?? code}); starting another`);
      setTimeout(() => this.start(), 1000).unref();
    });
    this.sentNames.clear();
    this.sentGen = -1;
    this.post({
      t: 'init',
      heartbeatMs: this.opts.heartbeatMs,
      bufferBytes: this.opts.bufferBytes,
      limits: this.opts.limits,
      clock: this.opts.clock(),
    });
  }

  private post(message: ToStreamProcess, socket?: Socket, sent?: () => void): boolean {
    const child = this.child;
    if (child === null || !child.connected) return false;
    try {
      if (socket === undefined) return child.send(message);
      child.send(message, socket, {}, () => sent?.());
      return true;
    } catch (err) {
      this.opts.warn(`stream process: ${(err as Error).message}`);
      return false;
    }
  }

  /** Sends the entries appended since the last batch (before any socket that moves after them). */
  private ship(): void {
    this.scheduled = false;
    if (this.pending.length === 0) return;
    const entries = this.pending;
    this.pending = [];
    const gen = familyGeneration();
    if (gen !== this.sentGen) {
      this.sentGen = gen;
      this.sentNames.clear();
    }
    const names: Array<[number, string]> = [];
    const batch = packBatch(entries, (entry) => {
      const ids = changeFamilies(entry, this.opts.familyIdOf);
      let last = -1;
      for (let k = 0; k < ids.length; k++) {
        const id = ids[k] as number;
        if (id === last || id === 0) continue;
        last = id;
        if (!this.sentNames.has(id)) {
          this.sentNames.add(id);
          names.push([id, familyNameOf(id)]);
        }
      }
      return ids;
    });
    const seq = ++this.seq;
    if (this.post({ t: 'batch', seq, batch, names, gen })) this.unacked.push({ seq, at: Date.now() });
    this.checkLag();
  }

  /**
   * The stream process cannot keep up (a starved machine; the feed does not wait for it): its
   * streams are closed with `overloaded` so that what waits for it stays bounded, their clients
   * resume here exactly, and none moves again for a while.
   */
  private checkLag(): void {
    const oldest = this.unacked[0];
    const now = Date.now();
    if (oldest === undefined || now - oldest.at <= (this.opts.maxLagMs ?? MAX_LAG_MS) || this.moved === 0) return;
    const base = this.opts.backoffMs ?? BACKOFF_MS;
    this.backoff = now - this.lastShed < 2 * this.backoff ? Math.min(this.backoff * 2, 16 * base) : base;
    this.lastShed = now;
    this.pausedUntil = now + this.backoff;
    this.unacked = [];
    this.post({ t: 'shed' });
    this.opts.warn(
      `the stream process fell ${Math.round(now - oldest.at)} ms behind: its ${this.moved} streams were closed (overloaded) and resume here; none moves for ${Math.round(this.backoff / 1000)} s`,
    );
  }

  /** Moves every caught-up stream of the hub to the stream process. */
  sweep(): void {
    const child = this.child;
    this.checkLag();
    if (child === null || !child.connected || this.closing || this.moving || Date.now() < this.pausedUntil) return;
    const { hub, log } = this.opts;
    hub.flush();
    for (const conn of hub.list()) {
      // One socket at a time: the next moves once this one is through (a handle sent while another
      // is still in flight can arrive without its socket).
      if (conn.movable && compareLogPositions(conn.lastPosition, log.head) === 0 && this.move(conn)) return;
    }
  }

  /** Hands the stream's socket over; true when a socket is on its way (the sweep goes on once it is through). */
  private move(conn: StreamConnection): boolean {
    const res = conn.response as ServerResponse;
    const socket = res.socket;
    // Only a plain socket with nothing waiting can change hands (a TLS socket cannot be sent).
    if (socket === null || socket.writableLength > 0 || res.writableLength > 0) return false;
    if ((socket as unknown as { _handle?: unknown })._handle == null) return false;
    if ((socket as unknown as { encrypted?: boolean }).encrypted === true) return false;
    this.ship();
    const chunked = (res as unknown as { chunkedEncoding?: boolean }).chunkedEncoding === true;
    const head = this.opts.log.head;
    const stream = conn.handOver();
    // From now on every new entry goes there too (the stream stands at `head`).
    this.moved++;
    this.perKey.set(stream.keyId, this.openFor(stream.keyId) + 1);
    this.moving = true;
    const sent = this.post({ t: 'adopt', stream, chunked, continuity: conn.continuity, head }, socket, () => {
      this.moving = false;
      setImmediate(() => this.sweep());
    });
    if (!sent) {
      this.moving = false;
      this.release(stream.keyId);
      socket.destroy();
    }
    return sent;
  }

  private release(keyId: string): void {
    this.moved = Math.max(0, this.moved - 1);
    const n = this.openFor(keyId) - 1;
    if (n > 0) this.perKey.set(keyId, n);
    else this.perKey.delete(keyId);
    if (this.moved === 0) {
      this.pending = [];
      this.unacked = [];
    }
  }

  private onMessage(m: FromStreamProcess): void {
    switch (m.t) {
      case 'closed':
        this.release(m.keyId);
        break;
      case 'charge':
        void Promise.resolve(this.opts.charge(m.keyId))
          .catch(() => true)
          .then((ok) => this.post({ t: 'charged', id: m.id, ok }));
        break;
      case 'metrics':
        for (const d of m.deltas) {
          const counter = this.counters.get(d.name);
          if (counter === undefined) continue;
          if (Object.keys(d.labels).length === 0) (counter as { inc(v: number): void }).inc(d.value);
          else (counter as { inc(l: Record<string, string>, v: number): void }).inc(d.labels, d.value);
        }
        break;
      case 'closed-all':
        this.closedAll?.();
        break;
      case 'ack':
        this.acked = Math.max(this.acked, m.seq);
        while (this.unacked.length > 0 && (this.unacked[0] as { seq: number }).seq <= this.acked) this.unacked.shift();
        break;
    }
  }

  /** Closes the streams there (each told why), then the process. */
  async close(): Promise<void> {
    this.closing = true;
    clearInterval(this.sweepTimer);
    clearInterval(this.clockTimer);
    this.unsubscribe();
    this.unsubscribeLost();
    const child = this.child;
    if (child === null) return;
    this.ship();
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, 3000);
      this.closedAll = () => {
        clearTimeout(timer);
        resolve();
      };
      if (!this.post({ t: 'close-all' })) resolve();
    });
    this.child = null;
    child.kill();
  }
}
