// The ordered change log: every change to the read state gets a position; the stream, settlement and scale-out follow it.
import { compareLogPositions, formatLogPosition, positionBefore, type LogPosition } from './log-position.js';
import type { LogEntry, LogEntryInput } from './log-entry.js';

export type { LogEntry, LogEntryInput } from './log-entry.js';

export interface ChangeLogOptions {
  /** Wall clock (positions are wall milliseconds, so they keep growing across restarts). */
  now: () => number;
  /** Entries older than this leave the replay window. */
  windowMs: number;
  /** Entries beyond this many bytes (estimated) leave the replay window, oldest first. */
  maxBytes: number;
}

/** Why a position cannot be resumed from: the client must start again from a snapshot. */
export type ResumeRefusal = 'unknown' | 'expired' | 'reset' | 'lost';

export type ResumeLookup = { ok: true; entries: LogEntry[] } | { ok: false; reason: ResumeRefusal };

/** A span of positions that were handed out but never made durable (an unclean stop): nobody can resume inside it. */
export interface LostSpan {
  /** The last position kept: resuming from it is exact. */
  after: LogPosition;
  /** The first position of the run that followed. */
  before: LogPosition;
}

/**
 * The log keeps the entries of the replay window in memory, in position order. Positions are
 * `ms-seq` (wall milliseconds and a counter within them): they grow across restarts without a
 * counter to persist, and an id from before a reset of the store is recognizably older than its
 * first entry. Listeners are called synchronously at every append, in order.
 */
export class ChangeLog {
  private entries: LogEntry[] = [];
  /** Index of the oldest entry still in the window (the array is compacted now and then). */
  private start = 0;
  private bytes = 0;
  private last: LogPosition;
  /** The last position that left the window: resuming from it or later is exact. */
  private trimmedThrough: LogPosition | null = null;
  /** The first position this store's log ever had: an id older than it is from before a reset. */
  private origin: LogPosition | null = null;
  private lost: LostSpan[] = [];
  /**
   * A restart restored the window up to here: positions after it were handed out by the process
   * before (an unclean stop) and are gone. The next entry ends that lost span.
   */
  private lostAfter: LogPosition | null = null;
  private readonly listeners = new Set<(entry: LogEntry) => void>();
  private readonly lostListeners = new Set<(span: LostSpan) => void>();
  /** Where appends go instead of the log while a replica replays its leader's batch (see log-replay.ts). */
  private diverted: ((input: LogEntryInput) => void) | null = null;
  /** A replica replaced its state: nothing up to here can be resumed from until the next entry starts a new run. */
  private discontinued = false;
  private breaks = 0;
  /** Nesting of quietly(): a reload rebuilding state appends nothing (it is no change anybody follows). */
  private muted = 0;
  /** Entries appended since start (metrics). */
  appended = 0;

  constructor(private readonly opts: ChangeLogOptions) {
    this.last = { ms: 0, seq: 0 };
  }

  /** The position of the last entry (or where the log stands before its first), for heartbeats. */
  get head(): LogPosition {
    return this.last;
  }

  get headId(): string {
    return formatLogPosition(this.last);
  }

  /** The position of the oldest entry in the replay window (null when it is empty). */
  get firstPosition(): LogPosition | null {
    return this.entries[this.start]?.position ?? null;
  }

  /** Entries in the replay window. */
  get size(): number {
    return this.entries.length - this.start;
  }

  get sizeBytes(): number {
    return this.bytes;
  }

  /** Milliseconds of history the window holds now (shorter than configured when the byte budget binds). */
  get windowSpanMs(): number {
    const first = this.entries[this.start];
    return first === undefined ? 0 : Math.max(0, this.last.ms - first.position.ms);
  }

  /** Appends a change; returns it with its position (null while the log is quiet: a reload is no change). */
  append(input: LogEntryInput): LogEntry | null {
    if (this.muted > 0) return null;
    if (this.diverted !== null) {
      this.diverted(input);
      return null;
    }
    const ms = Math.max(this.opts.now(), this.last.ms);
    const position = ms === this.last.ms ? { ms, seq: this.last.seq + 1 } : { ms, seq: 0 };
    return this.put({ ...input, position } as LogEntry);
  }

