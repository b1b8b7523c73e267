// POST /v1/bets/check with outright legs: pending, won, dead heat paid exactly, void, parlays mixed with match legs, errors.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ErrorBody } from '../helpers/payloads.js';
import { outrightMarket, outrightResult, tournament } from '../helpers/outrights.js';
import { at, feedOk, HOUR, startService, type TestService } from '../helpers/service.js';

interface Check {
  status: string;
  legs: Array<{
    event_id?: string;
    tournament_id?: string;
    market_id: number;
    selection_id: number;
    market: string;
    market_name: string;
    outcome: string;
    result: string;
    odds: number;
    void_factor?: number;
    dead_heat_factor?: number;
    reason: string | null;
  }>;
  combined_odds: number;
  stake?: number;
  payout?: number | null;
}

let svc: TestService;

before(async () => {
  svc = await startService();
  await feedOk(svc, [
    tournament('open-2026', 'tennis', 'Open 2026'),
    outrightMarket('open-2026', 1, [
      [11, 'Player A', 3],
      [12, 'Player B', 5],
    ]),
    tournament('masters', 'snooker', 'Masters'),
    // Whole win.
    outrightMarket('masters', 1, [
      [101, 'Player A', 5],
      [102, 'Player B', 2],
    ]),
    // Two-way dead heat.
    outrightMarket(
      'masters',
      2,
      [
        [201, 'Player A', 6],
        [202, 'Player B', 1.5],
        [203, 'Player C', 9],
      ],
      'Top Century Maker',
    ),
    // Three-way dead heat.
    outrightMarket(
      'masters',
      3,
      [
        [301, 'Player A', 4],
        [302, 'Player B', 4],
        [303, 'Player C', 4],
        [304, 'Player D', 4],
      ],
      'Highest Break',
    ),
    // Void.
    outrightMarket('masters', 4, [
      [401, 'Player A', 2.2],
      [402, 'Player B', 1.7],
    ]),
    outrightResult('masters', 1, [101], at(HOUR)),
    outrightResult(
      'masters',
      2,
      [
        [201, 0.5],
        [202, 0.5],
      ],
      at(HOUR),
    ),
    outrightResult(
      'masters',
      3,
      [
        [301, 1 / 3],
        [302, 1 / 3],
        [303, 1 / 3],
      ],
      at(HOUR),
    ),
    outrightResult('masters', 4, 'void', at(HOUR)),
    // A match that ended 2-0, settled.
    {
      type: 'fixture',
      event_id: 'm1',
      sport: 'soccer',
      league: { slug: 'england-premier-league', name: 'Premier League', country: 'England' },
      home_team: 'Home FC',
      away_team: 'Away FC',
      start_time: at(-2 * HOUR),
    },
    {
      type: 'markets',
      event_id: 'm1',
      markets: [
        {
          market_id: 1,
          key: '1x2',
          name: 'Match Result',
          outcomes: [
            { selection_id: 1, code: 'home', label: 'Home FC', odds: 2, team_side: 'home' },
            { selection_id: 2, code: 'draw', label: 'Draw', odds: 3.4 },
            { selection_id: 3, code: 'away', label: 'Away FC', odds: 4, team_side: 'away' },
          ],
        },
      ],
    },
    { type: 'status', event_id: 'm1', status: 'live' },
    {
      type: 'result',
      event_id: 'm1',
      status: 'ended',
      score: { home: 2, away: 0 },
      period_scores: [
        { period: '1H', home: 1, away: 0 },
        { period: '2H', home: 1, away: 0 },
      ],
    },
  ]);
  await svc.service.settlement.idle();
});

after(() => svc.close());

const check = (body: unknown) => svc.inject<Check>('POST', '/v1/bets/check', { body });
const leg = (tournament_id: string, market_id: number, selection_id: number, odds?: number) => ({
  tournament_id,
  market_id,
  selection_id,
  ...(odds !== undefined ? { odds } : {}),
});

