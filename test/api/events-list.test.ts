// GET /v1/events and GET /v1/live over HTTP: every filter, bound, odds format and the ordering of decisions.md.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  at,
  DAY,
  feedOk,
  fixture,
  HOUR,
  LA_LIGA,
  markets,
  MINUTE,
  NBA,
  PREMIER_LEAGUE,
  result,
  score,
  startService,
  status,
  type TestService,
} from '../helpers/service.js';
import { ids, type ErrorBody, type EventList } from '../helpers/payloads.js';

const BUNDESLIGA = { slug: 'germany-bundesliga', name: 'Bundesliga', country: 'Germany', tier: 1 };

/**
 * The world of this file, at 2026-03-01T12:00Z. Default listing order (live first, then start time):
 * live-early, live-late, pre-soon, pre-liga, pre-nba, postponed, pre-bund.
 */
const WORLD = [
  fixture('live-early', { start_time: at(-HOUR), home_logo_id: 'arsenal' }),
  markets('live-early'),
  status('live-early', 'live'),
  score('live-early', 1, 0, { period: '1H', clock: '58:00' }),
  fixture('live-late', { sport: 'basketball', league: NBA, start_time: at(-10 * MINUTE) }),
  markets('live-late'),
  status('live-late', 'live'),
  fixture('pre-soon', { start_time: at(HOUR) }),
  markets('pre-soon', { home: 2.5, draw: 3.2, away: 2.9 }),
  fixture('pre-liga', { league: LA_LIGA, start_time: at(5 * HOUR) }),
  markets('pre-liga', { home: 1.91, draw: 3.5, away: 4 }),
  fixture('pre-nba', { sport: 'basketball', league: NBA, start_time: '2026-03-02T00:00:00.000Z' }),
  fixture('postponed', { start_time: '2026-03-03T15:00:00.000Z' }),
  status('postponed', 'postponed'),
  fixture('pre-bund', { league: BUNDESLIGA, start_time: '2026-03-04T23:59:59.000Z' }),
  fixture('ended', { league: LA_LIGA, start_time: at(-3 * HOUR) }),
  markets('ended'),
  status('ended', 'live'),
  result('ended', 2, 1),
  fixture('cancelled', { league: LA_LIGA, start_time: at(6 * HOUR) }),
  status('cancelled', 'cancelled'),
];

const DEFAULT_ORDER = ['live-early', 'live-late', 'pre-soon', 'pre-liga', 'pre-nba', 'postponed', 'pre-bund'];

