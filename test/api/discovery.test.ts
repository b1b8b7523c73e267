// Discovery over HTTP: leagues, sports, featured events and live scores (with the 5-minute recently-ended buffer).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  at,
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
import type { ErrorBody, EventList } from '../helpers/payloads.js';

interface LeagueList {
  leagues: Array<{
    slug: string;
    name: string;
    country: string;
    sport: { key: string; name: string };
    active_events: number;
    live_events: number;
  }>;
  total: number;
}

interface SportList {
  sports: Array<{
    key: string;
    name: string;
    sport_id: number;
    active_events: number;
    live_events: number;
    has_outrights: boolean;
  }>;
  total: number;
}

interface ScoreList {
  scores: Array<{
    id: string;
    home_team: string;
    away_team: string;
    score: { home: number; away: number };
    status: string;
    clock: string;
    period: string;
    sport: string;
    winner: string | null;
    decided_by: string | null;
  }>;
  total: number;
}

const SERIE_B = { slug: 'italy-serie-b', name: 'Serie B', country: 'Italy', tier: 3 };
const CHAMPIONSHIP = { slug: 'england-championship', name: 'Championship', country: 'England', tier: 2 };

describe('GET /v1/leagues and GET /v1/sports', () => {
  let svc: TestService;
  before(async () => {
    svc = await startService();
    await feedOk(svc, [
      fixture('epl-live', { start_time: at(-HOUR) }),
      status('epl-live', 'live'),
      fixture('epl-pre', { start_time: at(HOUR) }),
      fixture('epl-pre2', { start_time: at(2 * HOUR) }),
      fixture('nba-pre', { sport: 'basketball', league: NBA, start_time: at(3 * HOUR) }),
      // A league whose only game is over, and one whose only game is postponed: neither is active.
      fixture('liga-done', { league: LA_LIGA, start_time: at(-3 * HOUR) }),
      status('liga-done', 'live'),
      result('liga-done', 1, 0),
      fixture('b-postponed', { league: SERIE_B, start_time: at(HOUR) }),
      status('b-postponed', 'postponed'),
    ]);
  });
  after(() => svc.close());

  test('leagues with live or upcoming events, with active (live + prematch) and live counts', async () => {
    const res = await svc.get<LeagueList>('/v1/leagues');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, {
      leagues: [
        {
          slug: PREMIER_LEAGUE.slug,
          name: PREMIER_LEAGUE.name,
          country: PREMIER_LEAGUE.country,
          sport: { key: 'soccer', name: 'Soccer' },
          active_events: 3,
          live_events: 1,
        },
        {
          slug: NBA.slug,
          name: NBA.name,
          country: NBA.country,
          sport: { key: 'basketball', name: 'Basketball' },
          active_events: 1,
          live_events: 0,
        },
      ],
      total: 2,
    });
  });

  test('a league slug from /v1/leagues works as the events league filter', async () => {
    const leagues = (await svc.get<LeagueList>('/v1/leagues')).body.leagues;
    for (const l of leagues) {
      const events = (await svc.get<EventList>(`/v1/events?league=${l.slug}`)).body;
      assert.equal(events.total, l.active_events, l.slug);
    }
  });

  test('sports with live or upcoming events, with counts and ids', async () => {
    const res = await svc.get<SportList>('/v1/sports');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, {
      sports: [
        { key: 'soccer', name: 'Soccer', sport_id: 1, active_events: 3, live_events: 1, has_outrights: false },
        { key: 'basketball', name: 'Basketball', sport_id: 2, active_events: 1, live_events: 0, has_outrights: false },
      ],
      total: 2,
    });
  });

  test('a sport with outright tournaments is listed with has_outrights', async () => {
    await feedOk(svc, [
      {
        type: 'tournament',
        tournament_id: 'wimbledon-2026',
        tournament: 'Wimbledon 2026',
        sport: 'tennis',
        sport_id: 3,
      },
      {
        type: 'outright_market',
        tournament_id: 'wimbledon-2026',
        market_id: 1,
        market: 'Winner',
        selections: [{ selection_id: 1, selection: 'Player A', odds: 3.5 }],
      },
    ]);
    const sports = (await svc.get<SportList>('/v1/sports')).body;
    const tennis = sports.sports.find((s) => s.key === 'tennis');
    assert.deepEqual(tennis, {
      key: 'tennis',
      name: 'Tennis',
      sport_id: 3,
      active_events: 0,
      live_events: 0,
      has_outrights: true,
    });
    assert.equal(sports.total, sports.sports.length);
  });

  test('counts follow the feed: a kick-off moves a game from upcoming to live', async () => {
    await feedOk(svc, [status('epl-pre', 'live')]);
    const epl = (await svc.get<LeagueList>('/v1/leagues')).body.leagues.find((l) => l.slug === PREMIER_LEAGUE.slug);
    assert.equal(epl?.active_events, 3);
    assert.equal(epl?.live_events, 2);
  });
});

