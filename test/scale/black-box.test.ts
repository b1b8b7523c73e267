// The scaled-out deployment answers like the single process: the same feed into both, the same HTTP answers from every API node.
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { FeedMessage } from '../../src/feed/messages.js';
import { playOneGame } from '../../src/feed/simulator/single-game.js';
import { CLUSTER_ADMIN_KEY, CLUSTER_DEMO_KEY, clusterSkip, startCluster, type Cluster } from '../helpers/cluster.js';
import { listeningPort, startChild } from '../helpers/child-service.js';
import { outrightMarket, outrightResult, tournament } from '../helpers/outrights.js';

const skip = await clusterSkip();
const HOUR = 3_600_000;
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Games from the simulator at fixed places around now: two played out, one live, one not started. */
function feedLines(now: number): FeedMessage[] {
  const upTo = (messages: FeedMessage[]): FeedMessage[] =>
    messages.filter((m) => m.ts !== undefined && Date.parse(m.ts) <= now);
  const ts = (offset: number): string => new Date(now + offset).toISOString();
  return [
    ...playOneGame({ seed: 11, sport: 'soccer', publishAt: now - 5 * HOUR }).messages,
    ...playOneGame({ seed: 12, sport: 'tennis', publishAt: now - 6 * HOUR }).messages,
    ...upTo(playOneGame({ seed: 13, sport: 'basketball', publishAt: now - 1.6 * HOUR }).messages),
    ...upTo(playOneGame({ seed: 14, sport: 'ice_hockey', publishAt: now - 0.5 * HOUR }).messages),
    tournament('t-bb', 'soccer', 'Black Box Cup', ts(-3 * HOUR)) as unknown as FeedMessage,
    {
      ...outrightMarket('t-bb', 1, [
        [1, 'Alpha', 2.5],
        [2, 'Beta', 3.1],
        [3, 'Gamma', 4.2],
      ]),
      ts: ts(-3 * HOUR),
    } as unknown as FeedMessage,
    {
      ...outrightMarket(
        't-bb',
        2,
        [
          [11, 'Alpha', 1.9],
          [12, 'Beta', 1.9],
        ],
        'Top Scorer Team',
      ),
      ts: ts(-3 * HOUR),
    } as unknown as FeedMessage,
    { ...outrightResult('t-bb', 2, [11]), ts: ts(-HOUR) } as unknown as FeedMessage,
  ];
}

interface Answer {
  status: number;
  body: string;
}

async function ask(base: string, path: string, init: RequestInit = {}): Promise<Answer> {
  const res = await fetch(`${base}${path}`, {
    ...init,
    headers: { 'x-api-key': CLUSTER_DEMO_KEY, ...(init.headers as Record<string, string>) },
  });
  // Absolute logo URLs name the host the request came to: the same host for the comparison.
  const body = (await res.text()).replaceAll(new URL(base).host, 'HOST');
  return { status: res.status, body };
}