describe('GET /v1/events', () => {
  let svc: TestService;
  before(async () => {
    svc = await startService();
    await feedOk(svc, WORLD);
  });
  after(() => svc.close());

  async function list(query: string): Promise<EventList> {
    const res = await svc.get<EventList>(`/v1/events${query}`);
    assert.equal(res.status, 200, res.text);
    return res.body;
  }

  async function badRequest(query: string, param: string): Promise<void> {
    const res = await svc.get<ErrorBody>(`/v1/events${query}`);
    assert.equal(res.status, 400, `${query}: ${res.text}`);
    assert.equal(res.body.error, 'bad_request');
    assert.ok(res.body.message.includes(param), `${query}: message should name '${param}': ${res.body.message}`);
  }

  test('the envelope is {events, total, limit, offset} with limit 50 and offset 0 by default', async () => {
    const body = await list('');
    assert.deepEqual(Object.keys(body).sort(), ['events', 'limit', 'offset', 'total']);
    assert.equal(body.limit, 50);
    assert.equal(body.offset, 0);
    assert.equal(body.total, DEFAULT_ORDER.length);
  });

  test('by default ended and cancelled events are left out; live first, then by start time', async () => {
    assert.deepEqual(ids(await list('')), DEFAULT_ORDER);
  });

  test('a list item carries every field of interface.md with the right types', async () => {
    const body = await list('');
    const live = body.events.find((e) => e.id === 'live-early');
    const pre = body.events.find((e) => e.id === 'pre-soon');
    assert.ok(live && pre);
    assert.deepEqual(Object.keys(live).sort(), [
      'away_logo',
      'away_team',
      'clock',
      'decided_by',
      'home_logo',
      'home_team',
      'id',
      'league',
      'markets_count',
      'odds',
      'odds_format',
      'period',
      'score',
      'sport',
      'start_time',
      'status',
      'updated_at',
      'winner',
    ]);
    assert.deepEqual(live.sport, { key: 'soccer', name: 'Soccer' });
    assert.deepEqual(live.league, {
      slug: PREMIER_LEAGUE.slug,
      name: PREMIER_LEAGUE.name,
      country: PREMIER_LEAGUE.country,
    });
    assert.equal(live.home_team, 'live-early Home');
    assert.equal(live.away_team, 'live-early Away');
    assert.match(live.home_logo, /^https?:\/\/[^/]+\/api\/logo\/arsenal$/);
    assert.match(live.away_logo, /^https?:\/\/[^/]+\/api\/logo\/[^/]+$/);
    assert.equal(live.status, 'live');
    assert.equal(live.start_time, at(-HOUR));
    assert.deepEqual(live.score, { home: 1, away: 0 });
    assert.equal(live.clock, '58:00');
    assert.equal(live.period, '1H');
    assert.deepEqual(live.odds, { home: 2.5, draw: 3.2, away: 2.9 });
    assert.equal(live.odds_format, 'decimal');
    assert.equal(live.markets_count, 2);
    assert.ok(!Number.isNaN(Date.parse(live.updated_at)));
    // Before kick-off: clock null, period empty, score numeric zeros.
    assert.equal(pre.status, 'prematch');
    assert.equal(pre.clock, null);
    assert.equal(pre.period, '');
    assert.deepEqual(pre.score, { home: 0, away: 0 });
  });

  test('status filter: live, prematch, upcoming, ended, all', async () => {
    const cases: Array<[string, string[]]> = [
      ['live', ['live-early', 'live-late']],
      ['prematch', ['pre-soon', 'pre-liga', 'pre-nba', 'pre-bund']],
      ['upcoming', ['pre-soon', 'pre-liga', 'pre-nba', 'pre-bund']],
      ['ended', ['ended']],
      [
        'all',
        ['live-early', 'live-late', 'ended', 'pre-soon', 'pre-liga', 'cancelled', 'pre-nba', 'postponed', 'pre-bund'],
      ],
    ];
    for (const [value, expected] of cases) {
      const body = await list(`?status=${value}`);
      assert.deepEqual(ids(body), expected, `status=${value}`);
      assert.equal(body.total, expected.length, `status=${value}`);
    }
  });

  test('an unknown status is 400 naming the parameter', async () => {
    await badRequest('?status=finished', 'status');
    await badRequest('?status=LIVE', 'status');
  });

  test('sport filter: a key, all, and an unknown key is 400', async () => {
    assert.deepEqual(ids(await list('?sport=basketball')), ['live-late', 'pre-nba']);
    assert.deepEqual(ids(await list('?sport=soccer')), ['live-early', 'pre-soon', 'pre-liga', 'postponed', 'pre-bund']);
    assert.deepEqual(ids(await list('?sport=all')), DEFAULT_ORDER);
    assert.deepEqual(ids(await list('?sport=tennis')), []);
    await badRequest('?sport=curling', 'sport');
  });

  test('league filter: exact slug, or a part of the name in any case', async () => {
    assert.deepEqual(ids(await list('?league=spain-la-liga')), ['pre-liga']);
    assert.deepEqual(ids(await list('?league=spain-la-liga&status=all')), ['ended', 'pre-liga', 'cancelled']);
    assert.deepEqual(ids(await list('?league=liga')), ['pre-liga', 'pre-bund']);
    assert.deepEqual(ids(await list('?league=PREMIER')), ['live-early', 'pre-soon', 'postponed']);
    assert.deepEqual(ids(await list('?league=premier%20league')), ['live-early', 'pre-soon', 'postponed']);
    const none = await list('?league=serie-a');
    assert.deepEqual(none.events, []);
    assert.equal(none.total, 0);
  });

  test('country filter: exact, partial, case-insensitive', async () => {
    assert.deepEqual(ids(await list('?country=Spain')), ['pre-liga']);
    assert.deepEqual(ids(await list('?country=united')), ['live-late', 'pre-nba']);
    assert.deepEqual(ids(await list('?country=ENGLAND')), ['live-early', 'pre-soon', 'postponed']);
    assert.deepEqual(ids(await list('?country=germ')), ['pre-bund']);
    assert.deepEqual(ids(await list('?country=France')), []);
  });

  test('filters combine', async () => {
    assert.deepEqual(ids(await list('?sport=soccer&country=england&status=prematch')), ['pre-soon']);
    assert.deepEqual(ids(await list('?league=liga&date=2026-03-04')), ['pre-bund']);
  });

  test('date selects one UTC day, both ends inclusive', async () => {
    assert.deepEqual(ids(await list('?date=2026-03-01')), ['live-early', 'live-late', 'pre-soon', 'pre-liga']);
    // 00:00:00 belongs to its day, 23:59:59 too.
    assert.deepEqual(ids(await list('?date=2026-03-02')), ['pre-nba']);
    assert.deepEqual(ids(await list('?date=2026-03-04')), ['pre-bund']);
    assert.deepEqual(ids(await list('?date=2026-03-05')), []);
  });

  test('from and to are UTC days, inclusive', async () => {
    assert.deepEqual(ids(await list('?from=2026-03-02')), ['pre-nba', 'postponed', 'pre-bund']);
    assert.deepEqual(ids(await list('?to=2026-03-01')), ['live-early', 'live-late', 'pre-soon', 'pre-liga']);
    assert.deepEqual(ids(await list('?from=2026-03-02&to=2026-03-03')), ['pre-nba', 'postponed']);
    assert.deepEqual(ids(await list('?from=2026-03-04&to=2026-03-04')), ['pre-bund']);
    assert.deepEqual(ids(await list('?to=2026-03-03&from=2026-03-03')), ['postponed']);
  });

  test('date cannot be combined with from or to', async () => {
    await badRequest('?date=2026-03-01&from=2026-03-01', 'date');
    await badRequest('?date=2026-03-01&to=2026-03-02', 'date');
  });

  test('to before from is 400', async () => {
    await badRequest('?from=2026-03-03&to=2026-03-02', 'to');
  });

  test('malformed or impossible dates are 400 naming the parameter', async () => {
    for (const param of ['date', 'from', 'to']) {
      for (const value of ['2026-02-30', '2026-1-5', '2026-13-01', '20260301', '2026-03-01T00:00:00Z', 'today', '']) {
        await badRequest(`?${param}=${encodeURIComponent(value)}`, param);
      }
    }
  });

  test('starts_within returns prematch events starting within the window', async () => {
    const cases: Array<[string, string[]]> = [
      ['30m', []],
      ['90m', ['pre-soon']],
      ['6h', ['pre-soon', 'pre-liga']],
      // pre-nba starts exactly 12 hours from now: the window includes its end.
      ['12h', ['pre-soon', 'pre-liga', 'pre-nba']],
      ['2d', ['pre-soon', 'pre-liga', 'pre-nba']],
      ['4d', ['pre-soon', 'pre-liga', 'pre-nba', 'pre-bund']],
    ];
    for (const [value, expected] of cases) {
      assert.deepEqual(ids(await list(`?starts_within=${value}`)), expected, `starts_within=${value}`);
    }
    // Live games started already: never part of a starts_within answer, whatever the status filter.
    assert.deepEqual(ids(await list('?starts_within=2d&status=all')), ['pre-soon', 'pre-liga', 'pre-nba']);
  });

  test('starts_within follows the clock', async () => {
    svc.clock.advance(45 * MINUTE);
    try {
      assert.deepEqual(ids(await list('?starts_within=30m')), ['pre-soon']);
    } finally {
      svc.clock.advance(-45 * MINUTE);
    }
    assert.deepEqual(ids(await list('?starts_within=30m')), []);
  });

  test('a malformed starts_within is 400', async () => {
    for (const value of ['30', '5x', 'm', '0m', '-5m', '1.5h', '30 m', '2w', 'h6']) {
      await badRequest(`?starts_within=${encodeURIComponent(value)}`, 'starts_within');
    }
  });

  test('limit and offset page through the list; total counts every match', async () => {
    const first = await list('?limit=2');
    assert.deepEqual(ids(first), ['live-early', 'live-late']);
    assert.equal(first.total, 7);
    assert.equal(first.limit, 2);
    assert.equal(first.offset, 0);
    const second = await list('?limit=2&offset=2');
    assert.deepEqual(ids(second), ['pre-soon', 'pre-liga']);
    assert.equal(second.offset, 2);
    assert.deepEqual(ids(await list('?offset=6')), ['pre-bund']);
    const past = await list('?offset=7');
    assert.deepEqual(past.events, []);
    assert.equal(past.total, 7);
    assert.deepEqual(ids(await list('?limit=1')), ['live-early']);
    assert.deepEqual(ids(await list('?limit=200')), DEFAULT_ORDER);
  });

  test('limit outside 1..200 and offset below 0 are 400', async () => {
    for (const value of ['0', '201', '-1', 'abc', '1.5']) await badRequest(`?limit=${value}`, 'limit');
    for (const value of ['-1', 'x', '0.5']) await badRequest(`?offset=${value}`, 'offset');
  });

  test('odds_format converts every odds value of the page and is echoed', async () => {
    const table: Array<[string, { home: unknown; draw: unknown; away: unknown }, unknown]> = [
      ['decimal', { home: 2.5, draw: 3.2, away: 2.9 }, 1.91],
      ['american', { home: 150, draw: 220, away: 190 }, -110],
      // The ladder's nearest rungs: 3.20 → 9/4 (3.25), 2.90 → 15/8 (2.875); the exact forms stay available.
      ['fractional', { home: '3/2', draw: '9/4', away: '15/8' }, '10/11'],
      ['fractional_exact', { home: '3/2', draw: '11/5', away: '19/10' }, '10/11'],
    ];
    for (const [format, soon, ligaHome] of table) {
      const body = await list(`?status=prematch&odds_format=${format}`);
      const soonItem = body.events.find((e) => e.id === 'pre-soon');
      const ligaItem = body.events.find((e) => e.id === 'pre-liga');
      assert.deepEqual(soonItem?.odds, soon, format);
      assert.equal(ligaItem?.odds.home, ligaHome, format);
      for (const e of body.events) assert.equal(e.odds_format, format);
    }
  });

  test('an event without a main market has null odds', async () => {
    const body = await list('?status=prematch');
    assert.deepEqual(body.events.find((e) => e.id === 'pre-nba')?.odds, { home: null, draw: null, away: null });
  });

  test('an unknown odds_format is 400', async () => {
    await badRequest('?odds_format=hongkong', 'odds_format');
    await badRequest('?odds_format=DECIMAL', 'odds_format');
  });

  test('unknown parameter names are ignored', async () => {
    assert.deepEqual(ids(await list('?colour=red&page=3')), DEFAULT_ORDER);
  });
});

