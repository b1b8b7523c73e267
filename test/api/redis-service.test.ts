// Two API nodes sharing quota counters in Redis (REDIS_URL): one count per request whichever node serves it, headers from Redis.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.js';
import type { ErrorBody } from '../helpers/payloads.js';
import { dropPrefix, redisSkip, TEST_REDIS_URL, testPrefix, testRedis } from '../helpers/redis.js';
import { DEMO_KEY, startService, type TestService } from '../helpers/service.js';
import { TEST_PLANS, usageOf } from '../helpers/usage.js';

const skip = await redisSkip();

/** Two nodes (each its own data dir, the same demo key) on one Redis prefix. */
async function twoNodes(prefix: string, demoPlan: string, now?: number): Promise<[TestService, TestService]> {
  const env = { PLANS: TEST_PLANS, DEMO_PLAN: demoPlan, REDIS_URL: TEST_REDIS_URL, REDIS_PREFIX: prefix };
  const opts = now === undefined ? { env } : { env, now };
  return [await startService(opts), await startService(opts)];
}

describe('quota counters in Redis, two API nodes', { skip }, () => {
  const prefix = testPrefix();
  const redis = testRedis();
  let a: TestService;
  let b: TestService;
  let base: [string, string];
  before(async () => {
    [a, b] = await twoNodes(prefix, 'meter');
    base = [
      await a.service.app.listen({ port: 0, host: '127.0.0.1' }),
      await b.service.app.listen({ port: 0, host: '127.0.0.1' }),
    ];
  });
  after(async () => {
    await a?.close();
    await b?.close();
    await dropPrefix(redis, prefix);
    await redis.quit();
  });

  test('1,000 concurrent requests spread over both nodes (real HTTP) count exactly once each on one key', async () => {
    const answers = await Promise.all(
      Array.from({ length: 1000 }, async (_, i) => {
        const res = await fetch(`${base[i % 2]}/v1/sports`, { headers: { 'x-api-key': DEMO_KEY } });
        await res.arrayBuffer();
        return { status: res.status, remaining: Number(res.headers.get('x-ratelimit-remaining')) };
      }),
    );
    assert.deepEqual([...new Set(answers.map((r) => r.status))], [200]);
    assert.equal(new Set(answers.map((r) => r.remaining)).size, 1000, 'every request saw its own count');
    assert.equal(Math.min(...answers.map((r) => r.remaining)), 1_000_000 - 1000);
    const onA = await usageOf(a, DEMO_KEY);
    const onB = await usageOf(b, DEMO_KEY);
    assert.equal(onA.current.this_month, 1001);
    assert.equal(onB.current.this_month, 1002, "each node reads the other's counts");
    assert.equal(onB.daily.at(-1)?.requests, 1002);

    // Each node writes the shared day total to its store.
    await a.service.usage.flush();
    await b.service.usage.flush();
    for (const svc of [a, b]) {
      const rows = await svc.service.store.loadUsage('2026-03-01');
      assert.equal(rows.find((r) => r.date === '2026-03-01')?.requests, 1002);
    }
  });

  test('/v1/health allows 2 per second per caller across both nodes', async () => {
    a.clock.set('2026-03-01T13:00:00.100Z');
    b.clock.set('2026-03-01T13:00:00.200Z');
    assert.equal((await a.get('/v1/health')).status, 200);
    assert.equal((await b.get('/v1/health')).status, 200);
    const third = await a.get<ErrorBody>('/v1/health');
    assert.equal(third.status, 429);
    assert.equal(third.headers['retry-after'], '1');
  });
});

