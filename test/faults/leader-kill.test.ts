// Fault: kill -9 of the pipeline leader with two candidates: how long until the standby leads and the API nodes serve fresh data, and nothing acknowledged is lost.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { queryIn } from '../helpers/postgres.js';
import { until } from '../helpers/until.js';
import {
  clusterFixture,
  clusterMarkets,
  clusterSkip,
  endedEvent,
  feedNode,
  getJson,
  median,
  startCluster,
  type Cluster,
  type ClusterNode,
} from '../helpers/cluster.js';

const skip = await clusterSkip();
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

const KILLS = 3;
const MARKETS = 60;

interface Entry {
  event_id: string;
  pending_markets_count: number;
  resolved_markets_count: number;
  total_markets_count: number;
  resolved_markets: Array<{ market_id: number }>;
}

type OddsBody = { markets: Array<{ outcomes: Array<{ odds: number }> }> };

/** The price of the marker event's first selection as an API node serves it (NaN when it does not). */
async function servedPrice(base: string): Promise<number> {
  const r = await getJson<OddsBody>(base, '/v1/events/marker/odds');
  const p = r.body?.markets?.[0]?.outcomes?.[0]?.odds;
  return p ?? Number.NaN;
}

const alive = (n: ClusterNode): boolean => n.child.exitCode === null && n.child.signalCode === null;

