// The Redis counters: the shared contract, plus what only a shared Redis shows (two nodes, seeding after a loss, expiry).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Redis } from 'ioredis';
import { RedisCallerLimiter } from '../../../src/api/quota/redis-callers.js';
import { connectRedis } from '../../../src/api/quota/redis-client.js';
import { RedisUsageCounter } from '../../../src/api/quota/redis-counter.js';
import { ServiceError } from '../../../src/domain/errors.js';
import type { UsageWrite } from '../../../src/store/store.js';
import { dropPrefix, keysOf, redisSkip, TEST_REDIS_URL, testPrefix, testRedis } from '../../helpers/redis.js';
import { callerLimiterContract, FakeUsageStore, plan, T, usageCounterContract } from './counter-contract.js';

const skip = await redisSkip();

/** A prefix and the clients of one test; everything under the prefix is deleted at the end. */
async function harness(): Promise<{ redis: Redis; prefix: string; dispose(): Promise<void> }> {
  const redis = testRedis();
  const prefix = testPrefix();
  return {
    redis,
    prefix,
    async dispose() {
      await dropPrefix(redis, prefix);
      await redis.quit();
    },
  };
}

usageCounterContract(
  'redis',
  async () => {
    const h = await harness();
    const opened: RedisUsageCounter[] = [];
    return {
      async open(store, now) {
        const c = await RedisUsageCounter.open(
          { redis: h.redis, prefix: h.prefix, store, flushIntervalMs: 0 },
          now ?? T,
        );
        opened.push(c);
        return c;
      },
      async dispose() {
        for (const c of opened) await c.close().catch(() => undefined);
        await h.dispose();
      },
    };
  },
  skip,
);

callerLimiterContract(
  'redis',
  async () => {
    const h = await harness();
    return {
      limiter: (limits) => new RedisCallerLimiter({ redis: h.redis, prefix: h.prefix, ...(limits ? { limits } : {}) }),
      dispose: () => h.dispose(),
    };
  },
  skip,
);

/** Two API nodes: each its own connection and counter, one Redis prefix, one store. */
async function twoNodes(store: FakeUsageStore, now = T) {
  const prefix = testPrefix();
  const clients = [testRedis(), testRedis()];
  const nodes = await Promise.all(
    clients.map((redis) => RedisUsageCounter.open({ redis, prefix, store, flushIntervalMs: 0 }, now)),
  );
  return {
    prefix,
    nodes: nodes as [RedisUsageCounter, RedisUsageCounter],
    redis: clients[0]!,
    async close() {
      for (const n of nodes) await n.close();
      await dropPrefix(clients[0]!, prefix);
      for (const c of clients) await c.quit();
    },
  };
}

