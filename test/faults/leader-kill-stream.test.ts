// Fault: kill -9 of the pipeline leader while clients stream from both API nodes: each goes on exactly or is told snapshot_required, never a silent gap.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Rng } from '../../src/feed/simulator/rng.js';
import {
  CLUSTER_DEMO_KEY,
  clusterMarkets,
  clusterSkip,
  feedNode,
  startCluster,
  type Cluster,
  type ClusterNode,
} from '../helpers/cluster.js';
import { servedState, StateClient, stateText } from '../helpers/stream-state.js';

const skip = await clusterSkip();
const key = { 'x-api-key': CLUSTER_DEMO_KEY };
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const alive = (n: ClusterNode): boolean => n.child.exitCode === null && n.child.signalCode === null;

const EVENTS = ['kill-a', 'kill-b', 'kill-c'];
const KILLS = 2;

function fixture(id: string): object {
  return {
    type: 'fixture',
    event_id: id,
    sport: 'soccer',
    league: { slug: 'kill-stream', name: 'Kill League', country: 'Testland' },
    home_team: `${id} Home`,
    away_team: `${id} Away`,
    start_time: new Date(Date.now() - 30 * 60_000).toISOString(),
  };
}

describe('fault: kill -9 of the pipeline leader while clients stream from both API nodes', { skip }, () => {
  let cluster: Cluster;
  const goals = new Map<string, number>();

  before(async () => {
    // The longest flush interval: the leader dies with changes it published but never stored.
    cluster = await startCluster({ apiNodes: 2, pipelineNodes: 2, env: { FLUSH_INTERVAL_MS: '1000' } });
    const leader = await cluster.leader();
    const r = await feedNode(leader.base, [
      ...EVENTS.flatMap((id) => [fixture(id), clusterMarkets(id, 4), { type: 'status', event_id: id, status: 'live' }]),
    ]);
    assert.equal(r.status, 200);
  });

  after(async () => {
    await cluster?.stop();
  });

  /**
   * One body of price changes on some selections (and goals), sent to whichever candidate takes it
   * (as a retrying producer does). Before a kill only selections 5-9 move and goals are scored,
   * after it only 1-4: a change lost silently around the kill would never be overwritten.
   */
  async function tick(rng: Rng, selections: readonly number[], scoring: boolean): Promise<void> {
    const body: object[] = [];
    const pick = (): number => selections[Math.floor(rng.next() * selections.length)] as number;
    for (const id of EVENTS) {
      body.push({
        type: 'odds',
        event_id: id,
        changes: [
          { selection_id: pick(), odds: Math.round(rng.uniform(1.2, 9) * 100) / 100 },
          { selection_id: pick(), odds: Math.round(rng.uniform(1.2, 9) * 100) / 100 },
        ],
      });
      if (scoring && rng.next() < 0.2) {
        goals.set(id, (goals.get(id) ?? 0) + 1);
        body.push({ type: 'score', event_id: id, score: { home: goals.get(id), away: 0 } });
      }
    }
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      for (const n of cluster.pipeline.filter(alive)) {
        const r = await feedNode(n.base, body);
        if (r.status === 200) {
          assert.equal(r.body.rejected, 0, JSON.stringify(r.body));
          return;
        }
      }
      await sleep(20);
    }
    throw new Error(`no candidate took the feed within 30 s\n${cluster.logs()}`);
  }

  it(`every client's state equals the new state after each kill -9: an exact continuation or snapshot_required, never a silent gap (${KILLS} kills)`, async (t) => {
    const [a, b] = cluster.api;
    assert.ok(a !== undefined && b !== undefined);
    const path = `/v1/stream?league=kill-stream`;
    const rng = new Rng(2026);
    for (let k = 0; k < KILLS; k++) {
      const live = [new StateClient(path, key), new StateClient(path, key)];
      await live[0]?.open(a.base);
      await live[1]?.open(b.base);
      // Dropped before the kill, back on the other node after it with its last id.
      const hopper = new StateClient(path, key);
      await hopper.open(a.base);
      const before = [5, 6, 7, 8, 9];
      const afterKill = [1, 2, 3, 4];
      for (let i = 0; i < 15; i++) await tick(rng, before, true);
      hopper.drop();
      // Published, not yet stored: the new leader must replay these or the streams must say so.
      for (let i = 0; i < 10; i++) await tick(rng, before, true);
      const leader = await cluster.leader();
      leader.child.kill('SIGKILL');
      await leader.exited;
      for (let i = 0; i < 15; i++) await tick(rng, afterKill, false);
      await hopper.resume(b.base);
      for (let i = 0; i < 5; i++) await tick(rng, afterKill, false);

      // Both nodes serve the same state; every client ends where its node is.
      const clients = [...live, hopper];
      const nodeOf = [a.base, b.base, b.base];
      let last = '';
      const deadline = Date.now() + 20_000;
      let equal = false;
      while (Date.now() < deadline && !equal) {
        await sleep(100);
        const states = [
          stateText(await servedState(a.base, EVENTS, key)),
          stateText(await servedState(b.base, EVENTS, key)),
        ];
        equal = JSON.stringify(states[0]) === JSON.stringify(states[1]);
        for (const [i, c] of clients.entries()) {
          c.take();
          const served = states[nodeOf[i] === a.base ? 0 : 1] as string[];
          const mine = stateText(c.state);
          if (JSON.stringify(mine) !== JSON.stringify(served)) {
            equal = false;
            last = `client ${i}: ${mine.filter((l) => !served.includes(l)).join('; ')} where the node serves ${served.filter((l) => !mine.includes(l)).join('; ')}`;
          }
        }
      }
      for (const c of clients) c.close();
      assert.ok(equal, `after kill ${k + 1}: ${last}\n${cluster.logs()}`);
      t.diagnostic(
        `kill ${k + 1}: snapshot_required told to the clients: ${clients.map((c) => `[${c.refusals.join(',')}]`).join(' ')}`,
      );
      const restarted = await cluster.startNode('pipeline');
      cluster.pipeline = cluster.pipeline.map((n) => (n === leader ? restarted : n));
    }
  });
});
