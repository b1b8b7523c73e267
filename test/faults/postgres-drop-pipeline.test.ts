// Fault: PostgreSQL drops every connection of the pipeline for 15 s: both candidates survive, one leads again, nothing acknowledged is lost.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  clusterFixture,
  clusterMarkets,
  clusterSkip,
  endedEvent,
  feedNode,
  getJson,
  startCluster,
  type Cluster,
  type ClusterNode,
} from '../helpers/cluster.js';
import { queryIn } from '../helpers/postgres.js';
import { until } from '../helpers/until.js';
import { createFaultDatabase, type FaultDatabase } from './store-fault-kit.js';

const skip = await clusterSkip();
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const OUTAGE_MS = 15_000;
const MARKETS = 40;

const alive = (n: ClusterNode): boolean => n.child.exitCode === null && n.child.signalCode === null;

async function leaders(cluster: Cluster): Promise<ClusterNode[]> {
  const out: ClusterNode[] = [];
  for (const n of cluster.pipeline.filter(alive)) {
    try {
      const res = await fetch(`${n.base}/readyz`);
      await res.body?.cancel();
      if (res.status === 200) out.push(n);
    } catch {
      // down
    }
  }
  return out;
}

describe(
  'fault: PostgreSQL drops the connections of two pipeline candidates and an API node for 15 s',
  { skip },
  () => {
    let db: FaultDatabase;
    let cluster: Cluster;

    before(async () => {
      db = await createFaultDatabase();
      cluster = await startCluster({ schema: db, apiNodes: 1, env: { SETTLEMENT_BATCH_SIZE: '5' } });
    });

    after(async () => {
      await cluster?.stop();
      await db?.drop();
    });

    it('both candidates live through it, exactly one leads again, the feed is taken, results fed before are there and settled', async (t) => {
      const leader = await cluster.leader();
      const fed = await feedNode(leader.base, endedEvent('before-outage', MARKETS));
      assert.equal(fed.body.accepted, 4, JSON.stringify(fed.body));
      assert.equal(
        (await feedNode(leader.base, [clusterFixture('live-1', 3_600_000), clusterMarkets('live-1', 2)])).status,
        200,
      );
      // Flushed: the live event and its markets are in the store before it fails.
      await until('live-1 stored', async () => {
        // Its markets as one image of its book (or, in a store written before images, their documents).
        const rows = await queryIn<{ images: string; docs: string }>(
          cluster.schema,
          "select (select count(*) from book_images where event_id = 'live-1') as images, " +
            "(select count(*) from markets where event_id = 'live-1') as docs",
        );
        return Number(rows[0]?.images) === 1 || Number(rows[0]?.docs) === 2;
      });

      // The outage: no new connection, and every session of the database terminated, again and again.
      const statuses = new Map<number, number>();
      const started = performance.now();
      await db.refuse();
      let terminated = 0;
      let i = 0;
      while (performance.now() - started < OUTAGE_MS) {
        terminated += await db.terminate();
        // A producer keeps sending meanwhile (as nginx would, to every candidate).
        for (const n of cluster.pipeline.filter(alive)) {
          const res = await feedNode(n.base, [
            { type: 'odds', event_id: 'live-1', changes: [{ selection_id: 1, odds: 2 + (i % 50) / 100 }] },
          ]);
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        }
        i++;
        await sleep(200);
      }
      t.diagnostic(`${terminated} sessions terminated during the outage`);
      await db.allow();
      const restoredAt = performance.now();

      // Nobody exited: a database outage is something a candidate waits out.
      for (const n of [...cluster.pipeline, ...cluster.api]) {
        assert.ok(alive(n), `the ${n.role} node :${n.port} exited (code ${n.child.exitCode})\n${cluster.logs()}`);
      }
      // Exactly one leads, and takes the feed again.
      let lead: ClusterNode[] = [];
      let recoveredMs = Number.NaN;
      while (performance.now() - restoredAt < 30_000) {
        lead = await leaders(cluster);
        if (lead.length === 1) {
          const r = await feedNode(lead[0]!.base, [
            { type: 'odds', event_id: 'live-1', changes: [{ selection_id: 1, odds: 3.33 }] },
          ]);
          if (r.status === 200 && r.body.accepted === 1) {
            recoveredMs = performance.now() - restoredAt;
            break;
          }
        }
        await sleep(100);
      }
      assert.ok(Number.isFinite(recoveredMs), `no leader took the feed within 30 s of the restore\n${cluster.logs()}`);
      await sleep(2000);
      assert.equal((await leaders(cluster)).length, 1, 'still exactly one leader');

      // A result fed after the outage commits and settles; the one fed before is there and settled.
      const after = await feedNode(lead[0]!.base, endedEvent('after-outage', MARKETS));
      assert.equal(after.body.accepted, 4, JSON.stringify(after.body));
      const api = cluster.api[0]!;
      for (const id of ['before-outage', 'after-outage']) {
        let entry: { pending_markets_count: number; resolved_markets_count: number } | undefined;
        const until = Date.now() + 20_000;
        while (Date.now() < until) {
          const page = await getJson<{ settlements: Array<typeof entry> }>(api.base, `/v1/settlements?event_id=${id}`);
          entry = page.body?.settlements?.[0];
          if (entry?.pending_markets_count === 0) break;
          await sleep(100);
        }
        assert.equal(entry?.pending_markets_count, 0, `${id} settled\n${cluster.logs()}`);
        assert.equal(entry?.resolved_markets_count, MARKETS);
      }
      // The API node follows the leader again.
      let price: number | undefined;
      for (let i = 0; i < 100 && price !== 3.33; i++) {
        const r = await getJson<{ markets: Array<{ outcomes: Array<{ odds: number }> }> }>(
          api.base,
          '/v1/events/live-1/odds',
        );
        price = r.body?.markets?.[0]?.outcomes?.[0]?.odds;
        if (price !== 3.33) await sleep(100);
      }
      assert.equal(price, 3.33, 'the API node serves what the leader took after the outage');

      const during = [...statuses.entries()]
        .sort(([a], [b]) => a - b)
        .map(([s, n]) => `${s}: ${n}`)
        .join(', ');
      const line = `FAULT-FIGURES postgres-drop-pipeline: outage ${OUTAGE_MS} ms, feed answers during it {${during}}, a leader took the feed ${recoveredMs.toFixed(0)} ms after the restore, candidates alive ${cluster.pipeline.filter(alive).length}/2, results checked 2 (settled ${MARKETS} markets each)`;
      console.log(line);
      t.diagnostic(line);
      assert.ok(!statuses.has(500), 'no 500 during the outage');
    });
  },
);
