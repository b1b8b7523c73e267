// One open stream: writes its matching change-log entries, holds and conflates them while the client reads slowly, closes it when hopeless.
import type { OddsFormat } from '../../domain/types.js';
import type { LogEntry, OddsEntry } from '../../live/log-entry.js';
import { compareLogPositions, formatLogPosition, type LogPosition } from '../../live/log-position.js';
import { keptChanges, renderEntryData, type FamilyIdOf } from '../../live/log-render.js';
import { joinFrames } from './frame-arena.js';
import type { FrameCache } from './frame-cache.js';
import { oddsFrame } from './odds-frame.js';
import { sseFrame } from './sse.js';
import type { StreamSink } from './stream-sink.js';
import type { StreamMetrics } from './stream-metrics.js';
import { matches, renderKey, streamNameOf, subscriptionKey, type StreamSubscription } from './stream-subscription.js';

/** Why the service closes a stream (the `close` event's reason and the metric's label). */
/** `overloaded`: the stream process fell behind the feed (STREAM_PROCESS=on); the service serves the reconnect. */
export type CloseReason = 'too_slow' | 'quota_exhausted' | 'shutting_down' | 'overloaded';

/** One stream event to write: its name and data; ids are given when written. */
export interface SnapshotFrame {
  name: string;
  data: string;
}

/** What a snapshot sends, one event (or tournament) at a time, so a large one never blocks the loop. */
export interface SnapshotSource {
  /** Event ids (and tournament ids) to snapshot, in order. */
  ids: string[];
  /** The frames of one id's current state (none if it is gone). */
  frames(id: string): SnapshotFrame[];
}

/** Limits of what one slow client may make the service hold for it. */
export interface HoldLimits {
  /** Distinct selections held in conflated prices. */
  maxSelections: number;
  /** Other events (status, score, markets…) held. */
  maxEntries: number;
  /** How long the socket may accept nothing before the client is closed. */
  maxStallMs: number;
}

export interface ConnectionDeps {
  res: StreamSink;
  sub: StreamSubscription;
  keyId: string;
  /** Socket bytes waiting to be sent above which entries are held (and odds conflated). */
  bufferBytes: number;
  limits: HoldLimits;
  metrics: StreamMetrics;
  /** The key of a market, for the market-family filter of odds entries. */
  keyOf: (eventId: string, marketId: number) => string | undefined;
  /** The family number of a market (market-families.ts), for the same filter on the hot path. */
  familyIdOf: FamilyIdOf;
  /** The log's head now (a snapshot records where each event's state was taken). */
  head: () => LogPosition;
  /** The log's continuity when the stream opened (ChangeLog.continuity). */
  continuity: number;
  /** Wall clock. */
  now: () => number;
  onClose: (conn: StreamConnection) => void;
  /** A stream moved from another process: when it was opened and the periods already charged. */
  adopted?: { openedAt: number; charged: number };
}

/** What a stream process needs to go on with a stream another process opened (StreamConnection.handOver). */
export interface HandedStream {
  sub: StreamSubscription;
  keyId: string;
  lastPosition: LogPosition;
  lastId: string | null;
  openedAt: number;
  charged: number;
}

/** The latest price of one selection while conflating, and the entry it came from. */
interface HeldPrice {
  marketId: number;
  odds: number;
  locked: number;
  position: LogPosition;
}

/** Consecutive odds entries merged: per event, the latest price per selection. */
interface OddsRun {
  byEvent: Map<string, { sport: string; league: string; at: number; prices: Map<number, HeldPrice> }>;
  last: LogPosition;
}

type Held = { entry: LogEntry } | { run: OddsRun };

/** Entry kinds a snapshot already reflects: those not after an event's snapshot are not sent again. */
const SNAPSHOT_KINDS = new Set(['fixture', 'status', 'score', 'markets', 'odds']);

