// An API node's replica: loads its read model from the store, then follows the change stream; a gap or a new leader means a fresh snapshot.
import { randomBytes } from 'node:crypto';
import { isTerminal } from '../domain/lifecycle.js';
import type { ChangeLog } from '../live/change-log.js';
import { decodeLogSegment } from '../live/log-codec.js';
import { compareLogPositions, parseLogPosition } from '../live/log-position.js';
import { LogReplay } from '../live/log-replay.js';
import type { SettlementIndex } from '../live/settlement-index.js';
import type { Store } from '../store/store.js';
import type { Pipeline, PipelineLogger, PipelineSnapshot } from './pipeline.js';
import {
  compareStreamIds,
  streamIdMs,
  type ChangeStreamReader,
  type LeaderRecord,
  settlementEntryOf,
  type SettlementNote,
  type StreamEntry,
  type StreamPosition,
  type WorldClockParams,
} from './redis-change-stream.js';
import { decodeFeedBatch } from './stream-codec.js';

export interface FollowerOptions {
  /** A replica pipeline (`replica: true`): applies entries to this node's read model only. */
  pipeline: Pipeline;
  reader: ChangeStreamReader;
  store: Store;
  index: SettlementIndex;
  /** World time (the settlement feed's window). */
  now: () => number;
  feedRetentionMs: number;
  /** Runs this node's world clock like the leader's (null: the wall clock). */
  setClock(clock: WorldClockParams | null): void;
  log: PipelineLogger;
  /** How long a snapshot after a gap waits for the store to cover the gap (default 10 s). */
  watermarkWaitMs?: number;
  /** Each applied entry's age (ms): stream lag. */
  onLag?: (ms: number) => void;
  /**
   * This node's replay window (STREAM_REPLAY_SECONDS and _MB, and the wall clock positions are
   * in): the first snapshot loads what the leader stored of it. Absent: no window is loaded.
   */
  window?: { ms: number; maxBytes: number; wallNow: () => number };
  /** How long the first snapshot waits for the leader to store the window up to the stream's tip (default 5 s). */
  windowWaitMs?: number;
}

/** How applying one entry went: applied (its entries with the leader's positions), or diverged from the leader. */
type Applied = 'ok' | 'diverged';

/** Entries per read. */
const FOLLOW_COUNT = 100;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

type Verdict = 'apply' | 'skip' | 'snapshot' | 'new-leader';

/** What a node serves, per event and tournament, in a form two states can be compared by (see swapIn). */
type StateDigest = Map<string, { terminal: boolean; stamp: string }>;

/** The store as a new leader loaded it, read in the background while this node already follows that leader. */
interface Loaded {
  mark: StreamPosition | null;
  leader: LeaderRecord | null;
  summaries: Array<{ eventId: string; endedAt: number; pendingCount: number }>;
  data: PipelineSnapshot;
}

/** A background load under way: the entries applied meanwhile are replayed on top of it. */
interface Catching {
  epoch: number;
  applied: StreamEntry[];
  loaded: Loaded | null;
  failed: boolean;
}

interface Waiter {
  epoch: number;
  seq: number;
  resolve: (reached: boolean) => void;
  timer: NodeJS.Timeout;
}

/**
 * The snapshot: read the watermark (the last entry the store reflects), load the store, continue
 * with the entries after the watermark. Entries the store already reflected may be applied again:
 * feed messages are idempotent, and a replica ignores the rejections a replay can bring (an odds
 * change for an event that has since ended). Entries carry the leader's epoch and a gapless
 * sequence number: an entry of a newer epoch (a new leader, whose state is the store's) or after a
 * hole (Redis lost or trimmed entries) means a fresh snapshot; an entry of an older epoch (a
 * leader that lost its lock and has not stopped yet) is ignored.
 *
 * A new leader does not stop this node: its state is the store's, which differs from what this
 * node serves only by the old leader's last unflushed changes. The node follows the new leader at
 * once on what it has (so it serves the new leader's data within milliseconds of its first entry),
 * loads the store in the background, then swaps it in and replays the entries it applied meanwhile,
 * in one go (no I/O in between: a request sees the state before or after).
 */
