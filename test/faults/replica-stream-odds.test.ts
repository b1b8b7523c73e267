// Found by the chaos campaign: an API node replaying its leader's odds changes for open streams must not crash (an odds entry kept packed lost its changes when it took the leader's position).
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Service } from '../../src/service.js';
import { clusterFixture, clusterMarkets, clusterSkip } from '../helpers/cluster.js';
import { nodeSet, type NodeSet } from '../helpers/in-process-node.js';
import { createTestSchema, type TestSchema } from '../helpers/postgres.js';
import { dropPrefix, testPrefix, testRedis } from '../helpers/redis.js';
import { SseClient } from '../helpers/sse.js';
import { until } from '../helpers/until.js';

const skip = await clusterSkip();
const KEY = 'replica-odds-demo';
const TICKS = 40;

describe('scale-out: streams on an API node carry the leader odds changes', { skip }, () => {
  let schema: TestSchema;
  let prefix: string;
  let nodes: NodeSet;
  let leader: Service;
  let api: Service;
  let base: string;

  before(async () => {
    schema = await createTestSchema();
    prefix = testPrefix();
    nodes = nodeSet({
      databaseUrl: schema.url,
      redisPrefix: prefix,
      adminKey: 'replica-odds-admin',
      apiKey: KEY,
      now: Date.now,
    });
    leader = await nodes.start('pipeline');
    await until('a leader', async () => (await leader.app.inject({ url: '/readyz' })).statusCode === 200);
    api = await nodes.start('api');
    await api.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(api.app.server.address() as AddressInfo).port}`;
  });

  after(async () => {
    await nodes.closeAll();
    const redis = testRedis();
    await dropPrefix(redis, prefix);
    redis.disconnect();
    await schema.drop();
  });

  it('two unfiltered streams on the API node get every price in order (before: the node crashed rendering them)', async () => {
    await nodes.feed(leader, [
      clusterFixture('packed', -30 * 60_000),
      clusterMarkets('packed', 2),
      { type: 'status', event_id: 'packed', status: 'live' },
    ]);
    await until('the event on the API node', () => api.readModel.get('packed') !== undefined);
    // Unfiltered, the two streams share each flush's rendered batch.
    const streams = await Promise.all([0, 1].map(() => SseClient.connect(base, '/v1/stream', { 'x-api-key': KEY })));
    const sent: number[] = [];
    for (let i = 0; i < TICKS; i++) {
      const odds = Number((2 + i / 100).toFixed(2));
      sent.push(odds);
      // The common spelling: the leader reads it from the body's bytes and logs it packed, and so does the replica.
      await nodes.feed(leader, [{ type: 'odds', event_id: 'packed', changes: [{ selection_id: 1, odds }] }]);
      await new Promise((r) => setTimeout(r, 10));
    }
    for (const sse of streams) {
      await sse.until(
        (events) => events.filter((e) => e.event === 'odds').length >= TICKS,
        15_000,
        `${TICKS} odds events`,
      );
      const prices = sse.events
        .filter((e) => e.event === 'odds')
        .map((e) => (e.data.changes as Array<{ selection_id: number; odds: number }>)[0]?.odds);
      assert.deepEqual(prices, sent);
      sse.close();
    }
  });
});
