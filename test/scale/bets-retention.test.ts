// Scaled out, an API node answers a bet check the same before and after the event leaves memory (ENDED_RETENTION_HOURS): from its read model, then from the shared store.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import type { Service } from '../../src/service.js';
import { betChecks, betLife } from '../helpers/bet-life.js';
import { clusterSkip } from '../helpers/cluster.js';
import { nodeSet, type NodeSet } from '../helpers/in-process-node.js';
import { createTestSchema, type TestSchema } from '../helpers/postgres.js';
import { dropPrefix, testPrefix, TEST_REDIS_URL } from '../helpers/redis.js';
import { until } from '../helpers/until.js';

const skip = await clusterSkip();
const ADMIN = 'bets-admin';
const KEY = 'bets-demo';
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

describe('bet check on an API node across the retention boundary', { skip }, () => {
  let schema: TestSchema;
  let prefix: string;
  let redis: Redis;
  /** The world clock of every node: near the wall clock, moved by the test. */
  let t = Date.now();

  let nodes: NodeSet;
  const start = (role: 'api' | 'pipeline'): Promise<Service> => nodes.start(role);
  const feed = (s: Service, lines: object[]): Promise<void> => nodes.feed(s, lines);

  async function answers(s: Service, checks: readonly object[]): Promise<Array<{ status: number; body: unknown }>> {
    const out = [];
    for (const body of checks) {
      const res = await s.app.inject({
        method: 'POST',
        url: '/v1/bets/check',
        headers: { 'x-api-key': KEY, 'content-type': 'application/json' },
        payload: JSON.stringify(body),
      });
      assert.ok(res.statusCode < 500, res.body);
      out.push({ status: res.statusCode, body: res.json<unknown>() });
    }
    return out;
  }

  let leader: Service;
  let api: Service;

  before(async () => {
    schema = await createTestSchema();
    prefix = testPrefix();
    redis = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: 1 });
    nodes = nodeSet({
      databaseUrl: schema.url,
      redisPrefix: prefix,
      adminKey: ADMIN,
      apiKey: KEY,
      now: () => t,
      env: { ENDED_RETENTION_HOURS: '1' },
    });
    leader = await start('pipeline');
    await until('a leader', async () => (await leader.app.inject({ url: '/readyz' })).statusCode === 200);
    api = await start('api');
  });

  after(async () => {
    await nodes.closeAll();
    await dropPrefix(redis, prefix);
    redis.disconnect();
    await schema.drop();
  });

  it('the same answer to every check from memory and, once the event is evicted, from the store', async () => {
    const startAt = t + 2 * HOUR;
    const life = betLife('sx', startAt);
    t = startAt - 24 * HOUR + MINUTE;
    await feed(leader, life.before);
    t = startAt + 45 * MINUTE;
    await feed(leader, life.live);
    t = life.endedAt;
    await feed(leader, life.end);
    await leader.settlement.idle();
    await until(
      'the API node knows the settlement',
      async () =>
        api.readModel.get('sx')?.event.status === 'ended' &&
        ((await answers(api, betChecks('sx').slice(0, 1)))[0]?.body as { status?: string }).status === 'won',
    );
    const checks = betChecks('sx');
    const inMemory = await answers(api, checks);

    t = life.endedAt + HOUR + 1;
    leader.pipeline.sweep();
    api.pipeline.sweep();
    assert.equal(api.readModel.get('sx'), undefined, 'the API node let the event go');
    assert.deepEqual(await answers(api, checks), inMemory);

    // An API node started now has never held the event in memory.
    const late = await start('api');
    assert.equal(late.readModel.get('sx'), undefined);
    assert.deepEqual(await answers(late, checks), inMemory);
  });
});