describe(
  'fault: kill -9 of the pipeline leader (two candidates, two API nodes, the simulator running)',
  { skip },
  () => {
    let cluster: Cluster;

    before(async () => {
      // The simulator keeps the store busy as in production; a short election interval is the default.
      cluster = await startCluster({ env: { FEED: 'simulator', SIM_SPEED: '10', SETTLEMENT_BATCH_SIZE: '5' } });
      const leader = await cluster.leader();
      const r = await feedNode(leader.base, [clusterFixture('marker', 3_600_000), clusterMarkets('marker', 1)]);
      assert.equal(r.status, 200);
      // Flushed (a kill -9 loses up to FLUSH_INTERVAL_MS of live data, never more): the standby loads it.
      await until('the marker stored', async () => {
        // Its markets as one image of its book (or, in a store written before images, their documents).
        const rows = await queryIn<{ images: string; docs: string }>(
          cluster.schema,
          "select (select count(*) from book_images where event_id = 'marker') as images, " +
            "(select count(*) from markets where event_id = 'marker') as docs",
        );
        return Number(rows[0]?.images) === 1 || Number(rows[0]?.docs) === 1;
      });
    });

    after(async () => {
      await cluster?.stop();
    });

    it(`a standby leads and both API nodes serve fresh data soon after kill -9; acknowledged results settle exactly once (${KILLS} kills)`, async (t) => {
      const takeovers: number[] = [];
      const fresh: number[] = [];
      const stores: string[] = [];
      let price = 2;
      for (let k = 0; k < KILLS; k++) {
        const leader = await cluster.leader(15_000);
        // Acknowledged by the old leader just before it dies: the result is committed, settlement under way.
        const id = `ack-${k}`;
        const fed = await feedNode(leader.base, endedEvent(id, MARKETS));
        assert.equal(fed.status, 200);
        assert.equal(fed.body.accepted, 4, JSON.stringify(fed.body));
        leader.child.kill('SIGKILL');
        const killedAt = performance.now();
        await leader.exited;

        // A producer retrying a new price on every candidate (as nginx does) until one takes it.
        let first: number | null = null;
        let takeover = Number.NaN;
        let apiFresh = Number.NaN;
        let lastServed: number[] = [];
        const deadline = killedAt + 30_000;
        while (performance.now() < deadline) {
          price = Number((price + 0.01).toFixed(2));
          for (const n of cluster.pipeline.filter(alive)) {
            const r = await feedNode(n.base, [
              { type: 'odds', event_id: 'marker', changes: [{ selection_id: 1, odds: price }] },
            ]);
            if (r.status === 200) {
              assert.equal(r.body.accepted, 1, JSON.stringify(r.body));
              if (first === null) {
                first = price;
                takeover = performance.now() - killedAt;
              }
              break;
            }
          }
          if (first !== null) {
            const served = await Promise.all(cluster.api.map((n) => servedPrice(n.base)));
            lastServed = served;
            if (served.every((p) => p >= (first as number))) {
              apiFresh = performance.now() - killedAt;
              break;
            }
          }
          await sleep(20);
        }
        const size = await queryIn<{ events: string; markets: string }>(
          cluster.schema,
          'select (select count(*) from events) as events, (select count(*) from book_images) as markets',
        );
        stores.push(`${size[0]?.events} events/${size[0]?.markets} books`);
        assert.ok(Number.isFinite(takeover), `no candidate took the feed within 30 s\n${cluster.logs()}`);
        assert.ok(
          Number.isFinite(apiFresh),
          `the API nodes did not serve the new leader's data within 30 s (sent ${first}..${price}, served ${lastServed.join(', ')})\n${cluster.logs()}`,
        );
        takeovers.push(takeover);
        fresh.push(apiFresh);
        console.log(
          `FAULT-FIGURES leader-kill: takeover ${takeover.toFixed(0)} ms, api fresh ${apiFresh.toFixed(0)} ms (store ${stores[stores.length - 1]})`,
        );

        // What the old leader acknowledged is there and settled exactly once, on every API node.
        for (const n of cluster.api) {
          let entry: Entry | undefined;
          const until = Date.now() + 20_000;
          while (Date.now() < until) {
            const page = await getJson<{ settlements: Entry[] }>(n.base, `/v1/settlements?event_id=${id}`);
            entry = page.body?.settlements?.[0];
            if (entry?.pending_markets_count === 0) break;
            await sleep(50);
          }
          assert.equal(entry?.pending_markets_count, 0, `${id} settled on ${n.base}\n${cluster.logs()}`);
          assert.equal(entry?.resolved_markets_count, MARKETS);
          assert.equal(new Set(entry?.resolved_markets.map((m) => m.market_id)).size, MARKETS, 'no market twice');
          const detail = await getJson<{ status: string }>(n.base, `/v1/events/${id}`);
          assert.equal(detail.body?.status, 'ended');
        }
        const rows = await queryIn<{ n: string }>(
          cluster.schema,
          'select count(*) as n from settlements where event_id = $1',
          [id],
        );
        assert.equal(Number(rows[0]?.n), 1);

        // The killed node comes back as a standby (the orchestrator's restart): two candidates again.
        // (On a new port: the old one may have become some client socket's meanwhile.)
        const restarted = await cluster.startNode('pipeline');
        cluster.pipeline = cluster.pipeline.map((n) => (n === leader ? restarted : n));
      }
      const summary = `FAULT-FIGURES leader-kill: takeover median ${median(takeovers).toFixed(0)} ms (${takeovers.map((v) => v.toFixed(0)).join(', ')}), api fresh median ${median(fresh).toFixed(0)} ms (${fresh.map((v) => v.toFixed(0)).join(', ')}) over ${KILLS} kills`;
      console.log(summary);
      t.diagnostic(summary);
      // Bounds for a busy 2-core machine. Taking over is the standby's store load (about a second
      // for this store, more when the machine is busy); what the API nodes added on top was their
      // own full reload (2-4 s here before this fix: medians 3.8 and 6.2 s from kill to fresh), now
      // a few hundred ms at most.
      const gaps = fresh.map((f, i) => f - (takeovers[i] as number));
      t.diagnostic(`API nodes fresh after the takeover: ${gaps.map((g) => g.toFixed(0)).join(', ')} ms`);
      assert.ok(median(gaps) < 1000, `API nodes took ${median(gaps)} ms (median) after the takeover to serve its data`);
      assert.ok(median(takeovers) < 4000, `takeover median ${median(takeovers)} ms`);
      assert.ok(median(fresh) < 4000, `API nodes fresh again median ${median(fresh)} ms`);
    });
  },
);