/** What one flush wrote to a stream, kept for the other streams of the same subscription. */
export interface SharedBatch {
  /** Every frame of the flush in one buffer (null: nothing matched). */
  bytes: Buffer | null;
  lastId: string | null;
  /** Events written, by stream event name. */
  counts: Map<string, number>;
}

/** One flush's rendered batches by subscription key (StreamConnection.group). */
export type SharedBatches = Map<string, SharedBatch>;

export class StreamConnection {
  /** Entries at or before this position are never written again (a resume and the live flush can overlap). */
  lastPosition: LogPosition;
  /** The id of the last event written (what the client will resume from). */
  private lastId: string | null;
  private readonly key: string;
  /** Streams with the same group receive the same bytes from a flush (subscriptionKey). */
  readonly group: string;
  private held: Held[] = [];
  private heldSelections = 0;
  private heldEntries = 0;
  private holding = false;
  private lastProgressAt: number;
  private snapshot: {
    source: SnapshotSource;
    index: number;
    startId: string;
    count: number;
    pending: SnapshotFrame | null;
    positions: Map<string, LogPosition>;
  } | null = null;
  /** Where each event's snapshot was taken (entries up to it are already in the client's state). */
  private snapshotPositions: Map<string, LogPosition> | null = null;
  closed = false;
  /** The log's continuity when the stream opened: a later discontinuity replaced what it was following. */
  readonly continuity: number;
  /** When the stream was opened and how many 5-minute periods have been charged (the hub meters it). */
  readonly openedAt: number;
  charged = 1;

  constructor(
    private readonly deps: ConnectionDeps,
    from: LogPosition,
    lastId: string | null,
  ) {
    this.lastPosition = from;
    this.lastId = lastId;
    this.key = renderKey(deps.sub);
    this.group = subscriptionKey(deps.sub);
    this.continuity = deps.continuity;
    this.openedAt = deps.adopted?.openedAt ?? deps.now();
    this.charged = deps.adopted?.charged ?? 1;
    this.lastProgressAt = deps.now();
    deps.res.on('drain', this.onDrain);
    deps.res.on('close', this.onClose);
  }

  private readonly onDrain = (): void => {
    this.lastProgressAt = this.deps.now();
    this.pump();
  };

  private readonly onClose = (): void => this.finish();

  get keyId(): string {
    return this.deps.keyId;
  }

  /** Where the stream writes (the service's HTTP response, or an adopted socket). */
  get response(): StreamSink {
    return this.deps.res;
  }

  /**
   * Whether the stream can move to another process now: open, nothing held or snapshotting, every
   * snapshot position passed, and every byte already handed to the socket.
   */
  get movable(): boolean {
    if (this.closed || this.holding || this.snapshot !== null || this.held.length > 0) return false;
    if (this.snapshotPositions !== null) {
      for (const at of this.snapshotPositions.values())
        if (compareLogPositions(at, this.lastPosition) > 0) return false;
    }
    return this.deps.res.writableLength === 0;
  }

  /**
   * Lets go of the response without closing it (its socket is moving to a stream process) and
   * returns what the other process needs to go on exactly where this one stopped.
   */
  handOver(): HandedStream {
    this.closed = true;
    this.deps.res.off('drain', this.onDrain);
    this.deps.res.off('close', this.onClose);
    this.deps.onClose(this);
    return {
      sub: this.deps.sub,
      keyId: this.deps.keyId,
      lastPosition: this.lastPosition,
      lastId: this.lastId,
      openedAt: this.openedAt,
      charged: this.charged,
    };
  }

  /** The events this stream follows (null: not filtered by event). */
  get eventIds(): ReadonlySet<string> | null {
    return this.deps.sub.eventIds;
  }

  /**
   * Follows every event (no event, sport or league filter): the hub hands it a flush first, so
   * that its frames are rendered back to back, in order, and written as one view (frame-arena.ts).
   */
  get wide(): boolean {
    const sub = this.deps.sub;
    return sub.eventIds === null && sub.sport === null && sub.league === null;
  }

