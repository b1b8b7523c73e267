// In-process pipeline leader and API nodes on PostgreSQL and Redis: a starting API node loads the leader's stored window only when it provably joins the stream.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import pg from 'pg';
import { loadConfig } from '../../src/config.js';
import type { ChangeLog } from '../../src/live/change-log.js';
import { formatLogPosition } from '../../src/live/log-position.js';
import { createService, type Service } from '../../src/service.js';
import { clusterSkip } from '../helpers/cluster.js';
import { createTestSchema, type TestSchema } from '../helpers/postgres.js';
import { dropPrefix, testPrefix, TEST_REDIS_URL } from '../helpers/redis.js';
import { until } from '../helpers/until.js';

const skip = await clusterSkip();
const ADMIN = 'window-admin';

const fixture = (id: string): object => ({
  type: 'fixture',
  event_id: id,
  sport: 'soccer',
  league: { slug: 'window', name: 'Window League', country: 'Testland' },
  home_team: `${id} Home`,
  away_team: `${id} Away`,
  start_time: new Date(Date.now() + 3_600_000).toISOString(),
});

/** A node's log as a client would see it (without what only the leader logs: evictions). */
const view = (log: ChangeLog): string[] =>
  log
    .since(null)
    .filter((e) => e.kind !== 'evicted')
    .map((e) => `${formatLogPosition(e.position)} ${e.kind} ${e.eventId} ${'json' in e ? e.json : ''}`);

describe("a starting API node and the leader's stored replay window", { skip }, () => {
  let schema: TestSchema;
  let prefix: string;
  let redis: Redis;
  let leader: Service;
  const services: Service[] = [];

  async function start(role: 'api' | 'pipeline'): Promise<Service> {
    const config = loadConfig({
      ROLE: role,
      DATABASE_URL: schema.url,
      REDIS_URL: TEST_REDIS_URL,
      REDIS_PREFIX: prefix,
      FEED: 'none',
      ADMIN_KEY: ADMIN,
      DEMO_API_KEY: 'window-demo',
      DEMO_PLAN: 'unlimited',
      LOG_LEVEL: 'silent',
      FLUSH_INTERVAL_MS: '100',
    });
    const service = await createService(config, {});
    services.push(service);
    return service;
  }

  async function feed(lines: object[]): Promise<void> {
    const res = await leader.app.inject({
      method: 'POST',
      url: '/admin/v1/feed',
      headers: { 'x-admin-key': ADMIN, 'content-type': 'application/x-ndjson' },
      payload: lines.map((l) => JSON.stringify(l)).join('\n'),
    });
    assert.equal(res.statusCode, 200, res.body);
  }

  async function sql(text: string): Promise<void> {
    const client = new pg.Client({ connectionString: schema.url });
    await client.connect();
    try {
      await client.query(text);
    } finally {
      await client.end();
    }
  }

  before(async () => {
    schema = await createTestSchema();
    prefix = testPrefix();
    redis = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: 1 });
    leader = await start('pipeline');
    await until('a leader', async () => (await leader.app.inject({ url: '/readyz' })).statusCode === 200);
    for (const id of ['w1', 'w2', 'w3']) await feed([fixture(id), { type: 'status', event_id: id, status: 'live' }]);
  });

  after(async () => {
    for (const s of services.reverse()) await s.close().catch(() => undefined);
    await dropPrefix(redis, prefix);
    redis.disconnect();
    await schema.drop();
  });

  it("a node that starts holds the leader's log from before its start, and goes on with it", async () => {
    const api = await start('api');
    assert.ok((api.follower?.windowRestored ?? 0) >= 6, `loaded ${api.follower?.windowRestored}`);
    await feed([fixture('w4')]);
    await until('w4 on the API node', () => api.readModel.get('w4') !== undefined);
    await until('the same log', () => view(api.log).length === view(leader.log).length);
    assert.deepEqual(view(api.log), view(leader.log));
    const first = api.log.since(null)[0];
    assert.ok(first !== undefined);
    assert.ok(api.log.after(first.position).ok, 'an id from before the node started resumes');
  });

  it("a stored window of another leader's term is not loaded: ids from before the node started are lost", async () => {
    const before = leader.log.since(null)[0];
    assert.ok(before !== undefined);
    // Once the leader has stored everything (it writes nothing more until a change): the run's epoch is another's.
    await until('the window stored', () => {
      const through = leader.pipeline.logWindow?.storedThrough;
      return through !== null && through !== undefined && formatLogPosition(through) === leader.log.headId;
    });
    await sql("update log_state set value = value + 100 where name = 'run_epoch'");
    const api = await start('api');
    assert.equal(api.follower?.windowRestored, null);
    await feed([fixture('w5')]);
    await until('w5 on the API node', () => api.readModel.get('w5') !== undefined);
    assert.deepEqual(api.log.after(before.position), { ok: false, reason: 'lost' });
    await sql("update log_state set value = value - 100 where name = 'run_epoch'");
  });

  it('a watermark that does not reach the stream tip (no flush covers it) loads no window', async () => {
    const before = leader.log.since(null)[0];
    assert.ok(before !== undefined);
    // An entry the leader never wrote (so never flushes past) at the stream's tip; the leader stops publishing.
    await leader.close();
    const [entry] = await redis.xrevrange(`${prefix}:changes`, '+', '-', 'COUNT', 1);
    assert.ok(entry !== undefined);
    const epoch = Number(entry[1][entry[1].indexOf('e') + 1]);
    await redis.xadd(`${prefix}:changes`, '*', 'e', epoch, 's', 10_000, 'k', 'settlement', 'd', '{}');
    const api = await start('api');
    assert.equal(api.follower?.windowRestored, null);
    assert.deepEqual(api.log.after(before.position).ok, false);
  });
});