describe('X-RateLimit headers and 429 from Redis', { skip }, () => {
  const prefix = testPrefix();
  const redis = testRedis();
  let a: TestService;
  let b: TestService;
  before(async () => {
    [a, b] = await twoNodes(prefix, 'tiny', Date.parse('2026-03-31T23:59:50Z'));
  });
  after(async () => {
    await a?.close();
    await b?.close();
    await dropPrefix(redis, prefix);
    await redis.quit();
  });

  test('a 10-request plan: the headers count down across nodes, the 11th is 429 until the month turns', async () => {
    const remaining: string[] = [];
    for (let i = 0; i < 10; i++) {
      const res = await (i % 2 === 0 ? a : b).get('/v1/sports');
      assert.equal(res.status, 200);
      assert.equal(res.headers['x-ratelimit-limit'], '10');
      assert.equal(res.headers['x-ratelimit-reset'], String(Date.parse('2026-04-01T00:00:00Z') / 1000));
      remaining.push(String(res.headers['x-ratelimit-remaining']));
    }
    assert.deepEqual(remaining, ['9', '8', '7', '6', '5', '4', '3', '2', '1', '0']);
    const refused = await b.get<ErrorBody>('/v1/sports');
    assert.equal(refused.status, 429);
    assert.match(refused.body.message, /monthly quota exhausted/);
    assert.equal(refused.headers['retry-after'], '10');
    assert.equal(refused.headers['x-ratelimit-remaining'], '0');

    a.clock.set('2026-04-01T00:00:00Z');
    const april = await a.get('/v1/sports');
    assert.equal(april.status, 200);
    assert.equal(april.headers['x-ratelimit-remaining'], '9');
  });
});

describe('a node restarted after Redis lost everything', { skip }, () => {
  const prefix = testPrefix();
  const redis = testRedis();
  after(async () => {
    await dropPrefix(redis, prefix);
    await redis.quit();
  });

  test('seeds the month back from its store: the counts continue', async () => {
    const env = { PLANS: TEST_PLANS, DEMO_PLAN: 'hundred', REDIS_URL: TEST_REDIS_URL, REDIS_PREFIX: prefix };
    const first = await startService({ env });
    for (let i = 0; i < 5; i++) assert.equal((await first.get('/v1/sports')).status, 200);
    await first.close({ keepDir: true });
    await dropPrefix(redis, prefix);

    const again = await startService({ env, dataDir: first.dataDir });
    try {
      const usage = await usageOf(again, DEMO_KEY);
      assert.equal(usage.current.this_month, 6);
      assert.equal(usage.current.month_remaining, 94);
    } finally {
      await again.close();
      const { rm } = await import('node:fs/promises');
      await rm(first.dataDir, { recursive: true, force: true });
    }
  });
});

describe('REDIS_URL set but no Redis answers', () => {
  test('the service does not start, and says which server it tried', async () => {
    await assert.rejects(
      startService({ env: { REDIS_URL: 'redis://127.0.0.1:1' } }),
      /Redis at redis:\/\/127\.0\.0\.1:1 \(REDIS_URL\) does not answer/,
    );
  });
});

describe('REDIS_URL and REDIS_PREFIX configuration', () => {
  test('defaults: no Redis, prefix sds', () => {
    const c = loadConfig({});
    assert.equal(c.redisUrl, null);
    assert.equal(c.redisPrefix, 'sds');
  });

  test('a URL that is not redis:// or rediss:// is refused (password hidden), so is a prefix with odd characters', () => {
    assert.throws(
      () => loadConfig({ REDIS_URL: 'http://u:pw@h:6379' }),
      (err: unknown) => {
        assert.ok(err instanceof ConfigError);
        assert.match(err.message, /REDIS_URL must start with redis:\/\/ or rediss:\/\//);
        assert.doesNotMatch(err.message, /pw/);
        return true;
      },
    );
    assert.equal(loadConfig({ REDIS_URL: 'rediss://h:6380/1', REDIS_PREFIX: 'prod-eu_1' }).redisPrefix, 'prod-eu_1');
    assert.throws(() => loadConfig({ REDIS_PREFIX: 'a b*' }), /REDIS_PREFIX must be 1-64 letters/);
  });
});