  /** Nothing held: everything up to the log's head that matches has been written (heartbeats are exact). */
  get upToDate(): boolean {
    return !this.holding && !this.closed;
  }

  /**
   * Writes what matches of these entries (in position order), or holds it while the socket is full.
   * `through`: the position the caller has looked through (when it handed over only the entries of
   * this stream's events, the rest of its batch matched nothing here). `shared`: batches of this
   * flush already rendered for an equal subscription, and where to leave this one's.
   */
  deliver(entries: readonly LogEntry[], cache: FrameCache | null, through?: LogPosition, shared?: SharedBatches): void {
    if (this.closed) return;
    const first = entries[0];
    if (
      shared !== undefined &&
      !this.holding &&
      first !== undefined &&
      compareLogPositions(first.position, this.lastPosition) > 0
    ) {
      this.deliverShared(entries, cache, shared);
    } else {
      const out: Buffer[] = [];
      const counts = new Map<string, number>();
      for (const entry of entries) {
        if (compareLogPositions(entry.position, this.lastPosition) <= 0) continue;
        this.lastPosition = entry.position;
        if (!matches(this.deps.sub, entry)) continue;
        if (this.holding) {
          this.hold(entry);
          continue;
        }
        const frame = this.frameOf(entry, cache);
        if (frame === null) continue;
        out.push(frame);
        this.lastId = formatLogPosition(entry.position);
        count(counts, streamNameOf(entry.kind) as string);
      }
      this.countSent(counts);
      if (out.length > 0) this.write(out);
    }
    if (through !== undefined && compareLogPositions(through, this.lastPosition) > 0) this.lastPosition = through;
    if (this.holding) this.checkLimits();
  }

  /** A whole batch written from bytes rendered once for every stream of the same subscription. */
  private deliverShared(entries: readonly LogEntry[], cache: FrameCache | null, shared: SharedBatches): void {
    let batch = shared.get(this.group);
    if (batch === undefined) {
      const frames: Buffer[] = [];
      const counts = new Map<string, number>();
      let lastId: string | null = null;
      for (const entry of entries) {
        if (!matches(this.deps.sub, entry)) continue;
        const frame = this.frameOf(entry, cache);
        if (frame === null) continue;
        frames.push(frame);
        lastId = formatLogPosition(entry.position);
        count(counts, streamNameOf(entry.kind) as string);
      }
      batch = { bytes: frames.length === 0 ? null : joinFrames(frames), lastId, counts };
      shared.set(this.group, batch);
    }
    this.lastPosition = (entries[entries.length - 1] as LogEntry).position;
    if (batch.bytes === null) return;
    this.lastId = batch.lastId;
    this.countSent(batch.counts);
    this.write([batch.bytes]);
  }

  /**
   * The odds frames a delivery of these entries would render (the hub has them written off the main
   * thread first): `want` is called with this stream's rendering, the entry, and the changes its
   * families filter keeps (null: all). Nothing for a stream that is holding, snapshotting or closed.
   */
  planFrames(
    entries: readonly LogEntry[],
    want: (key: string, entry: OddsEntry, format: OddsFormat, kept: Uint32Array | null) => void,
  ): void {
    if (this.closed || this.holding) return;
    const families = this.deps.sub.families;
    for (const entry of entries) {
      if (entry.kind !== 'odds' || compareLogPositions(entry.position, this.lastPosition) <= 0) continue;
      if (!matches(this.deps.sub, entry)) continue;
      if (families === null) {
        if (entry.changes.odds.length > 0) want(this.key, entry, this.deps.sub.format, null);
        continue;
      }
      const kept = keptChanges(entry, families, this.deps.familyIdOf);
      if (kept.length > 0) want(this.key, entry, this.deps.sub.format, kept);
    }
  }

