// Restarts over HTTP: everything fed survives a clean restart unchanged; an acknowledged result survives an unclean one.
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { describe, test } from 'node:test';
import {
  at,
  feedOk,
  fixture,
  HOUR,
  LA_LIGA,
  markets,
  MINUTE,
  odds,
  result,
  score,
  SEL,
  startService,
  status,
  type TestService,
} from '../helpers/service.js';
import type { EventList, EventResult } from '../helpers/payloads.js';

const TENNIS = { slug: 'atp-miami', name: 'ATP Miami', country: 'United States', tier: 2 };

const btts = (eventId: string, yes = 1.8) => ({
  type: 'markets',
  event_id: eventId,
  markets: [
    {
      market_id: 3,
      key: 'btts',
      name: 'Both Teams To Score',
      outcomes: [
        { selection_id: 31, code: 'yes', label: 'Yes', odds: yes },
        { selection_id: 32, code: 'no', label: 'No', odds: 2, is_locked: true },
      ],
    },
  ],
});

/** A world that exercises every kind of state: fed in steps with the clock moving between them. */
const STEPS: object[][] = [
  [
    fixture('pre', { start_time: at(2 * HOUR), home_logo_id: 'home-fc', away_logo_id: 'away_fc' }),
    markets('pre'),
    btts('pre'),
    fixture('live', { start_time: at(-HOUR), league: LA_LIGA }),
    markets('live'),
    fixture('done', { start_time: at(-3 * HOUR) }),
    markets('done'),
    fixture('canc', { start_time: at(5 * HOUR) }),
    fixture('postp', { start_time: at(6 * HOUR) }),
    fixture('wo', { sport: 'tennis', league: TENNIS, start_time: at(HOUR) }),
  ],
  [
    status('live', 'live'),
    status('done', 'live'),
    score('done', 1, 0, { period: '1H', clock: '40:00' }),
    // An update of a known market keeps its place ahead of the later btts market.
    markets('pre', { home: 2.2, draw: 3.4 }),
    odds('pre', [
      { selection_id: SEL.over, odds: 1.75 },
      { selection_id: SEL.under, is_locked: true },
    ]),
  ],
  [
    score('live', 2, 1, {
      period: '2H',
      clock: '67:12',
      period_scores: [
        { period: '1H', home: 1, away: 1 },
        { period: '2H', home: 1, away: 0 },
      ],
      sport_data: { period: '2H', possession: { home: 58, away: 42 } },
      scoreboard: { headers: ['1H', '2H', 'T'], home: [1, 1, 2], away: [1, 0, 1] },
    }),
    odds('live', [{ selection_id: SEL.home, odds: 1.45, is_locked: true }]),
    { type: 'remove_markets', event_id: 'live', market_ids: [2] },
    btts('live', 2.6),
    result('done', 2, 1, {
      // Recent enough to be in the 5-minute scores buffer for the whole test.
      ended_at: at(2 * MINUTE),
      period_scores: [
        { period: '1H', home: 1, away: 0 },
        { period: '2H', home: 1, away: 1 },
      ],
    }),
    { type: 'result', event_id: 'canc', status: 'cancelled', score: { home: 0, away: 0 } },
    status('postp', 'postponed'),
    { type: 'result', event_id: 'wo', status: 'walkover', score: { home: 0, away: 0 }, winner: 'home' },
  ],
  // The last changes land just before shutdown: only the shutdown flush can have written them.
  [odds('pre', [{ selection_id: SEL.away, odds: 3.05 }]), score('live', 3, 1, { clock: '80:00' })],
];

const EVENT_IDS = ['pre', 'live', 'done', 'canc', 'postp', 'wo'];
const FORMATS = ['decimal', 'american', 'fractional'];

/** Every answer a client can get about the world, keyed by URL. */
async function everything(svc: TestService): Promise<Map<string, string>> {
  const urls = ['/v1/leagues', '/v1/sports', '/v1/scores', '/v1/events/featured', '/v1/live'];
  for (const f of FORMATS) {
    urls.push(`/v1/events?status=all&odds_format=${f}`, `/v1/events?odds_format=${f}`);
    for (const id of EVENT_IDS)
      urls.push(`/v1/events/${id}?odds_format=${f}`, `/v1/events/${id}/odds?odds_format=${f}`);
  }
  for (const id of EVENT_IDS) urls.push(`/v1/events/${id}/result`);
  const out = new Map<string, string>();
  for (const url of urls) {
    const res = await svc.get(url);
    assert.equal(res.status, 200, `${url}: ${res.text}`);
    out.set(url, res.text);
  }
  const batch = await svc.inject('POST', '/v1/events/batch?odds_format=american', { body: { ids: EVENT_IDS } });
  out.set('batch', batch.text);
  return out;
}

