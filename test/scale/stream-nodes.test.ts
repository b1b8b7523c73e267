// Scaled out, every API node streams: the same ids and data for the same changes on every node, and a client resumes exactly on another node.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Rng } from '../../src/feed/simulator/rng.js';
import { CLUSTER_DEMO_KEY, clusterSkip, feedNode, startCluster, type Cluster } from '../helpers/cluster.js';
import { lifeOf, settled, view } from '../helpers/event-life.js';
import { SseClient, type SseEvent } from '../helpers/sse.js';

const skip = await clusterSkip();
const key = { 'x-api-key': CLUSTER_DEMO_KEY };

describe('streams on several API nodes (one pipeline leader, PostgreSQL and Redis)', { skip }, () => {
  let cluster: Cluster;
  let leaderBase: string;

  before(async () => {
    cluster = await startCluster({ apiNodes: 2, pipelineNodes: 1, env: { SETTLEMENT_BATCH_SIZE: '2' } });
    leaderBase = (await cluster.leader()).base;
  });

  after(async () => {
    await cluster?.stop();
  });

  async function feed(lines: object[]): Promise<void> {
    const r = await feedNode(leaderBase, lines);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.rejected, 0, JSON.stringify(r.body));
  }

  it('clients of two API nodes get the same ids and data for the same changes, settlements included', async () => {
    const [a, b] = cluster.api;
    assert.ok(a !== undefined && b !== undefined);
    const ids = ['same-a', 'same-b'];
    const path = `/v1/stream?event_ids=${ids.join(',')}`;
    const onA = await SseClient.connect(a.base, path, key);
    const onB = await SseClient.connect(b.base, path, key);
    const rng = new Rng(11);
    const lives = ids.map((id) => lifeOf(id, rng));
    for (let i = 0; i < Math.max(...lives.map((l) => l.length)); i++) {
      const body = lives.flatMap((l) => l[i] ?? []);
      if (body.length > 0) await feed(body);
    }
    await onA.until(settled(ids), 20_000, 'both settlements on A');
    await onB.until((ev) => ev.length >= onA.events.length && settled(ids)(ev), 20_000, 'as much on B');
    onA.close();
    onB.close();
    assert.ok(onA.changes.length > 30, `${onA.changes.length} events`);
    assert.deepEqual(onB.changes.map(view), onA.changes.map(view));
    assert.ok(!onA.changes.some((e) => e.event === 'snapshot_required'));
  });

  it('a client dropped from one node resumes on the other with its last id and sees what a never-dropped client saw', async () => {
    const [a, b] = cluster.api;
    assert.ok(a !== undefined && b !== undefined);
    for (const seed of [1, 2, 3, 4]) {
      const rng = new Rng(seed);
      const ids = [`hop${seed}a`, `hop${seed}b`];
      const path = `/v1/stream?event_ids=${ids.join(',')}`;
      const reference = await SseClient.connect(a.base, path, key);
      const seen: SseEvent[] = [];
      let on = 0;
      const nodes = [a.base, b.base];
      let client = await SseClient.connect(nodes[on] as string, path, key);
      let hops = 0;
      const lives = ids.map((id) => lifeOf(id, rng));
      for (let i = 0; i < Math.max(...lives.map((l) => l.length)); i++) {
        const body = lives.flatMap((l) => l[i] ?? []);
        if (body.length > 0) await feed(body);
        // (A client with no id yet has nothing to resume from: it is cut off only once it has one.)
        if (rng.next() < 0.35 && seen.length + client.changes.length > 0) {
          // Cut off at a random point: keep what arrived, go to the other node with the last id received.
          await new Promise((r) => setTimeout(r, rng.uniform(0, 10)));
          seen.push(...client.changes);
          const last = [...seen].reverse().find((e) => e.id !== null)?.id ?? null;
          client.close();
          on = 1 - on;
          hops++;
          client = await SseClient.connect(
            nodes[on] as string,
            path,
            last === null ? key : { ...key, 'last-event-id': last },
          );
        }
      }
      await reference.until(settled(ids), 20_000, `seed ${seed}: both settlements`);
      await client
        .until(
          () => seen.length + client.changes.length >= reference.changes.length,
          20_000,
          `seed ${seed}: as many events`,
        )
        .catch(() => undefined); // the comparison below shows what differs
      seen.push(...client.changes);
      reference.close();
      client.close();
      assert.ok(hops > 0, `seed ${seed} hopped`);
      assert.deepEqual(seen.map(view), reference.changes.map(view), `seed ${seed} (${hops} hops)`);
    }
  });

  it('an API node restarted resumes an id from before its restart exactly, as the other node does (the stored window; more in stream-window.test.ts)', async () => {
    const [a, b] = cluster.api;
    assert.ok(a !== undefined && b !== undefined);
    const ids = ['restart1'];
    const path = `/v1/stream?event_ids=${ids.join(',')}`;
    const reference = await SseClient.connect(b.base, path, key);
    const client = await SseClient.connect(a.base, path, key);
    const life = lifeOf('restart1', new Rng(9));
    for (const body of life.slice(0, 4)) await feed(body);
    await client.untilCount(4, 10_000);
    client.close();
    const last = String(client.changes.at(-1)?.id);
    // The node stops and a new one takes its place: it loads the window the leader stored.
    a.child.kill('SIGTERM');
    await a.exited;
    const restarted = await cluster.startNode('api');
    cluster.api[0] = restarted;
    for (let i = 0; i < 200; i++) {
      const res = await fetch(`${restarted.base}/readyz`);
      await res.body?.cancel();
      if (res.status === 200) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    for (const body of life.slice(4)) await feed(body);
    await reference.until(settled(ids), 20_000, 'the settlement');
    const rest = reference.changes.slice(reference.changes.findIndex((e) => e.id === last) + 1);
    const there = await SseClient.connect(restarted.base, path, { ...key, 'last-event-id': last });
    await there.untilCount(rest.length, 10_000).catch(() => undefined); // the comparison shows what differs
    there.close();
    assert.deepEqual(there.changes.map(view), rest.map(view), 'the restarted node');
    const other = await SseClient.connect(b.base, path, { ...key, 'last-event-id': last });
    await other.untilCount(rest.length, 10_000);
    other.close();
    reference.close();
    assert.deepEqual(other.changes.map(view), rest.map(view));
  });
});
