// GET /v1/outrights and GET /v1/outrights/sports over HTTP, driven by the feed: listing, formats, filter, cache, restart.
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { describe, it } from 'node:test';
import type { ErrorBody } from '../helpers/payloads.js';
import {
  outrightMarket,
  outrightResult,
  tournament,
  type OutrightFeed,
  type OutrightList,
  type OutrightSports,
} from '../helpers/outrights.js';
import { at, feedOk, MINUTE, startService, type TestService } from '../helpers/service.js';

/** Tennis (two tournaments), soccer (one), and a darts tournament whose only market is settled. */
const WORLD: object[] = [
  tournament('wimbledon-2026', 'tennis', 'Wimbledon 2026'),
  tournament('ao-2027', 'tennis', 'Australian Open 2027'),
  tournament('epl-2026', 'soccer', 'Premier League 2026/27'),
  tournament('pdc-2026', 'darts', 'PDC World Championship 2026'),
  tournament('empty', 'snooker', 'No Markets Yet'),
  outrightMarket('wimbledon-2026', 7, [
    [71, 'Player A', 2.5],
    [72, 'Player B', 3.75],
    [73, 'Player C', 11],
  ]),
  outrightMarket(
    'wimbledon-2026',
    3,
    [
      [31, 'Player A', 1.5],
      [32, 'Field', 2.5],
    ],
    'Reaches the final',
  ),
  outrightMarket('ao-2027', 1, [
    [11, 'Player A', 4],
    [12, 'Player B', 1.91],
  ]),
  outrightMarket('epl-2026', 100, [
    [1001, 'Arsenal', 2.2],
    [1002, 'Liverpool', 3],
  ]),
  outrightMarket('pdc-2026', 5, [
    [51, 'Player X', 2],
    [52, 'Player Y', 2],
  ]),
  outrightResult('pdc-2026', 5, [51]),
];

async function world(): Promise<TestService> {
  const svc = await startService();
  await feedOk(svc, WORLD);
  return svc;
}

