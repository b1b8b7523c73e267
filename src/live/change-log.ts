// The ordered change log: every change to the read state gets a position; the stream, settlement and scale-out follow it.
import { compareLogPositions, formatLogPosition, positionBefore, type LogPosition } from './log-position.js';
import type { LogEntry, LogEntryInput, OddsEntry } from './log-entry.js';
import { decodeLogSegment, encodeLogSegment, LogSegmentWriter, type EncodedSegment } from './log-codec.js';

export type { LogEntry, LogEntryInput } from './log-entry.js';

export interface ChangeLogOptions {
  /** Wall clock (positions are wall milliseconds, so they keep growing across restarts). */
  now: () => number;
  /** Entries older than this leave the replay window. */
  windowMs: number;
  /** Entries beyond this many bytes leave the replay window, oldest first. */
  maxBytes: number;
  /**
   * How many of those bytes stay in memory (default: all of them). Older segments, once the store
   * holds them (markStored), are let go and read back by a resume that reaches them (replayStored).
   */
  memoryBytes?: number;
  /**
   * The newest entries are kept as objects until this many are waiting (or `sealMs` has passed, or
   * `sealBytes` of them): then they are encoded into one segment (default 4,096 entries, 1 s, 8 MB).
   */
  sealEntries?: number;
  sealMs?: number;
  sealBytes?: number;
}

/** Decoded segments kept for readers that come close together (two resumes from one place decode once). */
const RECENT_DECODINGS = 2;

/** A segment's memory besides its bytes (the object, its positions, the buffer's header). */
const SEGMENT_OVERHEAD = 256;

/** What a sealed segment costs the replay window's byte budget. */
export function segmentMemory(segment: { data: Uint8Array }): number {
  return segment.data.byteLength + SEGMENT_OVERHEAD;
}

/**
 * Why a position cannot be resumed from: the client must start again from a snapshot.
 * `unavailable`: the position is in the stored part of the window and the store could not be read.
 */
export type ResumeRefusal = 'unknown' | 'expired' | 'reset' | 'lost' | 'unavailable';

/** Reads stored segments back: those ending within [from, to], oldest first (Store.readLogSegments). */
export type StoredSegmentReader = (
  from: LogPosition,
  to: LogPosition,
) => Promise<readonly { from: LogPosition; to: LogPosition; count: number; data: Uint8Array }[]>;

/** A segment let go from memory: its place in the window, and the bytes it counts against the window's budget. */
interface StoredOnly extends EncodedSegment {
  storedBytes: number;
}

const NO_BYTES = Buffer.alloc(0);

/** Segment bytes kept for one resume (read back from the store, or handed over by letGo), by where each segment ends. */
type ReadBack = ReadonlyMap<string, Buffer>;

/** A segment's key in a ReadBack (positions are unique in a log: a stub and the segment it replaced share it). */
function endOf(segment: EncodedSegment): string {
  return formatLogPosition(segment.to);
}

/** What a segment counts against the window's byte budget, held or only stored. */
function windowBytes(segment: EncodedSegment): number {
  const stored = (segment as Partial<StoredOnly>).storedBytes;
  return stored === undefined ? segmentMemory(segment) : stored + SEGMENT_OVERHEAD;
}

/**
 * The entries of a segment read back from the store, when it is the one the log let go: the same
 * place and count, and bytes that decode to exactly that (null otherwise).
 */
function readsAs(stub: EncodedSegment, row: { from: LogPosition; count: number }, data: Buffer): LogEntry[] | null {
  if (row.count !== stub.count || compareLogPositions(row.from, stub.from) !== 0) return null;
  let entries: LogEntry[];
  try {
    entries = decodeLogSegment(data);
  } catch {
    return null;
  }
  const first = entries[0]?.position;
  const last = entries[entries.length - 1]?.position;
  if (entries.length !== stub.count || first === undefined || last === undefined) return null;
  return compareLogPositions(first, stub.from) === 0 && compareLogPositions(last, stub.to) === 0 ? entries : null;
}

export type ResumeLookup = { ok: true; entries: LogEntry[] } | { ok: false; reason: ResumeRefusal };

