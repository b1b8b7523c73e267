// Scaled out on loopback: two API nodes and two pipeline candidates on one PostgreSQL and Redis; stream, shared quota, failover.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { queryIn } from '../helpers/postgres.js';
import { CLUSTER_ADMIN_KEY, CLUSTER_DEMO_KEY, clusterSkip, startCluster, type Cluster } from '../helpers/cluster.js';

const skip = await clusterSkip();

interface Entry {
  event_id: string;
  resolved_markets_count: number;
  pending_markets_count: number;
  total_markets_count: number;
  revision: number;
  resolved_markets: Array<{ market_id: number; outcomes: Array<{ result: string }> }>;
}

interface SettlementPage {
  settlements: Entry[];
  total: number;
  fully_settled: number;
}

async function feed(base: string, lines: readonly object[]): Promise<{ accepted: number; rejected: number }> {
  const res = await fetch(`${base}/admin/v1/feed`, {
    method: 'POST',
    headers: { 'x-admin-key': CLUSTER_ADMIN_KEY, 'content-type': 'application/x-ndjson' },
    body: lines.map((l) => JSON.stringify(l)).join('\n'),
  });
  const text = await res.text();
  assert.equal(res.status, 200, `feed to ${base}: ${res.status} ${text}`);
  return JSON.parse(text) as { accepted: number; rejected: number };
}