export class Follower {
  private lastId = '0';
  private epoch: number | null = null;
  private seq = 0;
  private running = false;
  private loop: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private offsetMs = 0;
  private waiters: Waiter[] = [];
  private readFailing = false;
  /** This node's name in the stream's holds. */
  private readonly node = randomBytes(6).toString('hex');
  /** The entry this node holds in the stream while it loads and catches up, or null. */
  private holding: string | null = null;
  private holdTimer: NodeJS.Timeout | null = null;
  private catching: Catching | null = null;
  /** Fresh snapshots taken after the first (gaps, new leaders). */
  snapshots = 0;
  /** Entries applied. */
  entries = 0;
  /** Batches whose replay did not make the entries the leader's made (each one reloaded). */
  divergences = 0;
  /** Entries of the leader's stored window the first snapshot loaded (null: none could be proven). */
  windowRestored: number | null = null;
  /** Entries up to this stream id may be reflected in the snapshot just loaded: replayed for state only. */
  private quietThrough: string | null = null;
  private readonly replay: LogReplay;
  private readonly log: ChangeLog;

  constructor(private readonly opts: FollowerOptions) {
    this.log = opts.pipeline.readModel.log;
    this.replay = new LogReplay(this.log);
  }

  /** Loads the first snapshot (awaited: the node serves once it has data), then follows in the background. */
  async start(): Promise<void> {
    this.offsetMs = await this.opts.reader.offsetMs();
    await this.snapshot(null, true);
    this.running = true;
    this.loop = this.follow();
    this.timer = setInterval(() => this.trimIndex(), 60_000);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.running = false;
    if (this.holding !== null) await this.release();
    this.opts.reader.close();
    if (this.timer) clearInterval(this.timer);
    for (const w of this.waiters.splice(0)) {
      clearTimeout(w.timer);
      w.resolve(false);
    }
    await this.loop;
  }

  /** Where this node is (`epoch:seq`), for diagnostics. */
  get position(): string {
    return `${this.epoch ?? 0}:${this.seq}`;
  }

  /**
   * Resolves true once this node has applied the entry at `position` (`epoch:seq`, as the leader
   * answered a feed request), false after `timeoutMs`: a node's own feed requests read their writes.
   */
  waitFor(position: string, timeoutMs: number): Promise<boolean> {
    const [epoch, seq] = position.split(':').map(Number);
    if (epoch === undefined || seq === undefined || !Number.isFinite(epoch) || !Number.isFinite(seq)) {
      return Promise.resolve(false);
    }
    if (this.reached(epoch, seq)) return Promise.resolve(true);
    return new Promise((resolve) => {
      const waiter: Waiter = {
        epoch,
        seq,
        resolve,
        timer: setTimeout(() => {
          this.waiters = this.waiters.filter((w) => w !== waiter);
          resolve(false);
        }, timeoutMs),
      };
      this.waiters.push(waiter);
    });
  }

  private reached(epoch: number, seq: number): boolean {
    return this.epoch !== null && (this.epoch > epoch || (this.epoch === epoch && this.seq >= seq));
  }

  private wake(): void {
    if (this.waiters.length === 0) return;
    this.waiters = this.waiters.filter((w) => {
      if (!this.reached(w.epoch, w.seq)) return true;
      clearTimeout(w.timer);
      w.resolve(true);
      return false;
    });
  }

