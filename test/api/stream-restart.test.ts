// The replay window survives a restart (decisions.md "Real-time delivery"): a client resumes with its Last-Event-ID on the restarted service exactly, on the embedded store and on PostgreSQL.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
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

const key = { 'x-api-key': DEMO_KEY };
const view = (e: SseEvent): string => `${e.id ?? ''} ${e.event} ${e.text}`;
const PATH = '/v1/stream?event_ids=a,b';
const ENV = { STREAM_HEARTBEAT_SECONDS: '3600' };

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

describe('GET /v1/stream across a restart', () => {
  test('embedded store: a client resumes after a clean restart exactly as a client connected all along saw', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'sds-stream-restart-'));
    try {
      await resumeAcrossRestart((now) => startService({ dataDir, now, env: ENV }));
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