  /**
   * Appends an entry that already has its position (a replica following its leader, a restart
   * loading the stored window). Positions must keep growing; an entry at or before the head is
   * ignored (it is already here).
   */
  accept(entry: LogEntry): boolean {
    if (compareLogPositions(entry.position, this.last) <= 0) return false;
    this.put(entry);
    return true;
  }

  /** Runs `fn` without logging what it changes (a reload from the store rebuilds state; it changes nothing). */
  quietly<T>(fn: () => T): T {
    this.muted++;
    try {
      return fn();
    } finally {
      this.muted--;
    }
  }

  /** Whether appends are currently muted (a reload): those are not changes anybody follows. */
  get isQuiet(): boolean {
    return this.muted > 0;
  }

  subscribe(listener: (entry: LogEntry) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Told of every lost span recorded by discontinue() (before the entry that ends it is handed to
   * subscribe()'s listeners): open streams inside it must be told to start again from a snapshot.
   */
  onLost(listener: (span: LostSpan) => void): () => void {
    this.lostListeners.add(listener);
    return () => this.lostListeners.delete(listener);
  }

  /**
   * Hands appends to `to` instead of logging them, until called with null (a replica replaying
   * its leader's batch gives the entries the leader's positions afterwards, or drops them).
   */
  divert(to: ((input: LogEntryInput) => void) | null): void {
    this.diverted = to;
  }

  /**
   * A replica replaced its state from the store (a gap in the change stream, a new leader it
   * cannot follow seamlessly): the entries it missed cannot be replayed, so no position up to now
   * can be resumed from, and the next entry records the lost span ending at it (every older
   * position inside) and drops the window before it. A store that keeps the log window would
   * restore it here instead (the seam for that: ChangeLog.restore).
   */
  discontinue(): void {
    this.discontinued = true;
    this.breaks++;
  }

  /**
   * Counts discontinue() calls: a stream opened before the last one (a different count) was
   * following state that was replaced, and is told when the lost span is recorded.
   */
  get continuity(): number {
    return this.breaks;
  }

  /** Whether the log waits for the entry that ends a discontinuity (a replica reloading). */
  get isDiscontinued(): boolean {
    return this.discontinued;
  }

  /**
   * Moves the head forward without an entry: a new leader continues its predecessor's positions
   * (its own clock may run behind the old leader's, and positions must keep growing).
   */
  advanceHead(position: LogPosition): void {
    if (compareLogPositions(position, this.last) > 0) this.last = position;
  }

  /**
   * What follows a position: the entries after it, or why it cannot be resumed from. A position at
   * the head is resumable with nothing to send.
   */
  after(position: LogPosition): ResumeLookup {
    this.trim();
    if (this.lostAfter !== null && compareLogPositions(position, this.lostAfter) > 0) {
      // Handed out before the restart (not from the future): gone with the unclean stop.
      return { ok: false, reason: position.ms <= this.opts.now() ? 'lost' : 'unknown' };
    }
    if (compareLogPositions(position, this.last) > 0) return { ok: false, reason: 'unknown' };
    if (this.discontinued) return { ok: false, reason: 'lost' };
    // Lost spans first: a replica's span reaches back past its first entry (its origin).
    for (const span of this.lost) {
      if (compareLogPositions(position, span.after) > 0 && compareLogPositions(position, span.before) < 0) {
        return { ok: false, reason: 'lost' };
      }
    }
    if (this.origin !== null && compareLogPositions(position, this.origin) < 0) {
      // Older than anything this store's log ever held: from another installation or before a reset.
      return { ok: false, reason: 'reset' };
    }
    if (this.trimmedThrough !== null && compareLogPositions(position, this.trimmedThrough) < 0) {
      return { ok: false, reason: 'expired' };
    }
    const from = this.indexAfter(position);
    return { ok: true, entries: this.entries.slice(from) };
  }

  /** Entries in the window after a position (a restart saving the window, scale-out). */
  since(position: LogPosition | null): LogEntry[] {
    return position === null ? this.entries.slice(this.start) : this.entries.slice(this.indexAfter(position));
  }

  /**
   * Restores where a stored log stood (a restart): the first position it ever had, the last one
   * durable, and spans lost to unclean stops that are still inside the window.
   */
  restore(state: { origin: LogPosition | null; lastDurable: LogPosition | null; lost: LostSpan[] }): void {
    this.origin = state.origin;
    this.lost = [...state.lost];
    if (state.lastDurable !== null && compareLogPositions(state.lastDurable, this.last) > 0) {
      this.last = state.lastDurable;
    }
  }

  /**
   * Restores the replay window a restart read from the store, before anything is appended (no
   * listener is told: these are not new changes). `entries` are the stored window in position
   * order and `through` the last position stored. Positions after `through` were handed out by the
   * process before an unclean stop, if any were: they answer 'lost' (the span ends at the next
   * entry). When the window cannot prove what the store holds (`proven` false: facts committed
   * whose entries never reached a stored segment), no position before the restart is resumable.
   */
  restoreWindow(w: {
    origin: LogPosition | null;
    through: LogPosition | null;
    entries: readonly LogEntry[];
    proven: boolean;
  }): void {
    if (w.origin !== null) this.origin = w.origin;
    const through = w.through ?? w.entries[w.entries.length - 1]?.position ?? null;
    if (through === null) return;
    if (compareLogPositions(through, this.last) > 0) this.last = through;
    if (!w.proven) {
      this.lostAfter = { ms: 0, seq: 0 };
      return;
    }
    this.lostAfter = through;
    const first = w.entries[0];
    this.trimmedThrough = first === undefined ? through : positionBefore(first.position);
    this.entries = [...w.entries];
    this.start = 0;
    this.bytes = 0;
    for (const e of this.entries) this.bytes += e.bytes;
    this.trim();
  }

  /** Spans lost to unclean stops (kept while they are inside the window). */
  get lostSpans(): readonly LostSpan[] {
    return this.lost;
  }

  /** Records a lost span: positions between `after` and the next append were handed out and are gone. */
  markLost(after: LogPosition, before: LogPosition): void {
    if (compareLogPositions(before, after) > 0) this.lost.push({ after, before });
  }

  /** The first position this log ever had (null before the first entry of a new store). */
  get originPosition(): LogPosition | null {
    return this.origin;
  }

  private put(entry: LogEntry): LogEntry {
    if (this.discontinued) this.endDiscontinuity(entry.position);
    if (this.lostAfter !== null) {
      this.lost.push({ after: this.lostAfter, before: entry.position });
      this.lostAfter = null;
    }
    this.last = entry.position;
    this.origin ??= entry.position;
    this.entries.push(entry);
    this.bytes += entry.bytes;
    this.appended++;
    for (const l of this.listeners) l(entry);
    if ((this.appended & 255) === 0) this.trim();
    return entry;
  }

  /** The first entry after a discontinuity: everything before it is a lost span, and leaves the window. */
  private endDiscontinuity(first: LogPosition): void {
    this.discontinued = false;
    const span: LostSpan = { after: { ms: 0, seq: 0 }, before: first };
    this.lost = [span];
    this.entries = [];
    this.start = 0;
    this.bytes = 0;
    for (const l of this.lostListeners) l(span);
  }

  /** Drops entries that left the window (by age, then by the byte budget). */
  trim(): void {
    const oldest = this.opts.now() - this.opts.windowMs;
    let i = this.start;
    const end = this.entries.length;
    while (i < end) {
      const e = this.entries[i] as LogEntry;
      if (e.position.ms >= oldest && this.bytes <= this.opts.maxBytes) break;
      this.bytes -= e.bytes;
      this.trimmedThrough = e.position;
      i++;
    }
    if (i === this.start) return;
    this.start = i;
    // Compact once the dropped head is as large as what is kept: amortized O(1) per entry.
    if (this.start > 1024 && this.start * 2 > this.entries.length) {
      this.entries = this.entries.slice(this.start);
      this.start = 0;
    }
    const first = this.entries[this.start];
    // A span ending at the window's first entry still answers 'lost' (rather than 'expired').
    if (first !== undefined) this.lost = this.lost.filter((s) => compareLogPositions(s.before, first.position) >= 0);
  }

  /** Index of the first entry after a position (binary search over the window). */
  private indexAfter(position: LogPosition): number {
    let lo = this.start;
    let hi = this.entries.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compareLogPositions((this.entries[mid] as LogEntry).position, position) <= 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