/** What follows a position, decoded one segment at a time as it is read (a resume far back holds one segment's objects at once). */
export type ReplayLookup = { ok: true; batches: Iterable<readonly LogEntry[]> } | { ok: false; reason: ResumeRefusal };

/**
 * A resume whose store reads are done (ChangeLog.prepareReplay): answer() decides it from what was
 * read and what the log holds at that moment. Call it in the synchronous step that starts following
 * the log (a stream registering for live entries): then no entry can fall between the two.
 */
export interface PreparedReplay {
  answer(): ReplayLookup;
}

/** A span of positions that were handed out but never made durable (an unclean stop): nobody can resume inside it. */
export interface LostSpan {
  /** The last position kept: resuming from it is exact. */
  after: LogPosition;
  /** The first position of the run that followed. */
  before: LogPosition;
}

/**
 * The log keeps the entries of the replay window in memory, in position order: the newest as
 * objects (the tail), everything older encoded into segments (log-codec.ts, ~6.5 bytes per price
 * change), so the window's memory is what its byte budget says and costs the garbage collector
 * nothing to mark. A resume decodes the segments after its position. Positions are
 * `ms-seq` (wall milliseconds and a counter within them): they grow across restarts without a
 * counter to persist, and an id from before a reset of the store is recognizably older than its
 * first entry. Listeners are called synchronously at every append, in order.
 */
