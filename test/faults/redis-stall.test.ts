// Fault: Redis stalls (DEBUG SLEEP) under a scaled-out deployment: health on every node says 503 usage_counters while it sleeps, within its own deadline, and 200 again once it wakes.
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { Redis } from 'ioredis';
import { after, before, describe, it } from 'node:test';
import { CLUSTER_DEMO_KEY, clusterSkip, freePort, startCluster, type Cluster } from '../helpers/cluster.js';
import { startOwnRedis, stopOwnRedis } from '../helpers/redis.js';

const skip = await clusterSkip();
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
/** How long Redis sleeps: long beside health's deadline (about 1 s) and the counters' command timeout (2 s). */
const STALL_S = 5;

interface HealthBody {
  status: string;
  component?: string;
  services: { usage_counters?: { status: string } };
}

async function health(
  base: string,
): Promise<{ status: number; body: HealthBody; retryAfter: string | null; ms: number; at: number }> {
  const t0 = performance.now();
  const res = await fetch(`${base}/v1/health`, { headers: { 'x-api-key': CLUSTER_DEMO_KEY } });
  const body = (await res.json()) as HealthBody;
  const at = performance.now();
  return { status: res.status, body, retryAfter: res.headers.get('retry-after'), ms: Math.round(at - t0), at };
}

describe('fault: Redis stalls (DEBUG SLEEP) under a scaled-out deployment', { skip }, () => {
  let port: number;
  let redis: ChildProcess | undefined;
  let cluster: Cluster | undefined;

  before(async () => {
    // A server of this test alone: DEBUG SLEEP stalls every client of the server it runs on.
    port = await freePort();
    redis = await startOwnRedis(port, { debugCommand: true });
    cluster = await startCluster({ redisUrl: `redis://127.0.0.1:${port}`, apiNodes: 1, pipelineNodes: 1 });
  });

  after(async () => {
    await cluster?.stop();
    await stopOwnRedis(redis);
  });

  it('health answers 503 usage_counters with Retry-After on the API node and the pipeline node while Redis sleeps, then 200 again', async () => {
    assert.ok(cluster !== undefined);
    const api = cluster.api[0]!;
    const leader = await cluster.leader();
    const nodes = [
      { name: 'api', base: api.base },
      { name: 'pipeline', base: leader.base },
    ];
    for (const n of nodes) assert.equal((await health(n.base)).status, 200, `${n.name} healthy before the stall`);
    await sleep(1000); // health's own limit: 2 a second per caller

    const sleeper = new Redis(`redis://127.0.0.1:${port}`, { maxRetriesPerRequest: 0 });
    let wokeAt: number | null = null;
    const woke = sleeper.call('DEBUG', 'SLEEP', String(STALL_S)).then(() => {
      wokeAt = performance.now();
    });
    await sleep(200); // the server is asleep now
    const during: string[] = [];
    try {
      // Two rounds a second apart, both well inside the sleep.
      for (let round = 0; round < 2; round++) {
        const answers = await Promise.all(nodes.map(async (n) => ({ n, h: await health(n.base) })));
        for (const { n, h } of answers) {
          during.push(`${n.name} ${h.status} ${h.body.component ?? '-'} ${h.ms} ms`);
          // Told while Redis still sleeps: health did not wait for the component it reports.
          assert.equal(wokeAt, null, `${n.name}: health answered only after Redis woke (${h.ms} ms)`);
          assert.equal(h.status, 503, `${n.name} during the stall: ${h.status} ${JSON.stringify(h.body)}`);
          assert.equal(h.body.status, 'degraded');
          assert.equal(h.body.component, 'usage_counters');
          assert.equal(h.body.services.usage_counters?.status, 'disconnected');
          assert.equal(h.retryAfter, '1', `${n.name}: Retry-After on the 503`);
        }
        await sleep(1000);
      }
    } finally {
      await woke.catch(() => undefined);
      sleeper.disconnect();
    }
    assert.ok(wokeAt !== null);

    // Back: 200 on both nodes soon after Redis answers again.
    const recovered: string[] = [];
    for (const n of nodes) {
      let h = await health(n.base);
      while (h.status !== 200 && h.at - (wokeAt as number) < 10_000) {
        await sleep(500);
        h = await health(n.base);
      }
      assert.equal(h.status, 200, `${n.name} after Redis woke: ${JSON.stringify(h.body)}`);
      recovered.push(`${n.name} ${Math.max(0, Math.round(h.at - (wokeAt as number)))} ms`);
    }
    console.log(
      `FAULT-FIGURES redis-stall: DEBUG SLEEP ${STALL_S}: health during the stall [${during.join('; ')}]; ` +
        `200 again after Redis woke: ${recovered.join(', ')} (the first check after)`,
    );
  });
});