  /** Loads the store at (or past) the watermark; `requiredId`: the watermark must have reached it. */
  private async snapshot(requiredId: string | null, first: boolean): Promise<void> {
    const { reader, pipeline } = this.opts;
    let mark = await reader.watermark();
    if (requiredId !== null) {
      const deadline = Date.now() + (this.opts.watermarkWaitMs ?? 10_000);
      while ((mark === null || compareStreamIds(mark.id, requiredId) < 0) && Date.now() < deadline) {
        await sleep(50);
        mark = await reader.watermark();
      }
      if (mark === null || compareStreamIds(mark.id, requiredId) < 0) {
        // The leader has not flushed past the gap (it may be gone): load what there is, and the
        // next entry after the hole brings us back here until a flush or a new leader covers it.
        this.opts.log.warn({ requiredId, watermark: mark?.id ?? null }, 'the store is behind the change stream');
      }
    }
    // Loading a large store takes longer than the stream keeps entries: hold those after the mark.
    await this.hold(mark?.id ?? '0');
    const leader: LeaderRecord | null = await reader.leader();
    const summaries = await this.opts.store.settlementSummaries(this.opts.now() - this.opts.feedRetentionMs);
    this.opts.setClock(leader?.clock ?? null);
    if (first) await pipeline.load();
    else {
      await pipeline.reload();
      // The entries this node missed cannot be replayed: no position before the next one it logs
      // resumes, and the streams open now are told (the state changed under them in one step, just now).
      this.log.discontinue();
    }
    // A flush may have stored changes of entries after the watermark, up to the stream's tip now:
    // those are replayed for the state only (their changes may be there already, and a replay of
    // them need not make the entries the leader's did); the log goes on with the next.
    this.quietThrough = await reader.tip();
    if (first) {
      // A node starting (nothing streamed yet): the leader's stored window gives its log the
      // positions before its first entry, when restoreWindow can prove it joins without a hole.
      const windowMark = await this.restoreWindow(this.quietThrough);
      if (windowMark !== null) this.quietThrough = windowMark.id;
      else this.log.discontinue();
    }
    const { index } = this.opts;
    for (const id of index.idsEndedBefore(Number.POSITIVE_INFINITY)) index.delete(id);
    for (const s of summaries) index.upsert(s.eventId, s.endedAt, s.pendingCount);
    this.lastId = mark?.id ?? '0';
    this.epoch = mark?.epoch ?? null;
    this.seq = mark?.seq ?? 0;
    if (!first) this.snapshots++;
    this.wake();
  }

  /**
   * Gives this node's log the leader's stored window (pipeline/log-window.ts, "Scaled out"), so an
   * id from before this node started resumes exactly. Returns the watermark the window is cut at
   * (the snapshot then replays every entry up to it for the state only), or null when the window
   * cannot be proven to join the stream without a hole (then the log is discontinued, as before).
   *
   * The hole to close is between the stored window's end and the first entry this node will log.
   * The load replays the entries after the watermark up to `tip` quietly (the store may hold some
   * of their changes already, so their replay cannot make the leader's entries): the window must
   * reach at least the positions of those entries. So this waits for the watermark to pass `tip`
   * (the leader writes it after each flush, ~FLUSH_INTERVAL_MS): a watermark M says a flush
   * committed the state up to M, and with it (same transaction, log sealed after M was taken) the
   * run's segments up to at least M's head, the log position once M was published. The window is
   * cut at that head; the entries up to M are replayed quietly; the first entry after M is the
   * leader's first after the head, and is logged at its position as usual. What is proven:
   * the stored run is M's leader's (epoch: a new leader's run replaces its predecessor's, whose log
   * may hold entries no API node had) and reaches M's head. Anything else, or a watermark that does
   * not pass `tip` in `windowWaitMs` (a leader gone), loads no window.
   */
  private async restoreWindow(tip: string | null): Promise<StreamPosition | null> {
    const { reader, store, window } = this.opts;
    if (window === undefined || window.ms <= 0) return null;
    const deadline = Date.now() + (this.opts.windowWaitMs ?? 5000);
    let mark = await reader.watermark();
    while (mark !== null && tip !== null && compareStreamIds(mark.id, tip) < 0 && Date.now() < deadline) {
      await sleep(50);
      mark = await reader.watermark();
    }
    const refuse = (why: string): null => {
      this.opts.log.warn(
        { why },
        "the leader's stored replay window was not loaded: ids from before this node started get snapshot_required",
      );
      this.windowRestored = null;
      return null;
    };
    // No leader ever published a position: there is no id to resume from.
    if (mark === null || mark.head === undefined) return null;
    if (tip !== null && compareStreamIds(mark.id, tip) < 0) return refuse('the watermark did not reach the stream tip');
    const head = parseLogPosition(mark.head);
    if (head === null) return refuse('the watermark names no log position');
    const stored = await store.loadLogWindow(window.wallNow() - window.ms, window.maxBytes);
    if (stored.run === null || stored.run.epoch !== mark.epoch) return refuse("the stored window is not this leader's");
    if (stored.through === null || compareLogPositions(stored.through, head) < 0)
      return refuse('the stored window does not reach the watermark');
    try {
      for (const s of stored.segments) decodeLogSegment(s.data); // a damaged segment refuses the window here, not at a resume
    } catch (err) {
      return refuse(`a stored segment could not be read (${err instanceof Error ? err.message : String(err)})`);
    }
    this.windowRestored = this.log.installWindow({
      origin: stored.origin,
      // Views of the rows' bytes, not copies: the window can be hundreds of MB.
      segments: stored.segments.map((s) => ({
        from: s.from,
        to: s.to,
        count: s.count,
        data: Buffer.from(s.data.buffer, s.data.byteOffset, s.data.byteLength),
      })),
      from: stored.complete ? stored.run.from : null,
      through: head,
    });
    return mark;
  }

