// Fault: kill -9 of the pipeline leader while it delivers webhooks: one node delivers at a time, the new leader delivers the rest, none lost, in order, repeats few and under the same webhook-id.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { until } from '../helpers/until.js';
import {
  CLUSTER_ADMIN_KEY,
  CLUSTER_DEMO_KEY,
  clusterFixture,
  clusterSkip,
  feedNode,
  startCluster,
  type Cluster,
} from '../helpers/cluster.js';
import { startReceiver, type Receiver } from '../api/webhooks/receiver.js';

const skip = await clusterSkip();

const ENV = {
  WEBHOOK_ALLOW_PRIVATE: 'true',
  WEBHOOK_POLL_MS: '20',
  WEBHOOK_RETRY_BASE_MS: '50',
  WEBHOOK_RETRY_MAX_MS: '200',
};
/** A delivery may be repeated by a failover (its 2xx lost with the dead leader) or a refused attempt; never more. */
const MAX_REPEATS = 3;

describe('fault: kill -9 of the pipeline leader mid-delivery of webhooks (two candidates)', { skip }, () => {
  let cluster: Cluster;
  let rx: Receiver;
  /** Requests of a subscription open at the receiver at once, at most (two delivering nodes would make 2). */
  const open = new Map<string, number>();
  const maxOpen = new Map<string, number>();

  before(async () => {
    rx = await startReceiver();
    cluster = await startCluster({ apiNodes: 1, env: ENV });
    rx.onRequest = (path, finished) => {
      const n = (open.get(path) ?? 0) + 1;
      open.set(path, n);
      maxOpen.set(path, Math.max(maxOpen.get(path) ?? 0, n));
      void finished.then(() => open.set(path, (open.get(path) ?? 1) - 1));
    };
  });
  after(async () => {
    await cluster?.stop();
    await rx?.close();
  });

  it('the new leader delivers the rest: every change at least once, at most a few times, in order per subscription', async () => {
    const leader = await cluster.leader(15_000);
    const origin = new URL(rx.url).origin;
    const subscribe = async (path: string, eventIds: string[]) => {
      // On an API node: the leader learns of it through the store, and a change fed right after
      // the 201 is delivered to it.
      const res = await fetch(`${cluster.api[0]!.base}/v1/webhooks`, {
        method: 'POST',
        headers: { 'x-api-key': CLUSTER_DEMO_KEY, 'content-type': 'application/json' },
        body: JSON.stringify({ url: `${origin}${path}`, types: ['status'], event_ids: eventIds }),
      });
      assert.equal(res.status, 201, await res.text());
    };
    const eventsA = ['f1', 'f2', 'f3', 'f4', 'f5'];
    const eventsB = ['f4', 'f5', 'f6', 'f7', 'f8'];
    await subscribe('/a', eventsA);
    await subscribe('/b', eventsB);
    const all = [...new Set([...eventsA, ...eventsB])];
    const fixtures = await feedNode(
      leader.base,
      all.map((id) => clusterFixture(id, -3_600_000)),
    );
    assert.equal(fixtures.status, 200);
    rx.answer = ({ n }) => ({ status: n % 4 === 3 ? 500 : 200, delayMs: 40 });
    const rounds = ['live', 'interrupted', 'live'];
    const lastFeed = Date.now();
    for (const s of rounds)
      for (const id of all) {
        const r = await feedNode(leader.base, [{ type: 'status', event_id: id, status: s }]);
        assert.equal(r.body.accepted, 1, JSON.stringify(r.body));
      }
    // Acknowledged changes are in the stored log once the leader's write-behind has flushed them.
    await until(
      'the change log flushed',
      async () => {
        const text = await (
          await fetch(`${leader.base}/metrics`, { headers: { 'x-admin-key': CLUSTER_ADMIN_KEY } })
        ).text();
        const m = /^stream_replay_stored_through_ms (\S+)$/m.exec(text);
        return m !== null && Number(m[1]) >= lastFeed;
      },
      10_000,
    );

    const accepted = () => rx.received.filter((r) => r.answered === 200);
    const expected = (events: string[]) => rounds.flatMap((s) => events.map((id) => `${id}:${s}`));
    const total = expected(eventsA).length + expected(eventsB).length;
    await until('a third delivered', () => accepted().length >= total / 3, 20_000);
    assert.ok(accepted().length < total, 'killed mid-delivery');
    leader.child.kill('SIGKILL');
    await leader.exited;
    const next = await cluster.leader(20_000);
    assert.notEqual(next.base, leader.base);

    const distinct = (path: string) => {
      const bodies = new Map<string, string>();
      for (const r of accepted())
        if (r.path === path && !bodies.has(String(r.headers['webhook-id'])))
          bodies.set(String(r.headers['webhook-id']), r.body);
      return [...bodies.values()].map((body) => {
        const d = JSON.parse(body) as { data: { event_id: string; status: string } };
        return `${d.data.event_id}:${d.data.status}`;
      });
    };
    await until('everything delivered', () => distinct('/a').length + distinct('/b').length >= total, 30_000);
    await new Promise((r) => setTimeout(r, 500));
    assert.deepEqual(distinct('/a'), expected(eventsA));
    assert.deepEqual(distinct('/b'), expected(eventsB));
    const times = new Map<string, number>();
    for (const r of accepted()) {
      const id = String(r.headers['webhook-id']);
      times.set(id, (times.get(id) ?? 0) + 1);
    }
    const most = Math.max(...times.values());
    assert.ok(most <= MAX_REPEATS, `a delivery was accepted ${most} times`);
    assert.equal(maxOpen.get('/a'), 1, 'one attempt of a subscription at a time: one node delivers');
    assert.equal(maxOpen.get('/b'), 1);
  });
});
