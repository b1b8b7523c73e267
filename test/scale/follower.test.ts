// In-process pipeline leader and API node on PostgreSQL and Redis: stream gaps, stale epochs, new leaders, a lost lock.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import pg from 'pg';
import { loadConfig } from '../../src/config.js';
import { ChangeStreamKeys, ChangeStreamReader, ChangeStreamWriter } from '../../src/pipeline/redis-change-stream.js';
import { encodeFeedBatch } from '../../src/pipeline/stream-codec.js';
import { createService, type Service } from '../../src/service.js';
import { clusterSkip } from '../helpers/cluster.js';
import { createTestSchema, TEST_DATABASE_URL, type TestSchema } from '../helpers/postgres.js';
import { dropPrefix, testPrefix, TEST_REDIS_URL } from '../helpers/redis.js';

const skip = await clusterSkip();
const ADMIN = 'follower-admin';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

const fixture = (id: string): object => ({
  type: 'fixture',
  event_id: id,
  sport: 'soccer',
  league: { slug: 'follow', name: 'Follow League', country: 'Testland' },
  home_team: `${id} Home`,
  away_team: `${id} Away`,
  start_time: new Date(Date.now() + 3_600_000).toISOString(),
});

describe('a replica following the change stream', { skip }, () => {
  let schema: TestSchema;
  let prefix: string;
  let redis: Redis;
  const services: Service[] = [];
  const lost: string[] = [];

  async function start(role: 'api' | 'pipeline'): Promise<Service> {
    const config = loadConfig({
      ROLE: role,
      DATABASE_URL: schema.url,
      REDIS_URL: TEST_REDIS_URL,
      REDIS_PREFIX: prefix,
      FEED: 'none',
      ADMIN_KEY: ADMIN,
      DEMO_API_KEY: 'follower-demo',
      LOG_LEVEL: 'silent',
      FLUSH_INTERVAL_MS: '100',
      // Only the stale-feed test has live events: the others' fixtures are never stale-locked.
      STALE_LOCK_SECONDS: '0.5',
    });
    const service = await createService(config, { onLeadershipLost: (reason) => lost.push(reason) });
    services.push(service);
    return service;
  }

  async function leads(service: Service): Promise<void> {
    await until('a leader', async () => (await service.app.inject({ url: '/readyz' })).statusCode === 200);
  }

  async function feed(service: Service, lines: object[]): Promise<void> {
    const res = await service.app.inject({
      method: 'POST',
      url: '/admin/v1/feed',
      headers: { 'x-admin-key': ADMIN, 'content-type': 'application/x-ndjson' },
      payload: lines.map((l) => JSON.stringify(l)).join('\n'),
    });
    assert.equal(res.statusCode, 200, res.body);
  }

  /** The stream's last entry: its id, epoch and sequence number. */
  async function last(): Promise<{ id: string; epoch: number; seq: number }> {
    const [entry] = await redis.xrevrange(`${prefix}:changes`, '+', '-', 'COUNT', 1);
    assert.ok(entry !== undefined);
    const fields = entry[1];
    const get = (name: string): number => Number(fields[fields.indexOf(name) + 1]);
    return { id: entry[0], epoch: get('e'), seq: get('s') };
  }

  async function forge(epoch: number, seq: number, messages: object[]): Promise<void> {
    const data = encodeFeedBatch(messages.map((m) => ({ ...m, ts: new Date().toISOString() })) as never);
    await redis.xadd(`${prefix}:changes`, '*', 'e', epoch, 's', seq, 'k', 'feed', 'd', data);
  }

  let leader: Service;
  let api: Service;

  before(async () => {
    schema = await createTestSchema();
    prefix = testPrefix();
    redis = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: 1 });
    leader = await start('pipeline');
    await leads(leader);
    api = await start('api');
  });

  after(async () => {
    for (const s of services.reverse()) await s.close().catch(() => undefined);
    await dropPrefix(redis, prefix);
    redis.disconnect();
    await schema.drop();
  });

  it('a replica applies what the leader applied', async () => {
    await feed(leader, [fixture('f1')]);
    await until('f1 on the API node', () => api.readModel.get('f1') !== undefined);
    assert.equal(api.readModel.get('f1')?.event.updatedAt, leader.readModel.get('f1')?.event.updatedAt);
    // Caught up: the node no longer holds entries in the stream.
    await until('the hold released', async () => (await redis.hlen(`${prefix}:changes:holds`)) === 0);
  });

  it('entries of an older epoch (a deposed leader) are ignored', async () => {
    const { epoch } = await last();
    await forge(epoch - 1, 999, [fixture('zombie')]);
    await feed(leader, [fixture('f2')]);
    await until('f2 on the API node', () => api.readModel.get('f2') !== undefined);
    assert.equal(api.readModel.get('zombie'), undefined);
    assert.equal(api.follower?.snapshots, 0);
  });

  it('a hole in the sequence (a lost entry) makes the replica reload from the store, past the hole', async () => {
    const { epoch, seq } = await last();
    // An entry the replica never sees: the store has it (the leader applied it), the stream does not.
    await forge(epoch, seq + 2, [fixture('phantom')]);
    await feed(leader, [fixture('f3')]);
    await until('a fresh snapshot', () => api.follower?.snapshots === 1);
    await until('f3 on the API node', () => api.readModel.get('f3') !== undefined);
    // The forged entry was never applied by the leader, so the store (and now the replica) lacks it.
    assert.equal(api.readModel.get('phantom'), undefined);
    assert.ok(api.readModel.get('f1') !== undefined && api.readModel.get('f2') !== undefined);
  });

  it("a leader's stale-feed lock reaches the replica, survives its reload from the store and lifts with fresh data", async () => {
    await feed(leader, [
      fixture('s1'),
      {
        type: 'markets',
        event_id: 's1',
        markets: [
          {
            market_id: 1,
            key: '1x2',
            name: 'Match Result',
            outcomes: [
              { selection_id: 11, code: 'home', label: 'Home', odds: 2.1 },
              { selection_id: 12, code: 'draw', label: 'Draw', odds: 3.3 },
              { selection_id: 13, code: 'away', label: 'Away', odds: 3.4 },
            ],
          },
        ],
      },
      { type: 'status', event_id: 's1', status: 'live' },
    ]);
    await until('s1 stale-locked on the API node', () => api.readModel.get('s1')?.stale === true);
    const locks = async (): Promise<boolean[]> => {
      const res = await api.app.inject({ url: '/v1/events/s1/odds', headers: { 'x-api-key': 'follower-demo' } });
      const body = res.json<{ markets: Array<{ outcomes: Array<{ is_locked: boolean }> }> }>();
      return body.markets.flatMap((m) => m.outcomes.map((o) => o.is_locked));
    };
    assert.deepEqual(await locks(), [true, true, true]);
    // A hole: the replica reloads from the store, where the lock was written with the event.
    const snapshots = api.follower?.snapshots ?? 0;
    const { epoch, seq } = await last();
    await forge(epoch, seq + 2, [fixture('phantom-s')]);
    await feed(leader, [fixture('s2')]);
    await until('a fresh snapshot', () => api.follower?.snapshots === snapshots + 1);
    await until('s2 on the API node', () => api.readModel.get('s2') !== undefined);
    assert.equal(api.readModel.get('s1')?.stale, true);
    assert.deepEqual(await locks(), [true, true, true]);
    // The same odds again change nothing, and still lift the lock everywhere.
    await feed(leader, [{ type: 'odds', event_id: 's1', changes: [{ selection_id: 11, odds: 2.1 }] }]);
    await until('s1 unlocked on the API node', () => api.readModel.get('s1')?.stale === false);
    assert.deepEqual(await locks(), [false, false, false]);
    // Ended, so no later test finds it locked again.
    await feed(leader, [{ type: 'result', event_id: 's1', status: 'ended', score: { home: 0, away: 0 } }]);
    await until('s1 ended on the API node', () => api.readModel.get('s1')?.event.status === 'ended');
  });

  it('a new leader (a new epoch): the replica follows it at once and swaps in the store loaded in the background', async () => {
    const standby = await start('pipeline');
    assert.equal((await standby.app.inject({ url: '/readyz' })).statusCode, 503);
    const refused = await standby.app.inject({
      method: 'POST',
      url: '/admin/v1/feed',
      headers: { 'x-admin-key': ADMIN, 'content-type': 'application/x-ndjson' },
      payload: JSON.stringify(fixture('never')),
    });
    assert.equal(refused.statusCode, 503);
    assert.equal(refused.json<{ component: string }>().component, 'pipeline');
    // A pipeline node serves no client reads.
    assert.equal(
      (await standby.app.inject({ url: '/v1/events', headers: { 'x-api-key': 'follower-demo' } })).statusCode,
      404,
    );
    const before = api.follower?.snapshots ?? 0;
    // The old leader's last change, published but never flushed: the new leader (the store) lacks it.
    const { epoch, seq } = await last();
    await forge(epoch, seq + 1, [fixture('unflushed')]);
    await until('the unflushed change on the API node', () => api.readModel.get('unflushed') !== undefined);
    await leader.close(); // releases the lock
    await leads(standby);
    await feed(standby, [fixture('f4')]);
    await until('f4 on the API node', () => api.readModel.get('f4') !== undefined);
    // It followed the new leader at once, and the store loaded in the background replaced its state.
    await until('the background load swapped in', () => (api.follower?.snapshots ?? 0) > before);
    assert.equal(api.readModel.get('unflushed'), undefined, "the state is the new leader's (the store's)");
    assert.ok(api.readModel.get('f4') !== undefined, 'entries applied during the load were applied again on top');
    leader = standby;
  });

  it('after Redis lost everything (a restart without persistence), the replica follows the next leader', async () => {
    await dropPrefix(redis, prefix);
    const next = await start('pipeline');
    const before = api.follower?.snapshots ?? 0;
    await leader.close();
    await leads(next);
    // The epochs start again at 1: not a deposed leader's entries, since the current epoch says so.
    await until('a snapshot for the restarted epochs', () => (api.follower?.snapshots ?? 0) > before);
    await feed(next, [fixture('f5')]);
    await until('f5 on the API node', () => api.readModel.get('f5') !== undefined);
    assert.equal((await last()).epoch, 1);
    leader = next;
  });

  it('a leader whose election session is killed steps down at once, then stands again and leads afresh', async () => {
    const pid = leader.election?.sessionPid;
    assert.ok(typeof pid === 'number');
    const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await admin.connect();
    try {
      await admin.query('select pg_terminate_backend($1)', [pid]);
    } finally {
      await admin.end();
    }
    await until('leadership lost', () => lost.length > 0);
    assert.match(lost[0] ?? '', /election connection/);
    // Deposed: it takes no feed and writes nothing until elected again.
    assert.equal(leader.election?.leading, false);
    // The only candidate: it is elected again, loads the store afresh and takes the feed.
    await leads(leader);
    assert.equal(leader.election?.stepDowns, 1);
    // What was flushed before is there again (what was not is the new term's to lose: it never wrote it).
    assert.ok(leader.readModel.get('f4') !== undefined, 'the store loaded afresh');
    await feed(leader, [fixture('f6')]);
    await until('f6 on the API node', () => api.readModel.get('f6') !== undefined);
  });
});