  private async hold(id: string): Promise<void> {
    this.holding = id;
    await this.opts.reader.hold(this.node, id, this.offsetMs);
    if (this.holdTimer === null) {
      this.holdTimer = setInterval(() => {
        if (this.holding !== null) this.opts.reader.hold(this.node, this.holding, this.offsetMs).catch(() => undefined);
      }, 5000);
      this.holdTimer.unref();
    }
  }

  private async release(): Promise<void> {
    this.holding = null;
    if (this.holdTimer) clearInterval(this.holdTimer);
    this.holdTimer = null;
    await this.opts.reader.release(this.node).catch(() => undefined);
  }

  private async verdict(e: StreamEntry): Promise<Verdict> {
    if (this.epoch === null) return 'apply'; // no watermark yet: the first entry read sets the place
    if (e.epoch < this.epoch) {
      // A deposed leader's entry, unless Redis lost its data and the epochs started again.
      const current = await this.opts.reader.currentEpoch();
      return current !== null && current < this.epoch && e.epoch >= current ? 'snapshot' : 'skip';
    }
    // A new leader's first entry (its `leader` record): follow it now, reload in the background, if
    // it continues exactly where this node is; else its state is not this node's (a fresh snapshot).
    if (e.epoch > this.epoch)
      return e.seq === 0 && e.kind === 'leader' && this.continues(e) ? 'new-leader' : 'snapshot';
    if (e.seq <= this.seq) return 'skip'; // applied already (the leader published it again after a reset connection)
    return e.seq === this.seq + 1 ? 'apply' : 'snapshot';
  }

  /** Whether a new leader's record says it continues from exactly the entry this node applied last. */
  private continues(e: StreamEntry): boolean {
    try {
      const c = (JSON.parse(e.data.toString()) as LeaderRecord).continues;
      return c !== undefined && c !== null && c.epoch === this.epoch && c.seq === this.seq;
    } catch {
      return false;
    }
  }

