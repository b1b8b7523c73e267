// Keeps the change log's replay window in the store: a segment with every write-behind flush, restored before the read model loads after a restart.
import type { ChangeLog, LogEntry } from '../live/change-log.js';
import { decodeLogSegment, type EncodedSegment } from '../live/log-codec.js';
import type { LogEntryKind } from '../live/log-entry.js';
import type { LogPosition } from '../live/log-position.js';
import type { LogWindowWrite, Store } from '../store/store.js';
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
 */
export class LogWindowKeeper {
  /** Sealed segments not yet committed (a failed flush's are written with the next). */
  private unstored: EncodedSegment[] = [];
  private taken = 0;
  /** Facts whose entries have been appended (and encoded) so far, counted on from the store's. */
  private facts = 0;
  private coveredStored = 0;
  private active = false;
  /** Segments dropped while the store failed: the next write deletes everything older. */
  private dropped = false;
  /** Segments and bytes committed since start, and where the last one ended (metrics). */
  segmentsStored = 0;
  bytesStored = 0;
  storedThrough: LogPosition | null = null;

  constructor(private readonly opts: LogWindowOptions) {
    opts.log.subscribe((entry) => this.onEntry(entry));
    // The log encodes its window itself: the stored window is the same segments, written with the flush.
    opts.log.onSeal((segment) => {
      if (this.active) this.unstored.push(segment);
    });
  }

  private onEntry(entry: LogEntry): void {
    if (this.active && FACT_KINDS.has(entry.kind)) this.facts++;
  }

  /**
   * Reads the stored window into the log (before the read model loads, and before anything is
   * appended): newest segments first, no more than the window's memory.
   */
  async restore(store: Store): Promise<LogWindowRestore> {
    const { log, now, windowMs, maxBytes, logger } = this.opts;
    // Encoded entries are smaller than their memory estimate: this many bytes hold at least the window.
    const stored = await store.loadLogWindow(now() - windowMs, maxBytes);
    this.facts = stored.facts;
    this.coveredStored = stored.covered;
    this.active = true;
    let reason: string | null = stored.facts === stored.covered ? null : 'a commit after the last stored segment';
    const kept: EncodedSegment[] = [];
    let bytes = 0;
    for (let i = stored.segments.length - 1; i >= 0 && bytes <= maxBytes && reason === null; i--) {
      const s = stored.segments[i] as EncodedSegment;
      try {
        decodeLogSegment(s.data); // read once now: a damaged segment refuses the window here, not at a resume
        bytes += s.data.byteLength;
        kept.push({ from: s.from, to: s.to, count: s.count, data: Buffer.from(s.data) });
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
    if (this.unstored.length === 0 && this.facts === this.coveredStored) return undefined;
    this.taken = this.unstored.length;
    const first = this.opts.log.firstPosition;
    const oldest = this.unstored[0]?.from;
    const pruneBefore = this.dropped && oldest !== undefined ? oldest : (first ?? this.opts.log.head);
    return {
      segments: this.unstored.map((s) => ({ from: s.from, to: s.to, count: s.count, data: s.data })),
      covered: this.facts,
      origin: this.opts.log.originPosition,
      pruneBefore,
    };
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
    if (this.unstored.length === 0) this.dropped = false;
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
