// The pipeline: applies feed messages in order to the read model and the store, and emits changes.
import { badRequest, ServiceError } from '../domain/errors.js';
import { isTerminal } from '../domain/lifecycle.js';
import { playerStatsOf, sameJson } from './map-messages.js';
import type { EventResult, FinalStatus, Market, SportEvent, TeamSide } from '../domain/types.js';
import type { FeedMessage, FeedMessageType } from '../feed/messages.js';
import { parseNdjsonLine } from '../feed/ndjson.js';
import { orderKeyOf } from '../feed/order-key.js';
import { ArenaKeeper, MAX_BAD_LINES, parsePackedBytes, type IngressLine } from '../feed/packed-body.js';
import { changesOf, type IngressMessage } from '../feed/packed-odds.js';
import { BookImageError } from '../live/book-image.js';
import type { LogEntry } from '../live/change-log.js';
import type { LiveEvent } from '../live/live-event.js';
import { PositionRecorder, type BatchPositions } from '../live/log-replay.js';
import { HistoryDecodeError } from '../live/history-codec.js';
import { decodeOdds } from '../live/odds-codec.js';
import { forcedLock } from '../live/payloads.js';
import { decodeOddsMarks } from '../live/odds-marks.js';
import { OutrightBook } from '../live/outright-book.js';
import type { ReadModel } from '../live/read-model.js';
import { storeFaultCode } from '../store/store-health.js';
import type { StoredEvent, StoredTournament, Store } from '../store/store.js';
import { applyFixture, applyScore, applyStatus, type EventChange } from './apply-event.js';
import { changedMarkets, planOddsChanges, rejectUnlessOpen } from './apply-markets.js';
import { planOutright } from './apply-outright.js';
import { applyResult } from './apply-result.js';
import type { FeedIngress, FeedTiming } from './ingress.js';
import {
  applied,
  isRetryable,
  lineError,
  rejected,
  unavailable,
  type ApplyOutcome,
  type FeedReport,
} from './outcome.js';
import { staleDue, staleSweepIntervalMs, type FeedStaleMessage } from './stale-feed.js';
import { isEmptyBatch, WriteBehind } from './write-behind.js';
import { OddsHistoryRecorder } from './odds-history.js';
import type { LogWindowKeeper } from './log-window.js';

