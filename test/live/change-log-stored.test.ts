// The replay window beyond memory: segments the store holds leave memory and are read back by a resume that reaches them, exactly.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ChangeLog, type LogEntry, type LogEntryInput, type StoredSegmentReader } from '../../src/live/change-log.js';
import type { EncodedSegment } from '../../src/live/log-codec.js';
import { compareLogPositions, formatLogPosition, type LogPosition } from '../../src/live/log-position.js';
import { Rng } from '../../src/feed/simulator/rng.js';

const T = 1_772_366_400_000;

function entry(eventId: string, rng: Rng, i: number): LogEntryInput {
  if (rng.next() < 0.4) {
    const json = JSON.stringify({ event_id: eventId, n: i });
    return { kind: 'score', eventId, sport: 'soccer', league: 'l', at: T, bytes: 160 + 2 * json.length, json };
  }
  const n = 1 + Math.floor(rng.next() * 30);
  const marketIds = new Float64Array(n);
  const selectionIds = new Float64Array(n);
  const odds = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    marketIds[k] = 1 + (k >> 1);
    selectionIds[k] = 100 + k;
    odds[k] = Math.round((1.01 + rng.next() * 20) * 100) / 100;
  }
  const changes = { marketIds, selectionIds, odds, locked: new Uint8Array(n) };
  return {
    kind: 'odds',
    eventId,
    sport: 'soccer',
    league: 'l',
    at: T,
    bytes: 160 + 29 * n,
    count: n,
    layout: 1,
    packed: null,
    changes,
  };
}

/** What a client is shown of an entry. */
function shown(e: LogEntry): string {
  const head = `${formatLogPosition(e.position)} ${e.kind} ${e.eventId}`;
  if (e.kind === 'odds') return `${head} ${[...e.changes.selectionIds]}|${[...e.changes.odds]}`;
  return 'json' in e ? `${head} ${e.json}` : head;
}

/** A store of sealed segments, as the keeper writes them (by where they end). */
class FakeStore {
  readonly rows = new Map<string, EncodedSegment>();
  reads = 0;
  fail = false;
  /** Runs while a read is waiting for its answer (a flush, more appends). */
  during: (() => void) | null = null;

  put(s: EncodedSegment): void {
    // A copy: the store keeps its own bytes.
    this.rows.set(formatLogPosition(s.to), { ...s, data: Buffer.from(s.data) });
  }

  readonly read: StoredSegmentReader = async (from, to) => {
    this.reads++;
    await new Promise((r) => setImmediate(r));
    this.during?.();
    if (this.fail) throw new Error('connection refused');
    return [...this.rows.values()]
      .filter((s) => compareLogPositions(s.to, from) >= 0 && compareLogPositions(s.to, to) <= 0)
      .sort((a, b) => compareLogPositions(a.to, b.to));
  };
}

/** A log keeping `memoryBytes` of its window in memory and the rest in a store every seal writes to. */
function storedLog(memoryBytes: number, maxBytes = 1 << 30) {
  const clock = { t: T };
  const store = new FakeStore();
  const log = new ChangeLog({
    now: () => clock.t,
    windowMs: 3_600_000,
    maxBytes,
    memoryBytes,
    sealEntries: 8,
    sealMs: 1e9,
  });
  log.keepStoredIn(store.read);
  log.onSeal((s) => {
    store.put(s);
    log.markStored(s.to);
  });
  const seen: LogEntry[] = [];
  log.subscribe((e) => seen.push(e));
  const feed = (seed: number, count: number): void => {
    const rng = new Rng(seed);
    for (let i = 0; i < count; i++) {
      clock.t += Math.floor(rng.next() * 200);
      log.append(entry(`e${Math.floor(rng.next() * 4)}`, rng, i));
    }
  };
  return { clock, store, log, seen, feed };
}

/** The index of the newest entry whose position only the store holds (memory cannot resume from it). */
function newestStoredOnly(log: ChangeLog, seen: readonly LogEntry[]): number {
  let i = seen.length - 1;
  while (log.replay((seen[i] as LogEntry).position).ok) i--;
  return i;
}

async function replayed(log: ChangeLog, from: LogPosition): Promise<string[] | string> {
  const found = (await log.prepareReplay(from)).answer();
  return found.ok ? [...found.batches].flat().map(shown) : found.reason;
}

