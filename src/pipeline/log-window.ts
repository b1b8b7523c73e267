// Keeps the change log's replay window in the store: a segment with every write-behind flush, restored after a restart (ROLE=all) or by API nodes (scaled out).
import type { ChangeLog, LogEntry, StoredSegmentReader } from '../live/change-log.js';
import { decodeLogSegment, type EncodedSegment } from '../live/log-codec.js';
import type { LogEntryKind } from '../live/log-entry.js';
import { compareLogPositions, positionBefore, type LogPosition } from '../live/log-position.js';
import type { LoadedLogSegment, LogWindowWrite, Store } from '../store/store.js';
import type { PipelineLogger } from './pipeline.js';

/**
 * Entries whose facts are committed before they are appended (results, settlement batches,
 * outright changes): each is one commit that counts a fact in the store (countFact), so the
 * window can tell whether it accounts for all of them.
 */
const FACT_KINDS: ReadonlySet<LogEntryKind> = new Set(['result', 'settlement', 'outright']);

export interface LogWindowOptions {
  log: ChangeLog;
  /** Wall clock (positions are wall milliseconds). */
  now: () => number;
  /** The replay window (STREAM_REPLAY_SECONDS) and its memory (STREAM_REPLAY_MB): a restart reads no more. */
  windowMs: number;
  maxBytes: number;
  logger: PipelineLogger;
  /** Reads stored segments back: with it, the log keeps only its memory budget of the window (STREAM_REPLAY_MEMORY_MB). */
  readStored?: StoredSegmentReader;
  /** That memory budget: a restart reads only this much of the stored window with its bytes. */
  memoryBytes?: number;
}

/** A scaled-out leader's term: what its writes say of the stored window (LogWindowRun). */
interface Run {
  epoch: number;
  /** The log's head when the term began: every entry after it is this run's. */
  from: LogPosition;
  /** The run's first entry (null before it). */
  first: LogPosition | null;
  /** The term's first write has not committed yet: it deletes every older segment. */
  reset: boolean;
}

/** What a restart restored (logged, and tests read it). */
export interface LogWindowRestore {
  entries: number;
  /** False when the stored window cannot account for every committed fact: nothing before the restart resumes. */
  proven: boolean;
  reason: string | null;
}

/**
 * Which positions a restored window can prove: a resume from p is exact only if the state the
 * restart loads is what the window's entries after p lead to. A write-behind flush stores the
 * entries since the last flush in the same transaction as the state they describe, so the two
 * agree up to the flush's last entry. Results, settlements and outrights commit before their
 * entries exist; each counts a fact in its transaction, and the flush records how many such
 * entries its segments hold (`covered`). A restart that finds more facts than covered (a crash
 * between such a commit and the next flush) holds a change no stored entry describes, and
 * answers every older position `lost` rather than resume past it. Entries after the last stored
 * segment (an unclean stop) are lost too; everything before it resumes exactly.
 *
 * Scaled out, the pipeline leader keeps the window the same way, one run per term (beginRun): its
 * first write deletes what earlier terms stored (their logs may hold entries the API nodes never
 * had: a deposed leader's unpublished batches, a predecessor's tail replayed at positions of its
 * own), and every write names the term's epoch and the head the run reaches. The leader does not
 * restore it; an API node does, at its first snapshot (pipeline/follower.ts, which explains why it
 * is exact). The fact counters do not apply there: the change stream's gapless sequence is what
 * proves an API node's state.
 */
export class LogWindowKeeper {
  /** Sealed segments not yet committed (a failed flush's are written with the next). */
  private unstored: EncodedSegment[] = [];
  private taken = 0;
  /** Facts whose entries have been appended (and encoded) so far, counted on from the store's. */
  private facts = 0;
  private coveredStored = 0;
  private active = false;
  private run: Run | null = null;
  /** Segments dropped while the store failed: the next write deletes everything older. */
  private dropped = false;
  /** Segments and bytes committed since start, and where the last one ended (metrics). */
  segmentsStored = 0;
  bytesStored = 0;
  storedThrough: LogPosition | null = null;

  constructor(private readonly opts: LogWindowOptions) {
    if (opts.readStored !== undefined) opts.log.keepStoredIn(opts.readStored);
    opts.log.subscribe((entry) => this.onEntry(entry));
    // The log encodes its window itself: the stored window is the same segments, written with the flush.
    opts.log.onSeal((segment) => {
      if (this.active) this.unstored.push(segment);
    });
  }

  private onEntry(entry: LogEntry): void {
    if (!this.active) return;
    if (FACT_KINDS.has(entry.kind)) this.facts++;
    if (this.run !== null) this.run.first ??= entry.position;
  }

  /**
   * Scaled out: this node now leads in `epoch` and has published nothing yet. What its log holds
   * already (the store's state loaded quietly, the predecessor's tail it replayed) is not stored;
   * every entry from here on is, in a run that replaces what earlier terms stored.
   */
  beginRun(epoch: number): void {
    this.active = false;
    this.opts.log.seal(); // not stored: what was appended before the term (the listener ignores it)
    this.unstored = [];
    this.taken = 0;
    this.dropped = false;
    this.facts = 0;
    this.coveredStored = 0;
    this.run = { epoch, from: this.opts.log.head, first: null, reset: true };
    this.active = true;
  }