  private countSent(counts: Map<string, number>): void {
    for (const [event, n] of counts) this.deps.metrics.eventsSent.inc({ event }, n);
  }

  /** Sends a snapshot of the source's ids before anything else, then what changed meanwhile. */
  startSnapshot(source: SnapshotSource): void {
    const start = this.deps.head();
    this.snapshot = {
      source,
      index: 0,
      startId: formatLogPosition(start),
      count: 0,
      pending: null,
      positions: new Map(),
    };
    this.lastPosition = start;
    this.holding = true;
    this.pump();
  }

  /** Writes one event outside the log (snapshot_required, heartbeat, close). */
  writeEvent(name: string, data: string, id: string | null): void {
    if (this.closed) return;
    this.write([sseFrame(name, data, id)]);
    if (id !== null) this.lastId = id;
    if (name !== 'heartbeat') this.deps.metrics.eventsSent.inc({ event: name });
  }

  /**
   * The log lost what this stream was following (a replica reloaded from the store): what is held
   * is dropped, the client is told to start again from a snapshot, and the stream goes on after
   * `from` (the first entry after the loss, whose changes a snapshot taken now reflects).
   */
  lost(from: LogPosition): void {
    if (this.closed) return;
    const id = formatLogPosition(from);
    this.held = [];
    this.heldSelections = 0;
    this.heldEntries = 0;
    this.snapshot = null;
    this.snapshotPositions = null;
    this.holding = this.deps.res.writableLength > this.deps.bufferBytes;
    this.writeEvent(
      'snapshot_required',
      JSON.stringify({ reason: 'lost', last_event_id: this.lastId, position: id }),
      id,
    );
    this.lastPosition = from;
    this.deps.metrics.lost.inc();
  }

  /** A heartbeat carrying the log's position, when everything before it has been written. */
  heartbeat(position: string, time: string): void {
    if (!this.upToDate) return;
    this.write([sseFrame('heartbeat', `{"position":"${position}","time":"${time}"}`, null)]);
  }

  /** Closes the stream with a reason the client sees (a `close` event), freeing what it held. */
  close(reason: CloseReason, message: string): void {
    if (this.closed) return;
    this.deps.metrics.closed.inc({ reason });
    const res = this.deps.res;
    if (!res.destroyed) {
      res.write(sseFrame('close', JSON.stringify({ reason, message }), this.lastId));
      res.end();
      // A client that does not read even the end is cut off.
      setTimeout(() => res.destroy(), 5000).unref();
    }
    this.finish();
  }

  /** Whether the socket has accepted nothing for too long while entries wait. */
  stalled(now: number): boolean {
    return this.holding && this.snapshot === null && now - this.lastProgressAt > this.deps.limits.maxStallMs;
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    this.held = [];
    this.snapshot = null;
    this.snapshotPositions = null;
    this.deps.onClose(this);
  }

  private write(frames: Buffer[]): void {
    const res = this.deps.res;
    if (res.destroyed || res.writableEnded) return;
    // One chunk per flush: chunked encoding frames each write, and writev pays per buffer. Frames
    // back to back in a flush's arena join into one view of it (joinFrames). A chunk that is a
    // small view of a larger buffer (a frame worker's reply, an arena) is copied: a slow socket
    // would otherwise keep the whole buffer alive.
    const one = frames.length === 1 ? (frames[0] as Buffer) : joinFrames(frames);
    const chunk = one.buffer.byteLength <= 2 * one.length + 8192 ? one : Buffer.from(one);
    const bytes = chunk.length;
    res.write(chunk);
    this.deps.metrics.bytesSent.inc({ encoding: 'identity' }, bytes);
    if (res.writableLength > this.deps.bufferBytes && !this.holding) {
      this.holding = true;
      this.lastProgressAt = this.deps.now();
    }
  }