describe('the replay window beyond memory (STREAM_REPLAY_MEMORY_MB)', () => {
  it('memory holds its budget; a resume from any position, in memory or only stored, gives what a never-dropped client saw', async () => {
    for (const seed of [1, 2, 3]) {
      const { store, log, seen, feed } = storedLog(10_000);
      feed(seed, 1_200);
      assert.ok(log.storedOnlyCount > 20, `${log.storedOnlyCount} segments only stored`);
      // The unsealed tail (at most 8 entries, estimated at up to ~1 KB each) is held whatever the budget.
      assert.ok(log.sizeBytes <= 10_000 + 8 * 1_030, `memory ${log.sizeBytes}`);
      assert.ok(log.windowBytes > 3 * (10_000 + 8 * 1_030), `window ${log.windowBytes}, memory ${log.sizeBytes}`);
      assert.equal(log.size, seen.length, 'every entry is still in the window');
      const all = seen.map(shown);
      for (let i = 0; i < seen.length; i += 1 + (i % 13)) {
        const from = (seen[i] as LogEntry).position;
        assert.deepEqual(await replayed(log, from), all.slice(i + 1), `seed ${seed}: after entry ${i}`);
      }
      assert.ok(store.reads > 0);
    }
  });

  it('the synchronous replay serves only memory: a position only the store holds answers expired there', () => {
    const { log, seen, feed } = storedLog(4_000);
    feed(4, 200);
    assert.deepEqual(log.replay((seen[3] as LogEntry).position), { ok: false, reason: 'expired' });
    assert.equal(log.replay((seen[seen.length - 3] as LogEntry).position).ok, true);
  });

  it('nothing leaves memory before the store holds it', async () => {
    const clock = { t: T };
    const store = new FakeStore();
    const log = new ChangeLog({
      now: () => clock.t,
      windowMs: 3_600_000,
      maxBytes: 1 << 30,
      memoryBytes: 0,
      sealEntries: 8,
    });
    log.keepStoredIn(store.read);
    const seen: LogEntry[] = [];
    log.subscribe((e) => seen.push(e));
    const rng = new Rng(5);
    for (let i = 0; i < 100; i++) log.append(entry('e1', rng, i));
    log.seal();
    assert.equal(log.storedOnlyCount, 0, 'not stored yet: all held');
    assert.equal((await log.prepareReplay((seen[0] as LogEntry).position)).answer().ok, true);
    assert.equal(store.reads, 0);
    // The flush committed the first half.
    log.markStored((seen[49] as LogEntry).position);
    assert.ok(log.storedOnlyCount > 0);
    assert.ok(log.sizeBytes > 0, 'what is not stored stays');
  });

  it('an id never handed out inside the stored part is unknown, as in memory', async () => {
    const ctx = storedLog(3_000);
    const { log, seen, feed } = ctx;
    feed(6, 200);
    const real = (seen[10] as LogEntry).position;
    const made = { ms: real.ms, seq: real.seq + 7 };
    assert.ok(!seen.some((e) => compareLogPositions(e.position, made) === 0));
    const { store } = ctx;
    const reads = store.reads;
    assert.equal(await replayed(log, made), 'unknown');
    assert.equal(store.reads, reads + 1, 'only the segment the id falls in is read');
    // An id older than anything the log ever held, or older than the window, reads nothing.
    assert.equal(await replayed(log, { ms: T - 5_000, seq: 0 }), 'reset');
    assert.equal(store.reads, reads + 1);
  });

  it('a store that cannot be read answers unavailable, and a segment the store no longer has expires (never a gap)', async () => {
    const { store, log, seen, feed } = storedLog(3_000);
    feed(7, 200);
    store.fail = true;
    assert.equal(await replayed(log, (seen[5] as LogEntry).position), 'unavailable');
    store.fail = false;
    // Pruned from the store behind the log's back: the resume cannot be exact.
    const gone = [...store.rows.keys()].slice(0, 3);
    for (const k of gone) store.rows.delete(k);
    assert.equal(await replayed(log, (seen[5] as LogEntry).position), 'expired');
    assert.deepEqual(log.after((seen[5] as LogEntry).position), { ok: false, reason: 'expired' });
    // Positions after what was pruned still resume exactly.
    const later = seen.findIndex((e, i) => i > 40 && log.replay(e.position).ok === false);
    assert.ok(later > 0);
    assert.deepEqual(await replayed(log, (seen[later] as LogEntry).position), seen.slice(later + 1).map(shown));
  });

  it('segments leaving memory while the store is read are kept for the resume (no second read); the appends meanwhile are part of the answer', async () => {
    const { store, log, seen, feed } = storedLog(5_000);
    feed(8, 200);
    // The newest position only the store holds: the appends below push the segments after it out too.
    const i = newestStoredOnly(log, seen);
    const from = (seen[i] as LogEntry).position;
    const before = seen.length;
    store.during = () => {
      store.during = null;
      feed(9, 150);
    };
    const found = (await log.prepareReplay(from)).answer();
    assert.ok(found.ok);
    assert.ok(seen.length > before);
    assert.equal(
      store.reads,
      1,
      'the segments that left memory during the read were handed to the resume, not read again',
    );
    // The answer is made after the last read: it holds everything up to then, the appends included.
    assert.deepEqual([...found.batches].flat().map(shown), seen.slice(i + 1).map(shown));
  });

  it('the byte budget counts what only the store holds: the oldest leave the window and expire', async () => {
    const { log, seen, feed } = storedLog(2_000, 12_000);
    feed(10, 600);
    log.trim();
    assert.ok(log.windowBytes <= 12_000, `${log.windowBytes}`);
    assert.ok(log.size < seen.length);
    assert.equal(await replayed(log, (seen[0] as LogEntry).position), 'expired');
    const first = seen.findIndex((e) => compareLogPositions(e.position, log.firstPosition as LogPosition) === 0);
    assert.deepEqual(await replayed(log, (seen[first] as LogEntry).position), seen.slice(first + 1).map(shown));
  });

  it('the answer is made when asked for, after the reads: an entry another task appends in between is in it', async () => {
    const { log, seen, feed } = storedLog(4_000);
    feed(14, 200);
    const from = (seen[3] as LogEntry).position;
    const prepared = log.prepareReplay(from);
    // Another task appends once the reads are done, before the caller's next step.
    void prepared.then(() => feed(15, 3));
    const found = (await prepared).answer();
    assert.ok(found.ok);
    assert.deepEqual([...found.batches].flat().map(shown), seen.slice(4).map(shown));
    assert.equal(seen.at(-1)?.position, log.head);
  });
});