describe('GET /v1/live', () => {
  let svc: TestService;
  before(async () => {
    svc = await startService();
    await feedOk(svc, WORLD);
  });
  after(() => svc.close());

  async function live(query: string): Promise<EventList> {
    const res = await svc.get<EventList>(`/v1/live${query}`);
    assert.equal(res.status, 200, res.text);
    return res.body;
  }

  test('lists live events only, with the events envelope', async () => {
    const body = await live('');
    assert.deepEqual(ids(body), ['live-early', 'live-late']);
    assert.equal(body.total, 2);
    assert.equal(body.limit, 50);
    assert.equal(body.offset, 0);
  });

  test('sport, league and country filter the live events', async () => {
    assert.deepEqual(ids(await live('?sport=basketball')), ['live-late']);
    assert.deepEqual(ids(await live('?sport=all')), ['live-early', 'live-late']);
    assert.deepEqual(ids(await live('?league=premier')), ['live-early']);
    assert.deepEqual(ids(await live('?league=usa-nba')), ['live-late']);
    assert.deepEqual(ids(await live('?country=UNITED')), ['live-late']);
  });

  test('limit and offset page the live list', async () => {
    const page = await live('?limit=1&offset=1');
    assert.deepEqual(ids(page), ['live-late']);
    assert.equal(page.total, 2);
    assert.equal(page.limit, 1);
    assert.equal(page.offset, 1);
  });

  test('a status parameter cannot widen the live listing', async () => {
    assert.deepEqual(ids(await live('?status=prematch')), ['live-early', 'live-late']);
  });

  test('odds_format applies to the live list', async () => {
    const body = await live('?odds_format=american&sport=soccer');
    assert.deepEqual(body.events[0]?.odds, { home: 150, draw: 220, away: 190 });
    assert.equal(body.events[0]?.odds_format, 'american');
  });

  test('invalid values are 400 naming the parameter', async () => {
    for (const [query, param] of [
      ['?sport=curling', 'sport'],
      ['?limit=0', 'limit'],
      ['?limit=201', 'limit'],
      ['?offset=-1', 'offset'],
      ['?odds_format=x', 'odds_format'],
    ] as const) {
      const res = await svc.get<ErrorBody>(`/v1/live${query}`);
      assert.equal(res.status, 400, query);
      assert.equal(res.body.error, 'bad_request');
      assert.ok(res.body.message.includes(param), res.body.message);
    }
  });
});