describe('the change stream in Redis', { skip }, () => {
  it('is trimmed by age, except the entries a loading node holds', async () => {
    const redis = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: 1 });
    const prefix = testPrefix();
    const keys = new ChangeStreamKeys(prefix);
    const writer = new ChangeStreamWriter(redis, keys, { warn: () => undefined, error: () => undefined }, 200);
    const reader = new ChangeStreamReader(redis.duplicate(), keys);
    try {
      await writer.begin({ startAt: 0, wallStartAt: 0, speed: 1 });
      const [first] = await redis.xrange(keys.stream, '-', '+', 'COUNT', 1);
      assert.ok(first !== undefined);
      await reader.hold('loader', first[0], await reader.offsetMs());
      await writer.refreshHolds();
      const burst = async (): Promise<void> => {
        for (let i = 0; i < 300; i++) writer.settlement({ event_id: `e${i}`, ended_at: 0, pending: false });
        await redis.ping(); // after every XADD sent before it
      };
      await burst();
      await sleep(300);
      await burst();
      assert.equal(await redis.xlen(keys.stream), 601, 'held: nothing trimmed');
      await reader.release('loader');
      await writer.refreshHolds();
      await sleep(300);
      await burst();
      // Approximate trimming drops whole nodes of entries: most of the 600 old ones are gone.
      assert.ok((await redis.xlen(keys.stream)) < 450, `trimmed to ${await redis.xlen(keys.stream)}`);
    } finally {
      writer.stop();
      reader.close();
      await dropPrefix(redis, prefix);
      redis.disconnect();
    }
  });
});