describe('GET /v1/events/featured', () => {
  let svc: TestService;
  before(async () => {
    svc = await startService();
    await feedOk(svc, [
      fixture('low', { league: SERIE_B, start_time: at(30 * MINUTE) }),
      markets('low'),
      fixture('epl-bare', { start_time: at(HOUR) }),
      fixture('epl-deep', { start_time: at(2 * HOUR) }),
      markets('epl-deep'),
      fixture('champ-live', { league: CHAMPIONSHIP, start_time: at(-HOUR) }),
      markets('champ-live'),
      status('champ-live', 'live'),
      fixture('nba', { sport: 'basketball', league: NBA, start_time: at(4 * HOUR) }),
      fixture('epl-done', { start_time: at(-2 * HOUR) }),
      markets('epl-done'),
      status('epl-done', 'live'),
      result('epl-done', 0, 0),
      fixture('epl-canc', { start_time: at(HOUR) }),
      markets('epl-canc'),
      status('epl-canc', 'cancelled'),
    ]);
  });
  after(() => svc.close());

  const featured = async (query = ''): Promise<{ events: EventList['events']; total: number }> => {
    const res = await svc.get<{ events: EventList['events']; total: number }>(`/v1/events/featured${query}`);
    assert.equal(res.status, 200, res.text);
    return res.body;
  };

  test('live and upcoming events by league tier, then market depth, then start time; finished ones never', async () => {
    const body = await featured();
    assert.deepEqual(Object.keys(body).sort(), ['events', 'total']);
    assert.deepEqual(
      body.events.map((e) => e.id),
      ['epl-deep', 'epl-bare', 'nba', 'champ-live', 'low'],
    );
    assert.equal(body.total, 5);
  });

  test('sport and limit narrow the featured list; odds_format applies', async () => {
    assert.deepEqual(
      (await featured('?sport=basketball')).events.map((e) => e.id),
      ['nba'],
    );
    assert.deepEqual(
      (await featured('?limit=2')).events.map((e) => e.id),
      ['epl-deep', 'epl-bare'],
    );
    const f = await featured('?limit=1&odds_format=american');
    assert.deepEqual(f.events[0]?.odds, { home: 150, draw: 220, away: 190 });
  });

  test('invalid parameters are 400', async () => {
    for (const [query, param] of [
      ['?sport=curling', 'sport'],
      ['?limit=0', 'limit'],
      ['?limit=201', 'limit'],
      ['?odds_format=x', 'odds_format'],
    ] as const) {
      const res = await svc.get<ErrorBody>(`/v1/events/featured${query}`);
      assert.equal(res.status, 400, query);
      assert.ok(res.body.message.includes(param), res.body.message);
    }
  });
});