describe('persistence across restarts', () => {
  test('after a clean restart every event, market (in order), odds, score and result is the same over HTTP', async () => {
    const first = await startService();
    let second: TestService | undefined;
    try {
      for (const step of STEPS) {
        await feedOk(first, step);
        first.clock.advance(MINUTE);
      }
      const before = await everything(first);
      // Sanity: the world is what the steps made it.
      const list = JSON.parse(before.get('/v1/events?status=all&odds_format=decimal') ?? '{}') as EventList;
      assert.equal(list.total, EVENT_IDS.length);
      const pre = JSON.parse(before.get('/v1/events/pre?odds_format=decimal') ?? '{}') as {
        markets: Array<{ market_id: number }>;
      };
      assert.deepEqual(
        pre.markets.map((m) => m.market_id),
        [1, 2, 3],
      );
      const live = JSON.parse(before.get('/v1/events/live?odds_format=decimal') ?? '{}') as {
        markets: Array<{ market_id: number }>;
        score: unknown;
      };
      assert.deepEqual(
        live.markets.map((m) => m.market_id),
        [1, 3],
      );
      assert.deepEqual(live.score, { home: 3, away: 1 });

      const now = first.clock.now();
      await first.close({ keepDir: true });
      second = await startService({ dataDir: first.dataDir, now });
      const afterRestart = await everything(second);
      for (const [url, body] of before) assert.equal(afterRestart.get(url), body, url);

      // Messages the producer re-sends after the restart (it cannot know what we kept) change nothing.
      second.clock.advance(MINUTE);
      // [step, index]: the fixtures, btts of 'pre', kick-off of 'live', every final message, the last score.
      const picks: Array<[number, number]> = [
        [0, 0],
        [0, 3],
        [0, 2],
        [1, 0],
        [2, 4],
        [2, 5],
        [2, 6],
        [2, 7],
        [3, 1],
      ];
      const resent = picks.map(([step, i]) => STEPS[step]?.[i]).filter((m): m is object => m !== undefined);
      assert.equal(resent.length, picks.length);
      const report = await second.feed(resent);
      assert.deepEqual(report, { accepted: resent.length, rejected: 0, errors: [] });
      const afterResend = await everything(second);
      for (const [url, body] of before) assert.equal(afterResend.get(url), body, `after re-sending: ${url}`);

      // The restored service keeps working: the withdrawn totals market (2), kept for settlement,
      // is offered again in its original place.
      await feedOk(second, [markets('live', { away: 4.4 }), score('live', 3, 2)]);
      const d = (await second.get<{ markets: Array<{ market_id: number }>; score: unknown }>('/v1/events/live')).body;
      assert.deepEqual(
        d.markets.map((m) => m.market_id),
        [1, 2, 3],
      );
      assert.deepEqual(d.score, { home: 3, away: 2 });
    } finally {
      await second?.close();
      await first.close();
      await rm(first.dataDir, { recursive: true, force: true });
    }
  });

  test('a result acknowledged by the feed survives a service that never shut down cleanly', async () => {
    const first = await startService({ env: { FLUSH_INTERVAL_MS: '1000' } });
    let second: TestService | undefined;
    try {
      await feedOk(first, [
        fixture('x', { start_time: at(-2 * HOUR) }),
        markets('x'),
        status('x', 'live'),
        score('x', 0, 1),
        result('x', 1, 1, {
          ended_at: at(-MINUTE),
          period_scores: [
            { period: '1H', home: 0, away: 1 },
            { period: '2H', home: 1, away: 0 },
          ],
        }),
      ]);
      // The first service is still running, its write-behind not flushed: a second process opens the same store.
      second = await startService({ dataDir: first.dataDir, now: first.clock.now() });
      const res = await second.get<EventResult>('/v1/events/x/result');
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.status, 'ended');
      assert.deepEqual(res.body.score, { home: 1, away: 1 });
      assert.equal(res.body.ended_at, at(-MINUTE));
      assert.deepEqual(res.body.period_scores, [
        { period: '1H', home: 0, away: 1 },
        { period: '2H', home: 1, away: 0 },
      ]);
      // The event's final state was committed with its result.
      const list = (await second.get<EventList>('/v1/events?status=ended')).body;
      assert.deepEqual(
        list.events.map((e) => [e.id, e.status, e.score]),
        [['x', 'ended', { home: 1, away: 1 }]],
      );
    } finally {
      await second?.close();
      await first.close();
    }
  });

  test('a corrected result survives a restart with the corrected score', async () => {
    const first = await startService();
    let second: TestService | undefined;
    try {
      await feedOk(first, [
        fixture('c', { start_time: at(-2 * HOUR) }),
        status('c', 'live'),
        result('c', 2, 0, { ended_at: at(-MINUTE) }),
      ]);
      await feedOk(first, [result('c', 2, 1, { ended_at: at(-MINUTE) })]);
      await first.close({ keepDir: true });
      second = await startService({ dataDir: first.dataDir });
      assert.deepEqual((await second.get<EventResult>('/v1/events/c/result')).body.score, { home: 2, away: 1 });
    } finally {
      await second?.close();
      await rm(first.dataDir, { recursive: true, force: true });
    }
  });
});
