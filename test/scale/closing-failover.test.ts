// Closing prices across a pipeline leader failover (issue 32 item 2): the new leader and the API nodes keep the last prematch prices, and null where there were none.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import type { Service } from '../../src/service.js';
import { clusterSkip } from '../helpers/cluster.js';
import { nodeSet, type NodeSet } from '../helpers/in-process-node.js';
import { createTestSchema, type TestSchema } from '../helpers/postgres.js';
import { dropPrefix, testPrefix, TEST_REDIS_URL } from '../helpers/redis.js';
import { until } from '../helpers/until.js';

const skip = await clusterSkip();
const ADMIN = 'closing-admin';
const KEY = 'closing-demo';
const MINUTE = 60_000;

interface Outcome {
  selection_id: number;
  odds: number;
  opening_odds: number;
  closing_odds: number | null;
}
type Payload = { markets: Array<{ market_id: number; outcomes: Outcome[] }> };

describe('closing prices across a pipeline leader failover', { skip }, () => {
  let schema: TestSchema;
  let prefix: string;
  let redis: Redis;
  /** The world clock every node reads (near the wall clock: election and stream timing stay real). */
  let t = Date.now();

  let nodes: NodeSet;
  const start = (role: 'api' | 'pipeline'): Promise<Service> => nodes.start(role);
  const feed = (s: Service, lines: object[]): Promise<void> => nodes.feed(s, lines);

  async function leads(s: Service): Promise<void> {
    await until('a leader', async () => (await s.app.inject({ url: '/readyz' })).statusCode === 200);
  }

  async function odds(s: Service, id: string): Promise<Payload> {
    const res = await s.app.inject({ url: `/v1/events/${id}/odds`, headers: { 'x-api-key': KEY } });
    assert.equal(res.statusCode, 200, res.body);
    return res.json<Payload>();
  }

  const outcome = (p: Payload, selectionId: number): Outcome => {
    for (const m of p.markets) for (const o of m.outcomes) if (o.selection_id === selectionId) return o;
    throw new Error(`no selection ${selectionId}`);
  };

  const fixture = (id: string, startOffsetMs: number): object => ({
    type: 'fixture',
    event_id: id,
    sport: 'soccer',
    league: { slug: 'failover', name: 'Failover League', country: 'Testland' },
    home_team: `${id} Home`,
    away_team: `${id} Away`,
    start_time: new Date(t + startOffsetMs).toISOString(),
  });
  const markets = (id: string, home: number, marketId = 1, base = 10): object => ({
    type: 'markets',
    event_id: id,
    markets: [
      {
        market_id: marketId,
        key: marketId === 1 ? '1x2' : 'btts',
        name: marketId === 1 ? 'Match Result' : 'Both Teams to Score',
        outcomes:
          marketId === 1
            ? [
                { selection_id: base + 1, code: 'home', label: 'Home', odds: home, team_side: 'home' },
                { selection_id: base + 2, code: 'draw', label: 'Draw', odds: 3.3 },
                { selection_id: base + 3, code: 'away', label: 'Away', odds: 3.6, team_side: 'away' },
              ]
            : [
                { selection_id: base + 1, code: 'yes', label: 'Yes', odds: home },
                { selection_id: base + 2, code: 'no', label: 'No', odds: 2.0 },
              ],
      },
    ],
  });
  const price = (id: string, selectionId: number, value: number): object => ({
    type: 'odds',
    event_id: id,
    changes: [{ selection_id: selectionId, odds: value }],
  });
  const status = (id: string, s: string): object => ({ type: 'status', event_id: id, status: s });

  let api: Service;

  before(async () => {
    schema = await createTestSchema();
    prefix = testPrefix();
    redis = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: 1 });
    nodes = nodeSet({ databaseUrl: schema.url, redisPrefix: prefix, adminKey: ADMIN, apiKey: KEY, now: () => t });
    const first = await start('pipeline');
    await leads(first);
    api = await start('api');
  });

  after(async () => {
    await nodes.closeAll();
    await dropPrefix(redis, prefix);
    redis.disconnect();
    await schema.drop();
  });

  it('the standby that takes over fixes the last prematch prices as closing, and none for prices first given after the start', async () => {
    const leader = nodes.services[0] as Service;
    const standby = await start('pipeline');
    // cf1: priced and moved before its start. cf2: first priced 15 minutes after its start, still
    // prematch (its status lags). cf3: first seen live.
    await feed(leader, [fixture('cf1', 30 * MINUTE), markets('cf1', 2.5), fixture('cf2', 10 * MINUTE)]);
    await feed(leader, [price('cf1', 11, 2.2)]);
    await feed(leader, [fixture('cf3', -20 * MINUTE), markets('cf3', 5.0), status('cf3', 'live')]);
    t += 25 * MINUTE;
    await feed(leader, [markets('cf2', 3.1)]);
    await until('the API node has every event', () => api.readModel.get('cf2')?.book.marketCount === 1);

    await leader.close(); // the lock is released: the standby loads the store and leads
    await leads(standby);
    t += 10 * MINUTE;
    await feed(standby, [
      status('cf1', 'live'),
      price('cf1', 11, 1.7),
      markets('cf1', 1.9, 2, 20),
      status('cf2', 'live'),
      price('cf2', 11, 2.7),
      price('cf3', 11, 4.4),
    ]);
    await until('the API node follows the new leader', () => api.readModel.get('cf2')?.event.status === 'live');
    await until('… and has its last price', async () => outcome(await odds(api, 'cf3'), 11).odds === 4.4);

    const cf1 = await odds(api, 'cf1');
    assert.deepEqual(
      [outcome(cf1, 11).odds, outcome(cf1, 11).opening_odds, outcome(cf1, 11).closing_odds],
      [1.7, 2.5, 2.2],
      'the last prematch price, fixed by the new leader at kick-off',
    );
    assert.equal(outcome(cf1, 12).closing_odds, 3.3);
    assert.deepEqual(
      [outcome(cf1, 21).opening_odds, outcome(cf1, 21).closing_odds],
      [1.9, null],
      'a market first offered live',
    );
    const cf2 = await odds(api, 'cf2');
    assert.deepEqual(
      [outcome(cf2, 11).odds, outcome(cf2, 11).opening_odds, outcome(cf2, 11).closing_odds],
      [2.7, 3.1, null],
      'first priced after its start: no prematch price, on the old leader or the new',
    );
    const cf3 = await odds(api, 'cf3');
    for (const m of cf3.markets) for (const o of m.outcomes) assert.equal(o.closing_odds, null);

    // An API node that starts now loads the same from the store.
    const late = await start('api');
    for (const id of ['cf1', 'cf2', 'cf3']) assert.deepEqual(await odds(late, id), await odds(api, id), id);
  });
});