  /** Deposed: nothing more is stored (the fenced store would refuse it anyway). */
  endRun(): void {
    this.active = false;
    this.run = null;
    this.unstored = [];
    this.taken = 0;
  }

  /**
   * Reads the stored window into the log (before the read model loads, and before anything is
   * appended): newest segments first, no more than the window's memory.
   */
  async restore(store: Store): Promise<LogWindowRestore> {
    const { log, now, windowMs, maxBytes, logger } = this.opts;
    // Only the newest part the log keeps in memory is read with its bytes (the rest is read back
    // by a resume that needs it): a restart never holds the whole window at once.
    const dataBytes = this.opts.readStored !== undefined ? (this.opts.memoryBytes ?? maxBytes) : maxBytes;
    const stored = await store.loadLogWindow(now() - windowMs, maxBytes, dataBytes);
    this.facts = stored.facts;
    this.coveredStored = stored.covered;
    this.active = true;
    let reason: string | null = stored.facts === stored.covered ? null : 'a commit after the last stored segment';
    const kept: (EncodedSegment & { size: number })[] = [];
    let bytes = 0;
    for (let i = stored.segments.length - 1; i >= 0 && bytes <= maxBytes && reason === null; i--) {
      const s = stored.segments[i] as LoadedLogSegment;
      try {
        // Read once now: a damaged segment refuses the window here, not at a resume (one loaded
        // without its bytes is checked when a resume reads it back).
        if (s.data.byteLength > 0) decodeLogSegment(s.data);
        bytes += s.size;
        // A view of the row's bytes, not a copy: the window can be hundreds of MB.
        const data = Buffer.from(s.data.buffer, s.data.byteOffset, s.data.byteLength);
        kept.push({ from: s.from, to: s.to, count: s.count, data, size: s.size });
      } catch (err) {
        reason = `a stored segment could not be read (${err instanceof Error ? err.message : String(err)})`;
      }
    }
    const segments = reason === null ? kept.reverse() : [];
    log.restoreWindow({ origin: stored.origin, through: stored.through, segments, proven: reason === null });
    if (reason !== null && stored.through !== null) {
      logger.warn({ reason }, 'the stored replay window cannot be resumed from: streams start from a snapshot');
    }
    return { entries: log.size, proven: reason === null, reason };
  }

  /** The log's share of the next flush (undefined when there is nothing new). */
  take(): LogWindowWrite | undefined {
    if (!this.active) return undefined;
    this.opts.log.seal();
    this.bound();
    const run = this.run;
    if (this.unstored.length === 0 && this.facts === this.coveredStored && run?.reset !== true) return undefined;
    this.taken = this.unstored.length;
    const first = this.opts.log.firstPosition;
    const oldest = this.unstored[0]?.from;
    const pruneBefore = this.dropped && oldest !== undefined ? oldest : (first ?? this.opts.log.head);
    const write: LogWindowWrite = {
      segments: this.unstored.map((s) => ({ from: s.from, to: s.to, count: s.count, data: s.data })),
      covered: this.facts,
      origin: this.opts.log.originPosition,
      pruneBefore,
    };
    if (run !== null) {
      // Once the prune reaches into the run, its stored entries start there, not at the term's start.
      const pruned = run.first !== null && compareLogPositions(pruneBefore, run.first) > 0;
      write.run = {
        epoch: run.epoch,
        from: pruned ? positionBefore(pruneBefore) : run.from,
        // Sealed above: every entry up to the head is in a stored segment once this commits.
        through: this.opts.log.head,
        reset: run.reset,
      };
    }
    return write;
  }

  /** The flush that took the last share committed. */
  stored(share: LogWindowWrite): void {
    for (const s of share.segments) {
      this.segmentsStored++;
      this.bytesStored += s.data.byteLength;
      this.storedThrough = s.to;
    }
    this.unstored.splice(0, this.taken);
    this.taken = 0;
    this.coveredStored = share.covered;
    // What the store now holds may leave memory; what the write pruned (segments dropped while the
    // store failed) leaves the window, as it left the store.
    // A new term's first write deleted everything stored before its run: the log's older segments
    // were never stored in it, so they leave the window rather than memory.
    if (share.run?.reset === true) this.opts.log.dropThrough(share.run.from);
    if (this.storedThrough !== null) this.opts.log.markStored(this.storedThrough);
    this.opts.log.dropThrough(positionBefore(share.pruneBefore));
    if (this.unstored.length === 0) this.dropped = false;
    if (this.run !== null && share.run?.epoch === this.run.epoch) this.run.reset = false;
  }

  /** The flush failed: its segments stay, written with the next. */
  failed(): void {
    this.taken = 0;
  }

  /**
   * While the store fails, unstored segments are kept up to the window's memory; older ones are
   * dropped, and the next write deletes every stored segment before the oldest kept (a stored
   * window with a hole would resume across it).
   */
  private bound(): void {
    let bytes = 0;
    for (const s of this.unstored) bytes += s.data.byteLength;
    while (bytes > this.opts.maxBytes && this.unstored.length > 1) {
      bytes -= (this.unstored.shift() as EncodedSegment).data.byteLength;
      this.dropped = true;
    }
  }
}
