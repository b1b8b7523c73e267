// In-process pipeline leader and API node on PostgreSQL and Redis: stream gaps, stale epochs, new leaders, a lost lock.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import pg from 'pg';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../../src/config.js';
import type { ChangeLog } from '../../src/live/change-log.js';
import type { LogEntryKind } from '../../src/live/log-entry.js';
import { formatLogPosition } from '../../src/live/log-position.js';
import { ChangeStreamKeys, ChangeStreamReader, ChangeStreamWriter } from '../../src/pipeline/redis-change-stream.js';
import { encodeBatchPositions, encodeFeedBatch } from '../../src/pipeline/stream-codec.js';
import { createService, type Service } from '../../src/service.js';
import { clusterSkip, endedEvent } from '../helpers/cluster.js';
import { SseClient } from '../helpers/sse.js';
import { createTestSchema, TEST_DATABASE_URL, type TestSchema } from '../helpers/postgres.js';
import { dropPrefix, testPrefix, TEST_REDIS_URL } from '../helpers/redis.js';
import { sleep, until } from '../helpers/until.js';

const skip = await clusterSkip();
const ADMIN = 'follower-admin';

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
  /** Whether the node still called itself leader when it was told it lost the leadership. */
  const leadingWhenLost: Array<boolean | undefined> = [];

  async function start(role: 'api' | 'pipeline'): Promise<Service> {
    const config = loadConfig({
      ROLE: role,
      DATABASE_URL: schema.url,
      REDIS_URL: TEST_REDIS_URL,
      REDIS_PREFIX: prefix,
      FEED: 'none',
      ADMIN_KEY: ADMIN,
      DEMO_API_KEY: 'follower-demo',
      DEMO_PLAN: 'unlimited',
      LOG_LEVEL: 'silent',
      FLUSH_INTERVAL_MS: '100',
      // Only the stale-feed test has live events: the others' fixtures are never stale-locked.
      STALE_LOCK_SECONDS: '0.5',
    });
    const service = await createService(config, {
      onLeadershipLost: (reason) => {
        lost.push(reason);
        leadingWhenLost.push(service.election?.leading);
      },
    });
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

  /**
   * Writes a feed entry as if a leader had: `kinds` are the log entries its messages make on a node
   * that applies them, given positions after `after`'s head (without `kinds`: an older leader's
   * entry, with no positions).
   */
  async function forge(
    epoch: number,
    seq: number,
    messages: object[],
    kinds?: LogEntryKind[],
    after?: ChangeLog,
  ): Promise<void> {
    const data = encodeFeedBatch(messages.map((m) => ({ ...m, ts: new Date().toISOString() })) as never);
    const fields: Array<string | number | Buffer> = ['e', epoch, 's', seq, 'k', 'feed', 'd', data];
    if (kinds !== undefined) {
      const ms = Math.max(Date.now(), (after?.head.ms ?? 0) + 1);
      fields.push('p', encodeBatchPositions({ ms: kinds.map(() => ms), seq: kinds.map((_, i) => i), kinds }));
    }
    await redis.xadd(`${prefix}:changes`, '*', ...fields);
  }

  /** A node's log as a client would see it (without what only the leader logs: evictions). */
  const view = (log: ChangeLog): string[] =>
    log
      .since(null)
      .filter((e) => e.kind !== 'evicted')
      .map((e) => `${formatLogPosition(e.position)} ${e.kind} ${e.eventId} ${'json' in e ? e.json : ''}`);

  let leader: Service;
  let api: Service;
  let apiBase: string;
  /** A client streaming from the API node all along (what it is told across gaps and new leaders). */
  let watcher: SseClient;

  before(async () => {
    schema = await createTestSchema();
    prefix = testPrefix();
    redis = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: 1 });
    leader = await start('pipeline');
    await leads(leader);
    api = await start('api');
    await api.app.listen({ port: 0, host: '127.0.0.1' });
    apiBase = `http://127.0.0.1:${(api.app.server.address() as AddressInfo).port}`;
    watcher = await SseClient.connect(apiBase, '/v1/stream', { 'x-api-key': 'follower-demo' });
  });

  after(async () => {
    watcher?.close();
    for (const s of services.reverse()) await s.close().catch(() => undefined);
    await dropPrefix(redis, prefix);
    redis.disconnect();
    await schema.drop();
  });

  it('a replica applies what the leader applied, and logs it at the positions the leader logged it', async () => {
    await feed(leader, [fixture('f1')]);
    await until('f1 on the API node', () => api.readModel.get('f1') !== undefined);
    assert.equal(api.readModel.get('f1')?.event.updatedAt, leader.readModel.get('f1')?.event.updatedAt);
    // Caught up: the node no longer holds entries in the stream.
    await until('the hold released', async () => (await redis.hlen(`${prefix}:changes:holds`)) === 0);
    // Settlement entries too: the leader commits them between feed batches, the replica appends them as they were.
    await feed(leader, endedEvent('f1-ended', 4));
    await until('the settlement on the API node', () =>
      api.log
        .since(null)
        .some(
          (e) =>
            e.kind === 'settlement' &&
            e.eventId === 'f1-ended' &&
            'json' in e &&
            e.json.includes('"pending_markets_count":0'),
        ),
    );
    assert.deepEqual(view(api.log), view(leader.log));
    await watcher.until((ev) => ev.some((e) => e.event === 'settlement'), 5000, 'the settlement on the stream');
    assert.deepEqual(
      watcher.changes.map((e) => e.id),
      view(api.log)
        .filter((l) => !l.includes(' stats '))
        .map((l) => l.split(' ')[0]),
      'the stream shows every entry, with its position as id',
    );
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
    const before = api.log.headId;
    // An entry the replica never sees: the store has it (the leader applied it), the stream does not.
    await forge(epoch, seq + 2, [fixture('phantom')]);
    await feed(leader, [fixture('f3')]);
    await until('a fresh snapshot', () => api.follower?.snapshots === 1);
    await until('f3 on the API node', () => api.readModel.get('f3') !== undefined);
    // The forged entry was never applied by the leader, so the store (and now the replica) lacks it.
    assert.equal(api.readModel.get('phantom'), undefined);
    assert.ok(api.readModel.get('f1') !== undefined && api.readModel.get('f2') !== undefined);

    // The node cannot replay what it missed: its open stream is told, and so is a client resuming from before.
    await feed(leader, [fixture('f3b')]);
    await until('f3b on the API node', () => api.readModel.get('f3b') !== undefined);
    await watcher.until((ev) => ev.some((e) => e.event === 'snapshot_required'), 5000, 'snapshot_required');
    const told = watcher.changes.find((e) => e.event === 'snapshot_required');
    assert.equal(told?.data.reason, 'lost');
    assert.equal(told?.data.last_event_id, before);
    const resumed = await SseClient.connect(apiBase, '/v1/stream', {
      'x-api-key': 'follower-demo',
      'last-event-id': before,
    });
    await resumed.untilCount(1);
    resumed.close();
    assert.equal(resumed.changes[0]?.event, 'snapshot_required');
    assert.equal(resumed.changes[0]?.data.reason, 'lost');
    // From the id it was given the stream is exact again.
    const again = await SseClient.connect(apiBase, '/v1/stream', {
      'x-api-key': 'follower-demo',
      'last-event-id': String(told?.id),
    });
    await feed(leader, [fixture('f3c')]);
    await again.until((ev) => ev.some((e) => e.data.event_id === 'f3c'), 5000, 'f3c');
    again.close();
    assert.ok(!again.changes.some((e) => e.event === 'snapshot_required'));
    assert.deepEqual(
      view(api.log),
      view(leader.log).slice(-view(api.log).length),
      "after the reload, the leader's positions again",
    );
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
    // The lock took the leader's position on the API node, like any change.
    await until('the lock logged on the API node', () => view(api.log).some((l) => l.includes('stale_feed')));
    assert.deepEqual(view(api.log), view(leader.log).slice(-view(api.log).length));
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
    // The lift took the leader's position on the API node, like any change.
    assert.deepEqual(view(api.log), view(leader.log).slice(-view(api.log).length));
    // Suspended, so the leader locks it no more: later tests count on the leader publishing only what
    // they feed (a result would do, but its settlement entry would come at a moment of its own).
    await feed(leader, [{ type: 'status', event_id: 's1', status: 'suspended' }]);
    await until('s1 suspended on the API node', () => api.readModel.get('s1')?.event.status === 'suspended');
  });

  it("a batch whose replay makes other entries than the leader's: the replica reloads and its streams say so", async () => {
    const { epoch, seq } = await last();
    const snapshots = api.follower?.snapshots ?? 0;
    const told = watcher.changes.filter((e) => e.event === 'snapshot_required').length;
    // The leader says this batch made a score entry; applied here it makes a fixture entry.
    await forge(epoch, seq + 1, [fixture('odd')], ['score'], api.log);
    await feed(leader, [fixture('f3d')]); // the leader's next entry, and a flush past the forged one
    await until('the reload', () => (api.follower?.snapshots ?? 0) > snapshots);
    assert.equal(api.follower?.divergences, 1);
    await until('f3d on the API node', () => api.readModel.get('f3d') !== undefined);
    assert.equal(api.readModel.get('odd'), undefined, 'the reload dropped what the leader never applied');
    await feed(leader, [fixture('f3e')]);
    await watcher.until(
      (ev) => ev.filter((e) => e.event === 'snapshot_required').length > told,
      5000,
      'snapshot_required after the divergence',
    );
    assert.ok(!view(api.log).some((l) => l.includes(' odd ')), 'no entry of the diverged replay was logged');
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
    const told = watcher.changes.filter((e) => e.event === 'snapshot_required').length;
    // The old leader's last change, published but never flushed: the store lacks it.
    const { epoch, seq } = await last();
    await forge(epoch, seq + 1, [fixture('unflushed')], ['fixture'], api.log);
    await until('the unflushed change on the API node', () => api.readModel.get('unflushed') !== undefined);
    const unflushedId = api.log.headId;
    await leader.close(); // releases the lock
    await leads(standby);
    // The new leader replayed what the old one published after its last flush, and continues its positions.
    assert.ok(standby.readModel.get('unflushed') !== undefined, 'the new leader replayed the tail');
    await feed(standby, [fixture('f4')]);
    await until('f4 on the API node', () => api.readModel.get('f4') !== undefined);
    // It followed the new leader at once, and the store loaded in the background replaced its state.
    await until('the background load swapped in', () => (api.follower?.snapshots ?? 0) > before);
    assert.ok(api.readModel.get('unflushed') !== undefined, 'the store has it too (the new leader flushed it)');
    assert.ok(api.readModel.get('f4') !== undefined, 'entries applied during the load were applied again on top');
    // The stream went on without a gap: no snapshot_required, and a client resuming from the old
    // leader's last entry gets exactly the new leader's entries.
    await watcher.until((ev) => ev.some((e) => e.data.event_id === 'f4'), 5000, 'f4 on the stream');
    assert.equal(watcher.changes.filter((e) => e.event === 'snapshot_required').length, told);
    const resumed = await SseClient.connect(apiBase, '/v1/stream', {
      'x-api-key': 'follower-demo',
      'last-event-id': unflushedId,
    });
    await resumed.untilCount(1);
    resumed.close();
    assert.deepEqual(
      resumed.changes.map((e) => [e.event, e.data.event_id]),
      [['status', 'f4']],
    );
    leader = standby;
  });

  it('after Redis lost everything (a restart without persistence), the replica follows the next leader', async () => {
    await dropPrefix(redis, prefix);
    const next = await start('pipeline');
    const before = api.follower?.snapshots ?? 0;
    await leader.close();
    await leads(next);
    // The epochs start again at 1: not a deposed leader's entries, since the current epoch says so.
    const told = watcher.changes.filter((e) => e.event === 'snapshot_required').length;
    await until('a snapshot for the restarted epochs', () => (api.follower?.snapshots ?? 0) > before);
    await feed(next, [fixture('f5')]);
    await until('f5 on the API node', () => api.readModel.get('f5') !== undefined);
    assert.equal((await last()).epoch, 1);
    // Nothing told the new leader what the stream carried: open streams start again.
    await watcher.until(
      (ev) => ev.filter((e) => e.event === 'snapshot_required').length > told,
      5000,
      'snapshot_required after Redis lost the stream',
    );
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
    // Deposed: it takes no feed and writes nothing until elected again. (Checked when it is told:
    // the only candidate may be elected again before this test looks.)
    assert.equal(leadingWhenLost[0], false);
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
