// Fault: Redis (the shared quota counters) goes down and comes back: counted requests get 503 usage_counters, health names it, no 500, the node recovers by itself.
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { freePort } from '../helpers/cluster.js';
import { redisSkip, startOwnRedis, stopOwnRedis } from '../helpers/redis.js';
import { startService, type TestService } from '../helpers/service.js';
import {
  checkResultsKept,
  driveReads,
  feedLines,
  health,
  liveGame,
  resultOf,
  StatusCounts,
  untilHealthy,
} from './store-fault-kit.js';

const skip = await redisSkip();

interface ErrorBody {
  error: string;
  component?: string;
}

describe('fault: Redis is down', { skip }, () => {
  let port: number;
  let redis: ChildProcess | undefined;
  let svc: TestService | undefined;

  before(async () => {
    port = await freePort();
    redis = await startOwnRedis(port);
  });

  after(async () => {
    await svc?.close().catch(() => undefined);
    await stopOwnRedis(redis);
  });

  it('counted requests get 503 usage_counters, health 503 names it, /v1/status answers, and the node recovers by itself', async () => {
    const env = { REDIS_URL: `redis://127.0.0.1:${port}`, REDIS_PREFIX: 'fault' };
    svc = await startService({ env });
    const dataDir = svc.dataDir;
    const before = ['r1', 'r2'];
    const during = ['r3'];
    const all = [...before, ...during];
    assert.deepEqual(
      (await feedLines(svc, [...all.flatMap(liveGame), ...before.map((id) => resultOf(id))])).refused,
      [],
    );
    assert.equal((await health(svc)).status, 200);

    await stopOwnRedis(redis);
    const faultStarted = Date.now();
    const counts = new StatusCounts();
    // About 2 s of counted reads.
    for (let round = 0; round < 200 && Date.now() - faultStarted < 2000; round++) {
      await driveReads(svc, all, 1, counts);
      await new Promise((r) => setTimeout(r, 10));
    }
    assert.equal(counts.get(500), 0, counts.toString());
    const reads = counts.total;
    assert.equal(counts.get(503), reads, `counted reads while Redis is down: ${counts.toString()}`);
    const r = await svc.get<ErrorBody>('/v1/events');
    assert.equal(r.body.error, 'service_unavailable');
    assert.equal(r.body.component, 'usage_counters');
    assert.equal(r.headers['retry-after'], '1', 'a retry helps: Retry-After');

    const h = await health(svc);
    counts.add(h.status);
    assert.equal(h.status, 503, JSON.stringify(h.body));
    assert.equal(h.body.component, 'usage_counters');
    assert.equal(h.body.services.usage_counters?.status, 'disconnected');
    assert.equal(h.body.services.datastore.status, 'connected');
    // The public status page does not count toward a quota: its limit is kept per node meanwhile.
    const status = await svc.get('/v1/status', { key: null });
    counts.add(status.status);
    assert.equal(status.status, 200);

    // Results do not need Redis on a single node: accepted and stored.
    const fed = await feedLines(
      svc,
      during.map((id) => resultOf(id)),
    );
    assert.deepEqual(fed.refused, []);
    assert.equal(counts.get(500), 0, counts.toString());
    const faultMs = Date.now() - faultStarted;

    redis = await startOwnRedis(port);
    const back = Date.now();
    const recoverMs = await untilHealthy(svc, 15_000);
    // Counted requests work again without a restart (the month is seeded again from the store).
    let served = 0;
    for (let i = 0; i < 50 && served === 0; i++) {
      const again = await svc.get('/v1/events');
      assert.notEqual(again.status, 500);
      if (again.status === 200) served++;
      else await new Promise((res) => setTimeout(res, 100));
    }
    assert.equal(served, 1, 'counted reads answer 200 again');
    const readsBackMs = Date.now() - back;
    let checked = await checkResultsKept(svc, all);

    await svc.close({ keepDir: true });
    svc = await startService({ env, dataDir });
    checked += await checkResultsKept(svc, all);

    console.log(
      `FAULT-FIGURES redis-down: during the fault (${faultMs} ms) ${counts.toString()} ` +
        `(${reads} counted reads 503 usage_counters, health 503 usage_counters, /v1/status 200), 1 result fed and accepted; ` +
        `health 200 again ${recoverMs} ms and counted reads 200 again ${readsBackMs} ms after Redis was back; ` +
        `${checked} result checks after recovery and after a restart (${all.length} results, all settled)`,
    );
  });
});