  private frameOf(entry: LogEntry, cache: FrameCache | null): Buffer | null {
    const hit = cache?.get(this.key, entry);
    if (hit !== undefined) return hit;
    let frame: Buffer | null;
    if (entry.kind === 'odds') {
      // Written as bytes, every market or the families the stream asks for (see odds-frame.ts).
      const families = this.deps.sub.families;
      const kept = families === null ? undefined : keptChanges(entry, families, this.deps.familyIdOf);
      const n = kept === undefined ? entry.changes.odds.length : kept.length;
      frame =
        n === 0
          ? null
          : oddsFrame(entry, this.deps.sub.format, formatLogPosition(entry.position), kept, cache?.arena(this.key));
    } else {
      const data = renderEntryData(entry, {
        format: this.deps.sub.format,
        families: this.deps.sub.families,
        keyOf: this.deps.keyOf,
      });
      frame =
        data === null ? null : sseFrame(streamNameOf(entry.kind) as string, data, formatLogPosition(entry.position));
    }
    cache?.set(this.key, entry, frame);
    return frame;
  }

  /** Keeps an entry for later: odds merged into the latest price per selection, the rest in order. */
  private hold(entry: LogEntry): void {
    if (entry.kind !== 'odds') {
      this.held.push({ entry });
      this.heldEntries++;
      return;
    }
    const tail = this.held[this.held.length - 1];
    let run: OddsRun;
    if (tail !== undefined && 'run' in tail) run = tail.run;
    else {
      run = { byEvent: new Map(), last: entry.position };
      this.held.push({ run });
    }
    run.last = entry.position;
    this.mergeOdds(run, entry);
  }

  private mergeOdds(run: OddsRun, entry: OddsEntry): void {
    let ev = run.byEvent.get(entry.eventId);
    if (ev === undefined) {
      ev = { sport: entry.sport, league: entry.league, at: entry.at, prices: new Map() };
      run.byEvent.set(entry.eventId, ev);
    }
    ev.at = entry.at;
    const c = entry.changes;
    let merged = 0;
    for (let k = 0; k < c.odds.length; k++) {
      const selectionId = c.selectionIds[k] as number;
      const price = ev.prices.get(selectionId);
      if (price !== undefined) {
        merged++;
        price.odds = c.odds[k] as number;
        price.locked = c.locked[k] as number;
        price.position = entry.position;
      } else {
        ev.prices.set(selectionId, {
          marketId: c.marketIds[k] as number,
          odds: c.odds[k] as number,
          locked: c.locked[k] as number,
          position: entry.position,
        });
        this.heldSelections++;
      }
    }
    if (merged > 0) this.deps.metrics.conflated.inc(merged);
  }

  private checkLimits(): void {
    const { maxSelections, maxEntries } = this.deps.limits;
    if (this.heldSelections > maxSelections || this.heldEntries > maxEntries) {
      this.close(
        'too_slow',
        `the client read too slowly: more than ${maxSelections} prices or ${maxEntries} events waited for it; reconnect with Last-Event-ID`,
      );
    }
  }

  /** Writes what was held while the socket has room again: the snapshot first, then held entries. */
  private pump(): void {
    if (this.closed) return;
    const res = this.deps.res;
    if (this.snapshot !== null) {
      if (!this.pumpSnapshot()) return;
    }
    while (this.held.length > 0 && res.writableLength <= this.deps.bufferBytes && !this.closed) {
      const item = this.held.shift() as Held;
      const frames = 'entry' in item ? this.heldEntryFrames(item.entry) : this.runFrames(item.run);
      if (frames.length > 0) this.write(frames);
    }
    if (this.held.length === 0 && res.writableLength <= this.deps.bufferBytes) {
      this.holding = false;
      this.heldSelections = 0;
      this.heldEntries = 0;
      this.snapshotPositions = null;
    }
  }