/** Settlement entries carry the time their last batch committed: that alone may differ between deployments. */
function withoutCommitTimes(a: Answer): Answer {
  return { status: a.status, body: a.body.replace(/"updated_at":"[^"]*"/g, '"updated_at":"…"') };
}

async function feed(base: string, lines: FeedMessage[]): Promise<void> {
  const res = await fetch(`${base}/admin/v1/feed`, {
    method: 'POST',
    headers: { 'x-admin-key': CLUSTER_ADMIN_KEY, 'content-type': 'application/x-ndjson' },
    body: lines.map((l) => JSON.stringify(l)).join('\n'),
  });
  const report = (await res.json()) as { accepted: number; rejected: number };
  assert.equal(res.status, 200);
  assert.equal(report.rejected, 0, JSON.stringify(report));
}

async function settled(base: string, entries: number): Promise<void> {
  for (let i = 0; i < 400; i++) {
    const page = JSON.parse((await ask(base, '/v1/settlements')).body) as {
      settlements: Array<{ pending_markets_count: number }>;
    };
    if (page.settlements.length === entries && page.settlements.every((s) => s.pending_markets_count === 0)) return;
    await sleep(50);
  }
  assert.fail(`${base}: settlement did not finish`);
}

describe('black box: an API node of the scaled-out deployment answers as the single process does', { skip }, () => {
  let cluster: Cluster;
  let reference: ChildProcess;
  let referenceBase: string;
  let dataDir: string;
  let eventIds: string[] = [];

  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'black-box-ref-'));
    reference = startChild(
      dataDir,
      0,
      { admin: CLUSTER_ADMIN_KEY, demo: CLUSTER_DEMO_KEY },
      { LOG_LEVEL: 'warn' },
      'pipe',
    );
    // Port 0, the kernel's choice, told by the service (listeningPort), while the cluster starts.
    const port = listeningPort(reference);
    port.catch(() => undefined);
    cluster = await startCluster();
    referenceBase = `http://127.0.0.1:${await port}`;
    reference.stdout?.resume();
    for (let i = 0; i < 400; i++) {
      try {
        if ((await fetch(`${referenceBase}/readyz`)).ok) break;
      } catch {
        // not yet
      }
      await sleep(25);
    }
    const lines = feedLines(Date.now());
    eventIds = [...new Set(lines.filter((m) => m.type === 'fixture').map((m) => m.event_id))];
    // The same messages (every one with its ts) into the single process and, through an API node, the cluster.
    await feed(referenceBase, lines);
    await feed(cluster.api[0]!.base, lines);
    await settled(referenceBase, 2);
    await settled(cluster.api[0]!.base, 2);
  });

  after(async () => {
    reference?.kill('SIGTERM');
    await cluster?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  const paths = (): string[] => [
    '/v1/sports',
    '/v1/leagues',
    '/v1/events',
    '/v1/events?status=all&limit=200',
    '/v1/events?status=ended',
    '/v1/events?status=live&odds_format=american',
    '/v1/events?sport=ice_hockey&odds_format=fractional',
    '/v1/live',
    '/v1/scores',
    '/v1/events/featured',
    '/v1/outrights',
    '/v1/outrights/sports',
    '/v1/settlements/outrights',
    ...eventIds.flatMap((id) => [
      `/v1/events/${id}`,
      `/v1/events/${id}?odds_format=american`,
      `/v1/events/${id}/odds?odds_format=fractional`,
      `/v1/events/${id}/result`,
    ]),
    // Errors are part of the contract too.
    '/v1/events/no-such-event',
    '/v1/events?limit=0',
    '/v1/events?status=sideways',
    '/v1/settlements?event_ids=' + 'x,'.repeat(60),
  ];

  it('every read answers byte for byte as the single process, on the node that took the feed and on the other', async () => {
    let ok = 0;
    for (const node of cluster.api) {
      for (const path of paths()) {
        const expected = await ask(referenceBase, path);
        assert.deepEqual(await ask(node.base, path), expected, `${node.base}${path}`);
        if (expected.status === 200) ok++;
      }
    }
    // 4 events × 4 reads + 13 lists, on two nodes: all found (the errors come on top).
    assert.equal(ok, 2 * (4 * 4 + 13));
  });

  it('the settlement feed and batch reads answer the same (commit times aside)', async () => {
    for (const node of cluster.api) {
      for (const path of ['/v1/settlements', ...eventIds.map((id) => `/v1/settlements?event_id=${id}`)]) {
        assert.deepEqual(
          withoutCommitTimes(await ask(node.base, path)),
          withoutCommitTimes(await ask(referenceBase, path)),
          `${node.base}${path}`,
        );
      }
      const batch = {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ids: [...eventIds, 'nope'] }),
      };
      assert.deepEqual(
        await ask(node.base, '/v1/events/batch', batch),
        await ask(referenceBase, '/v1/events/batch', batch),
      );
    }
  });

  it('keys and bet checks behave the same (no key, a wrong key, a bet on a live market)', async () => {
    const [node] = cluster.api;
    assert.ok(node !== undefined);
    for (const headers of [{ 'x-api-key': '' }, { 'x-api-key': 'sk_wrong' }]) {
      assert.deepEqual(
        await ask(node.base, '/v1/events', { headers }),
        await ask(referenceBase, '/v1/events', { headers }),
      );
    }
    // The live game: its markets are on show.
    const live = eventIds[2];
    const detail = JSON.parse((await ask(referenceBase, `/v1/events/${live}`)).body) as {
      markets: Array<{ market_id: number; outcomes: Array<{ selection_id: number }> }>;
    };
    const market = detail.markets[0];
    assert.ok(market !== undefined);
    const bet = {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        legs: [{ event_id: live, market_id: market.market_id, selection_id: market.outcomes[0]?.selection_id }],
        stake: 10,
      }),
    };
    assert.deepEqual(await ask(node.base, '/v1/bets/check', bet), await ask(referenceBase, '/v1/bets/check', bet));
  });
});