describe('GET /v1/outrights', () => {
  it('lists tournaments with open markets: sport order, then name; markets by id; decimal by default', async () => {
    const svc = await world();
    try {
      const res = await svc.get<OutrightList>('/v1/outrights');
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body, {
        tournaments: [
          {
            tournament_id: 'epl-2026',
            tournament: 'Premier League 2026/27',
            sport: 'soccer',
            sport_id: 1,
            markets: [
              {
                market_id: 100,
                market: 'Winner',
                selections: [
                  { selection_id: 1001, selection: 'Arsenal', odds: 2.2 },
                  { selection_id: 1002, selection: 'Liverpool', odds: 3 },
                ],
              },
            ],
          },
          {
            tournament_id: 'ao-2027',
            tournament: 'Australian Open 2027',
            sport: 'tennis',
            sport_id: 3,
            markets: [
              {
                market_id: 1,
                market: 'Winner',
                selections: [
                  { selection_id: 11, selection: 'Player A', odds: 4 },
                  { selection_id: 12, selection: 'Player B', odds: 1.91 },
                ],
              },
            ],
          },
          {
            tournament_id: 'wimbledon-2026',
            tournament: 'Wimbledon 2026',
            sport: 'tennis',
            sport_id: 3,
            markets: [
              {
                market_id: 3,
                market: 'Reaches the final',
                selections: [
                  { selection_id: 31, selection: 'Player A', odds: 1.5 },
                  { selection_id: 32, selection: 'Field', odds: 2.5 },
                ],
              },
              {
                market_id: 7,
                market: 'Winner',
                selections: [
                  { selection_id: 71, selection: 'Player A', odds: 2.5 },
                  { selection_id: 72, selection: 'Player B', odds: 3.75 },
                  { selection_id: 73, selection: 'Player C', odds: 11 },
                ],
              },
            ],
          },
        ],
        total: 3,
      });
    } finally {
      await svc.close();
    }
  });

  it('serves every odds value in the requested format', async () => {
    const svc = await world();
    try {
      const odds = async (format: string) => {
        const res = await svc.get<OutrightList>(`/v1/outrights?sport_id=3&odds_format=${format}`);
        assert.equal(res.status, 200, res.text);
        return res.body.tournaments.flatMap((t) => t.markets.flatMap((m) => m.selections.map((s) => s.odds)));
      };
      assert.deepEqual(await odds('decimal'), [4, 1.91, 1.5, 2.5, 2.5, 3.75, 11]);
      assert.deepEqual(await odds('american'), [300, -110, -200, 150, 150, 275, 1000]);
      assert.deepEqual(await odds('fractional'), ['3/1', '10/11', '1/2', '3/2', '3/2', '11/4', '10/1']);
    } finally {
      await svc.close();
    }
  });

  it('follows the feed: new prices, a settled market leaves, a tournament without open markets is not listed', async () => {
    const svc = await world();
    try {
      await feedOk(svc, [
        outrightMarket('ao-2027', 1, [
          [11, 'Player A', 3.4],
          [12, 'Player B', 2.05],
        ]),
        outrightResult('wimbledon-2026', 3, [31]),
      ]);
      let list = (await svc.get<OutrightList>('/v1/outrights?sport_id=3')).body;
      assert.deepEqual(
        list.tournaments.map((t) => [t.tournament_id, t.markets.map((m) => m.market_id)]),
        [
          ['ao-2027', [1]],
          ['wimbledon-2026', [7]],
        ],
      );
      assert.deepEqual(
        list.tournaments[0]?.markets[0]?.selections.map((s) => s.odds),
        [3.4, 2.05],
      );
      await feedOk(svc, [outrightResult('ao-2027', 1, 'void')]);
      list = (await svc.get<OutrightList>('/v1/outrights?sport_id=3')).body;
      assert.deepEqual(
        list.tournaments.map((t) => t.tournament_id),
        ['wimbledon-2026'],
      );
      assert.equal(list.total, 1);
      // A renamed tournament is listed under its new name (and moves in the name order).
      await feedOk(svc, [tournament('epl-2026', 'soccer', 'EPL 2026/27')]);
      const soccer = (await svc.get<OutrightList>('/v1/outrights?sport_id=1')).body;
      assert.equal(soccer.tournaments[0]?.tournament, 'EPL 2026/27');
    } finally {
      await svc.close();
    }
  });

  it('sport_id filters; a catalog sport without outrights is an empty list; anything else is 400 naming sport_id', async () => {
    const svc = await world();
    try {
      const soccer = (await svc.get<OutrightList>('/v1/outrights?sport_id=1')).body;
      assert.deepEqual(
        soccer.tournaments.map((t) => t.tournament_id),
        ['epl-2026'],
      );
      // Darts has a tournament, but its only market is settled; snooker's has no market.
      for (const id of [16, 17, 4]) {
        const res = await svc.get<OutrightList>(`/v1/outrights?sport_id=${id}`);
        assert.equal(res.status, 200, res.text);
        assert.deepEqual(res.body, { tournaments: [], total: 0 });
      }
      for (const q of ['sport_id=0', 'sport_id=20', 'sport_id=-1', 'sport_id=abc', 'sport_id=1.5', 'sport_id=']) {
        const res = await svc.get<ErrorBody>(`/v1/outrights?${q}`);
        assert.equal(res.status, 400, q);
        assert.equal(res.body.error, 'bad_request', q);
        assert.match(res.body.message, /sport_id/, q);
      }
      const fmt = await svc.get<ErrorBody>('/v1/outrights?odds_format=hex');
      assert.equal(fmt.status, 400);
      assert.match(fmt.body.message, /odds_format/);
    } finally {
      await svc.close();
    }
  });

  it('needs an API key, like every /v1 data endpoint', async () => {
    const svc = await world();
    try {
      for (const url of ['/v1/outrights', '/v1/outrights/sports', '/v1/settlements/outrights']) {
        const res = await svc.get<ErrorBody>(url, { key: null });
        assert.equal(res.status, 401, url);
        assert.equal(res.body.error, 'unauthorized', url);
      }
    } finally {
      await svc.close();
    }
  });

  it('the feed rejects outright messages that do not fit, and a repeat changes nothing', async () => {
    const svc = await world();
    try {
      const before = (await svc.get<OutrightList>('/v1/outrights')).text;
      const report = await svc.feed([
        outrightMarket('nowhere', 1, [[1, 'A', 2]]),
        outrightResult('wimbledon-2026', 99, [71]),
        outrightResult('wimbledon-2026', 7, [999]),
        outrightResult('nowhere', 1, [1]),
        outrightMarket('pdc-2026', 5, [[51, 'Player X', 1.5]]),
        { ...tournament('x', 'tennis'), sport_id: 1 },
        WORLD[0] as object,
        WORLD[5] as object,
        WORLD[WORLD.length - 1] as object,
      ]);
      assert.equal(report.accepted, 3, JSON.stringify(report.errors));
      assert.deepEqual(
        report.errors.map((e) => [e.line, e.error]),
        [
          [1, 'bad_request'],
          [2, 'bad_request'],
          [3, 'bad_request'],
          [4, 'bad_request'],
          [5, 'bad_request'],
          [6, 'bad_request'],
        ],
      );
      assert.match(report.errors[0]?.message ?? '', /unknown tournament 'nowhere'/);
      assert.match(report.errors[1]?.message ?? '', /unknown outright market 99/);
      assert.match(report.errors[2]?.message ?? '', /selection_id 999/);
      assert.match(report.errors[4]?.message ?? '', /already settled/);
      assert.equal((await svc.get<OutrightList>('/v1/outrights')).text, before);
    } finally {
      await svc.close();
    }
  });
});

