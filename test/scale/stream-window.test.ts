// Scaled out, an API node that restarts or joins late loads the leader's stored replay window: an id from before it started resumes exactly.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Rng } from '../../src/feed/simulator/rng.js';
import { parseLogPosition } from '../../src/live/log-position.js';
import { CLUSTER_DEMO_KEY, clusterSkip, feedNode, nodeReady, startCluster, type Cluster } from '../helpers/cluster.js';
import { lifeOf, settled, view } from '../helpers/event-life.js';
import { SseClient, type SseEvent } from '../helpers/sse.js';

const skip = await clusterSkip();
const key = { 'x-api-key': CLUSTER_DEMO_KEY };
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** The changes after `last` in what a never-dropped client received. */
function after_(reference: readonly SseEvent[], last: string): SseEvent[] {
  const i = reference.findIndex((e) => e.id === last);
  assert.ok(i >= 0, `${last} is among the reference's ids`);
  return reference.slice(i + 1);
}

describe('an API node that restarts or joins resumes streams exactly (the stored replay window)', { skip }, () => {
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

  /** Feeds the bodies of several lives in step, `from` to `to`. */
  async function feedLives(lives: object[][][], from: number, to: number): Promise<void> {
    for (let i = from; i < to; i++) {
      const body = lives.flatMap((l) => l[i] ?? []);
      if (body.length > 0) await feed(body);
    }
  }

  it('a client of node A resumes on node B after B restarted, and on a node C that joined late, with exactly what a never-dropped client saw', async () => {
    const [a, b] = cluster.api;
    assert.ok(a !== undefined && b !== undefined);
    const ids = ['win-a', 'win-b'];
    const path = `/v1/stream?event_ids=${ids.join(',')}`;
    const rng = new Rng(21);
    const lives = ids.map((id) => lifeOf(id, rng));
    const length = Math.max(...lives.map((l) => l.length));
    const reference = await SseClient.connect(a.base, path, key);
    const client = await SseClient.connect(a.base, path, key);
    await feedLives(lives, 0, 5);
    await client.until(() => client.changes.length >= 6, 10_000, 'the first changes on A');
    client.close();
    const last = client.lastId;
    assert.ok(last !== null);

    // B stops; changes go on meanwhile (B never sees them live); B starts again.
    b.child.kill('SIGTERM');
    await b.exited;
    await feedLives(lives, 5, 8);
    const restarted = await cluster.startNode('api');
    cluster.api[1] = restarted;
    await nodeReady(restarted);
    await feedLives(lives, 8, 11);
    // A node that was never part of the cluster joins.
    const joined = await cluster.startNode('api');
    cluster.api.push(joined);
    await nodeReady(joined);
    await feedLives(lives, 11, length);
    await reference.until(settled(ids), 20_000, 'both settlements on the reference');
    const rest = after_(reference.changes, last);
    assert.ok(rest.length > 20, `${rest.length} changes after the last id`);

    for (const [name, node] of [
      ['restarted B', restarted],
      ['joined C', joined],
    ] as const) {
      const resumed = await SseClient.connect(node.base, path, { ...key, 'last-event-id': last });
      await resumed
        .until((ev) => ev.length >= rest.length, 10_000, `as many changes on ${name}`)
        .catch(() => undefined); // the comparison below shows what differs
      resumed.close();
      assert.deepEqual(resumed.changes.map(view), rest.map(view), name);
    }
    reference.close();
  });

  it('an id older than the window a node could load still gets snapshot_required (expired), never a silent gap', async () => {
    const [a] = cluster.api;
    assert.ok(a !== undefined);
    const ids = ['win-old'];
    const path = `/v1/stream?event_ids=${ids.join(',')}`;
    const client = await SseClient.connect(a.base, path, key);
    const life = lifeOf('win-old', new Rng(5));
    await feedLives([life], 0, 4);
    await client.until(() => client.changes.length >= 4, 10_000, 'the first changes');
    client.close();
    const old = client.lastId;
    assert.ok(old !== null);
    // Changes the client never received, then a node whose own window is one second: once those
    // changes are older than that, the id is older than anything the node can serve.
    await feedLives([life], 4, 8);
    const after = Date.now();
    const short = await cluster.startNode('api', undefined, { STREAM_REPLAY_SECONDS: '1' });
    cluster.api.push(short);
    await nodeReady(short);
    while (Date.now() - after < 1500) await sleep(100);
    assert.ok((parseLogPosition(old)?.ms ?? 0) < after);
    await feedLives([life], 8, life.length);
    const resumed = await SseClient.connect(short.base, path, { ...key, 'last-event-id': old });
    await resumed.untilCount(1, 10_000);
    resumed.close();
    assert.equal(resumed.changes[0]?.event, 'snapshot_required', 'never a silent gap');
    assert.equal(resumed.changes[0]?.data.reason, 'expired');
  });
});
