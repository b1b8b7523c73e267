// The replay window survives a restart (decisions.md "Real-time delivery"): a client resumes with its Last-Event-ID on the restarted service exactly, on the embedded store and on PostgreSQL.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { request } from 'node:http';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { metric } from '../helpers/codings.js';
import { createTestSchema, postgresSkip } from '../helpers/postgres.js';
import { SseClient, type SseEvent } from '../helpers/sse.js';
import { listen } from '../helpers/stream-life.js';
import {
  DEMO_KEY,
  feedOk,
  fixture,
  markets,
  MINUTE,
  odds,
  result,
  score,
  SEL,
  startService,
  status,
  T0,
  type TestService,
} from '../helpers/service.js';
import { until } from '../helpers/until.js';

const key = { 'x-api-key': DEMO_KEY };
const view = (e: SseEvent): string => `${e.id ?? ''} ${e.event} ${e.text}`;
const PATH = '/v1/stream?event_ids=a,b';
const ENV = { STREAM_HEARTBEAT_SECONDS: '3600' };
/** No memory for the window: every stored segment leaves memory, and a resume reads it back from the store. */
const STORE_ONLY = { ...ENV, STREAM_REPLAY_MEMORY_MB: '0', FLUSH_INTERVAL_MS: '20' };

/** Waits until the store holds the whole window and memory none of it (STREAM_REPLAY_MEMORY_MB=0). */
async function untilOnlyStored(svc: TestService): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (
      (await metric(svc, 'stream_replay_window_bytes')) === 0 &&
      (await metric(svc, 'stream_replay_window_store_only_segments')) > 0
    )
      return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('the window never left memory');
}

/** Events a client was sent, without the shutdown's `close`. */
const changesOf = (c: SseClient): SseEvent[] => c.changes.filter((e) => e.event !== 'close');

/**
 * A client reads part of the changes and drops; the service stops gracefully and starts again on
 * the same store (`open` starts it; `later` is the restart's clock). The client resumes with its
 * last id: it must get exactly what a client connected all along saw after that id, then the
 * changes made after the restart, as a client resuming from the reference's last id sees them.
 */
async function resumeAcrossRestart(open: (now: number) => Promise<TestService>): Promise<void> {
  const first = await open(T0);
  let second: TestService | null = null;
  try {
    let base = await listen(first);
    const reference = await SseClient.connect(base, PATH, key);
    const dropped = await SseClient.connect(base, PATH, key);
    await feedOk(first, [fixture('a'), markets('a'), fixture('b'), markets('b')]);
    await feedOk(first, [status('a', 'live'), odds('a', [{ selection_id: SEL.home, odds: 2.35 }])]);
    await dropped.untilCount(6);
    dropped.close();
    const lastSeen = changesOf(dropped).at(-1)?.id;
    assert.ok(lastSeen !== null && lastSeen !== undefined);
    // What the dropped client misses before the stop: prices, a score, a result and its settlement.
    await feedOk(first, [
      odds('a', [
        { selection_id: SEL.draw, odds: 3.45 },
        { selection_id: SEL.over, odds: 1.333, is_locked: true },
      ]),
      score('a', 1, 0, { period: '1H', clock: '20:00' }),
      status('b', 'live'),
      odds('b', [{ selection_id: SEL.away, odds: 4.1 }]),
    ]);
    await feedOk(first, [result('a', 1, 0)]);
    await reference.until(
      (ev) => ev.some((e) => e.event === 'settlement' && e.data.pending_markets_count === 0),
      5000,
      'the settlement of a',
    );
    await first.close({ keepDir: true });
    await reference.until(() => reference.ended, 5000, 'the end of the stream');
    const before = changesOf(reference);
    const missed = before.slice(before.findIndex((e) => e.id === lastSeen) + 1);
    assert.ok(missed.length >= 6, `the dropped client missed ${missed.length} events`);

    second = await open(T0 + MINUTE);
    base = await listen(second);
    const resumed = await SseClient.connect(base, PATH, { ...key, 'last-event-id': lastSeen });
    const fromEnd = await SseClient.connect(base, PATH, { ...key, 'last-event-id': String(before.at(-1)?.id) });
    await feedOk(second, [odds('b', [{ selection_id: SEL.home, odds: 1.91 }]), score('b', 0, 1, { period: '1H' })]);
    await fromEnd.untilCount(2);
    const after = changesOf(fromEnd);
    await resumed.until(
      (ev) => ev.filter((e) => e.event !== 'heartbeat').length >= missed.length + after.length,
      5000,
      'the missed events and the new ones',
    );
    resumed.close();
    fromEnd.close();
    assert.deepEqual(changesOf(resumed).map(view), [...missed, ...after].map(view));
    assert.ok(!after.some((e) => e.event === 'snapshot_required'));
  } finally {
    await first.close({ keepDir: true });
    await second?.close({ keepDir: true });
  }
}