describe('redis usage counter across nodes', { skip }, () => {
  test('1,000 concurrent requests spread over two nodes count exactly once each on one key', async () => {
    const store = new FakeUsageStore();
    const { nodes, close } = await twoNodes(store);
    try {
      const p = plan(null, null);
      const all = await Promise.all(Array.from({ length: 1000 }, (_, i) => nodes[i % 2]!.consume('k', p, T)));
      assert.ok(all.every((d) => d.ok));
      assert.deepEqual(
        all.map((d) => d.used).sort((a, b) => a - b),
        Array.from({ length: 1000 }, (_, i) => i + 1),
        'every request saw its own count, whichever node took it',
      );
      assert.equal((await nodes[0].snapshot('k', T)).thisMonth, 1000);
      assert.equal((await nodes[1].snapshot('k', T)).today, 1000);
      await Promise.all(nodes.map((n) => n.flush()));
      assert.equal(store.row('k', '2026-03-10')?.requests, 1000, 'both nodes write the shared total');
    } finally {
      await close();
    }
  });

  test('a 500-request plan lets exactly 500 of 1,000 concurrent requests through, never more', async () => {
    const { nodes, close } = await twoNodes(new FakeUsageStore());
    try {
      const p = plan(500, null);
      const all = await Promise.all(Array.from({ length: 1000 }, (_, i) => nodes[i % 2]!.consume('k', p, T)));
      const allowed = all.filter((d) => d.ok);
      assert.equal(allowed.length, 500);
      assert.ok(all.every((d) => d.used <= 500));
      const refused = all.filter((d) => !d.ok);
      assert.ok(refused.every((d) => !d.ok && d.reason === 'quota' && d.used === 500));
      assert.equal((await nodes[1].snapshot('k', T)).thisMonth, 500);
    } finally {
      await close();
    }
  });

  test('the per-second rate is shared: 20/s over two nodes admits 20 in that second, whichever node asks', async () => {
    const { nodes, close } = await twoNodes(new FakeUsageStore());
    try {
      const p = plan(null, 20);
      const all = await Promise.all(Array.from({ length: 100 }, (_, i) => nodes[i % 2]!.consume('k', p, T + 300)));
      assert.equal(all.filter((d) => d.ok).length, 20);
      assert.ok(all.filter((d) => !d.ok).every((d) => !d.ok && d.reason === 'rate' && d.retryAfterSeconds === 1));
      assert.equal((await nodes[0].throttle('k', p, T + 900)).ok, false, 'throttle shares the same second');
      assert.equal((await nodes[1].consume('k', p, T + 1000)).ok, true);
    } finally {
      await close();
    }
  });

  test('after Redis lost the counts, the month is seeded back from the store once, however many nodes race', async () => {
    const store = new FakeUsageStore();
    const { nodes, redis, prefix, close } = await twoNodes(store);
    try {
      const p = plan(1000, null);
      for (let i = 0; i < 40; i++) await nodes[i % 2]!.consume('k', p, T);
      nodes[0].recordError('k', T);
      await nodes[0].consume('other', p, T - 86_400_000);
      await Promise.all(nodes.map((n) => n.flush()));
      assert.deepEqual(store.row('k', '2026-03-10'), { keyId: 'k', date: '2026-03-10', requests: 40, errors: 1 });

      assert.ok((await dropPrefix(redis, prefix)) > 0, 'Redis restarted empty');
      // A flush now finds nothing to write and must not write zeros over the store's totals.
      await Promise.all(nodes.map((n) => n.flush()));
      assert.equal(store.row('k', '2026-03-10')?.requests, 40);

      const all = await Promise.all(Array.from({ length: 100 }, (_, i) => nodes[i % 2]!.consume('k', p, T + 1)));
      assert.equal(all.filter((d) => d.ok).length, 100);
      const snap = await nodes[1].snapshot('k', T + 1);
      assert.equal(snap.thisMonth, 140, 'the store counts come back once, not once per node');
      assert.equal(snap.errorsToday, 1);
      assert.equal((await nodes[0].snapshot('other', T)).daily[8]!.requests, 1, 'other keys of the month too');
      await nodes[0].flush();
      assert.equal(store.row('k', '2026-03-10')?.requests, 140);
    } finally {
      await close();
    }
  });

  test('a slower node writing an older total is corrected by its next flush', async () => {
    const store = new FakeUsageStore();
    const { nodes, close } = await twoNodes(store);
    try {
      const p = plan(null, null);
      for (let i = 0; i < 10; i++) await nodes[0].consume('k', p, T);
      // Node 0 reads 10 and is held before its write lands.
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      const save = store.saveUsage.bind(store);
      let holdNext = true;
      store.saveUsage = async (write: UsageWrite) => {
        if (holdNext) {
          holdNext = false;
          await held;
        }
        return save(write);
      };
      const slow = nodes[0].flush();
      await new Promise((r) => setTimeout(r, 20));
      for (let i = 0; i < 2; i++) await nodes[1].consume('k', p, T);
      await nodes[1].flush();
      assert.equal(store.row('k', '2026-03-10')?.requests, 12);
      release();
      await slow;
      assert.equal(store.row('k', '2026-03-10')?.requests, 10, 'the older total landed last');
      await nodes[1].flush();
      await nodes[0].flush();
      assert.equal(
        store.row('k', '2026-03-10')?.requests,
        12,
        'the node that wrote it sees Redis moved on and rewrites',
      );
      const writes = store.writes.length;
      await Promise.all(nodes.map((n) => n.flush()));
      assert.equal(store.writes.length, writes, 'then both are quiet');
    } finally {
      await close();
    }
  });

  test('month rollover: the new month starts from the store (empty), the old month is still written', async () => {
    const store = new FakeUsageStore();
    const lastSecond = Date.parse('2026-03-31T23:59:59.900Z');
    const { nodes, redis, prefix, close } = await twoNodes(store, lastSecond);
    try {
      const p = plan(3, null);
      for (let i = 0; i < 3; i++) await nodes[i % 2]!.consume('k', p, lastSecond);
      assert.equal((await nodes[0].consume('k', p, lastSecond + 50)).ok, false);
      const april = Date.parse('2026-04-01T00:00:00.100Z');
      const d = await nodes[1].consume('k', p, april);
      assert.deepEqual(d, { ok: true, used: 1, resetAt: Date.parse('2026-05-01T00:00:00Z') });
      assert.equal(await redis.exists(`${prefix}:usage-seeded:2026-04`), 1, 'April was seeded on first use');
      await Promise.all(nodes.map((n) => n.flush()));
      assert.equal(store.row('k', '2026-03-31')?.requests, 3);
      assert.equal(store.row('k', '2026-04-01')?.requests, 1);
    } finally {
      await close();
    }
  });

  test('every key expires: months after ~62 days, seconds after a few seconds, minute buckets after 2 hours', async () => {
    const { nodes, redis, prefix, close } = await twoNodes(new FakeUsageStore());
    try {
      await nodes[0].consume('k', plan(10, 5), T);
      nodes[0].recordError('k', T);
      await new RedisCallerLimiter({ redis, prefix }).hit('ip:1.2.3.4', T);
      const keys = await keysOf(redis, prefix);
      assert.equal(keys.length, 6, keys.join(', '));
      const DAY = 86_400_000;
      for (const key of keys) {
        const ttl = await redis.pttl(key);
        const max =
          key.includes(':m:') || key.includes('seeded')
            ? 62 * DAY
            : key.endsWith(':h')
              ? 3_600_000
              : key.includes(':h:')
                ? 7_200_000
                : 5_000;
        assert.ok(ttl > 0 && ttl <= max, `${key} expires (ttl ${ttl} ms, at most ${max})`);
      }
    } finally {
      await close();
    }
  });
});

