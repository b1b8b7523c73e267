// Settlement survives kill -9: a service killed mid-settlement resumes on restart, nothing lost, nothing twice.
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { startListening, waitReady } from '../helpers/child-service.js';
import { until } from '../helpers/until.js';

const ADMIN = 'kill-admin';
const KEY = 'kill-demo';

interface Entry {
  event_id: string;
  resolved_markets_count: number;
  pending_markets_count: number;
  total_markets_count: number;
  revision: number;
  resolved_markets: Array<{ market_id: number; outcomes: Array<{ result: string }> }>;
}

/** Starts the service, on `port` (0: the kernel's choice), and waits until it listens. */
function start(dataDir: string, port: number): Promise<{ child: ChildProcess; port: number; base: string }> {
  return startListening(
    dataDir,
    port,
    { admin: ADMIN, demo: KEY },
    {
      // One market per commit: settlement of this event takes many commits, so a kill lands mid-way.
      SETTLEMENT_BATCH_SIZE: '1',
    },
  );
}

async function entry(base: string): Promise<Entry | undefined> {
  const res = await fetch(`${base}/v1/settlements?event_id=k1`, { headers: { 'x-api-key': KEY } });
  const body = (await res.json()) as { settlements: Entry[] };
  return body.settlements[0];
}

function feedBody(): string {
  const markets = [];
  let sel = 0;
  for (let m = 1; m <= 400; m++) {
    const line = (m % 40) / 4 + 0.5;
    markets.push({
      market_id: m,
      key: m % 2 === 0 ? `totals:${line}` : `asian_handicap:${-line}`,
      name: `Market ${m}`,
      outcomes: [
        { selection_id: ++sel, code: m % 2 === 0 ? 'over' : 'home', label: 'A', odds: 1.9 },
        { selection_id: ++sel, code: m % 2 === 0 ? 'under' : 'away', label: 'B', odds: 1.9 },
      ],
    });
  }
  const start = new Date(Date.now() - 2 * 3_600_000).toISOString();
  return [
    {
      type: 'fixture',
      event_id: 'k1',
      sport: 'soccer',
      league: { slug: 'test', name: 'Test', country: 'Testland' },
      home_team: 'H',
      away_team: 'A',
      start_time: start,
    },
    { type: 'markets', event_id: 'k1', markets },
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
  ]
    .map((m) => JSON.stringify(m))
    .join('\n');
}

describe('settlement and kill -9', () => {
  it('a service killed mid-settlement finishes the entry after a restart, each market exactly once', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'kill-settle-'));
    const first = await start(dataDir, 0);
    const { port, base } = first;
    let child = first.child;
    try {
      await waitReady(base);
      const fed = await fetch(`${base}/admin/v1/feed`, {
        method: 'POST',
        headers: { 'x-admin-key': ADMIN, 'content-type': 'application/x-ndjson' },
        body: feedBody(),
      });
      assert.equal(fed.status, 200);
      // Kill as soon as the entry exists but is not complete.
      let seen: Entry | undefined;
      for (let i = 0; i < 400; i++) {
        seen = await entry(base);
        if (seen !== undefined) break;
        await new Promise((r) => setTimeout(r, 5));
      }
      child.kill('SIGKILL');
      await new Promise((r) => child.once('exit', r));
      assert.ok(seen !== undefined, 'the entry appeared before the kill');
      assert.ok(seen.pending_markets_count > 0, `killed mid-settlement (pending ${seen.pending_markets_count})`);

      child = (await start(dataDir, port)).child;
      await waitReady(base);
      let done: Entry | undefined;
      // The restarted service settles the rest: waited for (a minute at most), not 400 polls.
      await until(
        'the settlement completed after the restart',
        async () => (done = await entry(base)) !== undefined && done.pending_markets_count === 0,
        60_000,
        25,
      ).catch(() => undefined);
      assert.ok(done !== undefined);
      assert.equal(done.pending_markets_count, 0);
      assert.equal(done.resolved_markets_count, 400);
      assert.equal(done.total_markets_count, 400);
      const ids = done.resolved_markets.map((m) => m.market_id);
      assert.equal(new Set(ids).size, 400, 'no market twice');
      assert.ok(done.revision > seen.revision, 'revisions continue after the restart');
      assert.ok(done.resolved_markets.every((m) => m.outcomes.every((o) => o.result !== undefined)));
    } finally {
      child.kill('SIGKILL');
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