export class ChangeLog {
  /** Sealed segments of the window, oldest first (from `segStart`; the array is compacted now and then). */
  private segments: EncodedSegment[] = [];
  private segStart = 0;
  private segBytes = 0;
  private segEntries = 0;
  /**
   * Segments from `segStart` up to this index are held only in the store (the oldest part of the
   * window, let go from memory once stored), `coldBytes` their share of `segBytes`.
   */
  private coldEnd = 0;
  private coldBytes = 0;
  private readonly memoryBytes: number;
  /** The store holds every segment ending at or before this (markStored). */
  private storedThrough: LogPosition | null = null;
  private reader: StoredSegmentReader | null = null;
  /** Resumes reading the store run one at a time: each holds what it read until it is delivered. */
  private readQueue: Promise<unknown> = Promise.resolve();
  /** The bytes kept for resumes reading the store or about to be answered: segments let go meanwhile are added (letGo). */
  private readonly keeping = new Set<Map<string, Buffer>>();
  /** Entries not yet sealed into a segment, oldest first (from `tailStart`). */
  private tail: LogEntry[] = [];
  private tailStart = 0;
  private tailBytes = 0;
  /** Encodes the tail as it grows (null when there is no window to keep: STREAM_REPLAY_SECONDS=0). */
  private readonly writer: LogSegmentWriter | null;
  private readonly sealEntries: number;
  private readonly sealMs: number;
  private readonly sealBytes: number;
  private readonly sealListeners = new Set<(segment: EncodedSegment) => void>();
  private last: LogPosition;
  /** The last position that left the window: resuming from it or later is exact. */
  private trimmedThrough: LogPosition | null = null;
  /** The first position this store's log ever had: an id older than it is from before a reset. */
  private origin: LogPosition | null = null;
  private lost: LostSpan[] = [];
  /** Positions the head took without an entry of its own (a restart, a new leader), newest last: ids a client may hold. */
  private bareHeads: LogPosition[] = [];
  /** The segments decoded last, newest last (decoded()). */
  private recentDecodings: { segment: EncodedSegment; entries: LogEntry[] }[] = [];
  /**
   * A restart restored the window up to here: positions after it were handed out by the process
   * before (an unclean stop) and are gone. The next entry ends that lost span.
   */
  private lostAfter: LogPosition | null = null;
  private readonly listeners = new Set<(entry: LogEntry) => void>();
  private readonly settledListeners = new Set<() => void>();
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
    this.writer = opts.windowMs > 0 ? new LogSegmentWriter() : null;
    this.memoryBytes = Math.min(opts.memoryBytes ?? opts.maxBytes, opts.maxBytes);
    this.sealEntries = opts.sealEntries ?? 4096;
    this.sealMs = opts.sealMs ?? 1000;
    // The tail counts against the budget too: a small budget seals sooner.
    this.sealBytes = opts.sealBytes ?? Math.min(8 * 1024 * 1024, Math.max(4096, opts.maxBytes / 4));
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
    return this.segments[this.segStart]?.from ?? this.tail[this.tailStart]?.position ?? null;
  }

  /** Entries in the replay window. */
  get size(): number {
    return this.segEntries + this.tail.length - this.tailStart;
  }

  /** Memory the window holds: its segments' bytes and the tail's estimate (not what only the store holds). */
  get sizeBytes(): number {
    return this.segBytes - this.coldBytes + this.tailBytes;
  }

  /** The window's bytes, in memory and only in the store (bounded by the byte budget). */
  get windowBytes(): number {
    return this.segBytes + this.tailBytes;
  }

  /** Segments of the window held only in the store (metrics). */
  get storedOnlyCount(): number {
    return this.coldEnd - this.segStart;
  }

  /** Encoded segments in the window (metrics). */
  get segmentCount(): number {
    return this.segments.length - this.segStart;
  }

  /** Milliseconds of history the window holds now (shorter than configured when the byte budget binds). */
  get windowSpanMs(): number {
    const first = this.firstPosition;
    return first === null ? 0 : Math.max(0, this.last.ms - first.ms);
  }

  /**
   * Told of every segment sealed (the stored window writes them with the next flush). Segments
   * hold every entry appended since the previous one, in order.
   */
  onSeal(listener: (segment: EncodedSegment) => void): () => void {
    this.sealListeners.add(listener);
    return () => this.sealListeners.delete(listener);
  }

  /** Encodes the tail into a segment now (a flush stores the window up to its own last change). */
  seal(): void {
    const segment = this.writer?.seal() ?? null;
    if (segment === null) return;
    this.segments.push(segment);
    this.segBytes += windowBytes(segment);
    this.segEntries += segment.count - this.tailStart; // entries trimmed from the tail are in it, but not in the window
    this.tail = [];
    this.tailStart = 0;
    this.tailBytes = 0;
    for (const l of this.sealListeners) l(segment);
    // Big entries (a load's markets) can pass the budget well within 256 appends: bound it at every seal.
    if (this.segBytes > this.opts.maxBytes) this.trim();
    this.letGo();
  }

  /**
   * Where the older part of the window is read back from once it leaves memory (the store the
   * window is kept in). Without one, the whole window stays in memory.
   */
  keepStoredIn(reader: StoredSegmentReader): void {
    this.reader = reader;
  }

  /** The store now holds every segment ending at or before `through`: those may leave memory. */
  markStored(through: LogPosition): void {
    if (this.storedThrough === null || compareLogPositions(through, this.storedThrough) > 0) {
      this.storedThrough = through;
    }
    this.letGo();
  }

  /**
   * The store no longer holds what ends at or before `through` (its writes failed and it dropped
   * the segments it could not keep; a new term's run replaced them): the window starts after it
   * too, or a resume would reach into a hole.
   */
  dropThrough(through: LogPosition): void {
    this.trim(through);
  }

  /** Lets the oldest stored segments go from memory while the window holds more than its memory budget. */
  private letGo(): void {
    const through = this.storedThrough;
    if (this.reader === null || through === null) return;
    this.coldEnd = Math.max(this.coldEnd, this.segStart);
    while (this.segBytes - this.coldBytes + this.tailBytes > this.memoryBytes && this.coldEnd < this.segments.length) {
      const seg = this.segments[this.coldEnd] as EncodedSegment;
      if (compareLogPositions(seg.to, through) > 0) break;
      // A resume reading the store or about to be answered would otherwise have to read this back too.
      for (const kept of this.keeping) kept.set(endOf(seg), seg.data);
      const stub: StoredOnly = {
        from: seg.from,
        to: seg.to,
        count: seg.count,
        data: NO_BYTES,
        storedBytes: seg.data.byteLength,
      };
      this.segments[this.coldEnd] = stub;
      this.coldBytes += windowBytes(stub);
      this.coldEnd++;
    }
  }

  /** Appends a change, taking the input over as the entry (null while the log is quiet: a reload is no change). */
  append(input: LogEntryInput): LogEntry | null {
    if (this.muted > 0) return null;
    if (this.diverted !== null) {
      this.diverted(input);
      return null;
    }
    const ms = Math.max(this.opts.now(), this.last.ms);
    const position = ms === this.last.ms ? { ms, seq: this.last.seq + 1 } : { ms, seq: 0 };
    // The input becomes the entry (every caller builds a fresh one per append): a copy of each
    // entry's fields was ~3 ms of a capacity tick's 1,000 odds entries.
    const entry = input as LogEntry;
    entry.position = position;
    return this.put(entry);
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

  /**
   * The window's compact encoding of an odds entry's changes, while a listener of that very
   * entry runs (null otherwise, or without a window): the odds history copies these bytes rather
   * than encoding the same changes a second time. A view: copy it before returning.
   */
  encodedOddsOf(entry: OddsEntry): Uint8Array | null {
    return entry.packed ?? this.writer?.oddsBytesOf(entry) ?? null;
  }

  subscribe(listener: (entry: LogEntry) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Told when a unit of changes is complete (a feed body applied): a follower gathering entries
   * may hand them on now rather than at a later turn of the event loop, where other work (reads)
   * would come first.
   */
  onSettled(listener: () => void): () => void {
    this.settledListeners.add(listener);
    return () => this.settledListeners.delete(listener);
  }

  /** Says a unit of changes is complete (see onSettled). */
  settle(): void {
    for (const l of this.settledListeners) l();
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
    if (compareLogPositions(position, this.last) > 0) {
      this.last = position;
      this.bareHead(position);
    }
  }

  /**
   * What follows a position: the entries after it, or why it cannot be resumed from. A position at
   * the head is resumable with nothing to send.
   */
  after(position: LogPosition): ResumeLookup {
    return this.refusal(position) ?? { ok: true, entries: [...this.batchesAfter(position)].flat() };
  }

  /** Why a position cannot be resumed from memory alone, or null when it can. */
  private refusal(position: LogPosition): { ok: false; reason: ResumeRefusal } | null {
    const outside = this.refusalOutside(position);
    if (outside !== null) return outside;
    // Held only in the store (a caller that cannot wait for the store): too old for it.
    if (this.segmentAfter(position) < this.coldEnd) return { ok: false, reason: 'expired' };
    // Inside the window but never handed out (another installation's id, a made-up one): resuming
    // after it would be a silent gap for whoever holds it.
    if (!this.handedOut(position)) return { ok: false, reason: 'unknown' };
    return null;
  }

  /**
   * What follows a position, from memory and what was kept for this resume (`readBack`), decided
   * now: every segment after it that memory let go must be in `readBack` ('unavailable' if one
   * left memory after the reads: the caller may try again).
   */
  private answerFrom(position: LogPosition, readBack: ReadBack): ReplayLookup {
    const outside = this.refusalOutside(position);
    if (outside !== null) return outside;
    for (let k = this.segmentAfter(position); k < this.coldEnd; k++) {
      if (!readBack.has(endOf(this.segments[k] as EncodedSegment))) return { ok: false, reason: 'unavailable' };
    }
    if (!this.handedOut(position, readBack)) return { ok: false, reason: 'unknown' };
    return { ok: true, batches: this.batchesAfter(position, readBack) };
  }

  /** Why a position cannot be resumed from, as far as no segment has to be read to tell. */
  private refusalOutside(position: LogPosition): { ok: false; reason: ResumeRefusal } | null {
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
    return null;
  }

  /** Whether a position the window spans is one this log handed out; positions it does not span are decided above. */
  private handedOut(position: LogPosition, readBack?: ReadBack): boolean {
    const first = this.firstPosition;
    if (first === null || compareLogPositions(position, first) < 0) return true;
    if (compareLogPositions(position, this.last) >= 0) return true;
    const same = (p: LogPosition | null | undefined): boolean => p != null && compareLogPositions(p, position) === 0;
    if (same(this.trimmedThrough) || this.bareHeads.some(same)) return true;
    const firstOfTail = this.tail[this.tailStart];
    if (firstOfTail !== undefined && compareLogPositions(firstOfTail.position, position) <= 0) {
      return same(this.tail[this.tailAfter(position) - 1]?.position);
    }
    const i = this.segmentAfter(position);
    if (same(this.segments[i - 1]?.to)) return true;
    const seg = this.segments[i];
    if (seg === undefined || compareLogPositions(seg.from, position) > 0) return false;
    return this.decoded(seg, readBack).some((e) => same(e.position));
  }

  /**
   * A sealed segment's entries, decoded once for every reader that asks close together: a resume
   * checks its id in the segment it then reads, and the clients of a dropped node resume from
   * nearly the same place. The last few decodings are kept (bounded: a segment is at most
   * `sealEntries` entries); entries are shared, as the tail's are, and never changed.
   */
  private decoded(segment: EncodedSegment, readBack?: ReadBack): LogEntry[] {
    const hit = this.recentDecodings.find((d) => d.segment === segment);
    if (hit !== undefined) return hit.entries;
    return this.remember(segment, decodeLogSegment(readBack?.get(endOf(segment)) ?? segment.data));
  }

  private remember(segment: EncodedSegment, entries: LogEntry[]): LogEntry[] {
    this.recentDecodings.push({ segment, entries });
    if (this.recentDecodings.length > RECENT_DECODINGS) this.recentDecodings.shift();
    return entries;
  }

  /** Remembers a head that has no entry (bounded: only recent ones can still be inside the window). */
  private bareHead(position: LogPosition): void {
    this.bareHeads.push(position);
    if (this.bareHeads.length > 16) this.bareHeads.shift();
  }

  /**
   * Like after(), but decodes one segment at a time as the caller reads (a stream resuming). Only
   * what memory holds: a position in the part only the store holds answers 'expired' here.
   */
  replay(position: LogPosition): ReplayLookup {
    return this.refusal(position) ?? { ok: true, batches: this.batchesAfter(position) };
  }

  /**
   * replay(), reading back from the store the segments after `position` that memory let go. The
   * reads are done when this resolves; the answer is made by the PreparedReplay's answer(), in the
   * caller's own synchronous step (an answer made here would be a few microtasks old by the time
   * the caller runs, and an entry appended meanwhile by another task would be in neither the
   * answer nor the caller's live stream). Store reads run one resume at a time (each holds what it
   * read until it is answered); a store that cannot be read answers 'unavailable'.
   */
  async prepareReplay(position: LogPosition): Promise<PreparedReplay> {
    if (this.segmentAfter(position) >= this.coldEnd) return this.prepared(position, new Map());
    const turn = this.readQueue.then(() => this.readBack(position));
    this.readQueue = turn.catch(() => undefined);
    return turn;
  }

  /**
   * A resume ready to be answered. Until it is (in this turn of the event loop: the resume's own
   * step), the segments memory lets go are kept for it (letGo), so a flush in between is no
   * reason to refuse it.
   */
  private prepared(position: LogPosition, readBack: Map<string, Buffer>): PreparedReplay {
    this.keeping.add(readBack);
    const release = (): void => {
      this.keeping.delete(readBack);
    };
    setImmediate(release);
    return {
      answer: () => {
        release();
        return this.answerFrom(position, readBack);
      },
    };
  }

  private async readBack(position: LogPosition): Promise<PreparedReplay> {
    const readBack = new Map<string, Buffer>();
    // Segments that leave memory while the store is read are handed to this resume by letGo():
    // they need no read, and a busy feed cannot keep a resume reading for ever.
    this.keeping.add(readBack);
    let refused: { ok: false; reason: ResumeRefusal } | null;
    try {
      refused = await this.readBackKept(position, readBack);
    } finally {
      this.keeping.delete(readBack);
    }
    if (refused !== null) {
      const r = refused;
      return { answer: () => r };
    }
    return this.prepared(position, readBack);
  }

  /** Reads back what a resume needs into `readBack`; returns why it cannot be resumed from, or null when it is all there. */
  private async readBackKept(
    position: LogPosition,
    readBack: Map<string, Buffer>,
  ): Promise<{ ok: false; reason: ResumeRefusal } | null> {
    let checked = false;
    for (let attempt = 0; attempt < 5; attempt++) {
      // Nothing is read for an id that no segment could make resumable (too old, foreign, lost).
      const outside = this.refusalOutside(position);
      if (outside !== null) return outside;
      const wanted = this.segments.slice(this.segmentAfter(position), this.coldEnd);
      const first = wanted[0];
      // The segment the id falls in is read alone first: an id never handed out reads no more.
      const inFirst = first !== undefined && compareLogPositions(first.from, position) <= 0;
      if (!checked && (!inFirst || readBack.has(endOf(first)))) {
        // An id in no segment (between two, or before the tail) is told by where they start and
        // end, without a read: only one inside a segment needs that segment's entries.
        checked = true;
        if (!this.handedOut(position, readBack)) return { ok: false, reason: 'unknown' };
      }
      const missing = wanted.filter((s) => !readBack.has(endOf(s)));
      if (missing.length === 0) return null;
      const reader = this.reader;
      if (reader === null) return { ok: false, reason: 'expired' };
      const span = !checked && inFirst && missing[0] === first ? [first] : missing;
      let read: Awaited<ReturnType<StoredSegmentReader>>;
      try {
        read = await reader((span[0] as EncodedSegment).to, (span[span.length - 1] as EncodedSegment).to);
      } catch {
        return { ok: false, reason: 'unavailable' };
      }
      const byEnd = new Map(read.map((r) => [formatLogPosition(r.to), r]));
      for (const stub of span) {
        const r = byEnd.get(endOf(stub));
        const data = r === undefined ? null : Buffer.from(r.data.buffer, r.data.byteOffset, r.data.byteLength);
        // Not what was stored (pruned since, another run's segment, bytes the codec cannot read):
        // the window starts after it. Decoded once here, as a restart does: a segment that failed
        // halfway through the replay would leave the client with a gap nobody told it of.
        const entries = r === undefined || data === null ? null : readsAs(stub, r, data);
        if (entries === null || data === null) {
          this.trim(stub.to);
          return this.refusal(position) ?? { ok: false, reason: 'expired' };
        }
        readBack.set(endOf(stub), data);
        this.remember(stub, entries);
      }
    }
    // The window kept leaving memory faster than the store answered: nothing says the id is too old.
    return { ok: false, reason: 'unavailable' };
  }

  /** Entries in the window after a position, or all of them (tests, diagnostics). */
  since(position: LogPosition | null): LogEntry[] {
    return [...this.batchesAfter(position)].flat();
  }

  /**
   * The window after a position, a segment at a time: the segments and tail are taken now (later
   * appends and trims do not change what this yields), decoded as it is iterated.
   */
  private batchesAfter(position: LogPosition | null, readBack?: ReadBack): Iterable<readonly LogEntry[]> {
    const start = this.segmentAfter(position);
    if (start < this.coldEnd && readBack === undefined) {
      throw new Error('the window reaches into segments only the store holds: use replayStored()');
    }
    const segments = this.segments.slice(start);
    const tail = this.tail.slice(this.tailAfter(position));
    const decoded = (segment: EncodedSegment): LogEntry[] => this.decoded(segment, readBack);
    return {
      *[Symbol.iterator]() {
        for (const segment of segments) {
          const entries = decoded(segment);
          yield position === null ? entries : entries.filter((e) => compareLogPositions(e.position, position) > 0);
        }
        if (tail.length > 0) yield tail;
      },
    };
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
      this.bareHead(state.lastDurable);
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
    /**
     * The stored segments, oldest first (already read once: they decode). Those with no bytes and a
     * `size` were loaded without them (the oldest, past what memory keeps): read back when needed.
     */
    segments: readonly (EncodedSegment & { size?: number })[];
    proven: boolean;
  }): void {
    if (w.origin !== null) this.origin = w.origin;
    const through = w.through ?? w.segments[w.segments.length - 1]?.to ?? null;
    if (through === null) return;
    if (compareLogPositions(through, this.last) > 0) {
      this.last = through;
      this.bareHead(through);
    }
    if (!w.proven) {
      this.lostAfter = { ms: 0, seq: 0 };
      return;
    }
    this.lostAfter = through;
    const first = w.segments[0];
    this.trimmedThrough = first === undefined ? through : positionBefore(first.from);
    this.segments = w.segments.map((s): EncodedSegment => {
      if (s.data.byteLength > 0 || s.size === undefined)
        return { from: s.from, to: s.to, count: s.count, data: s.data };
      const stub: StoredOnly = { from: s.from, to: s.to, count: s.count, data: NO_BYTES, storedBytes: s.size };
      return stub;
    });
    this.recentDecodings = [];
    this.segStart = 0;
    this.coldEnd = 0;
    this.coldBytes = 0;
    this.segBytes = 0;
    this.segEntries = 0;
    for (let k = 0; k < this.segments.length; k++) {
      const seg = this.segments[k] as EncodedSegment;
      const bytes = windowBytes(seg);
      this.segBytes += bytes;
      this.segEntries += seg.count;
      // Loaded without their bytes: the oldest, held only in the store from the start.
      if ((seg as Partial<StoredOnly>).storedBytes !== undefined && this.coldEnd === k) {
        this.coldEnd++;
        this.coldBytes += bytes;
      }
    }
    this.trim();
    // Every restored segment is stored: what memory does not keep is read back when a resume needs it.
    this.markStored(through);
  }

  /**
   * A replica's first snapshot, scaled out (pipeline/follower.ts): the leader's stored window, cut
   * at `through`, becomes this log's window, and the log continues after `through` (the next entry
   * it accepts is the leader's next). Called before anything is appended; no listener is told.
   * `from`: every entry after it is in `segments` (null when older ones may be missing: then only
   * positions from the first segment's start resume). Returns the entries installed.
   */
  installWindow(w: {
    origin: LogPosition | null;
    /** The stored segments, oldest first, contiguous (already read once: they decode). */
    segments: readonly EncodedSegment[];
    from: LogPosition | null;
    through: LogPosition;
  }): number {
    const { through } = w;
    const kept: EncodedSegment[] = [];
    for (const seg of w.segments) {
      if (compareLogPositions(seg.from, through) > 0) break;
      if (compareLogPositions(seg.to, through) <= 0) {
        kept.push(seg);
        continue;
      }
      // The segment reaches past `through` (entries the replica will apply from the stream): cut it there.
      const cut = encodeLogSegment(
        decodeLogSegment(seg.data).filter((e) => compareLogPositions(e.position, through) <= 0),
      );
      if (cut !== null) kept.push(cut);
      break;
    }
    if (w.origin !== null) this.origin = w.origin;
    if (compareLogPositions(through, this.last) > 0) {
      this.last = through;
      this.bareHead(through);
    }
    const first = kept[0];
    const bound = w.from !== null ? w.from : first !== undefined ? positionBefore(first.from) : through;
    this.trimmedThrough = compareLogPositions(bound, through) < 0 ? bound : through;
    this.discontinued = false;
    this.lost = [];
    this.lostAfter = null;
    this.segments = kept;
    this.recentDecodings = [];
    this.segStart = 0;
    this.coldEnd = 0;
    this.coldBytes = 0;
    this.storedThrough = null;
    this.segBytes = 0;
    this.segEntries = 0;
    for (const seg of kept) {
      this.segBytes += segmentMemory(seg);
      this.segEntries += seg.count;
    }
    this.trim();
    return this.size;
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
    // A segment spans at most sealMs: the window drops whole segments, so none outlives its age by more.
    const oldest = this.tail[this.tailStart];
    if (oldest !== undefined && entry.position.ms - oldest.position.ms >= this.sealMs) this.seal();
    this.writer?.write(entry);
    this.tail.push(entry);
    this.tailBytes += entry.bytes;
    this.appended++;
    for (const l of this.listeners) l(entry);
    if (this.writer !== null && (this.writer.count >= this.sealEntries || this.tailBytes >= this.sealBytes))
      this.seal();
    if ((this.appended & 255) === 0) this.trim();
    return entry;
  }

  /** The first entry after a discontinuity: everything before it is a lost span, and leaves the window. */
  private endDiscontinuity(first: LogPosition): void {
    this.discontinued = false;
    const span: LostSpan = { after: { ms: 0, seq: 0 }, before: first };
    this.lost = [span];
    this.seal(); // what was encoded before the break is not part of the new run
    this.segments = [];
    this.recentDecodings = [];
    this.segStart = 0;
    this.coldEnd = 0;
    this.coldBytes = 0;
    this.storedThrough = null;
    this.segBytes = 0;
    this.segEntries = 0;
    this.tail = [];
    this.tailStart = 0;
    this.tailBytes = 0;
    for (const l of this.lostListeners) l(span);
  }

  /**
   * Drops what left the window (by age, then by the byte budget, and every segment ending at or
   * before `through` when given): whole segments, then tail entries.
   */
  trim(through?: LogPosition): void {
    const oldest = this.opts.now() - this.opts.windowMs;
    const over = (): boolean => this.segBytes + this.tailBytes > this.opts.maxBytes;
    let i = this.segStart;
    while (i < this.segments.length) {
      const seg = this.segments[i] as EncodedSegment;
      // A segment stays while its newest entry is inside the window (its older ones resume too).
      const gone = through !== undefined && compareLogPositions(seg.to, through) <= 0;
      if (seg.to.ms >= oldest && !over() && !gone) break;
      this.segBytes -= windowBytes(seg);
      if (i < this.coldEnd) this.coldBytes -= windowBytes(seg);
      this.segEntries -= seg.count;
      this.trimmedThrough = seg.to;
      // Let it go now: the slot stays until the array is compacted, the segment must not (held,
      // the window took up to twice its byte budget).
      (this.segments as (EncodedSegment | undefined)[])[i] = undefined;
      i++;
    }
    let j = this.tailStart;
    if (i === this.segments.length) {
      // Only a window shorter than a segment's span (or no window at all) trims unsealed entries.
      while (j < this.tail.length) {
        const e = this.tail[j] as LogEntry;
        const gone = through !== undefined && compareLogPositions(e.position, through) <= 0;
        if (e.position.ms >= oldest && !over() && !gone) break;
        this.tailBytes -= e.bytes;
        this.trimmedThrough = e.position;
        (this.tail as (LogEntry | undefined)[])[j] = undefined;
        j++;
      }
    }
    if (i === this.segStart && j === this.tailStart) return;
    if (this.coldEnd < i) this.coldEnd = i;
    this.segStart = i;
    this.tailStart = j;
    // Compact once the dropped head is as large as what is kept: amortized O(1) per entry.
    if (this.segStart > 64 && this.segStart * 2 > this.segments.length) {
      this.segments = this.segments.slice(this.segStart);
      this.coldEnd = Math.max(0, this.coldEnd - this.segStart);
      this.segStart = 0;
    }
    if (this.tailStart > 1024 && this.tailStart * 2 > this.tail.length) {
      this.tail = this.tail.slice(this.tailStart);
      this.tailStart = 0;
    }
    const first = this.firstPosition;
    // A span ending at the window's first entry still answers 'lost' (rather than 'expired').
    if (first !== null) this.lost = this.lost.filter((s) => compareLogPositions(s.before, first) >= 0);
  }

  /** Index of the first segment holding an entry after a position (binary search by each segment's last). */
  private segmentAfter(position: LogPosition | null): number {
    let lo = this.segStart;
    if (position === null) return lo;
    let hi = this.segments.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compareLogPositions((this.segments[mid] as EncodedSegment).to, position) <= 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Index of the first tail entry after a position. */
  private tailAfter(position: LogPosition | null): number {
    let lo = this.tailStart;
    if (position === null) return lo;
    let hi = this.tail.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compareLogPositions((this.tail[mid] as LogEntry).position, position) <= 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
