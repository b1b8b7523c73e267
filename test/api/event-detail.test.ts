// GET /v1/events/{id}: list fields plus commence_time, markets with ids, sport_data, scoreboard and period scores.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  at,
  feedOk,
  fixture,
  HOUR,
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
import type { ErrorBody, EventDetail, EventList } from '../helpers/payloads.js';

describe('GET /v1/events/{id}', () => {
  let svc: TestService;
  before(async () => {
    svc = await startService();
  });
  after(() => svc.close());

  const detail = async (id: string, query = ''): Promise<EventDetail> => {
    const res = await svc.get<EventDetail>(`/v1/events/${id}${query}`);
    assert.equal(res.status, 200, res.text);
    return res.body;
  };

  test('a prematch event: list fields, commence_time, markets with ids, null sport_data and scoreboard', async () => {
    await feedOk(svc, [fixture('pre', { start_time: at(2 * HOUR) }), markets('pre')]);
    const d = await detail('pre');
    const item = (await svc.get<EventList>('/v1/events')).body.events.find((e) => e.id === 'pre');
    assert.ok(item);
    // Every list field is in the detail record with the same value.
    for (const [k, v] of Object.entries(item)) assert.deepEqual(d[k as keyof EventDetail], v, k);
    assert.equal(d.commence_time, at(2 * HOUR));
    assert.equal(d.commence_time, d.start_time);
    assert.equal(d.sport_data, null);
    assert.equal(d.scoreboard, null);
    assert.deepEqual(d.period_scores, []);
    assert.deepEqual(
      d.markets.map((m) => [m.market_id, m.key, m.name]),
      [
        [1, '1x2', 'Match Result'],
        [2, 'totals:2.5', 'Total Goals 2.5'],
      ],
    );
    assert.deepEqual(
      d.markets[0]?.outcomes.map((o) => [o.selection_id, o.code, o.label, o.odds, o.is_locked, o.team_side]),
      [
        [SEL.home, 'home', 'Home', 2.5, false, 'home'],
        [SEL.draw, 'draw', 'Draw', 3.2, false, null],
        [SEL.away, 'away', 'Away', 2.9, false, 'away'],
      ],
    );
  });

  test('a live event carries score, clock, period, period_scores, sport_data and scoreboard as fed', async () => {
    const sportData = { period: '2H', possession: { home: 55, away: 45 }, red_cards: [0, 1] };
    const scoreboard = { headers: ['1H', '2H', 'T'], home: [1, 1, 2], away: [0, 1, 1] };
    await feedOk(svc, [
      fixture('live', { start_time: at(-70 * MINUTE) }),
      markets('live'),
      status('live', 'live'),
      score('live', 2, 1, {
        period: '2H',
        clock: '67:12',
        period_scores: [
          { period: '1H', home: 1, away: 0 },
          { period: '2H', home: 1, away: 1 },
        ],
        sport_data: sportData,
        scoreboard,
      }),
    ]);
    const d = await detail('live');
    assert.equal(d.status, 'live');
    assert.deepEqual(d.score, { home: 2, away: 1 });
    assert.equal(d.clock, '67:12');
    assert.equal(d.period, '2H');
    assert.deepEqual(d.period_scores, [
      { period: '1H', home: 1, away: 0 },
      { period: '2H', home: 1, away: 1 },
    ]);
    assert.deepEqual(d.sport_data, sportData);
    assert.deepEqual(d.scoreboard, scoreboard);
    assert.equal(d.commence_time, at(-70 * MINUTE));
  });

  test('a score of 0-0 is numeric zeros', async () => {
    await feedOk(svc, [fixture('nil'), status('nil', 'live'), score('nil', 0, 0, { period: '1H', clock: '01:00' })]);
    const d = await detail('nil');
    assert.deepEqual(d.score, { home: 0, away: 0 });
    assert.equal(typeof d.score.home, 'number');
  });

  test('a score update keeps what it does not mention', async () => {
    await feedOk(svc, [score('live', 3, 1)]);
    const d = await detail('live');
    assert.deepEqual(d.score, { home: 3, away: 1 });
    assert.equal(d.clock, '67:12');
    assert.equal(d.period, '2H');
    assert.ok(d.sport_data !== null);
  });

  test('odds_format applies to the markets and the main odds of the detail', async () => {
    const d = await detail('pre', '?odds_format=fractional');
    assert.equal(d.odds_format, 'fractional');
    assert.deepEqual(d.odds, { home: '3/2', draw: '9/4', away: '15/8' });
    assert.deepEqual(
      d.markets[1]?.outcomes.map((o) => o.odds),
      ['10/11', '10/11'],
    );
    const exact = await detail('pre', '?odds_format=fractional_exact');
    assert.deepEqual(exact.odds, { home: '3/2', draw: '11/5', away: '19/10' });
    const a = await detail('pre', '?odds_format=american');
    assert.deepEqual(
      a.markets.flatMap((m) => m.outcomes.map((o) => o.odds)),
      [150, 220, 190, -110, -110],
    );
  });

  test('markets keep the producer order; an update keeps its place and a new market is appended', async () => {
    await feedOk(svc, [
      {
        type: 'markets',
        event_id: 'pre',
        markets: [
          {
            market_id: 3,
            key: 'btts',
            name: 'Both Teams To Score',
            outcomes: [
              { selection_id: 31, code: 'yes', label: 'Yes', odds: 1.8 },
              { selection_id: 32, code: 'no', label: 'No', odds: 2 },
            ],
          },
        ],
      },
      markets('pre', { home: 2.4 }),
    ]);
    const d = await detail('pre');
    assert.deepEqual(
      d.markets.map((m) => m.market_id),
      [1, 2, 3],
    );
    assert.equal(d.markets[0]?.outcomes[0]?.odds, 2.4);
    assert.equal(d.markets_count, 3);
  });

  test('remove_markets withdraws markets: markets [] and markets_count 0 when all are gone', async () => {
    await feedOk(svc, [{ type: 'remove_markets', event_id: 'live', market_ids: [2] }]);
    assert.deepEqual(
      (await detail('live')).markets.map((m) => m.market_id),
      [1],
    );
    await feedOk(svc, [{ type: 'remove_markets', event_id: 'live', all: true }]);
    const d = await detail('live');
    assert.deepEqual(d.markets, []);
    assert.equal(d.markets_count, 0);
    assert.deepEqual(d.odds, { home: null, draw: null, away: null });
  });

  test('while a game is suspended every selection is reported locked, with its last odds', async () => {
    await feedOk(svc, [fixture('susp', { start_time: at(-HOUR) }), markets('susp'), status('susp', 'live')]);
    await feedOk(svc, [status('susp', 'suspended')]);
    const d = await detail('susp');
    assert.equal(d.status, 'suspended');
    assert.ok(d.markets.every((m) => m.outcomes.every((o) => o.is_locked)));
    assert.equal(d.markets[0]?.outcomes[0]?.odds, 2.5);
    assert.equal(d.markets_count, 0);
    await feedOk(svc, [status('susp', 'live')]);
    const resumed = await detail('susp');
    assert.ok(resumed.markets.every((m) => m.outcomes.every((o) => !o.is_locked)));
    assert.equal(resumed.markets_count, 2);
  });

  test('an ended event has markets [] and markets_count 0, and keeps its final score', async () => {
    await feedOk(svc, [
      fixture('done', { start_time: at(-2 * HOUR) }),
      markets('done'),
      status('done', 'live'),
      odds('done', [{ selection_id: SEL.home, odds: 1.5 }]),
      result('done', 2, 2, { ended_at: at(-5 * MINUTE) }),
    ]);
    const d = await detail('done');
    assert.equal(d.status, 'ended');
    assert.deepEqual(d.markets, []);
    assert.equal(d.markets_count, 0);
    assert.deepEqual(d.score, { home: 2, away: 2 });
    assert.deepEqual(d.odds, { home: null, draw: null, away: null });
  });

  test('ids with reserved URL characters work when the client encodes them', async () => {
    const odd = ['a/b', 'ev:1', 'ü-ß', 'x?y#z', 'p%20q'];
    await feedOk(
      svc,
      odd.map((id) => fixture(id, { start_time: at(4 * HOUR) })),
    );
    for (const id of odd) {
      for (const suffix of ['', '/odds', '/result']) {
        const res = await svc.get<{ id: string }>(`/v1/events/${encodeURIComponent(id)}${suffix}`);
        assert.equal(res.status, 200, `${id}${suffix}: ${res.text}`);
        assert.equal(res.body.id, id);
      }
    }
  });

  test('data responses are JSON in UTF-8', async () => {
    for (const url of ['/v1/events', '/v1/events/pre', '/v1/events/pre/odds', '/v1/events/pre/result']) {
      const res = await svc.get(url);
      assert.match(String(res.headers['content-type']), /^application\/json; charset=utf-8$/i, url);
    }
  });

  test('an unknown event is 404 not_found', async () => {
    const res = await svc.get<ErrorBody>('/v1/events/no-such-event');
    assert.equal(res.status, 404);
    assert.equal(res.body.error, 'not_found');
    assert.ok(res.body.message.includes('no-such-event'));
  });

  test('an unknown odds_format is 400', async () => {
    const res = await svc.get<ErrorBody>('/v1/events/pre?odds_format=malay');
    assert.equal(res.status, 400);
    assert.equal(res.body.error, 'bad_request');
    assert.ok(res.body.message.includes('odds_format'));
  });

  test('fixture changes before kick-off show in the detail and move updated_at', async () => {
    svc.clock.advance(MINUTE);
    await feedOk(svc, [fixture('pre', { start_time: at(3 * HOUR), home_team: 'Renamed FC' })]);
    const d = await detail('pre');
    assert.equal(d.home_team, 'Renamed FC');
    assert.equal(d.commence_time, at(3 * HOUR));
    assert.equal(d.updated_at, new Date(svc.clock.now()).toISOString());
    assert.equal(d.markets.length, 3, 'a fixture update leaves the markets alone');
  });
});