describe('the replay window beyond memory: what a resume reads, and a store that answers wrongly', () => {
  it('an id between two stored segments (never handed out) is unknown without reading the store', async () => {
    const { store, log, seen, feed } = storedLog(3_000);
    feed(11, 400);
    const rows = [...store.rows.values()].sort((a, b) => compareLogPositions(a.to, b.to));
    // A stored segment that the next one starts a later millisecond after, both only in the store.
    const k = rows.findIndex(
      (s, i) => i > 0 && i < rows.length / 2 && (rows[i + 1] as EncodedSegment).from.ms > s.to.ms,
    );
    assert.ok(k > 0);
    const seg = rows[k] as EncodedSegment;
    assert.deepEqual(log.replay(seg.to), { ok: false, reason: 'expired' }, 'only the store holds it');
    const made = { ms: seg.to.ms, seq: seg.to.seq + 1 };
    assert.ok(!seen.some((e) => compareLogPositions(e.position, made) === 0));
    const reads = store.reads;
    assert.equal(await replayed(log, made), 'unknown');
    // The log knows where each segment starts and ends: no segment has to be read to tell.
    assert.equal(store.reads, reads, 'the store was read for an id that falls between segments');
  });
  it('segments leaving memory at every read: the resume is still exact (not expired after a few reads)', async () => {
    const { store, log, seen, feed } = storedLog(5_000);
    feed(12, 300);
    const i = newestStoredOnly(log, seen);
    const from = (seen[i] as LogEntry).position;
    // Every read meets a flush that lets more of the window go (a slow store, a busy feed).
    let seed = 100;
    store.during = () => feed(seed++, 150);
    const found = await replayed(log, from);
    store.during = null;
    assert.deepEqual(found, seen.slice(i + 1).map(shown));
  });
  it('a stored segment that comes back damaged is no resume: never an exception, never a gap', async () => {
    for (const where of ['the id falls in it', 'after the id'] as const) {
      const { store, log, seen, feed } = storedLog(3_000);
      feed(13, 300);
      const rows = [...store.rows.values()].sort((a, b) => compareLogPositions(a.to, b.to));
      const bad = rows[5] as EncodedSegment;
      // Same place and count, bytes the codec cannot read (a damaged row).
      store.rows.set(formatLogPosition(bad.to), { ...bad, data: Buffer.from([99, 1, 2, 3]) });
      const i =
        where === 'the id falls in it'
          ? seen.findIndex((e) => compareLogPositions(e.position, bad.from) > 0)
          : seen.findIndex((e) => compareLogPositions(e.position, (rows[2] as EncodedSegment).to) === 0);
      assert.ok(i > 0 && compareLogPositions((seen[i] as LogEntry).position, bad.to) < 0);
      let answer: string[] | string;
      try {
        answer = await replayed(log, (seen[i] as LogEntry).position);
      } catch (err) {
        assert.fail(`${where}: ${String(err)}`);
      }
      assert.equal(typeof answer, 'string', `${where}: a resume across a damaged segment was answered`);
      // Positions after it still resume exactly.
      const j = seen.findIndex((e) => compareLogPositions(e.position, bad.to) === 0);
      assert.deepEqual(await replayed(log, (seen[j] as LogEntry).position), seen.slice(j + 1).map(shown));
    }
  });

  it('a flush between the reads and the answer lets what the resume needs go from memory: the answer still has it', async () => {
    const { log, seen, feed } = storedLog(0);
    feed(16, 200);
    // One id only the store holds, one in the unsealed tail (no read at all).
    for (const i of [3, seen.length - 2]) {
      const from = (seen[i] as LogEntry).position;
      const prepared = log.prepareReplay(from);
      // Before the caller's step: more entries, sealed, stored and let go (no memory for the window).
      void prepared.then(() => {
        feed(17 + i, 20);
        log.seal();
      });
      const found = (await prepared).answer();
      assert.ok(found.ok, `after entry ${i}: ${found.ok ? '' : found.reason}`);
      assert.deepEqual([...found.batches].flat().map(shown), seen.slice(i + 1).map(shown));
    }
  });
});