  private async follow(): Promise<void> {
    const { reader, log } = this.opts;
    while (this.running) {
      if (this.catching !== null && (this.catching.loaded !== null || this.catching.failed)) await this.swapIn();
      let batch: StreamEntry[];
      try {
        // While a background load runs, come back soon to swap it in.
        batch = await reader.read(this.lastId, this.catching !== null ? 100 : 1000, FOLLOW_COUNT);
        if (this.readFailing) {
          this.readFailing = false;
          log.warn({}, 'the change stream answers again');
        }
      } catch (err) {
        if (!this.running) break;
        if (!this.readFailing) log.error({ err }, 'the change stream cannot be read; retrying');
        this.readFailing = true;
        await sleep(500);
        continue;
      }
      if (this.holding !== null && batch.length < FOLLOW_COUNT) await this.release(); // caught up
      for (const e of batch) {
        if (!this.running) break;
        const verdict = await this.verdict(e);
        if (verdict === 'skip') {
          this.lastId = e.id;
          continue;
        }
        if (verdict === 'new-leader') this.catchUp(e.epoch);
        if (verdict === 'snapshot' || (await this.apply(e, 'live')) === 'diverged') {
          this.catching = null; // a full snapshot replaces any background load
          try {
            await this.snapshot(e.id, false);
          } catch (err) {
            log.error({ err }, 'a fresh snapshot from the store failed; retrying');
            await sleep(1000);
          }
          break; // read again from the snapshot's place
        }
        if (this.quietThrough !== null && compareStreamIds(e.id, this.quietThrough) >= 0) this.quietThrough = null;
        if (this.catching !== null) this.catching.applied.push(e);
        this.epoch = e.epoch;
        this.seq = e.seq;
        this.lastId = e.id;
        this.entries++;
        if (this.holding !== null) this.holding = e.id;
        this.opts.onLag?.(Math.max(0, Date.now() + this.offsetMs - streamIdMs(e.id)));
        this.wake();
      }
    }
  }

  /** Starts loading the store as the new leader (epoch) loaded it, without stopping to follow. */
  private catchUp(epoch: number): void {
    const catching: Catching = { epoch, applied: [], loaded: null, failed: false };
    this.catching = catching;
    const { reader, store, pipeline, now, feedRetentionMs } = this.opts;
    void (async (): Promise<Loaded> => {
      const mark = await reader.watermark();
      const leader = await reader.leader();
      const summaries = await store.settlementSummaries(now() - feedRetentionMs);
      return { mark, leader, summaries, data: await pipeline.readSnapshot() };
    })().then(
      (loaded) => {
        catching.loaded = loaded;
      },
      (err: unknown) => {
        catching.failed = true;
        this.opts.log.error({ err }, 'loading the store for a new leader failed; taking a full snapshot');
      },
    );
  }

  /**
   * The background load is there: the read model becomes the store's state, and the entries applied
   * since (after the load's watermark) are applied again on top, before anything else runs.
   */
  private async swapIn(): Promise<void> {
    const catching = this.catching;
    this.catching = null;
    if (catching === null) return;
    const loaded = catching.loaded;
    if (loaded === null || catching.epoch !== this.epoch) {
      // Failed, or yet another leader meanwhile: the plain way.
      try {
        await this.snapshot(null, false);
      } catch (err) {
        this.opts.log.error({ err }, 'a fresh snapshot from the store failed; retrying');
        this.catching = { ...catching, failed: true };
        await sleep(1000);
      }
      return;
    }
    const { pipeline, index } = this.opts;
    const before = this.digest();
    pipeline.replaceWith(loaded.data);
    for (const id of index.idsEndedBefore(Number.POSITIVE_INFINITY)) index.delete(id);
    for (const s of loaded.summaries) index.upsert(s.eventId, s.endedAt, s.pendingCount);
    const mark = loaded.mark;
    for (const e of catching.applied) {
      if (mark !== null && mark.epoch === e.epoch && compareStreamIds(e.id, mark.id) <= 0) continue;
      await this.apply(e, 'quiet'); // logged when first applied
    }
    // The store had something this node's stream never carried (the old leader committed it and
    // died before publishing it): streams cannot be continued exactly across that.
    const differs = firstDifference(before, this.digest());
    if (differs !== null) {
      this.opts.log.warn(
        { differs },
        "the new leader's state differs from what this node streamed: streams start again",
      );
      this.log.discontinue();
    }
    this.snapshots++;
  }

