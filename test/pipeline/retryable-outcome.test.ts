// The pipeline says which refusals are transient: a store that cannot commit (retryable, with the later messages of that event held back) or a wrong message (not).
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { FeedMessage } from '../../src/feed/messages.js';
import { ReadModel } from '../../src/live/read-model.js';
import { isRetryable } from '../../src/pipeline/outcome.js';
import { Pipeline } from '../../src/pipeline/pipeline.js';
import { openSqliteStore } from '../../src/store/sqlite-store.js';
import type { Store } from '../../src/store/store.js';

const T0 = Date.parse('2026-03-01T12:00:00Z');
/** Log lines by level: what an operator reads during an outage. */
const logged: { level: 'warn' | 'error'; fields: Record<string, unknown>; msg: string }[] = [];
const silent = {
  warn: (fields: Record<string, unknown>, msg: string) => void logged.push({ level: 'warn', fields, msg }),
  error: (fields: Record<string, unknown>, msg: string) => void logged.push({ level: 'error', fields, msg }),
};
const fixture = (id: string): FeedMessage => ({
  type: 'fixture',
  event_id: id,
  sport: 'soccer',
  league: { slug: 'england-premier-league', name: 'Premier League', country: 'England', tier: 1 },
  home_team: 'Arsenal',
  away_team: 'Chelsea',
  start_time: '2026-03-01T11:00:00Z',
});
const live = (id: string): FeedMessage => ({ type: 'status', event_id: id, status: 'live' });
const result = (id: string): FeedMessage => ({
  type: 'result',
  event_id: id,
  status: 'ended',
  score: { home: 2, away: 1 },
});
const stats = (id: string): FeedMessage => ({
  type: 'stats',
  event_id: id,
  players: [{ player_id: 'p1', name: 'A Player', team: 'home' }],
  final: true,
});

describe('Pipeline: retryable refusals', () => {
  let dir = '';
  let store: Store;
  let pipeline: Pipeline;
  const readModel = new ReadModel({ now: () => T0 });
  let failing = false;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sds-retryable-'));
    store = await openSqliteStore({ dataDir: dir });
    await store.migrate();
    const saveResult = store.saveResult.bind(store);
    store.saveResult = async (r, b) => {
      if (failing) throw Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
      return saveResult(r, b);
    };
    pipeline = new Pipeline({
      readModel,
      store,
      now: () => T0,
      flushIntervalMs: 60_000,
      endedRetentionMs: 24 * 3_600_000,
      log: silent,
    });
    await pipeline.load();
  });
  after(async () => {
    await pipeline.stop();
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('a result the store cannot commit is retryable (service_unavailable, datastore); later messages of that event wait with it', async () => {
    await pipeline.applyAll([fixture('a'), live('a'), fixture('b'), live('b')]);
    failing = true;
    const out = await pipeline.applyAll([result('a'), stats('a'), stats('b')]);
    failing = false;
    assert.deepEqual(out[0], {
      ok: false,
      error: 'service_unavailable',
      component: 'datastore',
      message: 'the result could not be stored; nothing was changed, send it again',
      retryable: true,
    });
    assert.equal(out[1]?.ok, false, 'the stats after the refused result are not applied before it');
    assert.ok(isRetryable(out[1]!));
    assert.match((out[1] as { message: string }).message, /earlier message about event 'a'/);
    assert.deepEqual(out[2], { ok: true, changed: true }, 'another event is not held up');
    // A fault the producer is told to retry is a warning naming the fault, not an error with a
    // stack trace each time it is sent again during an outage (the store's health logs the cause).
    const line = logged.find((l) => l.msg === 'result could not be stored');
    assert.ok(line, JSON.stringify(logged));
    assert.equal(line.level, 'warn');
    assert.deepEqual(line.fields, { eventId: 'a', code: 'SQLITE_FULL', error: 'database or disk is full' });
    assert.equal(readModel.get('a')?.event.playerStats ?? null, null);

    // Sent again, in order, once the store works: both applied.
    const again = await pipeline.applyAll([result('a'), stats('a')]);
    assert.deepEqual(
      again.map((o) => o.ok),
      [true, true],
    );
    assert.equal((await store.getResult('a'))?.revision, 1);
  });

  it('a message wrong for the lifecycle is not retryable', async () => {
    const [o] = await pipeline.applyAll([live('a')]);
    assert.equal(o?.ok, false);
    assert.equal(isRetryable(o!), false);
    assert.equal((o as { retryable?: boolean }).retryable, undefined);
  });

  it('the feed report flags the retryable lines only', async () => {
    await pipeline.applyAll([fixture('c'), live('c')]);
    failing = true;
    const body = [result('c'), stats('c'), live('a')].map((m) => JSON.stringify(m)).join('\n');
    const report = await pipeline.applyNdjson(Buffer.from(body));
    failing = false;
    assert.equal(report.accepted, 0);
    assert.deepEqual(
      report.errors.map((e) => [e.line, e.error, e.retryable ?? false]),
      [
        [1, 'service_unavailable', true],
        [2, 'service_unavailable', true],
        [3, 'bad_request', false],
      ],
    );
  });
});