describe('GET /v1/outrights/sports', () => {
  it('lists sports with a tournament that has an open market, in catalog order, with counts', async () => {
    const svc = await world();
    try {
      const res = await svc.get<OutrightSports>('/v1/outrights/sports');
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body, {
        sports: [
          { sport_id: 1, name: 'Soccer', tournament_count: 1 },
          { sport_id: 3, name: 'Tennis', tournament_count: 2 },
        ],
        total: 2,
      });
      // Each sport_id is meant for the listing filter: it finds that many tournaments.
      for (const s of res.body.sports) {
        const list = (await svc.get<OutrightList>(`/v1/outrights?sport_id=${s.sport_id}`)).body;
        assert.equal(list.total, s.tournament_count);
      }
    } finally {
      await svc.close();
    }
  });

  it('is cached for 5 minutes: a new tournament appears only once the cache expires', async () => {
    const svc = await world();
    try {
      const first = await svc.get<OutrightSports>('/v1/outrights/sports');
      await feedOk(svc, [
        tournament('uk-open', 'darts', 'UK Open'),
        outrightMarket('uk-open', 1, [
          [1, 'Player X', 3],
          [2, 'Player Y', 1.4],
        ]),
        outrightResult('epl-2026', 100, [1001]),
      ]);
      // The listing and /v1/sports are live.
      assert.deepEqual(
        (await svc.get<OutrightList>('/v1/outrights?sport_id=16')).body.tournaments.map((t) => t.tournament_id),
        ['uk-open'],
      );
      const sports = (await svc.get<{ sports: Array<{ key: string; has_outrights: boolean }> }>('/v1/sports')).body;
      assert.deepEqual(
        sports.sports.filter((s) => s.has_outrights).map((s) => s.key),
        ['tennis', 'darts'],
      );
      svc.clock.advance(5 * MINUTE - 1);
      const cached = await svc.get<OutrightSports>('/v1/outrights/sports');
      assert.equal(cached.text, first.text);
      svc.clock.advance(1);
      const fresh = await svc.get<OutrightSports>('/v1/outrights/sports');
      assert.deepEqual(fresh.body, {
        sports: [
          { sport_id: 3, name: 'Tennis', tournament_count: 2 },
          { sport_id: 16, name: 'Darts', tournament_count: 1 },
        ],
        total: 2,
      });
      // The new answer is cached in its turn.
      await feedOk(svc, [outrightResult('uk-open', 1, [1])]);
      svc.clock.advance(4 * MINUTE);
      assert.equal((await svc.get<OutrightSports>('/v1/outrights/sports')).text, fresh.text);
    } finally {
      await svc.close();
    }
  });

  it('an empty service lists no sports', async () => {
    const svc = await startService();
    try {
      assert.deepEqual((await svc.get<OutrightSports>('/v1/outrights/sports')).body, { sports: [], total: 0 });
      assert.deepEqual((await svc.get<OutrightList>('/v1/outrights')).body, { tournaments: [], total: 0 });
    } finally {
      await svc.close();
    }
  });
});

describe('outrights across a restart', () => {
  it('tournaments, markets, results and settlement entries survive; settled markets stay closed', async () => {
    const first = await startService();
    let second: TestService | undefined;
    try {
      await feedOk(first, WORLD);
      await feedOk(first, [
        outrightResult('wimbledon-2026', 3, [[31, 0.5], 32], at(MINUTE)),
        outrightResult('ao-2027', 1, 'void', at(2 * MINUTE)),
      ]);
      const urls = [
        '/v1/outrights',
        '/v1/outrights?odds_format=fractional',
        '/v1/outrights/sports',
        '/v1/sports',
        '/v1/settlements/outrights',
        '/v1/settlements/outrights?tournament_id=wimbledon-2026',
      ];
      const before = new Map<string, string>();
      for (const url of urls) before.set(url, (await first.get(url)).text);
      const bet = { legs: [{ tournament_id: 'wimbledon-2026', market_id: 3, selection_id: 31 }], stake: 10 };
      const betBefore = (await first.inject('POST', '/v1/bets/check', { body: bet })).text;
      const feedBefore = JSON.parse(before.get('/v1/settlements/outrights') ?? '{}') as OutrightFeed;
      assert.equal(feedBefore.total, 2 + 2 + 2);

      const now = first.clock.now();
      await first.close({ keepDir: true });
      second = await startService({ dataDir: first.dataDir, now });
      for (const url of urls) assert.equal((await second.get(url)).text, before.get(url), url);
      assert.equal((await second.inject('POST', '/v1/bets/check', { body: bet })).text, betBefore);

      // Re-sent by a producer that cannot know what we kept: nothing changes, and settled stays settled.
      second.clock.advance(MINUTE);
      const report = await second.feed([
        ...WORLD,
        outrightResult('wimbledon-2026', 3, [32, [31, 0.5]], at(9 * MINUTE)),
      ]);
      // The markets of Wimbledon (3), the Australian Open and the PDC are settled.
      assert.equal(report.rejected, 3, JSON.stringify(report.errors));
      assert.deepEqual(
        report.errors.map((e) => e.message.includes('already settled')),
        [true, true, true],
      );
      for (const url of urls) assert.equal((await second.get(url)).text, before.get(url), `after re-sending: ${url}`);
    } finally {
      await second?.close();
      await first.close();
      await rm(first.dataDir, { recursive: true, force: true });
    }
  });
});