async function get<T>(base: string, path: string): Promise<{ status: number; body: T }> {
  const res = await fetch(`${base}${path}`, { headers: { 'x-api-key': CLUSTER_DEMO_KEY } });
  return { status: res.status, body: (await res.json()) as T };
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function fixture(id: string, startOffsetMs: number): object {
  return {
    type: 'fixture',
    event_id: id,
    sport: 'soccer',
    league: { slug: 'scale', name: 'Scale League', country: 'Testland' },
    home_team: `${id} Home`,
    away_team: `${id} Away`,
    start_time: new Date(Date.now() + startOffsetMs).toISOString(),
  };
}

function markets(id: string, count: number): object {
  const out = [];
  let sel = 0;
  for (let m = 1; m <= count; m++) {
    const line = (m % 40) / 4 + 0.5;
    out.push({
      market_id: m,
      key: m === 1 ? '1x2' : m % 2 === 0 ? `totals:${line}` : `asian_handicap:${-line}`,
      name: `Market ${m}`,
      outcomes:
        m === 1
          ? [
              { selection_id: ++sel, code: 'home', label: 'Home', odds: 2.1 },
              { selection_id: ++sel, code: 'draw', label: 'Draw', odds: 3.3 },
              { selection_id: ++sel, code: 'away', label: 'Away', odds: 3.6 },
            ]
          : [
              { selection_id: ++sel, code: m % 2 === 0 ? 'over' : 'home', label: 'A', odds: 1.9 },
              { selection_id: ++sel, code: m % 2 === 0 ? 'under' : 'away', label: 'B', odds: 1.9 },
            ],
    });
  }
  return { type: 'markets', event_id: id, markets: out };
}

/** Polls `check` on every API node until all pass; the ms it took. */
async function servedByAll(cluster: Cluster, check: (base: string) => Promise<boolean>, timeoutMs: number) {
  const t0 = performance.now();
  const pending = new Set(cluster.api.map((n) => n.base));
  while (pending.size > 0) {
    for (const base of [...pending]) if (await check(base)) pending.delete(base);
    if (pending.size === 0) break;
    if (performance.now() - t0 > timeoutMs) return Number.POSITIVE_INFINITY;
  }
  return performance.now() - t0;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

describe('scaled out: two API nodes and two pipeline candidates on PostgreSQL and Redis', { skip }, () => {
  let cluster: Cluster;

  before(async () => {
    // One market per settlement commit: the kill -9 below lands mid-settlement.
    cluster = await startCluster({ env: { SETTLEMENT_BATCH_SIZE: '1' } });
  });

  after(async () => {
    await cluster?.stop();
  });

  it('data fed to the leader is served by both API nodes within 1 s (stream lag measured)', async (t) => {
    const leader = await cluster.leader();
    const t0 = performance.now();
    await feed(leader.base, [fixture('s1', 3_600_000), markets('s1', 3)]);
    const first = await servedByAll(
      cluster,
      async (base) => (await get(base, '/v1/events/s1/odds')).status === 200,
      1000,
    );
    assert.ok(first <= 1000, `the new event reached both API nodes in ${first} ms`);
    t.diagnostic(`new event on both API nodes ${(performance.now() - t0).toFixed(1)} ms after the feed request began`);

    // Price changes: from the leader's answer until both nodes serve the new price.
    const lags: number[] = [];
    for (let i = 0; i < 50; i++) {
      const odds = Number((2 + i / 100).toFixed(2));
      await feed(leader.base, [{ type: 'odds', event_id: 's1', changes: [{ selection_id: 1, odds }] }]);
      const ms = await servedByAll(
        cluster,
        async (base) => {
          const r = await get<{ markets: Array<{ outcomes: Array<{ odds: number }> }> }>(base, '/v1/events/s1/odds');
          return r.body.markets[0]?.outcomes[0]?.odds === odds;
        },
        1000,
      );
      assert.ok(ms <= 1000, `price ${i} served by both nodes in ${ms} ms`);
      lags.push(ms);
    }
    lags.sort((a, b) => a - b);
    t.diagnostic(
      `answer-to-served on both API nodes over 50 price changes: p50 ${percentile(lags, 50).toFixed(1)} ms, p99 ${percentile(lags, 99).toFixed(1)} ms, max ${lags[lags.length - 1]?.toFixed(1)} ms`,
    );
  });

  it('an API node relays a feed request to the leader and answers once it serves what was applied', async () => {
    const [a, b] = cluster.api;
    assert.ok(a !== undefined && b !== undefined);
    const report = await feed(a.base, [fixture('s2', 7_200_000), markets('s2', 2)]);
    assert.deepEqual(report, { accepted: 2, rejected: 0, errors: [] });
    // Read-your-writes on the node that took the request, with no wait.
    const odds = await get<{ id: string }>(a.base, '/v1/events/s2/odds');
    assert.equal(odds.status, 200);
    assert.equal(odds.body.id, 's2');
    // Rejections come back as the leader gave them.
    const bad = await feed(a.base, [{ type: 'odds', event_id: 'nope', changes: [{ selection_id: 1, odds: 2 }] }]);
    assert.equal(bad.rejected, 1);
  });

  it('1,000 requests spread over both API nodes count exactly once each on one key', async () => {
    const [a, b] = cluster.api;
    assert.ok(a !== undefined && b !== undefined);
    const before = await get<{ current: { this_month: number } }>(a.base, '/v1/usage');
    assert.equal(before.status, 200);
    const nodes = [a.base, b.base];
    let sent = 0;
    const worker = async (): Promise<void> => {
      while (sent < 1000) {
        const i = sent++;
        const r = await get(nodes[i % 2] as string, '/v1/sports');
        assert.equal(r.status, 200);
      }
    };
    await Promise.all(Array.from({ length: 20 }, worker));
    // Both nodes read the same shared count: the 1,000, plus each /v1/usage call itself.
    const afterA = await get<{ current: { this_month: number } }>(a.base, '/v1/usage');
    const afterB = await get<{ current: { this_month: number } }>(b.base, '/v1/usage');
    assert.equal(afterA.body.current.this_month, before.body.current.this_month + 1001);
    assert.equal(afterB.body.current.this_month, before.body.current.this_month + 1002);
  });

  it('kill -9 of the leader mid-settlement: the other candidate leads within 5 s, each market settled exactly once', async (t) => {
    const leader = await cluster.leader();
    const [a, b] = cluster.api;
    assert.ok(a !== undefined && b !== undefined);
    const MARKETS = 600;
    await feed(leader.base, [
      fixture('k1', -2 * 3_600_000),
      markets('k1', MARKETS),
      { type: 'status', event_id: 'k1', status: 'live' },
      {
        type: 'result',
        event_id: 'k1',
        status: 'ended',
        score: { home: 3, away: 1 },
        period_scores: [
          { period: '1H', home: 1, away: 0 },
          { period: '2H', home: 2, away: 1 },
        ],
      },
    ]);
    let seen: Entry | undefined;
    for (let i = 0; i < 2000 && seen === undefined; i++) {
      seen = (await get<SettlementPage>(a.base, '/v1/settlements?event_id=k1')).body.settlements[0];
      if (seen === undefined) await sleep(2);
    }
    leader.child.kill('SIGKILL');
    const killedAt = performance.now();
    await leader.exited;
    assert.ok(seen !== undefined, 'the entry appeared before the kill');
    assert.ok(seen.pending_markets_count > 0, `killed mid-settlement (pending ${seen.pending_markets_count})`);

    const next = await cluster.leader(5000);
    const failoverMs = performance.now() - killedAt;
    assert.notEqual(next, leader);
    assert.ok(failoverMs <= 5000, `the other candidate leads after ${failoverMs} ms`);
    t.diagnostic(`failover: the standby answered /readyz 200 ${failoverMs.toFixed(0)} ms after kill -9`);

    let done: Entry | undefined;
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline) {
      done = (await get<SettlementPage>(a.base, '/v1/settlements?event_id=k1')).body.settlements[0];
      if (done?.pending_markets_count === 0) break;
      await sleep(50);
    }
    assert.ok(done !== undefined);
    assert.equal(done.pending_markets_count, 0, `settlement did not finish after the failover\n${cluster.logs()}`);
    assert.equal(done.resolved_markets_count, MARKETS);
    assert.equal(done.total_markets_count, MARKETS);
    const ids = done.resolved_markets.map((m) => m.market_id);
    assert.equal(new Set(ids).size, MARKETS, 'no market twice');
    assert.ok(done.revision > seen.revision, 'revisions continue after the failover');
    // The store holds one entry for the event, its revision the last one committed.
    const rows = await queryIn<{ n: string }>(
      cluster.schema,
      "select count(*) as n from settlements where event_id = 'k1'",
    );
    assert.equal(Number(rows[0]?.n), 1);

    // Both API nodes follow the new leader: the settlement counters and the event's final state.
    for (const base of [a.base, b.base]) {
      let page: SettlementPage | undefined;
      for (let i = 0; i < 100; i++) {
        page = (await get<SettlementPage>(base, '/v1/settlements?event_id=k1')).body;
        if (page.fully_settled === 1) break;
        await sleep(50);
      }
      assert.equal(page?.fully_settled, 1, `${base} counts the entry as fully settled`);
      const detail = await get<{ status: string }>(base, '/v1/events/k1');
      assert.equal(detail.status, 200);
      assert.equal(detail.body.status, 'ended');
    }

    // And the new leader's feed reaches them.
    await feed(next.base, [fixture('s3', 3_600_000), markets('s3', 1)]);
    const ms = await servedByAll(cluster, async (base) => (await get(base, '/v1/events/s3/odds')).status === 200, 1000);
    assert.ok(ms <= 1000, `fed to the new leader, served by both API nodes in ${ms} ms`);
  });

  it('an API node that joins late starts from the snapshot and follows the stream', async () => {
    const late = await cluster.startNode('api');
    try {
      for (const id of ['s1', 's2', 'k1', 's3']) {
        assert.equal((await get(late.base, `/v1/events/${id}`)).status, 200, `${id} on the late node`);
      }
      const leader = await cluster.leader();
      await feed(leader.base, [{ type: 'odds', event_id: 's1', changes: [{ selection_id: 2, odds: 4.44 }] }]);
      let odds: number | undefined;
      for (let i = 0; i < 100 && odds !== 4.44; i++) {
        const r = await get<{ markets: Array<{ outcomes: Array<{ odds: number }> }> }>(late.base, '/v1/events/s1/odds');
        odds = r.body.markets[0]?.outcomes[1]?.odds;
        if (odds !== 4.44) await sleep(10);
      }
      assert.equal(odds, 4.44);
    } finally {
      late.child.kill('SIGTERM');
      await late.exited;
    }
  });
});
