// The replay window kept encoded: resumes from any position give what a client that never dropped saw, and the byte budget is the bytes held.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { ChangeLog, segmentMemory, type LogEntry, type LogEntryInput } from '../../src/live/change-log.js';
import { encodeLogSegment } from '../../src/live/log-codec.js';
import { formatLogPosition, type LogPosition } from '../../src/live/log-position.js';
import { Rng } from '../../src/feed/simulator/rng.js';

const T = 1_772_366_400_000;

function jsonEntry(kind: 'status' | 'score', eventId: string, n: number): LogEntryInput {
  const json = JSON.stringify({ event_id: eventId, n });
  return { kind, eventId, sport: 'soccer', league: 'l', at: T, bytes: 160 + 2 * json.length, json };
}

function oddsEntry(eventId: string, rng: Rng, n: number): LogEntryInput {
  const marketIds = new Float64Array(n);
  const selectionIds = new Float64Array(n);
  const odds = new Float64Array(n);
  const locked = new Uint8Array(n);
  for (let k = 0; k < n; k++) {
    marketIds[k] = 1 + Math.floor(k / 3);
    selectionIds[k] = 100 + k;
    odds[k] = Math.round((1.01 + rng.next() * 20) * 100) / 100;
    locked[k] = rng.next() < 0.1 ? 1 : 0;
  }
  const changes = { marketIds, selectionIds, odds, locked };
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

/** What a stream renders of an entry (book indexes are the write-behind's, not the client's). */
function shown(e: LogEntry): string {
  const head = `${formatLogPosition(e.position)} ${e.kind} ${e.eventId} ${e.sport} ${e.league} ${e.at}`;
  if (e.kind === 'odds') {
    const c = e.changes;
    return `${head} ${[...c.marketIds]}|${[...c.selectionIds]}|${[...c.odds]}|${[...c.locked]}`;
  }
  return 'json' in e ? `${head} ${e.json}` : head;
}

/** A log fed a seeded mix of entries over world time; returns what a never-dropped client saw. */
function fed(log: ChangeLog, clock: { t: number }, seed: number, count: number): LogEntry[] {
  const rng = new Rng(seed);
  const seen: LogEntry[] = [];
  log.subscribe((e) => seen.push(e));
  for (let i = 0; i < count; i++) {
    clock.t += Math.floor(rng.next() * 300);
    const id = `e${Math.floor(rng.next() * 5)}`;
    const r = rng.next();
    log.append(
      r < 0.6 ? oddsEntry(id, rng, 1 + Math.floor(rng.next() * 40)) : jsonEntry(r < 0.8 ? 'score' : 'status', id, i),
    );
  }
  return seen;
}

/** A log with an hour's window and no byte limit that seals a segment every 10 entries. */
function sealedByTen(): { clock: { t: number }; log: ChangeLog } {
  const clock = { t: T };
  const log = new ChangeLog({
    now: () => clock.t,
    windowMs: 3_600_000,
    maxBytes: 1 << 30,
    sealEntries: 10,
    sealMs: 1e9,
  });
  return { clock, log };
}

describe('the replay window, encoded', () => {
  it('a resume from any position in the window gives exactly the entries a never-dropped client saw after it', () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const clock = { t: T };
      // Small segments, so most positions fall inside sealed ones (and a few in the unsealed tail).
      const log = new ChangeLog({ now: () => clock.t, windowMs: 3_600_000, maxBytes: 1 << 30, sealEntries: 7 });
      const seen = fed(log, clock, seed, 300);
      assert.ok(log.segmentCount > 30, `${log.segmentCount} segments`);
      assert.equal(log.size, seen.length);
      const all = seen.map(shown);
      for (let i = 0; i < seen.length; i += 1 + (i % 5)) {
        const from = (seen[i] as LogEntry).position;
        const found = log.after(from);
        assert.ok(found.ok, `${seed} ${formatLogPosition(from)}`);
        assert.deepEqual(found.entries.map(shown), all.slice(i + 1), `${seed}: resumed after entry ${i}`);
        const replay = log.replay(from);
        assert.ok(replay.ok);
        assert.deepEqual([...replay.batches].flat().map(shown), all.slice(i + 1));
      }
    }
  });

  it('a replay decodes one segment per batch, from what the window held when it was asked', () => {
    const { clock, log } = sealedByTen();
    const seen = fed(log, clock, 9, 95);
    const replay = log.replay((seen[14] as LogEntry).position);
    assert.ok(replay.ok);
    fed(log, clock, 10, 20); // appended after the question: not part of the answer
    const sizes = [...replay.batches].map((b) => b.length);
    assert.deepEqual(sizes, [5, 10, 10, 10, 10, 10, 10, 10, 5], 'the rest of one segment, whole ones, then the tail');
  });

  it('clients resuming from one place share one decoding of a segment (the id check and the replay too)', () => {
    const { clock, log } = sealedByTen();
    const seen = fed(log, clock, 11, 95);
    const from = (seen[14] as LogEntry).position;
    const first = log.replay(from);
    const second = log.replay(from);
    assert.ok(first.ok && second.ok);
    // Two clients reading side by side, a segment each at a time.
    const a = first.batches[Symbol.iterator]();
    const b = second.batches[Symbol.iterator]();
    const firstBatches: (readonly LogEntry[])[] = [];
    for (;;) {
      const x = a.next();
      const y = b.next();
      if (x.done === true || y.done === true) break;
      assert.equal(x.value[0], y.value[0], 'the same decoded entries, not a second decoding');
      firstBatches.push(x.value);
    }
    assert.deepEqual(firstBatches.flat().map(shown), seen.slice(15).map(shown), 'what a never-dropped client saw');
    // Only the last two decodings are kept: a resume after the whole window was read decodes anew.
    const third = log.replay(from);
    assert.ok(third.ok);
    assert.notEqual([...third.batches][0]?.[0], firstBatches[0]?.[0]);
  });

  it('the byte budget is what the segments hold: the oldest segments leave first, and their ids expire', () => {
    const clock = { t: T };
    const probe = new ChangeLog({
      now: () => clock.t,
      windowMs: 3_600_000,
      maxBytes: 1 << 30,
      sealEntries: 10,
      sealMs: 1e9,
    });
    const seen = fed(probe, clock, 4, 100);
    probe.seal();
    const segmentBytes = (from: number): number =>
      segmentMemory(encodeLogSegment(seen.slice(from, from + 10)) as { data: Uint8Array });
    // Room for the last three segments of ten entries.
    const budget = segmentBytes(70) + segmentBytes(80) + segmentBytes(90);
    const c2 = { t: T };
    const log = new ChangeLog({
      now: () => c2.t,
      windowMs: 3_600_000,
      maxBytes: budget,
      sealEntries: 10,
      sealMs: 1e9,
      sealBytes: 1e9,
    });
    const again = fed(log, c2, 4, 100);
    log.trim();
    assert.equal(log.sizeBytes, budget);
    assert.equal(log.size, 30);
    assert.deepEqual(log.firstPosition, (again[70] as LogEntry).position);
    assert.deepEqual(log.after((again[68] as LogEntry).position), { ok: false, reason: 'expired' });
    assert.equal(log.after((again[69] as LogEntry).position).ok, true, 'the last position that left resumes exactly');
  });

  it('a segment that left the window is let go at once, not kept until the array is compacted', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const clock = { t: T };
    // A budget of a few segments: every seal pushes the oldest out.
    const log = new ChangeLog({
      now: () => clock.t,
      windowMs: 3_600_000,
      maxBytes: 6_000,
      sealEntries: 10,
      sealMs: 1e9,
    });
    const sealed: WeakRef<object>[] = [];
    log.onSeal((segment) => void sealed.push(new WeakRef(segment.data)));
    fed(log, clock, 12, 400);
    assert.ok(log.segmentCount >= 2 && log.segmentCount < sealed.length / 4, `${log.segmentCount} of ${sealed.length}`);
    await new Promise((r) => setImmediate(r));
    gc();
    const alive = sealed.filter((w) => w.deref() !== undefined).length;
    // The kept segments, and at most the one a seal has just handed over.
    assert.ok(alive <= log.segmentCount + 1, `${alive} segments still held, ${log.segmentCount} in the window`);
  });

  it('by age: a segment leaves once its newest entry is older than the window, and no segment spans more than a second', () => {
    const clock = { t: T };
    const log = new ChangeLog({ now: () => clock.t, windowMs: 60_000, maxBytes: 1 << 30 });
    const sealed: number[] = [];
    log.onSeal((s) => sealed.push(s.count));
    const first = log.append(jsonEntry('status', 'a', 0)) as LogEntry;
    clock.t += 900;
    log.append(jsonEntry('score', 'a', 1));
    clock.t += 75_000;
    const fresh = log.append(jsonEntry('score', 'a', 2)) as LogEntry;
    log.trim();
    assert.deepEqual(sealed, [2], 'the two old entries were sealed before the new one');
    assert.equal(log.segmentCount, 0, 'and left the window together');
    assert.equal(log.size, 1);
    assert.deepEqual(log.after(first.position), { ok: false, reason: 'expired' });
    assert.deepEqual(log.firstPosition, fresh.position);
  });

  it('with no window (STREAM_REPLAY_SECONDS=0) nothing is encoded and every id older than the head expires', () => {
    const clock = { t: T };
    const log = new ChangeLog({ now: () => clock.t, windowMs: 0, maxBytes: 1 << 30 });
    let sealed = 0;
    log.onSeal(() => sealed++);
    const a = log.append(jsonEntry('status', 'a', 0)) as LogEntry;
    clock.t += 10;
    log.append(jsonEntry('score', 'a', 1));
    clock.t += 10;
    log.seal();
    log.trim();
    assert.equal(sealed, 0);
    assert.equal(log.size, 0);
    assert.deepEqual(log.after(a.position), { ok: false, reason: 'expired' });
    assert.deepEqual(log.after(log.head as LogPosition), { ok: true, entries: [] });
  });
});