describe('bet check with outright legs', () => {
  it('an open market is pending, awaiting the tournament result, at the last odds', async () => {
    const r = await check({ legs: [leg('open-2026', 1, 12)], stake: 10 });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body, {
      status: 'pending',
      legs: [
        {
          tournament_id: 'open-2026',
          market_id: 1,
          selection_id: 12,
          market: 'outright',
          market_name: 'Winner',
          outcome: 'Player B',
          result: 'pending',
          odds: 5,
          closing_odds: null,
          reason: 'awaiting tournament result',
        },
      ],
      combined_odds: 5,
      stake: 10,
      payout: null,
    });
  });

  it('a winner pays stake × odds; a loser pays nothing', async () => {
    const won = await check({ legs: [leg('masters', 1, 101)], stake: 10 });
    assert.equal(won.body.status, 'won');
    assert.equal(won.body.payout, 50);
    assert.equal(won.body.legs[0]?.result, 'won');
    assert.equal(won.body.legs[0]?.reason, null);
    assert.ok(!('dead_heat_factor' in (won.body.legs[0] ?? {})));
    const lost = await check({ legs: [leg('masters', 1, 102)], stake: 10 });
    // A lost bet still says the price it was taken at; it pays nothing.
    assert.deepEqual(
      [lost.body.status, lost.body.payout, lost.body.combined_odds],
      ['lost', 0, lost.body.legs[0]?.odds],
    );
    assert.ok((lost.body.legs[0]?.odds ?? 0) > 1);
  });

  it('a dead heat pays stake × odds × factor for that leg, exactly', async () => {
    const half = await check({ legs: [leg('masters', 2, 201)], stake: 10 });
    assert.equal(half.status, 200, half.text);
    assert.equal(half.body.legs[0]?.result, 'won');
    assert.equal(half.body.legs[0]?.dead_heat_factor, 0.5);
    assert.deepEqual([half.body.status, half.body.combined_odds, half.body.payout], ['won', 3, 30]);
    // At short odds a dead heat returns less than the stake: the bet is lost money-wise.
    const short = await check({ legs: [leg('masters', 2, 202)], stake: 10 });
    assert.deepEqual([short.body.status, short.body.combined_odds, short.body.payout], ['lost', 0.75, 7.5]);
    // A third of the stake at 4.0: 9 → 12, with no floating-point residue.
    const third = await check({ legs: [leg('masters', 3, 303)], stake: 9 });
    assert.deepEqual([third.body.status, third.body.payout], ['won', 12]);
    assert.equal(third.body.legs[0]?.dead_heat_factor, 1 / 3);
    // The price the bet was taken at wins over the last odds.
    const taken = await check({ legs: [leg('masters', 2, 201, 7)], stake: 4 });
    assert.deepEqual([taken.body.combined_odds, taken.body.payout], [3.5, 14]);
  });

  it('a void market refunds (odds 1.00)', async () => {
    const r = await check({ legs: [leg('masters', 4, 401)], stake: 10 });
    assert.deepEqual(
      [r.body.status, r.body.payout, r.body.combined_odds, r.body.legs[0]?.result],
      ['refund', 10, 1, 'refund'],
    );
  });

  it('parlays mix match and outright legs, dead heats and refunds included', async () => {
    const r = await check({
      legs: [{ event_id: 'm1', market_id: 1, selection_id: 1 }, leg('masters', 2, 201), leg('masters', 4, 402)],
      stake: 10,
    });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(
      r.body.legs.map((l) => [l.event_id ?? l.tournament_id, l.result]),
      [
        ['m1', 'won'],
        ['masters', 'won'],
        ['masters', 'refund'],
      ],
    );
    assert.equal(r.body.legs[0]?.market, '1x2');
    // 2.00 × (6.00 × 0.5) × 1.00 = 6
    assert.deepEqual([r.body.status, r.body.combined_odds, r.body.payout], ['won', 6, 60]);

    const pending = await check({ legs: [{ event_id: 'm1', market_id: 1, selection_id: 1 }, leg('open-2026', 1, 11)] });
    assert.equal(pending.body.status, 'pending');
    // A lost leg loses the parlay even while another is pending.
    const lost = await check({ legs: [leg('masters', 1, 102), leg('open-2026', 1, 11)], stake: 5 });
    assert.deepEqual([lost.body.status, lost.body.payout], ['lost', 0]);
  });

  it('finds the market and selection by name too', async () => {
    const r = await check({ legs: [{ tournament_id: 'masters', market: 'top century maker', outcome: 'PLAYER C' }] });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(
      [r.body.legs[0]?.market_id, r.body.legs[0]?.selection_id, r.body.legs[0]?.result],
      [2, 203, 'lost'],
    );
  });

  it('unknown tournament, market or selection is 404 naming the leg; a malformed leg is 400', async () => {
    const m1 = { event_id: 'm1', market_id: 1, selection_id: 1 };
    for (const [legs, status, pattern] of [
      [[m1, leg('nope', 1, 1)], 404, /legs\[1\].*tournament 'nope'/],
      [[leg('masters', 99, 1)], 404, /legs\[0\].*market_id 99/],
      [[leg('masters', 1, 999)], 404, /legs\[0\].*selection_id 999/],
      [[{ tournament_id: 'masters', market: 'Nope', selection_id: 1 }], 404, /legs\[0\].*'Nope'/],
      [[{ ...m1, tournament_id: 'masters' }], 400, /legs\[0\].*both event_id and tournament_id/],
      [[{ market_id: 1, selection_id: 1 }], 400, /legs\[0\].*event_id.*tournament_id/],
      [[{ tournament_id: 'masters', market_id: 1 }], 400, /legs\[0\].*selection_id/],
      [[{ tournament_id: 'masters', selection_id: 1 }], 400, /legs\[0\].*market_id/],
      [[leg('masters', 1, 101, 0.5)], 400, /legs\[0\]\.odds/],
      [[{ tournament_id: '', market_id: 1, selection_id: 1 }], 400, /tournament_id/],
    ] as const) {
      const r = await svc.inject<ErrorBody>('POST', '/v1/bets/check', { body: { legs } });
      assert.equal(r.status, status, `${JSON.stringify(legs)}: ${r.text}`);
      assert.equal(r.body.error, status === 404 ? 'not_found' : 'bad_request');
      assert.match(r.body.message, pattern);
    }
  });
});