  /** Writes snapshot frames until the socket is full; true once the snapshot is complete. */
  private pumpSnapshot(): boolean {
    const snap = this.snapshot;
    if (snap === null) return true;
    const res = this.deps.res;
    const { ids } = snap.source;
    while (snap.index < ids.length && res.writableLength <= this.deps.bufferBytes) {
      const id = ids[snap.index++] as string;
      snap.positions.set(id, this.deps.head());
      const out: Buffer[] = [];
      for (const f of snap.source.frames(id)) {
        // One frame behind: the last frame of the snapshot carries the position it started at,
        // the ones before it an id that tells a reconnecting client the snapshot was cut short.
        if (snap.pending !== null) out.push(this.snapshotFrame(snap.pending, `${snap.startId}~${snap.count}`));
        snap.pending = f;
        snap.count++;
      }
      if (out.length > 0) this.write(out);
    }
    if (snap.index < ids.length) return false;
    if (snap.pending !== null) this.write([this.snapshotFrame(snap.pending, snap.startId)]);
    this.lastId = snap.startId;
    this.snapshotPositions = snap.positions;
    this.snapshot = null;
    return true;
  }

  private snapshotFrame(f: SnapshotFrame, id: string): Buffer {
    this.deps.metrics.eventsSent.inc({ event: f.name });
    return sseFrame(f.name, f.data, id);
  }

  /** Whether a snapshot already reflects this change of this event. */
  private inSnapshot(kind: string, eventId: string, position: LogPosition): boolean {
    const at = this.snapshotPositions?.get(eventId);
    return at !== undefined && SNAPSHOT_KINDS.has(kind) && compareLogPositions(position, at) <= 0;
  }

  private heldEntryFrames(entry: LogEntry): Buffer[] {
    if (this.inSnapshot(entry.kind, entry.eventId, entry.position)) return [];
    const frame = this.frameOf(entry, null);
    if (frame === null) return [];
    this.lastId = formatLogPosition(entry.position);
    this.deps.metrics.eventsSent.inc({ event: streamNameOf(entry.kind) as string });
    return [frame];
  }

  /**
   * One `odds` event per event of a run, flagged conflated. All but the last carry the id written
   * before the run: a client cut off halfway resumes from before the run and loses nothing.
   */
  private runFrames(run: OddsRun): Buffer[] {
    const before = this.lastId;
    const pieces: Array<{ name: string; data: string }> = [];
    for (const [eventId, ev] of run.byEvent) {
      const prices = [...ev.prices.entries()].filter(([, p]) => !this.inSnapshot('odds', eventId, p.position));
      if (prices.length === 0) continue;
      const n = prices.length;
      const entry: OddsEntry = {
        kind: 'odds',
        position: run.last,
        eventId,
        sport: ev.sport,
        league: ev.league,
        at: ev.at,
        bytes: 0,
        count: n,
        layout: -1,
        packed: null,
        changes: {
          marketIds: Float64Array.from(prices, ([, p]) => p.marketId),
          selectionIds: Float64Array.from(prices, ([id]) => id),
          odds: Float64Array.from(prices, ([, p]) => p.odds),
          locked: Uint8Array.from(prices, ([, p]) => p.locked),
        },
      };
      const data = renderEntryData(entry, {
        format: this.deps.sub.format,
        families: this.deps.sub.families,
        keyOf: this.deps.keyOf,
        familyIdOf: this.deps.familyIdOf,
        extra: '"conflated":true',
      });
      if (data !== null) pieces.push({ name: 'odds', data });
    }
    const last = formatLogPosition(run.last);
    const frames = pieces.map((p, i) => sseFrame(p.name, p.data, i === pieces.length - 1 ? last : before));
    if (frames.length > 0) {
      this.lastId = last;
      this.deps.metrics.eventsSent.inc({ event: 'odds' }, frames.length);
    }
    return frames;
  }
}

function count(counts: Map<string, number>, name: string): void {
  counts.set(name, (counts.get(name) ?? 0) + 1);
}