export interface PipelineLogger {
  /** Optional: per-flush timings for operators chasing latency (LOG_LEVEL=debug). */
  debug?(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface PipelineOptions {
  readModel: ReadModel;
  store: Store;
  /** World time: message defaults, retention. */
  now: () => number;
  /** Wall time for freshness (defaults to `now`; differs when the world runs accelerated). */
  wallNow?: () => number;
  /**
   * A live event the feed has said nothing about for this long (wall ms) is reported locked until
   * fresh data arrives (STALE_LOCK_SECONDS; 0 or absent: never). Decided by the leader only.
   */
  staleLockMs?: number;
  flushIntervalMs: number;
  /** Final events older than this leave the read model (their results stay in the store). */
  endedRetentionMs: number;
  /** Odds history older than this (world ms) is deleted; 0 keeps no history at all (ODDS_HISTORY_DAYS). */
  historyRetentionMs?: number;
  log: PipelineLogger;
  /**
   * A replica (ROLE=api) applies what the leader applied, from the change stream, to its own read
   * model: it never writes the store, and a result's previous revision is the one it holds.
   */
  replica?: boolean;
  /** A leader that publishes what it applies (scaled out): see AppliedSink. */
  sink?: AppliedSink;
  /** Stores the replay window with every flush and restores it on load (log-window.ts). */
  logWindow?: LogWindowKeeper;
}

/** What the pipeline applies: feed messages, and the leader's own stale-feed locks (handed on to replicas). */
export type PipelineMessage = IngressMessage | FeedStaleMessage;

/** Where a leader's pipeline hands what it applied (the change stream when scaled out). */
export interface AppliedSink {
  /**
   * The messages of one batch that changed something, in order, each with the `ts` it was applied
   * at, and the log positions the batch's entries took (replicas give their replay's entries the same).
   */
  applied(messages: PipelineMessage[], positions: BatchPositions): void;
  /** A mark of what has been handed over so far, taken when a flush takes its batch. */
  mark(): unknown;
  /** The flush taken at `mark` committed: the store reflects everything handed over up to the mark. */
  flushed(mark: unknown): void;
}

/** What a (re)load reads from the store before it touches the read model. */
export interface PipelineSnapshot {
  events: StoredEvent[];
  results: Map<string, EventResult>;
  outrights: StoredTournament[];
}

/** The last flush a stored event's markets or odds rows came from (the write-behind continues after it). */
function lastSeqOf({ marketSeqs, image, oddsLog }: StoredEvent): number {
  let last = image?.seq ?? 0;
  for (const s of marketSeqs) if (s > last) last = s;
  for (const r of oddsLog) if (r.seq > last) last = r.seq;
  return last;
}

export interface PipelineCounters {
  applied: Map<FeedMessageType, number>;
  unchanged: number;
  rejected: number;
  flushes: number;
  flushFailures: number;
  /** Times the feed waited for the store (too many market documents pending). */
  backpressureWaits: number;
}

/** Player statistics belong to games that are under way or have been played. */
function acceptsStats(status: string): boolean {
  return (
    status === 'live' ||
    status === 'suspended' ||
    status === 'interrupted' ||
    status === 'ended' ||
    status === 'retired' ||
    status === 'abandoned'
  );
}

/**
 * Market documents (hundreds of bytes each) that may wait for the store before the feed is held
 * back: about one flush of a fast bulk load (20 deep events). A flush materializes its documents
 * (and with the writer thread, copies them there), so this bounds that memory too: at 50,000 the
 * full capacity bench peaked ~250 MB higher.
 */
export const MAX_PENDING_MARKET_DOCS = 20_000;

export class Pipeline implements FeedIngress {
  readonly counters: PipelineCounters = {
    applied: new Map(),
    unchanged: 0,
    rejected: 0,
    flushes: 0,
    flushFailures: 0,
    backpressureWaits: 0,
  };
  /** Wall-clock epoch ms of the last message that changed something; null before the first. */
  lastChangeAt: number | null = null;
  /** Lag of the last applied message: apply time minus its `ts`. */
  lastLagMs = 0;
  readonly outrights: OutrightBook;
  private readonly writeBehind: WriteBehind;
  /** Every price and lock change, written with each flush (GET /v1/events/{id}/odds/history). */
  readonly history: OddsHistoryRecorder;
  private queue: Promise<unknown> = Promise.resolve();
  private flushTimer: NodeJS.Timeout | null = null;
  private sweepTimer: NodeJS.Timeout | null = null;
  private staleTimer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> | null = null;
  /** Flushes failed since the last that worked (the failure is logged once, at the first). */
  private failedFlushesInARow = 0;
  private stopped = false;
  /** Results being committed outside a flush: a flush taken meanwhile is no watermark (see flush). */
  private committingResults = 0;
  /** The feed bodies' odds arena, reused from tick to tick. */
  private readonly arenas = new ArenaKeeper();
  /** Whether this pipeline writes the store (not a replica). */
  private readonly writes: boolean;
  /** The event whose document a result commit has just written (its log entries mark nothing). */
  private writtenWithResult: string | null = null;
  /** A publishing leader records the positions each batch's entries take. */
  private readonly recorder: PositionRecorder | null;

  constructor(private readonly opts: PipelineOptions) {
    this.writeBehind = new WriteBehind(opts.readModel);
    const log = opts.readModel.log;
    this.history = new OddsHistoryRecorder((entry) => log.encodedOddsOf(entry));
    this.writes = opts.replica !== true;
    this.outrights = new OutrightBook(opts.readModel.log);
    this.recorder = opts.sink !== undefined ? new PositionRecorder(opts.readModel.log) : null;
    // Write-behind and the odds history follow the change log: whatever the read model changed
    // is marked for the store, and every price change is kept.
    if (this.writes) {
      const keepHistory = (opts.historyRetentionMs ?? 0) > 0;
      opts.readModel.log.subscribe((entry) => {
        if (keepHistory) this.history.record(entry);
        this.markForStore(entry);
      });
    }
  }

  private markForStore(entry: LogEntry): void {
    if (entry.eventId === this.writtenWithResult) return;
    let le: LiveEvent | undefined;
    if (entry.kind === 'odds' || entry.kind === 'markets' || entry.kind === 'status') {
      // A first price move, going live, or markets added since: the opening and closing prices
      // the store keeps for the event are rewritten with the next flush.
      le = this.event(entry.eventId);
      const book = le?.book;
      if (book?.marksDirty === true) {
        book.marksDirty = false;
        this.writeBehind.markOddsMarks(entry.eventId);
      }
    }
    switch (entry.kind) {
      case 'fixture':
      case 'status':
      case 'score':
      case 'stats':
        this.writeBehind.markEvent(entry.eventId);
        return;
      case 'markets':
        this.writeBehind.markEvent(entry.eventId);
        this.writeBehind.markMarkets(entry.eventId, [...entry.added.map((m) => m.marketId), ...entry.withdrawn]);
        return;
      case 'odds':
        if (le !== undefined) {
          this.writeBehind.markOdds(le, entry, this.opts.readModel.log.encodedOddsOf(entry), forcedLock(le));
          // Priced prematch at this price change (a delayed start): the event document says so.
          if (le.eventDirty) {
            le.eventDirty = false;
            this.writeBehind.markEvent(entry.eventId);
          }
        }
        return;
      case 'evicted':
        this.writeBehind.forget(entry.eventId);
        this.history.forget(entry.eventId);
        return;
      default:
        return;
    }
  }

  /** The read model this pipeline applies to (a replica's follower replays into its log). */
  get readModel(): ReadModel {
    return this.opts.readModel;
  }

  /** What stores the replay window with each flush (ROLE=all), if anything. */
  get logWindow(): LogWindowKeeper | undefined {
    return this.opts.logWindow;
  }

  /** Pending write-behind items (events + markets) not yet in the store. */
  get backlog(): number {
    return this.writeBehind.pending;
  }

  /** Restores the read model from the store (every event, market and result as last committed). */
  async load(progress?: (events: number, of: number) => void): Promise<number> {
    // The stored window first: the log's head and origin are where they stood before anything appends.
    await this.opts.logWindow?.restore(this.opts.store);
    const { store, readModel } = this.opts;
    const keep = this.keptAfterRestart();
    // Restored a batch at a time as the store reads it: a full world's market documents (11,000
    // events × 1,000 markets) never sit in memory at once, only its books do. Nothing is served
    // before load() returns, so the read model need not change in one step as a reload's does.
    const loadedAt = this.wallNow();
    const terminal: LiveEvent[] = [];
    let n = 0;
    let lastSeq = 0;
    let read = 0;
    await store.loadEventBatches((batch, total) => {
      read += batch.length;
      progress?.(read, total);
      readModel.log.quietly(() => {
        for (const stored of batch) {
          if (!keep(stored)) continue;
          const le = this.restoreEvent(stored, loadedAt);
          lastSeq = Math.max(lastSeq, lastSeqOf(stored));
          if (isTerminal(le.event.status)) terminal.push(le);
          n++;
        }
      });
    });
    const results = await this.resultsOf(terminal.map((le) => le.event.id));
    readModel.log.quietly(() => {
      for (const le of terminal) {
        const r = results.get(le.event.id);
        if (r !== undefined) readModel.putResult(le, r);
      }
      this.writeBehind.seq = Math.max(this.writeBehind.seq, lastSeq);
    });
    const outrights = await store.loadOutrights();
    readModel.log.quietly(() => this.restoreOutrights(outrights));
    return n;
  }

  /**
   * A replica's fresh start from the store (after a gap in the change stream, or a new leader):
   * everything is read first, then the read model is replaced in one synchronous step, so a request
   * sees the old state or the new one, never half of each.
   */
  async reload(): Promise<number> {
    return this.replaceWith(await this.snapshot());
  }

  /** Everything a reload reads from the store, read without touching the read model (a replica's background load). */
  readSnapshot(): Promise<PipelineSnapshot> {
    return this.snapshot();
  }

  /** Replaces the read model with a snapshot in one synchronous step (the second half of reload()). */
  replaceWith(snapshot: PipelineSnapshot): number {
    const { readModel } = this.opts;
    readModel.log.quietly(() => {
      for (const id of [...readModel.all()].map((le) => le.event.id)) readModel.evict(id);
    });
    readModel.clearResults();
    this.outrights.tournaments.clear();
    this.outrights.version++;
    return this.restore(snapshot);
  }

  private async snapshot(): Promise<PipelineSnapshot> {
    const keep = this.keptAfterRestart();
    const events = (await this.opts.store.loadEvents()).filter(keep);
    const results = await this.resultsOf(events.filter(({ event }) => isTerminal(event.status)).map((e) => e.event.id));
    return { events, results, outrights: await this.opts.store.loadOutrights() };
  }

  /** Restores a stored book image; false (logged) when its bytes are not one: the event's documents, if any, are what is left. */
  private restoredImage(le: LiveEvent, data: Uint8Array): boolean {
    try {
      this.opts.readModel.restoreImage(le, data);
      return true;
    } catch (err) {
      if (!(err instanceof BookImageError)) throw err;
      this.opts.log.error(
        { err, eventId: le.event.id },
        "an event's stored book image is unreadable: its markets are restored from what else is stored",
      );
      return false;
    }
  }

  /** Which stored events a restart keeps: ended ones only within ENDED_RETENTION_HOURS. */
  private keptAfterRestart(): (stored: StoredEvent) => boolean {
    const cutoff = this.opts.now() - this.opts.endedRetentionMs;
    return ({ event }) => !(isTerminal(event.status) && event.statusChangedAt < cutoff);
  }

  private async resultsOf(eventIds: string[]): Promise<Map<string, EventResult>> {
    const results = new Map<string, EventResult>();
    for (const id of eventIds) {
      const r = await this.opts.store.getResult(id);
      if (r !== null) results.set(id, r);
    }
    return results;
  }

  /** Rebuilds the read model from stored state: no change anybody follows, so nothing is logged. */
  private restore(snapshot: PipelineSnapshot): number {
    return this.opts.readModel.log.quietly(() => this.restoreQuietly(snapshot));
  }

  private restoreQuietly(snapshot: PipelineSnapshot): number {
    const { readModel } = this.opts;
    // Nothing tells how long the feed was quiet before this load: each event gets the whole limit.
    const loadedAt = this.wallNow();
    let n = 0;
    let lastSeq = 0;
    for (const stored of snapshot.events) {
      const le = this.restoreEvent(stored, loadedAt);
      lastSeq = Math.max(lastSeq, lastSeqOf(stored));
      const r = snapshot.results.get(le.event.id);
      if (r !== undefined) readModel.putResult(le, r);
      n++;
    }
    this.writeBehind.seq = Math.max(this.writeBehind.seq, lastSeq);
    this.restoreOutrights(snapshot.outrights);
    return n;
  }

  /** One stored event back on the read model: its markets, the odds logged after them, its marks. */
  private restoreEvent(
    { event: stored, markets, positions, marketSeqs, image: storedImage, oddsLog, oddsMarks }: StoredEvent,
    loadedAt: number,
  ): LiveEvent {
    let image = storedImage;
    const { readModel } = this.opts;
    // A stored stale-feed lock goes back on the read model (LiveEvent.stale), not on the event.
    const { feedStale, ...event } = stored;
    const le = readModel.putEvent(event);
    le.freshAt = loadedAt;
    if (feedStale === true) readModel.setStale(le, true);
    // The flush that wrote what each market holds now: odds rows of that flush or before are in it.
    let writtenBy: (market: number) => number = (i) => marketSeqs[i] ?? 0;
    if (image !== null && !this.restoredImage(le, image.data)) image = null;
    if (image !== null) {
      // Documents newer than the image (a store written both ways) replace their markets in it.
      const newer = markets.flatMap((m, k) => ((marketSeqs[k] ?? 0) > image.seq ? [k] : []));
      if (newer.length > 0) {
        readModel.restoreMarkets(
          le,
          newer.map((k) => markets[k] as Market),
          newer.map((k) => positions[k] as number),
        );
      }
      const seqs = new Float64Array(le.book.marketCount).fill(image.seq);
      for (const k of newer) seqs[le.book.indexOfMarket((markets[k] as Market).marketId)] = marketSeqs[k] as number;
      writtenBy = (i) => seqs[i] ?? 0;
    } else if (markets.length > 0) readModel.restoreMarkets(le, markets, positions);
    // Odds logged after a market's document was written are newer than it: apply them in order.
    for (const row of oddsLog) {
      let updatedAt = 0;
      try {
        updatedAt = decodeOdds(row.data, (selectionId, odds, locked) => {
          const o = le.book.indexOfSelection(selectionId);
          if (o < 0 || row.seq <= writtenBy(le.book.marketOfOutcome(o))) return;
          le.book.setOdds(o, odds);
          le.book.setLocked(o, locked);
        });
      } catch (err) {
        // A damaged row of changes is decoded whole before any is applied: it is skipped, not half applied.
        if (!(err instanceof HistoryDecodeError)) throw err;
        this.opts.log.error(
          { err, eventId: le.event.id, seq: row.seq },
          "an event's stored odds row is unreadable: skipped",
        );
      }
      if (updatedAt > le.event.updatedAt) le.event = { ...le.event, updatedAt };
    }
    // A document written before `pricedPrematch` was kept: stored before kick-off with a book, its
    // prices are taken as prematch ones (when it was priced was not stored then).
    if (
      le.event.pricedPrematch === undefined &&
      le.book.marketCount > 0 &&
      ['prematch', 'delayed', 'postponed'].includes(le.event.status)
    )
      le.event.pricedPrematch = true;
    // Opening and closing prices as stored: after the odds rows, whose replay moved prices.
    const marks = oddsMarks === null ? null : decodeOddsMarks(oddsMarks);
    if (marks !== null) le.book.restoreMarks(marks);
    le.book.marksDirty = false;
    if (oddsLog.length > 0 || marks !== null) readModel.touch(le);
    return le;
  }

  /** Restores the outright book (tournaments, markets, results) as last committed. */
  private restoreOutrights(stored: StoredTournament[]): void {
    for (const { tournament, markets } of stored) {
      this.outrights.apply({ kind: 'tournament', tournament });
      for (const { market, result } of markets) {
        this.outrights.apply({ kind: 'market', tournamentId: tournament.tournamentId, market });
        if (result !== null) {
          this.outrights.apply({
            kind: 'result',
            tournamentId: tournament.tournamentId,
            marketId: market.marketId,
            result,
          });
        }
      }
    }
    this.syncOutrightSports();
  }

  /** `has_outrights` of GET /v1/sports: sports with a tournament that has an open market. */
  private syncOutrightSports(): void {
    const sports = this.opts.readModel.sportsWithOutrights;
    sports.clear();
    for (const sport of this.outrights.sports()) sports.add(sport);
  }

  start(): void {
    this.stopped = false;
    this.flushTimer = setInterval(() => void this.flush(), this.opts.flushIntervalMs);
    this.flushTimer.unref();
    // Between batches: an eviction's entry never lands among a batch's (whose positions replicas take).
    this.sweepTimer = setInterval(() => {
      void this.exclusive(() => this.sweep());
      void this.pruneHistory();
    }, 60_000);
    this.sweepTimer.unref();
    const limit = this.opts.staleLockMs ?? 0;
    if (this.writes && limit > 0) {
      this.staleTimer = setInterval(() => {
        this.sweepStale().catch((err: unknown) => this.opts.log.error({ err }, 'the stale-feed sweep failed'));
      }, staleSweepIntervalMs(limit));
      this.staleTimer.unref();
    }
  }

  /** Stops the timers and flushes what is pending. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.clearTimers();
    await this.queue.catch(() => undefined);
    // A timer's flush may be writing an earlier batch: flush() would hand back that one and leave
    // what came after it unwritten. Wait for it, then write the rest.
    while (this.flushing !== null) await this.flushing.catch(() => undefined);
    await this.flush();
  }

  /**
   * A deposed leader's step-down: stops the timers, lets the batch being applied finish, and drops
   * what waits for the store (the new leader owns it now and loaded it without these) and the read
   * model's state (a new term loads the store afresh with reload()).
   */
  async discard(): Promise<void> {
    this.stopped = true;
    this.clearTimers();
    this.opts.logWindow?.endRun();
    await this.queue.catch(() => undefined);
    while (this.flushing !== null) await this.flushing;
    this.writeBehind.take();
    this.writeBehind.returnRows();
    const { readModel } = this.opts;
    readModel.log.quietly(() => {
      for (const id of [...readModel.all()].map((le) => le.event.id)) readModel.evict(id);
    });
    readModel.clearResults();
    this.outrights.tournaments.clear();
    this.outrights.version++;
    this.syncOutrightSports();
  }

  private clearTimers(): void {
    if (this.flushTimer) clearInterval(this.flushTimer);
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    if (this.staleTimer) clearInterval(this.staleTimer);
    this.flushTimer = this.sweepTimer = this.staleTimer = null;
  }

  /** Applies JSON values (a JSON body's messages), numbered from 1 like the lines of a body. */
  async applyJson(values: readonly unknown[]): Promise<FeedReport> {
    const lines: IngressLine[] = [];
    let bad = 0;
    values.forEach((v, i) => {
      const parsed = parseNdjsonLine(JSON.stringify(v) ?? 'null', i + 1);
      if (parsed !== null) lines.push(parsed);
      // As for NDJSON bodies (packed-body.ts): junk is refused whole, not reported line by line.
      if (parsed !== null && 'error' in parsed && ++bad > MAX_BAD_LINES) {
        throw badRequest(
          `more than ${MAX_BAD_LINES} messages of this body are not valid feed messages; nothing was applied`,
        );
      }
    });
    return this.applyLines(lines);
  }

  /**
   * Parses an NDJSON body and applies its lines in order. Odds lines are scanned straight into
   * typed arrays (packed-body.ts): a 100,000-change tick parses in ~20 ms with almost no garbage.
   * Parsing on a worker thread was tried and measured slower under read load: the reply waited
   * for a turn of the busy event loop, and the worker for a core.
   */
  async applyNdjson(body: Uint8Array, timing?: FeedTiming): Promise<FeedReport> {
    const t0 = performance.now();
    const parsed = parsePackedBytes(body, this.arenas);
    const t1 = performance.now();
    // The lines' packed odds are views of the arena: it is given back once they are applied (a
    // sink encodes what it hands on synchronously, so nothing refers to them after this).
    const report = await this.applyLines(parsed.lines).finally(() => this.arenas.give(parsed.arena));
    if (timing !== undefined) {
      timing.parseMs = t1 - t0;
      timing.applyMs = performance.now() - t1;
    }
    return report;
  }

  /** Applies parsed NDJSON lines in order: bad lines are reported, good ones applied. */
  async applyLines(lines: Iterable<IngressLine>): Promise<FeedReport> {
    const report: FeedReport = { accepted: 0, rejected: 0, errors: [] };
    const work: Array<{ line: number; message: IngressMessage }> = [];
    for (const l of lines) {
      if ('error' in l) {
        report.rejected++;
        report.errors.push({ line: l.line, error: l.error, message: l.message });
      } else work.push(l);
    }
    const outcomes = await this.applyAll(work.map((w) => w.message));
    outcomes.forEach((o, i) => {
      if (o.ok) report.accepted++;
      else {
        report.rejected++;
        report.errors.push(lineError(work[i]?.line ?? 0, o));
      }
    });
    report.errors.sort((a, b) => a.line - b.line);
    return report;
  }

  /**
   * Applies messages in order, one at a time across all producers. Once a message is refused for a
   * transient reason (isRetryable), the later messages of this call about the same event or
   * tournament are refused with it, untouched: a producer that sends the refused ones again, in
   * order, never has a later message overtake an earlier one.
   */
  applyAll(messages: readonly PipelineMessage[]): Promise<ApplyOutcome[]> {
    const sink = this.opts.sink;
    const run = async (): Promise<ApplyOutcome[]> => {
      const out: ApplyOutcome[] = [];
      // A leader stamps every message with the time it applies it, so every replica computes the
      // same updated_at, and hands on the messages that changed something.
      const changed: PipelineMessage[] = [];
      let refused: Map<string, ApplyOutcome> | null = null;
      const recorder = this.recorder;
      recorder?.begin();
      try {
        for (const m of messages) {
          const earlier = refused?.get(orderKeyOf(m));
          if (earlier !== undefined) {
            this.counters.rejected++;
            out.push(heldBack(m, earlier));
            continue;
          }
          if (this.writeBehind.marketDocs > MAX_PENDING_MARKET_DOCS) await this.drainMarketDocs();
          const msg = sink !== undefined && m.ts === undefined ? { ...m, ts: this.stamp() } : m;
          const outcome = await this.applyOne(msg);
          out.push(outcome);
          if (isRetryable(outcome)) (refused ??= new Map()).set(orderKeyOf(m), outcome);
          else if (sink !== undefined && outcome.ok && outcome.changed) changed.push(msg);
          // A message that changed nothing is not handed on: the lock it lifted is, by itself.
          if (outcome.ok && msg.type !== 'feed_stale' && 'event_id' in msg && this.fed(msg.event_id) && sink) {
            changed.push({ type: 'feed_stale', event_id: msg.event_id, stale: false, ts: msg.ts ?? this.stamp() });
          }
        }
      } finally {
        const positions = recorder?.end();
        if (sink !== undefined && positions !== undefined && changed.length > 0) sink.applied(changed, positions);
        // The batch's changes are complete: streams are written now, before the reads waiting their turn.
        this.opts.readModel.log.settle();
      }
      return out;
    };
    const next = this.queue.then(run, run);
    this.queue = next.catch(() => undefined);
    return next;
  }

  /**
   * Runs `fn` between two batches (in the order of the feed's queue). Whatever appends to the log
   * outside a batch goes through here on a leader, so a batch's entries take consecutive places
   * in its log and its positions say exactly which entries the batch made.
   */
  exclusive<T>(fn: () => T): Promise<Awaited<T>> {
    const next = this.queue.then(fn, fn) as Promise<Awaited<T>>;
    this.queue = next.catch(() => undefined);
    return next;
  }

  apply(message: IngressMessage): Promise<ApplyOutcome> {
    return this.applyAll([message]).then((r) => r[0] as ApplyOutcome);
  }

  /** The world time a leader stamps on what it hands on. */
  private stamp(): string {
    return new Date(this.opts.now()).toISOString();
  }

  private wallNow(): number {
    return (this.opts.wallNow ?? this.opts.now)();
  }

  /**
   * A message about the event was accepted (whether it changed anything or not: a producer
   * sending the same odds again is still talking about it): its silence counts from now, and a
   * stale-feed lock lifts. Returns whether a lock lifted here (only a message that changed nothing
   * leaves one: the read model lifts it with any change).
   */
  private fed(eventId: string): boolean {
    const le = this.event(eventId);
    if (le === undefined) return false;
    le.freshAt = this.wallNow();
    return le.stale && this.opts.readModel.setStale(le, false);
  }

  /**
   * The leader's sweep: locks every live event its feed has said nothing about for the limit
   * (STALE_LOCK_SECONDS), through the queue like any message, so replicas get the same locks in the
   * same order. Returns how many it locked. A replica never sweeps: it follows the leader's locks.
   */
  async sweepStale(): Promise<number> {
    const limit = this.opts.staleLockMs ?? 0;
    if (!this.writes || !(limit > 0)) return 0;
    const now = this.wallNow();
    const due: FeedStaleMessage[] = [];
    for (const le of this.opts.readModel.all()) {
      if (staleDue(le, now, limit)) due.push({ type: 'feed_stale', event_id: le.event.id, stale: true });
    }
    if (due.length === 0) return 0;
    const outcomes = await this.applyAll(due);
    return outcomes.filter((o) => o.ok && o.changed).length;
  }

  /** The archived result of an event, from memory or the store. */
  async result(eventId: string): Promise<EventResult | null> {
    return this.opts.readModel.result(eventId) ?? (await this.opts.store.getResult(eventId));
  }

  /**
   * Holds the feed back while too many market documents wait for the store: flushes until they
   * fit again. Without it a store slower than the feed (the writer thread shares the machine
   * with the feed) lets the backlog, and the batch a flush builds from it, grow without bound.
   * A failing store does not block the feed: the wait ends at the first failed flush.
   */
  private async drainMarketDocs(): Promise<void> {
    this.counters.backpressureWaits++;
    while (this.writeBehind.marketDocs > MAX_PENDING_MARKET_DOCS) {
      const failures = this.counters.flushFailures;
      await this.flush();
      if (this.counters.flushFailures !== failures) return;
    }
  }

  /** Writes pending live data to the store; one flush at a time. */
  flush(): Promise<void> {
    if (this.flushing) return this.flushing;
    const sink = this.opts.sink;
    // A result commits its event's pending writes itself: until it has, a flush does not cover
    // everything handed over, so it is no watermark.
    const mark = sink !== undefined && this.committingResults === 0 ? sink.mark() : undefined;
    const batch = this.writeBehind.take();
    batch.history = this.history.take();
    // Taken at the same moment as the state: the segment describes exactly what the batch stores.
    const logWindow = this.opts.logWindow?.take();
    if (logWindow !== undefined) batch.logWindow = logWindow;
    if (isEmptyBatch(batch)) {
      if (mark !== undefined) sink?.flushed(mark);
      return Promise.resolve();
    }
    const started = performance.now();
    this.flushing = this.opts.store
      .writeBatch(batch)
      .then(
        () => {
          this.counters.flushes++;
          if (logWindow !== undefined) this.opts.logWindow?.stored(logWindow);
          this.opts.log.debug?.(
            {
              ms: Math.round(performance.now() - started),
              events: batch.events.length,
              oddsRows: batch.oddsLog?.length ?? 0,
            },
            'write-behind flushed',
          );
          if (mark !== undefined) sink?.flushed(mark);
          if (this.failedFlushesInARow > 0) {
            this.opts.log.warn(
              { failedFlushes: this.failedFlushesInARow },
              'write-behind flushes succeed again; the writes kept meanwhile are stored',
            );
            this.failedFlushesInARow = 0;
          }
        },
        (err: unknown) => {
          this.counters.flushFailures++;
          this.opts.logWindow?.failed();
          this.writeBehind.restore(batch);
          this.history.restore(batch.history ?? []);
          // Once per outage, not once a flush (the store's health logs the fault's cause too).
          if (this.failedFlushesInARow++ === 0) {
            this.opts.log.error({ err }, 'write-behind flush failed; keeping the writes and retrying every flush');
          } else
            this.opts.log.debug?.({ err, failedFlushes: this.failedFlushesInARow }, 'write-behind flush failed again');
        },
      )
      .finally(() => {
        this.flushing = null;
        this.writeBehind.returnRows();
        // Stored, or back in memory by restore(): history reads waiting for this write go on.
        this.history.settled();
      });
    return this.flushing;
  }

  /** Deletes odds history past its retention (a failure is tried again at the next sweep). */
  async pruneHistory(): Promise<number> {
    const keep = this.opts.historyRetentionMs ?? 0;
    if (!this.writes || keep <= 0) return 0;
    return this.opts.store.deleteOddsHistoryBefore(this.opts.now() - keep).catch(() => 0);
  }

  /**
   * Evicts final events past the retention window from the read model. A replica does it quietly:
   * its log's positions are its leader's, and an eviction (which streams nothing) is no change to
   * replicate.
   */
  sweep(): number {
    const { readModel } = this.opts;
    const cutoff = this.opts.now() - this.opts.endedRetentionMs;
    const old: string[] = [];
    for (const le of readModel.all()) {
      if (isTerminal(le.event.status) && le.event.statusChangedAt < cutoff) old.push(le.event.id);
    }
    const evict = (): void => {
      for (const id of old) readModel.evict(id);
    };
    if (this.writes) evict();
    else readModel.log.quietly(evict);
    return old.length;
  }

  private async applyOne(msg: PipelineMessage): Promise<ApplyOutcome> {
    let outcome: ApplyOutcome;
    try {
      outcome = await this.dispatch(msg);
    } catch (err) {
      if (err instanceof ServiceError && err.code === 'service_unavailable') {
        // A store read it needed failed (the datastore is down): retryable, like a failed commit.
        outcome = unavailable(`${err.message}; nothing was changed, send it again`, err.component ?? 'datastore');
      } else {
        this.opts.log.error({ err, type: msg.type }, 'feed message failed');
        outcome = rejected('the message could not be applied (internal error); nothing was changed', 'server_error');
      }
    }
    // The leader's own locks are no feed traffic: the feed's counters and health do not see them.
    if (msg.type === 'feed_stale') return outcome;
    if (!outcome.ok) this.counters.rejected++;
    else if (!outcome.changed) this.counters.unchanged++;
    else {
      this.counters.applied.set(msg.type, (this.counters.applied.get(msg.type) ?? 0) + 1);
      this.lastChangeAt = this.wallNow();
      if (msg.ts !== undefined) this.lastLagMs = Math.max(0, this.opts.now() - Date.parse(msg.ts));
    }
    return outcome;
  }

  private at(msg: PipelineMessage): number {
    return msg.ts !== undefined ? Date.parse(msg.ts) : this.opts.now();
  }

  private event(id: string): LiveEvent | undefined {
    return this.opts.readModel.get(id);
  }

  private commitEvent(change: EventChange): ApplyOutcome {
    if (!change.ok) return rejected(change.message);
    if (change.next === null) return applied(false);
    this.opts.readModel.putEvent(change.next);
    return applied(true);
  }

  private async dispatch(msg: PipelineMessage): Promise<ApplyOutcome> {
    const at = this.at(msg);
    switch (msg.type) {
      case 'fixture':
        return this.commitEvent(applyFixture(this.event(msg.event_id)?.event, msg, at));
      case 'tournament':
      case 'outright_market':
      case 'outright_result':
        return this.applyOutrightMessage(msg, at);
      default:
        break;
    }
    const le = this.event(msg.event_id);
    if (le === undefined) return rejected(`unknown event '${msg.event_id}' (send its fixture first)`);
    switch (msg.type) {
      case 'status': {
        const change = applyStatus(le.event, msg, at);
        if (change.ok && change.next !== null && isTerminal(change.next.status)) {
          // A final status is archived like a result: the result endpoint answers it forever.
          return this.archive(le, { ...change.next, endedAt: at }, msg.status as FinalStatus, null, at);
        }
        return this.commitEvent(change);
      }
      case 'score':
        return this.commitEvent(applyScore(le.event, msg, at));
      case 'markets': {
        const r = changedMarkets(le, msg);
        if (!r.ok) return rejected(r.message);
        if (r.markets.length === 0) return applied(false);
        this.opts.readModel.upsertMarkets(le, r.markets, priceTime(le, at));
        return applied(true);
      }
      case 'odds': {
        const changes = changesOf(msg);
        const plan = planOddsChanges(le, changes);
        if (!plan.ok) return rejected(plan.message);
        // The odds row carries the event's updated_at: no event document per price tick.
        const moved = this.opts.readModel.applyPrices(
          le,
          plan.outcomes,
          plan.odds,
          plan.locks,
          priceTime(le, at),
          changes.ids,
        );
        return applied(moved > 0);
      }
      case 'remove_markets': {
        if ((msg.all === true) === (msg.market_ids !== undefined)) {
          return rejected("remove_markets needs exactly one of 'market_ids' or 'all: true'");
        }
        const closed = rejectUnlessOpen(le);
        if (closed !== null) return rejected(closed);
        // Withdrawn markets stay in the book and the store (bets taken on them still settle).
        const withdrawn = this.opts.readModel.withdrawMarkets(
          le,
          msg.all === true ? 'all' : (msg.market_ids ?? []),
          at,
        );
        return applied(withdrawn.length > 0);
      }
      case 'stats': {
        if (!acceptsStats(le.event.status)) {
          return rejected(`event '${le.event.id}' is '${le.event.status}': it has no player statistics`);
        }
        const stats = playerStatsOf(msg);
        if (le.event.playerStats !== null && sameJson(le.event.playerStats, stats)) return applied(false);
        return this.commitEvent({ ok: true, next: { ...le.event, playerStats: stats, updatedAt: at } });
      }
      case 'result':
        return this.applyResultMessage(le, msg, at);
      case 'feed_stale': {
        // Fresh data may have come while the lock waited in the queue: the leader decides again
        // here. A replica applies what the leader decided.
        const limit = this.opts.staleLockMs ?? 0;
        if (msg.stale && this.writes && !(limit > 0 && staleDue(le, this.wallNow(), limit))) return applied(false);
        return applied(this.opts.readModel.setStale(le, msg.stale));
      }
    }
  }

  /**
   * Outright messages are rare and their facts are few: each is committed to the store before it is
   * acknowledged, and only then applied to the book (a failed write leaves nothing half-applied).
   */
  private async applyOutrightMessage(
    msg: Extract<FeedMessage, { type: 'tournament' | 'outright_market' | 'outright_result' }>,
    at: number,
  ): Promise<ApplyOutcome> {
    const plan = planOutright(this.outrights, msg, at);
    if (!plan.ok) return rejected(plan.message);
    if (plan.change === null) return applied(false);
    const { change } = plan;
    const { store } = this.opts;
    try {
      if (!this.writes) {
        // A replica: the leader stored it before publishing.
      } else if (change.kind === 'tournament') await store.saveTournament(change.tournament);
      else if (change.kind === 'market') await store.saveOutrightMarket(change.tournamentId, change.market);
      else await store.settleOutrightMarket(change.tournamentId, change.marketId, change.result, plan.entries);
    } catch (err) {
      this.logStoreRefusal(err, { type: msg.type }, 'outright message could not be stored');
      return unavailable('the message could not be stored; nothing was changed, send it again');
    }
    this.outrights.apply(change);
    this.syncOutrightSports();
    return applied(true);
  }

  /** Results commit to the store (with the event's pending writes) before they are acknowledged. */
  private async applyResultMessage(
    le: LiveEvent,
    msg: Extract<FeedMessage, { type: 'result' }>,
    at: number,
  ): Promise<ApplyOutcome> {
    const previous = await this.previousResult(le.event.id).catch((err: unknown) => err as Error);
    if (previous instanceof Error) return this.storeUnreadable(previous, le.event.id);
    const change = applyResult(le.event, previous, msg, at);
    if (!change.ok) return rejected(change.message);
    if (change.noop) return applied(false);
    return this.commitResult(le, change.event, change.result);
  }

  /** A final status reached by a `status` message: archived with the score the game had. */
  private async archive(
    le: LiveEvent,
    next: SportEvent,
    status: FinalStatus,
    winner: TeamSide | null,
    at: number,
  ): Promise<ApplyOutcome> {
    const previous = await this.previousResult(le.event.id).catch((err: unknown) => err as Error);
    if (previous instanceof Error) return this.storeUnreadable(previous, le.event.id);
    const result: EventResult = {
      eventId: next.id,
      status,
      score: next.score,
      periodScores: next.periodScores,
      winner,
      endedAt: at,
      revision: (previous?.revision ?? 0) + 1,
      recordedAt: at,
    };
    return this.commitResult(le, next, result);
  }

  /**
   * The result a result or final status message revises. A replica asks only its own memory: the
   * store may already hold the very result being replayed (the leader commits before publishing).
   */
  private async previousResult(eventId: string): Promise<EventResult | null> {
    return this.writes ? this.result(eventId) : (this.opts.readModel.result(eventId) ?? null);
  }

  /**
   * A message refused because the store failed, to be sent again. A datastore fault is a warning
   * naming it (during an outage every retry would otherwise log a stack trace; the store's health
   * logs the fault's cause once); anything else is a bug, logged as an error with its stack.
   */
  private logStoreRefusal(err: unknown, fields: Record<string, unknown>, msg: string): void {
    const code = storeFaultCode(err);
    if (code === null) this.opts.log.error({ err, ...fields }, msg);
    else this.opts.log.warn({ ...fields, code, error: err instanceof Error ? err.message : String(err) }, msg);
  }

  /** The result a message revises could not be read: refused like a failed commit, to be sent again. */
  private storeUnreadable(err: Error, eventId: string): ApplyOutcome {
    this.logStoreRefusal(err, { eventId }, 'the archived result could not be read');
    return unavailable('the archived result could not be read; nothing was changed, send it again');
  }

  private async commitResult(le: LiveEvent, next: SportEvent, result: EventResult): Promise<ApplyOutcome> {
    if (this.writes) {
      // The event's earlier writes (its markets…) may be in a flush still on its way to the store
      // (PostgreSQL runs it beside this commit): they must be durable before the result is
      // acknowledged, or a crash right after would keep a result whose markets were never stored.
      // A flush that failed has put them back, and they are taken here.
      while (this.flushing !== null) await this.flushing;
      const batch = this.writeBehind.take(le.event.id);
      batch.events = [next];
      this.committingResults++;
      try {
        await this.opts.store.saveResult(result, batch);
      } catch (err) {
        this.writeBehind.restore({ ...batch, events: [le.event] });
        this.logStoreRefusal(err, { eventId: le.event.id }, 'result could not be stored');
        return unavailable('the result could not be stored; nothing was changed, send it again');
      } finally {
        this.committingResults--;
      }
    }
    // The result's commit wrote the event document already: its log entries need no second write.
    this.writtenWithResult = le.event.id;
    try {
      const after = this.opts.readModel.putEvent(next);
      this.opts.readModel.putResult(after, result);
    } finally {
      this.writtenWithResult = null;
    }
    return applied(true);
  }
}

/** The outcome of a message not applied because an earlier one about the same event or tournament was refused. */
function heldBack(m: PipelineMessage, earlier: ApplyOutcome): ApplyOutcome {
  const about = 'tournament_id' in m ? `tournament '${m.tournament_id}'` : `event '${m.event_id}'`;
  return unavailable(
    `not applied: an earlier message about ${about} in this batch was refused; send them again, in order`,
    earlier.ok ? 'datastore' : (earlier.component ?? 'datastore'),
  );
}

/**
 * When a price change counts as made: its message's `ts`, or the event's last change if that ts is
 * earlier (a producer's clock skew, a late message). Messages about an event apply in the order
 * received, so its history is kept in that order too: the newest change of the odds history is the
 * price the payload shows, `?at=` agrees with it, and a history cursor never misses a change that
 * arrives after it was issued.
 */
function priceTime(le: LiveEvent, at: number): number {
  return Math.max(at, le.event.updatedAt);
}