describe('an event id used again after its event left the live data', () => {
  test('answers the new event, never a payload cached for the old one', async () => {
    const svc = await startService({ env: { ENDED_RETENTION_HOURS: '1' } });
    try {
      await feedOk(svc, [
        fixture('reused', { home_team: 'Old Town' }),
        markets('reused'),
        status('reused', 'cancelled'),
      ]);
      for (const url of ['/v1/events/reused', '/v1/events/reused/odds']) assert.equal((await svc.get(url)).status, 200);
      svc.clock.advance(2 * HOUR);
      // Eviction runs on a timer (every minute); the test runs it now instead of waiting.
      assert.equal(svc.service.pipeline.sweep(), 1);
      assert.equal((await svc.get('/v1/events/reused')).status, 404);
      await feedOk(svc, [fixture('reused', { home_team: 'New Town', start_time: at(5 * HOUR) }), markets('reused')]);
      const d = (await svc.get<EventDetail>('/v1/events/reused')).body;
      assert.equal(d.home_team, 'New Town');
      assert.equal(d.status, 'prematch');
      assert.equal(d.markets.length, 2);
      const o = (await svc.get<{ status: string; markets: unknown[] }>('/v1/events/reused/odds')).body;
      assert.equal(o.status, 'prematch');
      assert.equal(o.markets.length, 2);
    } finally {
      await svc.close();
    }
  });
});