describe('listing changes with the feed', () => {
  let svc: TestService;
  before(async () => {
    svc = await startService();
  });
  after(() => svc.close());

  test('a prematch game that kicks off moves to the live listing, ahead of earlier prematch games', async () => {
    await feedOk(svc, [
      fixture('a', { start_time: at(10 * MINUTE) }),
      fixture('b', { start_time: at(20 * MINUTE) }),
      fixture('c', { start_time: at(DAY) }),
    ]);
    assert.deepEqual(ids((await svc.get<EventList>('/v1/live')).body), []);
    svc.clock.advance(20 * MINUTE);
    await feedOk(svc, [status('b', 'live')]);
    assert.deepEqual(ids((await svc.get<EventList>('/v1/live')).body), ['b']);
    assert.deepEqual(ids((await svc.get<EventList>('/v1/events')).body), ['b', 'a', 'c']);
    assert.deepEqual(ids((await svc.get<EventList>('/v1/events?status=prematch')).body), ['a', 'c']);
    assert.equal((await svc.get<EventList>('/v1/events?status=live')).body.events[0]?.status, 'live');
  });

  test('abandoned, retired and walkover games are finished: left out by default, listed with status=all', async () => {
    const tennis = { slug: 'atp-doha', name: 'ATP Doha', country: 'Qatar', tier: 2 };
    await feedOk(svc, [
      fixture('aband', { league: tennis, sport: 'tennis', start_time: at(-HOUR) }),
      status('aband', 'live'),
      { type: 'result', event_id: 'aband', status: 'abandoned', score: { home: 0, away: 0 } },
      fixture('ret', { league: tennis, sport: 'tennis', start_time: at(-HOUR) }),
      status('ret', 'live'),
      { type: 'result', event_id: 'ret', status: 'retired', score: { home: 1, away: 0 }, winner: 'home' },
      fixture('wo', { league: tennis, sport: 'tennis', start_time: at(HOUR) }),
      { type: 'result', event_id: 'wo', status: 'walkover', score: { home: 0, away: 0 }, winner: 'away' },
      fixture('susp', { league: tennis, sport: 'tennis', start_time: at(-HOUR) }),
      status('susp', 'live'),
      status('susp', 'suspended'),
    ]);
    assert.deepEqual(ids((await svc.get<EventList>('/v1/events?league=atp-doha')).body), ['susp']);
    assert.deepEqual(ids((await svc.get<EventList>('/v1/events?league=atp-doha&status=all')).body), [
      'aband',
      'ret',
      'susp',
      'wo',
    ]);
    assert.deepEqual(ids((await svc.get<EventList>('/v1/events?league=atp-doha&status=ended')).body), []);
    // A suspended game is not live: it is neither in the live listing nor a live filter.
    assert.deepEqual(ids((await svc.get<EventList>('/v1/live?league=atp-doha')).body), []);
  });

  test('without a limit at most 50 events are returned; total counts all of them', async () => {
    const many = Array.from({ length: 55 }, (_, i) =>
      fixture(`bulk-${String(i).padStart(2, '0')}`, { start_time: at(2 * DAY + i * MINUTE) }),
    );
    await feedOk(svc, many);
    const body = (await svc.get<EventList>('/v1/events?league=premier')).body;
    assert.equal(body.events.length, 50);
    assert.equal(body.total, 58);
    assert.equal(body.limit, 50);
    const last = (await svc.get<EventList>('/v1/events?league=premier&offset=50')).body;
    assert.deepEqual(ids(last).slice(-1), ['bulk-54']);
    assert.equal(last.events.length, 8);
  });

  test('a page reflects a change made after it was first served', async () => {
    await feedOk(svc, [markets('c', { home: 2, draw: 3, away: 4 })]);
    const before = (await svc.get<EventList>('/v1/events?league=premier&limit=3')).body;
    assert.deepEqual(before.events.find((e) => e.id === 'c')?.odds, { home: 2, draw: 3, away: 4 });
    await feedOk(svc, [{ type: 'odds', event_id: 'c', changes: [{ selection_id: 11, odds: 2.2 }] }]);
    const afterChange = (await svc.get<EventList>('/v1/events?league=premier&limit=3')).body;
    assert.equal(afterChange.events.find((e) => e.id === 'c')?.odds.home, 2.2);
  });
});
