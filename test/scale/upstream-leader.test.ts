// Scaled out with FEED=the-odds-api: only the pipeline leader polls the upstream, and a new leader after a kill -9 goes on from the stored month's spend (no credit spent twice).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CLUSTER_ADMIN_KEY, clusterSkip, startCluster, type Cluster, type ClusterNode } from '../helpers/cluster.js';
import { FAKE_KEY, startFakeUpstream, type FakeUpstream } from '../feed/upstream/fake-the-odds-api.js';
import { oddsEvent } from '../feed/upstream/the-odds-api-fixtures.js';

const skip = await clusterSkip();

/** One /odds call: 3 markets × 1 region. The budget allows two: one per leader. */
const ODDS_COST = 3;
const BUDGET = 2 * ODDS_COST;

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function gauge(node: ClusterNode, name: string): Promise<number> {
  const res = await fetch(`${node.base}/metrics`, { headers: { 'x-admin-key': CLUSTER_ADMIN_KEY } });
  const text = await res.text();
  const m = new RegExp(`^${name} (\\S+)$`, 'm').exec(text);
  return m === null ? Number.NaN : Number(m[1]);
}

async function until(what: string, ok: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await ok()) return;
    await sleep(50);
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('scaled out: FEED=the-odds-api on the pipeline candidates', { skip }, () => {
  let fake: FakeUpstream;
  let cluster: Cluster;

  before(async () => {
    fake = await startFakeUpstream();
    const kickOff = new Date(Date.now() + 3 * 3_600_000).toISOString();
    fake.odds.set('soccer_epl', [
      oddsEvent('eee555', 'soccer_epl', { home: 'Arsenal', away: 'Chelsea' }, kickOff, [
        { key: 'wh', h2h: [2.1, 3.4, 3.6] },
      ]),
    ]);
    cluster = await startCluster({
      apiNodes: 1,
      pipelineNodes: 2,
      env: {
        FEED: 'the-odds-api',
        UPSTREAM_URL: fake.url,
        UPSTREAM_API_KEY: FAKE_KEY,
        UPSTREAM_SPORTS: 'soccer_epl',
        UPSTREAM_BOOKMAKER: 'wh',
        UPSTREAM_MONTHLY_BUDGET: String(BUDGET),
      },
    });
  });
  after(async () => {
    await cluster?.stop();
    await fake?.close();
  });

  it('the leader polls, the standby and the API node do not; the next leader goes on from the stored spend', async () => {
    const leader = await cluster.leader();
    const standby = cluster.pipeline.find((n) => n !== leader)!;
    await until(
      'the leader’s first poll',
      async () => (await gauge(leader, 'upstream_budget_used_credits')) === ODDS_COST,
    );
    assert.equal(fake.creditsUsed, ODDS_COST);
    assert.equal(await gauge(leader, 'upstream_calls'), fake.requests.length);
    // A standby never started its adapter (-1: no status); an API node has none.
    assert.equal(await gauge(standby, 'upstream_calls'), -1);
    assert.ok(Number.isNaN(await gauge(cluster.api[0]!, 'upstream_calls')), 'an API node has no upstream');

    leader.child.kill('SIGKILL');
    await leader.exited;
    const next = await cluster.leader(10_000);
    assert.equal(next, standby);
    // It reads the month's spend (3) before its first call, so it counts both leaders' calls.
    await until('the new leader’s poll', async () => (await gauge(next, 'upstream_budget_used_credits')) === BUDGET);
    assert.equal(fake.creditsUsed, BUDGET);
    assert.equal(await gauge(next, 'upstream_budget_left_credits'), 0);
    await sleep(1500);
    assert.equal(fake.creditsUsed, BUDGET, 'never more than the budget over both leaders');
  });
});