describe('redis usage counter when Redis or the store fails', { skip }, () => {
  let redis: Redis;
  let prefix: string;
  before(() => {
    redis = testRedis();
    prefix = testPrefix();
  });
  after(async () => {
    await dropPrefix(redis, prefix);
    await redis.quit();
  });

  test('a store that cannot load the month makes decisions 503, never counted without their history', async () => {
    const store = new FakeUsageStore();
    store.loadUsage = async () => {
      throw new Error('store down');
    };
    await assert.rejects(RedisUsageCounter.open({ redis, prefix, store, flushIntervalMs: 0 }, T), /store down/);
    store.loadUsage = FakeUsageStore.prototype.loadUsage.bind(store);
    const c = await RedisUsageCounter.open({ redis, prefix, store, flushIntervalMs: 0 }, T);
    store.loadUsage = async () => {
      throw new Error('store down');
    };
    const may = Date.parse('2026-05-02T00:00:00Z');
    await assert.rejects(Promise.resolve(c.consume('k', plan(5, null), may)), (err: unknown) => {
      assert.ok(err instanceof ServiceError);
      assert.equal(err.code, 'service_unavailable');
      assert.equal(err.component, 'usage_counters');
      return true;
    });
    assert.equal(await redis.exists(`${prefix}:usage:k:m:2026-05`), 0, 'nothing was counted');
    await c.close();
  });

  test('a lost connection answers 503 at once instead of waiting', async () => {
    const own = await connectRedis(TEST_REDIS_URL);
    const c = await RedisUsageCounter.open({ redis: own, prefix, store: new FakeUsageStore(), flushIntervalMs: 0 }, T);
    own.disconnect();
    const started = Date.now();
    await assert.rejects(Promise.resolve(c.consume('k', plan(5, null), T)), (err: unknown) => {
      assert.ok(err instanceof ServiceError);
      // What the client reads says what failed and what to do, not the Redis client library's words.
      assert.equal(err.message, 'the usage counters (Redis) are unavailable; retry shortly');
      return true;
    });
    await assert.rejects(Promise.resolve(c.snapshot('k', T)), (err: unknown) => err instanceof ServiceError);
    assert.ok(Date.now() - started < 1000);
    await c.close();
  });

  test('health and status limits are kept on the node while Redis is down: health must answer to say Redis is down', async () => {
    const own = await connectRedis(TEST_REDIS_URL);
    const c = await RedisUsageCounter.open({ redis: own, prefix, store: new FakeUsageStore(), flushIntervalMs: 0 }, T);
    own.disconnect();
    const limiter = new RedisCallerLimiter({ redis: own, prefix });
    assert.deepEqual(await limiter.hit('x', T), { ok: true });
    assert.deepEqual(await limiter.hit('x', T), { ok: true });
    assert.equal((await limiter.hit('x', T)).ok, false, 'still 2 a second, counted on this node');
    await assert.rejects(Promise.resolve(c.consume('k', plan(5, null), T)));
    assert.equal(await c.status(1000), 'disconnected', 'health reports the counters down');
    await c.close();
  });

  test('a Redis that does not answer at boot is a clear error naming it (password hidden)', async () => {
    await assert.rejects(connectRedis('redis://:secret@127.0.0.1:1/0', { connectTimeoutMs: 500 }), (err: unknown) => {
      assert.ok(err instanceof Error);
      assert.match(err.message, /^Redis at redis:\/\/:\*\*\*@127\.0\.0\.1:1\/0 \(REDIS_URL\) does not answer/);
      assert.doesNotMatch(err.message, /secret/);
      return true;
    });
  });
});