  /**
   * Applies one entry. `live`: its log entries take the leader's positions (or, if this node is
   * just past a snapshot, it is replayed for the state only); `quiet`: for the state only (a
   * background load swapped in, the entries were logged already).
   */
  private async apply(e: StreamEntry, mode: 'live' | 'quiet'): Promise<Applied> {
    const quiet = mode === 'quiet' || (this.quietThrough !== null && compareStreamIds(e.id, this.quietThrough) <= 0);
    try {
      if (e.kind === 'feed') {
        const messages = decodeFeedBatch(e.data);
        this.replay.begin();
        let outcome;
        try {
          await this.opts.pipeline.applyAll(messages);
        } finally {
          outcome = this.replay.end(quiet ? null : e.positions);
        }
        if (quiet) return 'ok';
        if (e.positions === null) {
          // An older leader's entry: its changes have no positions every node agrees on.
          this.log.discontinue();
          return 'ok';
        }
        if (!outcome.matched) return this.diverged(e, outcome.reason);
      } else if (e.kind === 'settlement') {
        const note = JSON.parse(e.data.toString()) as SettlementNote;
        this.opts.index.upsert(note.event_id, note.ended_at, note.pending ? 1 : 0);
        if (quiet) return 'ok';
        const entry = settlementEntryOf(note);
        if (entry === null) this.log.discontinue();
        else if (!this.log.accept(entry))
          return this.diverged(
            e,
            `settlement entry ${note.entry?.position} is not after this log's head ${this.log.headId}`,
          );
      } else if (e.kind === 'leader') {
        this.opts.setClock((JSON.parse(e.data.toString()) as LeaderRecord).clock);
      }
    } catch (err) {
      // An entry this version cannot read: skipped, said loudly (a mixed-version deployment); this
      // node's stream cannot show what it changed, so no resume spans it.
      this.opts.log.error({ err, id: e.id, kind: e.kind }, 'a change stream entry could not be applied');
      if (!quiet) this.log.discontinue();
    }
    return 'ok';
  }

  /** A replay that did not make the leader's entries: said loudly, and the node reloads (its stream cannot go on exactly). */
  private diverged(e: StreamEntry, reason: string): Applied {
    this.divergences++;
    this.log.discontinue();
    this.opts.log.error(
      { id: e.id, epoch: e.epoch, seq: e.seq, reason },
      "this node's replay of a change stream entry differs from the leader's: reloading from the store",
    );
    return 'diverged';
  }

  /** Each event's status and last update, each tournament's markets and results: what a stream has shown of them. */
  private digest(): StateDigest {
    const out: StateDigest = new Map();
    const { readModel, outrights } = this.opts.pipeline;
    for (const le of readModel.all()) {
      const e = le.event;
      out.set(e.id, {
        terminal: isTerminal(e.status),
        stamp: `${e.status}|${e.updatedAt}|${readModel.result(e.id)?.revision ?? 0}`,
      });
    }
    for (const t of outrights.tournaments.values()) {
      let latest = 0;
      for (const m of t.markets.values()) latest = Math.max(latest, m.updatedAt);
      for (const r of t.results.values()) latest = Math.max(latest, r.settledAt);
      out.set(`tournament:${t.tournamentId}`, {
        terminal: false,
        stamp: `${t.markets.size}|${t.results.size}|${latest}`,
      });
    }
    return out;
  }

  /** The settlement counters' entries that left the feed window leave them too (the leader deletes them). */
  private trimIndex(): void {
    const { index, now, feedRetentionMs } = this.opts;
    for (const id of index.idsEndedBefore(now() - feedRetentionMs)) index.delete(id);
  }
}

/** The first event or tournament whose state differs between two digests (events that ended may come and go: eviction), or null. */
function firstDifference(a: StateDigest, b: StateDigest): string | null {
  for (const [id, x] of a) {
    const y = b.get(id);
    if (y === undefined ? !x.terminal : y.stamp !== x.stamp) return id;
  }
  for (const [id, y] of b) if (!a.has(id) && !y.terminal) return id;
  return null;
}
