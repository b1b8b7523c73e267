// Scaled out, Redis restarts and forgets everything: no node exits, the leader keeps leading, and the API nodes follow it again by themselves.
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { Redis } from 'ioredis';
import { after, before, describe, it } from 'node:test';
import {
  clusterFixture,
  clusterMarkets,
  clusterSkip,
  feedNode,
  freePort,
  getJson,
  startCluster,
  type Cluster,
  type ClusterNode,
} from '../helpers/cluster.js';
import { startOwnRedis } from '../helpers/redis.js';

const skip = await clusterSkip();
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const DOWN_MS = 4000;

const alive = (n: ClusterNode): boolean => n.child.exitCode === null && n.child.signalCode === null;
type OddsBody = { markets: Array<{ outcomes: Array<{ odds: number }> }> };

describe('scaled out: Redis restarts without its data', { skip }, () => {
  let cluster: Cluster;
  let redis: ChildProcess;
  let port: number;

  before(async () => {
    port = await freePort();
    redis = await startOwnRedis(port);
    cluster = await startCluster({ redisUrl: `redis://127.0.0.1:${port}`, apiNodes: 2 });
  });

  after(async () => {
    await cluster?.stop();
    redis?.kill('SIGKILL');
  });

  it('no node exits, the leader keeps leading, and both API nodes serve what it takes after the restart', async (t) => {
    const leader = await cluster.leader();
    assert.equal((await feedNode(leader.base, [clusterFixture('r1', 3_600_000), clusterMarkets('r1', 1)])).status, 200);
    redis.kill('SIGKILL');
    await new Promise((r) => redis.once('exit', r));
    const downAt = performance.now();
    // Meanwhile the leader keeps taking the feed (the stream entries are lost: the store has them).
    const during = new Map<number, number>();
    let i = 0;
    while (performance.now() - downAt < DOWN_MS) {
      const r = await feedNode(leader.base, [
        { type: 'odds', event_id: 'r1', changes: [{ selection_id: 1, odds: 2 + (i++ % 50) / 100 }] },
      ]);
      during.set(r.status, (during.get(r.status) ?? 0) + 1);
      await sleep(100);
    }
    redis = await startOwnRedis(port);
    const upAt = performance.now();
    for (const n of [...cluster.pipeline, ...cluster.api]) assert.ok(alive(n), `:${n.port} exited\n${cluster.logs()}`);
    assert.equal((await cluster.leader()).port, leader.port, 'the same node leads');

    // A new price after the restart: both API nodes serve it, having noticed the lost entries themselves.
    let served = Number.NaN;
    let k = 0;
    while (performance.now() - upAt < 30_000) {
      const price = Number((5 + k++ / 100).toFixed(2));
      await feedNode(leader.base, [{ type: 'odds', event_id: 'r1', changes: [{ selection_id: 1, odds: price }] }]);
      await sleep(200);
      const prices = await Promise.all(
        cluster.api.map(
          async (n) => (await getJson<OddsBody>(n.base, '/v1/events/r1/odds')).body?.markets?.[0]?.outcomes?.[0]?.odds,
        ),
      );
      if (prices.every((p) => p !== undefined && p >= price)) {
        served = performance.now() - upAt;
        break;
      }
    }
    assert.ok(Number.isFinite(served), `the API nodes did not follow the leader again\n${cluster.logs()}`);
    // The leader wrote its record and epoch again: a node joining now runs the leader's world clock.
    const client = new Redis(`redis://127.0.0.1:${port}`, { maxRetriesPerRequest: 1 });
    try {
      assert.notEqual(await client.get(`${cluster.prefix}:changes:leader`), null, 'the leader record is back');
      assert.notEqual(await client.get(`${cluster.prefix}:changes:epoch`), null, 'the epoch is back');
    } finally {
      client.disconnect();
    }
    // And a node that joins now starts and follows too.
    const late = await cluster.startNode('api');
    try {
      await feedNode(leader.base, [clusterFixture('r2', 3_600_000), clusterMarkets('r2', 1)]);
      let status = 0;
      for (let j = 0; j < 100 && status !== 200; j++) {
        status = (await getJson(late.base, '/v1/events/r2')).status;
        if (status !== 200) await sleep(50);
      }
      assert.equal(status, 200, 'a late API node follows the leader');
    } finally {
      late.child.kill('SIGTERM');
      await late.exited;
    }
    const answers = [...during.entries()].map(([s, n]) => `${s}: ${n}`).join(', ');
    t.diagnostic(
      `redis restart: feed answers while down {${answers}}, API nodes follow again ${served.toFixed(0)} ms after Redis is back`,
    );
  });
});
