// GET /v1/events/{id}/odds: the exact odds payload, odds formats, locks keeping last odds, ended events, markets_count.
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
  SEL,
  startService,
  status,
  type TestService,
} from '../helpers/service.js';
import type { ErrorBody, EventList, OddsPayload } from '../helpers/payloads.js';

describe('GET /v1/events/{id}/odds', () => {
  let svc: TestService;
  before(async () => {
    svc = await startService();
    await feedOk(svc, [
      fixture('ev', { start_time: at(-30 * MINUTE), ts: at(-32 * MINUTE) }),
      // Priced before its start (at -31 min), so that going live fixes closing prices.
      { ...markets('ev', { home: 2.5, draw: 2, away: 1.5, over: 1.91, under: 1.91 }), ts: at(-31 * MINUTE) },
      status('ev', 'live'),
    ]);
  });
  after(() => svc.close());

  const get = async (id: string, query = ''): Promise<OddsPayload> => {
    const res = await svc.get<OddsPayload>(`/v1/events/${id}/odds${query}`);
    assert.equal(res.status, 200, res.text);
    return res.body;
  };
  const listItem = async (id: string) =>
    (await svc.get<EventList>('/v1/events?status=all')).body.events.find((e) => e.id === id);

  test('fields and types are exactly those of the odds payload', async () => {
    const p = await get('ev');
    assert.deepEqual(Object.keys(p).sort(), ['id', 'markets', 'odds_format', 'status', 'updated_at']);
    assert.equal(p.id, 'ev');
    assert.equal(p.status, 'live');
    assert.equal(p.odds_format, 'decimal');
    assert.equal(p.updated_at, new Date(svc.clock.now()).toISOString());
    assert.equal(p.markets.length, 2);
    for (const m of p.markets) {
      assert.deepEqual(Object.keys(m).sort(), ['key', 'market_id', 'name', 'outcomes']);
      assert.equal(typeof m.key, 'string');
      assert.equal(typeof m.name, 'string');
      assert.ok(Number.isInteger(m.market_id));
      for (const o of m.outcomes) {
        assert.deepEqual(Object.keys(o).sort(), [
          'closing_odds',
          'code',
          'is_locked',
          'label',
          'odds',
          'opening_odds',
          'selection_id',
          'team_side',
        ]);
        // No price moved: the first price and the price at going live are the current one.
        assert.equal(o.opening_odds, o.odds);
        assert.equal(o.closing_odds, o.odds);
        assert.equal(typeof o.label, 'string');
        assert.equal(typeof o.odds, 'number');
        assert.equal(typeof o.is_locked, 'boolean');
        assert.ok(o.team_side === null || o.team_side === 'home' || o.team_side === 'away');
        assert.ok(Number.isInteger(o.selection_id));
      }
    }
    const oneXTwo = p.markets[0];
    assert.deepEqual(
      oneXTwo?.outcomes.map((o) => [o.label, o.team_side]),
      [
        ['Home', 'home'],
        ['Draw', null],
        ['Away', 'away'],
      ],
    );
    // Neutral selections (totals) carry team_side null.
    assert.ok(p.markets[1]?.outcomes.every((o) => o.team_side === null));
  });

  test('odds formats: decimal numbers, american integers, fractional strings in lowest terms', async () => {
    const table: Array<[string, unknown[]]> = [
      ['decimal', [2.5, 2, 1.5, 1.91, 1.91]],
      ['american', [150, 100, -200, -110, -110]],
      ['fractional', ['3/2', '1/1', '1/2', '10/11', '10/11']],
    ];
    for (const [format, expected] of table) {
      const p = await get('ev', `?odds_format=${format}`);
      assert.equal(p.odds_format, format);
      assert.deepEqual(
        p.markets.flatMap((m) => m.outcomes.map((o) => o.odds)),
        expected,
        format,
      );
    }
    assert.deepEqual(await get('ev', '?odds_format=decimal'), await get('ev'));
  });

  test('an odds change shows at once and moves updated_at', async () => {
    svc.clock.advance(MINUTE);
    await feedOk(svc, [odds('ev', [{ selection_id: SEL.home, odds: 2.62 }])]);
    const p = await get('ev');
    assert.equal(p.markets[0]?.outcomes[0]?.odds, 2.62);
    assert.equal(p.updated_at, new Date(svc.clock.now()).toISOString());
    assert.equal((await get('ev', '?odds_format=american')).markets[0]?.outcomes[0]?.odds, 162);
  });

  test('a locked selection keeps its last odds; an unlock with a new price shows the price', async () => {
    await feedOk(svc, [odds('ev', [{ selection_id: SEL.home, is_locked: true }])]);
    const locked = await get('ev');
    assert.deepEqual([locked.markets[0]?.outcomes[0]?.is_locked, locked.markets[0]?.outcomes[0]?.odds], [true, 2.62]);
    assert.equal(locked.markets[0]?.outcomes[1]?.is_locked, false);
    assert.equal((await listItem('ev'))?.markets_count, 2, 'a market with one open selection still counts');
    await feedOk(svc, [odds('ev', [{ selection_id: SEL.home, odds: 2.7, is_locked: false }])]);
    const open = await get('ev');
    assert.deepEqual([open.markets[0]?.outcomes[0]?.is_locked, open.markets[0]?.outcomes[0]?.odds], [false, 2.7]);
  });

  test('markets_count counts only markets with an open selection; 0 when everything is locked', async () => {
    await feedOk(svc, [
      odds('ev', [
        { selection_id: SEL.over, is_locked: true },
        { selection_id: SEL.under, is_locked: true },
      ]),
    ]);
    assert.equal((await listItem('ev'))?.markets_count, 1);
    await feedOk(svc, [
      odds('ev', [
        { selection_id: SEL.home, is_locked: true },
        { selection_id: SEL.draw, is_locked: true },
        { selection_id: SEL.away, is_locked: true },
      ]),
    ]);
    const item = await listItem('ev');
    assert.equal(item?.markets_count, 0);
    // The markets are still returned, all locked, with their last odds.
    const p = await get('ev');
    assert.equal(p.markets.length, 2);
    assert.ok(p.markets.every((m) => m.outcomes.every((o) => o.is_locked && typeof o.odds === 'number')));
    assert.deepEqual(item?.odds, { home: 2.7, draw: 2, away: 1.5 });
  });

  test('an ended event answers markets [] and its list item markets_count 0', async () => {
    await feedOk(svc, [result('ev', 1, 1)]);
    const p = await get('ev');
    assert.equal(p.status, 'ended');
    assert.deepEqual(p.markets, []);
    assert.equal((await listItem('ev'))?.markets_count, 0);
    assert.deepEqual((await get('ev', '?odds_format=fractional')).markets, []);
  });

  test('a cancelled event answers markets [] too', async () => {
    await feedOk(svc, [fixture('canc', { start_time: at(HOUR) }), markets('canc'), status('canc', 'cancelled')]);
    assert.deepEqual((await get('canc')).markets, []);
    assert.equal((await listItem('canc'))?.markets_count, 0);
  });

  test('an unknown event is 404 not_found', async () => {
    const res = await svc.get<ErrorBody>('/v1/events/nope/odds');
    assert.equal(res.status, 404);
    assert.deepEqual(Object.keys(res.body).sort(), ['error', 'message']);
    assert.equal(res.body.error, 'not_found');
  });

  test('an unknown odds_format is 400 naming odds_format', async () => {
    const res = await svc.get<ErrorBody>('/v1/events/ev/odds?odds_format=decimals');
    assert.equal(res.status, 400);
    assert.equal(res.body.error, 'bad_request');
    assert.ok(res.body.message.includes('odds_format'));
  });

  test('an event without markets answers markets []', async () => {
    await feedOk(svc, [fixture('bare', { start_time: at(HOUR) })]);
    const p = await get('bare');
    assert.deepEqual(p.markets, []);
    assert.equal(p.status, 'prematch');
  });
});