/**
 * A service whose window is only in the store, a dropped client's last id, and the reference
 * client connected all along; `rounds` feed batches (two changes each) follow the drop, each
 * stored and let go from memory before the next.
 */
async function storedOnly(
  rounds = 3,
): Promise<{ svc: TestService; base: string; reference: SseClient; lastSeen: string }> {
  const svc = await startService({ env: STORE_ONLY });
  const base = await listen(svc);
  const reference = await SseClient.connect(base, PATH, key);
  const dropped = await SseClient.connect(base, PATH, key);
  await feedOk(svc, [fixture('a'), markets('a'), fixture('b'), markets('b'), status('a', 'live')]);
  await dropped.untilCount(5);
  dropped.close();
  const lastSeen = String(changesOf(dropped).at(-1)?.id);
  for (let i = 0; i < rounds; i++) {
    await feedOk(svc, [odds('a', [{ selection_id: SEL.home, odds: 2 + i / 10 }]), score('a', i, 0, { period: '1H' })]);
    await untilOnlyStored(svc);
  }
  await reference.untilCount(5 + 2 * rounds);
  return { svc, base, reference, lastSeen };
}

describe('GET /v1/stream across a restart', () => {
  test('embedded store: a client resumes after a clean restart exactly as a client connected all along saw', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'sds-stream-restart-'));
    try {
      await resumeAcrossRestart((now) => startService({ dataDir, now, env: ENV }));
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  test('embedded store, no memory for the window (STREAM_REPLAY_MEMORY_MB=0): the restored window is read back from the store, exactly', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'sds-stream-restart-'));
    try {
      await resumeAcrossRestart(async (now) => {
        const svc = await startService({ dataDir, now, env: STORE_ONLY });
        if (now !== T0) await untilOnlyStored(svc);
        return svc;
      });
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  test('PostgreSQL: a client resumes after a clean restart exactly as a client connected all along saw', async (t) => {
    const skip = await postgresSkip();
    if (skip !== false) {
      t.skip(skip);
      return;
    }
    const schema = await createTestSchema();
    try {
      await resumeAcrossRestart((now) => startService({ now, env: { ...ENV, DATABASE_URL: schema.url } }));
    } finally {
      await schema.drop();
    }
  });

  test('a resume reaching past what memory holds reads the store back: exactly what a client connected all along saw', async () => {
    const { svc, base, reference, lastSeen } = await storedOnly(5);
    try {
      const seen = changesOf(reference);
      const missed = seen.slice(seen.findIndex((e) => e.id === lastSeen) + 1);
      assert.equal(missed.length, 10);
      const resumed = await SseClient.connect(base, PATH, { ...key, 'last-event-id': lastSeen });
      await feedOk(svc, [odds('b', [{ selection_id: SEL.away, odds: 3.3 }])]);
      await reference.untilCount(16);
      await resumed.untilCount(11);
      resumed.close();
      reference.close();
      assert.deepEqual(changesOf(resumed).map(view), changesOf(reference).slice(-11).map(view));
      // An id the store never had, inside the stored window, is not resumed across.
      const made = lastSeen.replace(/-(\d+)$/, (_, n: string) => `-${Number(n) + 1000}`);
      const unknown = await SseClient.connect(base, PATH, { ...key, 'last-event-id': made });
      await unknown.untilCount(1);
      unknown.close();
      assert.deepEqual([unknown.changes[0]?.event, unknown.changes[0]?.data.reason], ['snapshot_required', 'unknown']);
    } finally {
      await svc.close();
    }
  });

  test('after a restart an id older than the window gets expired, an id from before the store began reset', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'sds-stream-restart-'));
    const env = { ...ENV, STREAM_REPLAY_SECONDS: '60' };
    let svc = await startService({ dataDir, env });
    try {
      await feedOk(svc, [fixture('w1')]);
      const old = svc.service.log.headId;
      await feedOk(svc, [markets('w1')]);
      svc.clock.advance(75_000);
      await feedOk(svc, [status('w1', 'live')]);
      const recent = svc.service.log.headId;
      await svc.close({ keepDir: true });
      svc = await startService({ dataDir, env, now: T0 + 80_000 });
      const base = await listen(svc);
      const answers: Array<[string, string | null]> = [
        [old, 'expired'],
        ['1000-0', 'reset'],
        [recent, null],
      ];
      await feedOk(svc, [score('w1', 1, 0)]);
      for (const [id, reason] of answers) {
        const c = await SseClient.connect(base, '/v1/stream?event_ids=w1', { ...key, 'last-event-id': id });
        await c.untilCount(1);
        c.close();
        const first = c.changes[0];
        if (reason === null) assert.equal(first?.event, 'score', `${id} resumes exactly`);
        else {
          assert.equal(first?.event, 'snapshot_required', id);
          assert.equal(first?.data.reason, reason, id);
        }
      }
    } finally {
      await svc.close({ keepDir: true });
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe('GET /v1/stream resuming from the part of the window only the store holds', () => {
  test('a change made while the store read is answered (another task, same turn) reaches the resumed client: no gap', async () => {
    const { svc, base, reference, lastSeen } = await storedOnly();
    try {
      const { store, log, pipeline } = svc.service;
      let n = 0;
      // Each read back is followed, a microtask later, by a feed message applied by another task
      // (an API node's follower applying the leader's next batch in the same turn, say).
      log.keepStoredIn(async (from, to) => {
        const rows = await store.readLogSegments(from, to);
        // A batch of messages: applied one at a time, a microtask or so apart.
        const batch = [0, 1, 2, 3, 4, 5].map(() => odds('b', [{ selection_id: SEL.away, odds: 5 + n++ / 100 }]));
        queueMicrotask(() => void pipeline.applyAll(batch as unknown as Parameters<typeof pipeline.applyAll>[0]));
        return rows;
      });
      const resumed = await SseClient.connect(base, PATH, { ...key, 'last-event-id': lastSeen });
      await feedOk(svc, [odds('b', [{ selection_id: SEL.away, odds: 3.3 }])]);
      const all = (): SseEvent[] => changesOf(reference);
      await reference.until(
        (ev) => ev.some((e) => e.event === 'odds' && e.text.includes('3.3')),
        5000,
        'the last odds',
      );
      await resumed.until((ev) => ev.some((e) => e.event === 'odds' && e.text.includes('3.3')), 5000, 'the last odds');
      resumed.close();
      reference.close();
      const missed = all().slice(all().findIndex((e) => e.id === lastSeen) + 1);
      assert.ok(n > 0);
      assert.deepEqual(changesOf(resumed).map(view), missed.map(view));
    } finally {
      await svc.close();
    }
  });

  test('a client that goes away while its resume reads the store leaves no stream open behind it', async () => {
    const { svc, base, reference, lastSeen } = await storedOnly();
    try {
      reference.close();
      const { store, log } = svc.service;
      let release = (): void => undefined;
      const gate = new Promise<void>((r) => (release = r));
      let reads = 0;
      log.keepStoredIn(async (from, to) => {
        reads++;
        await gate;
        return store.readLogSegments(from, to);
      });
      const req = request(`${base}${PATH}`, {
        headers: { ...key, 'last-event-id': lastSeen, accept: 'text/event-stream' },
      });
      req.on('error', () => undefined);
      req.end();
      await until('the resume reading the store', () => reads > 0, 10_000).catch(() => undefined);
      assert.equal(reads, 1, 'the resume is reading the store');
      req.destroy();
      await new Promise((r) => setTimeout(r, 100));
      release();
      // Closed once the read it waited on is done: waited for (a loaded machine takes longer), not a fixed 100 ms.
      await until(
        'the abandoned stream closed',
        async () => (await metric(svc, 'stream_connections')) === 0,
        10_000,
      ).catch(() => undefined);
      assert.equal(await metric(svc, 'stream_connections'), 0, 'a stream nobody reads is still open (and charged)');
    } finally {
      await svc.close();
    }
  });

  test('a stored segment that comes back damaged answers snapshot_required, not a silent gap', async () => {
    const { svc, base, reference, lastSeen } = await storedOnly();
    try {
      const { store, log } = svc.service;
      // The newest segment of each read comes back with bytes the codec cannot read.
      log.keepStoredIn(async (from, to) => {
        const rows = await store.readLogSegments(from, to);
        return rows.map((r, i) =>
          i === rows.length - 1 && rows.length > 1 ? { ...r, data: Buffer.from([99, 0]) } : r,
        );
      });
      const resumed = await SseClient.connect(base, PATH, { ...key, 'last-event-id': lastSeen });
      await feedOk(svc, [odds('b', [{ selection_id: SEL.away, odds: 3.3 }])]);
      await resumed.until((ev) => ev.some((e) => e.event === 'odds' && e.text.includes('3.3')), 5000, 'the last odds');
      resumed.close();
      reference.close();
      const got = changesOf(resumed);
      const all = changesOf(reference);
      const missed = all.slice(all.findIndex((e) => e.id === lastSeen) + 1);
      // Exactly what was missed, or a snapshot_required before anything after the damage: never less without saying so.
      if (got.some((e) => e.event === 'snapshot_required')) return;
      assert.deepEqual(got.map(view), missed.map(view));
    } finally {
      await svc.close();
    }
  });
});