describe('GET /v1/scores', () => {
  let svc: TestService;
  before(async () => {
    svc = await startService();
    await feedOk(svc, [
      fixture('s1', { start_time: at(-HOUR) }),
      status('s1', 'live'),
      score('s1', 2, 0, { period: '2H', clock: '61:30' }),
      fixture('s2', { sport: 'basketball', league: NBA, start_time: at(-30 * MINUTE) }),
      status('s2', 'live'),
      score('s2', 48, 51, { period: 'Q3', clock: '04:12' }),
      fixture('s-pre', { start_time: at(HOUR) }),
      // Finished 10 minutes ago by the producer's account: outside the buffer from the start.
      fixture('s-long-ago', { start_time: at(-3 * HOUR) }),
      status('s-long-ago', 'live'),
      result('s-long-ago', 1, 1, { ended_at: at(-10 * MINUTE) }),
    ]);
  });
  after(() => svc.close());

  const scores = async (query = ''): Promise<ScoreList> => {
    const res = await svc.get<ScoreList>(`/v1/scores${query}`);
    assert.equal(res.status, 200, res.text);
    return res.body;
  };

  test('live games with score, status, clock, period and sport; no markets, no prematch games', async () => {
    const body = await scores();
    assert.deepEqual(body, {
      scores: [
        {
          id: 's1',
          home_team: 's1 Home',
          away_team: 's1 Away',
          score: { home: 2, away: 0 },
          status: 'live',
          clock: '61:30',
          period: '2H',
          sport: 'soccer',
          winner: null,
          decided_by: null,
        },
        {
          id: 's2',
          home_team: 's2 Home',
          away_team: 's2 Away',
          score: { home: 48, away: 51 },
          status: 'live',
          clock: '04:12',
          period: 'Q3',
          sport: 'basketball',
          winner: null,
          decided_by: null,
        },
      ],
      total: 2,
    });
  });

  test('sport and limit filter the scores', async () => {
    assert.deepEqual(
      (await scores('?sport=basketball')).scores.map((s) => s.id),
      ['s2'],
    );
    assert.deepEqual(
      (await scores('?sport=all')).scores.map((s) => s.id),
      ['s1', 's2'],
    );
    const one = await scores('?limit=1');
    assert.deepEqual(
      one.scores.map((s) => s.id),
      ['s1'],
    );
    // total counts every match, not the page (as in every other envelope).
    assert.equal(one.total, 2);
    assert.equal((await scores('?limit=200')).total, 2);
  });

  test('invalid parameters are 400 naming the parameter', async () => {
    for (const [query, param] of [
      ['?limit=0', 'limit'],
      ['?limit=201', 'limit'],
      ['?limit=x', 'limit'],
      ['?sport=curling', 'sport'],
    ] as const) {
      const res = await svc.get<ErrorBody>(`/v1/scores${query}`);
      assert.equal(res.status, 400, query);
      assert.equal(res.body.error, 'bad_request');
      assert.ok(res.body.message.includes(param), res.body.message);
    }
  });

  test('a game that ended stays listed for 5 minutes, then leaves', async () => {
    await feedOk(svc, [result('s1', 3, 0)]);
    const ids = async () => (await scores()).scores.map((s) => s.id);
    const justEnded = (await scores()).scores.find((s) => s.id === 's1');
    assert.equal(justEnded?.status, 'ended');
    assert.deepEqual(justEnded?.score, { home: 3, away: 0 });
    // Live games first, then the recently ended.
    assert.deepEqual(await ids(), ['s2', 's1']);
    svc.clock.advance(5 * MINUTE - 1000);
    assert.deepEqual(await ids(), ['s2', 's1']);
    svc.clock.advance(2000);
    assert.deepEqual(await ids(), ['s2']);
  });

  test('a game won in a shoot-out says who won and how, in the scores, the list, the detail and the result', async () => {
    const nhl = { slug: 'usa-nhl', name: 'NHL', country: 'United States', tier: 1 };
    await feedOk(svc, [
      fixture('so1', { sport: 'ice_hockey', league: nhl, start_time: at(-3 * HOUR) }),
      status('so1', 'live'),
      score('so1', 3, 3, { period: 'OT' }),
      result('so1', 3, 3, {
        period_scores: [
          { period: 'P1', home: 1, away: 0 },
          { period: 'P2', home: 1, away: 2 },
          { period: 'P3', home: 1, away: 1 },
          { period: 'OT', home: 0, away: 0 },
          { period: 'SO', home: 1, away: 2 },
        ],
        winner: 'away',
      }),
      // A plain win names nobody: the score tells, and the payloads say it.
      fixture('so2', { sport: 'ice_hockey', league: nhl, start_time: at(-3 * HOUR) }),
      status('so2', 'live'),
      result('so2', 4, 2),
    ]);
    const decided = (x: { winner?: unknown; decided_by?: unknown } | undefined) => [x?.winner, x?.decided_by];
    const listed = (await scores()).scores;
    assert.deepEqual(decided(listed.find((s) => s.id === 'so1')), ['away', 'shootout']);
    assert.deepEqual(decided(listed.find((s) => s.id === 'so2')), ['home', 'regulation']);
    assert.deepEqual(decided(listed.find((s) => s.id === 's2')), [null, null], 'a live game is not decided');
    const list = await svc.get<{ events: Array<{ id: string; winner: unknown; decided_by: unknown }> }>(
      '/v1/events?sport=ice_hockey&status=ended',
    );
    assert.equal(list.status, 200, list.text);
    assert.deepEqual(decided(list.body.events.find((e) => e.id === 'so1')), ['away', 'shootout']);
    const detail = await svc.get<{ winner: unknown; decided_by: unknown }>('/v1/events/so1');
    assert.deepEqual(decided(detail.body), ['away', 'shootout']);
    const res = await svc.get<{ score: unknown; winner: unknown; decided_by: unknown }>('/v1/events/so1/result');
    assert.deepEqual(res.body.score, { home: 3, away: 3 });
    assert.deepEqual(decided(res.body), ['away', 'shootout']);
    assert.deepEqual(decided((await svc.get<{ winner: unknown }>('/v1/events/so2/result')).body), [
      'home',
      'regulation',
    ]);
  });

  test('the buffer is measured from ended_at when the producer gives it', async () => {
    await feedOk(svc, [
      fixture('s3', { start_time: at(-HOUR) }),
      status('s3', 'live'),
      result('s3', 0, 1, { ended_at: new Date(svc.clock.now() - 4 * MINUTE).toISOString() }),
    ]);
    assert.ok((await scores()).scores.some((s) => s.id === 's3'));
    svc.clock.advance(90_000);
    assert.ok(!(await scores()).scores.some((s) => s.id === 's3'));
  });
});
