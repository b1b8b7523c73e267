// POST /v1/bets/check over HTTP: singles and parlays by ids or by names, pending reasons, exact payouts, errors.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { at, HOUR, MINUTE, startService, type TestService } from '../helpers/service.js';

interface Check {
  status: string;
  legs: Array<{
    event_id: string;
    market_id: number;
    selection_id: number;
    market: string;
    market_name: string;
    outcome: string;
    result: string;
    odds: number;
    void_factor?: number;
    reason: string | null;
  }>;
  combined_odds: number;
  stake?: number;
  payout?: number | null;
}

function fixture(id: string, start: number): object {
  return {
    type: 'fixture',
    event_id: id,
    sport: 'soccer',
    league: { slug: 'germany-bundesliga', name: 'Bundesliga', country: 'Germany', tier: 1 },
    home_team: `${id} Home`,
    away_team: `${id} Away`,
    start_time: at(start),
  };
}

/** Markets with ids derived from a base so every event has its own selection ids. */
function markets(id: string, base: number): object {
  return {
    type: 'markets',
    event_id: id,
    markets: [
      {
        market_id: base + 1,
        key: '1x2',
        name: 'Match Result',
        outcomes: [
          { selection_id: base + 11, code: 'home', label: `${id} Home`, odds: 2.0, team_side: 'home' },
          { selection_id: base + 12, code: 'draw', label: 'Draw', odds: 3.5 },
          { selection_id: base + 13, code: 'away', label: `${id} Away`, odds: 4.0, team_side: 'away' },
        ],
      },
      {
        market_id: base + 2,
        key: 'asian_handicap:-0.25',
        name: 'Asian Handicap -0.25',
        outcomes: [
          { selection_id: base + 21, code: 'home', label: 'Home -0.25', odds: 1.9, team_side: 'home' },
          { selection_id: base + 22, code: 'away', label: 'Away +0.25', odds: 1.9, team_side: 'away' },
        ],
      },
    ],
  };
}

function ended(id: string, home: number, away: number): object[] {
  return [
    { type: 'status', event_id: id, status: 'live' },
    {
      type: 'result',
      event_id: id,
      status: 'ended',
      score: { home, away },
      period_scores: [
        { period: '1H', home: 0, away: 0 },
        { period: '2H', home, away },
      ],
    },
  ];
}

let svc: TestService;

before(async () => {
  svc = await startService();
  const r = await svc.feed([
    fixture('won', -2 * HOUR),
    markets('won', 1000),
    ...ended('won', 2, 0),
    fixture('draw', -2 * HOUR),
    markets('draw', 2000),
    ...ended('draw', 1, 1),
    fixture('soon', 3 * HOUR),
    markets('soon', 3000),
    fixture('live', -30 * MINUTE),
    markets('live', 4000),
    { type: 'status', event_id: 'live', status: 'live' },
    fixture('void', 5 * HOUR),
    markets('void', 5000),
    { type: 'status', event_id: 'void', status: 'cancelled' },
  ]);
  assert.equal(r.rejected, 0, JSON.stringify(r.errors));
  await svc.service.settlement.idle();
});

after(async () => {
  await svc.close();
});

const check = (body: unknown) => svc.inject<Check>('POST', '/v1/bets/check', { body });

describe('bet check', () => {
  it('a won single by ids pays stake × odds at the last known odds', async () => {
    const r = await check({ legs: [{ event_id: 'won', market_id: 1001, selection_id: 1011 }], stake: 10 });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.status, 'won');
    assert.equal(r.body.payout, 20);
    assert.equal(r.body.combined_odds, 2);
    assert.deepEqual(r.body.legs[0], {
      event_id: 'won',
      market_id: 1001,
      selection_id: 1011,
      market: '1x2',
      market_name: 'Match Result',
      outcome: 'won Home',
      result: 'won',
      odds: 2,
      // First priced after its scheduled start (two hours ago): no prematch price, no closing price.
      closing_odds: null,
      reason: null,
    });
  });

  it('finds the market and outcome by name with aliases, and says which it matched', async () => {
    const r = await check({ legs: [{ event_id: 'draw', market: 'Match Winner', outcome: 'X', odds: 3.2 }], stake: 5 });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.legs[0]?.market_id, 2001);
    assert.equal(r.body.legs[0]?.selection_id, 2012);
    assert.equal(r.body.legs[0]?.result, 'won');
    assert.equal(r.body.payout, 16);
  });

  it('ids win over names when both are given', async () => {
    const r = await check({
      legs: [{ event_id: 'won', market_id: 1001, selection_id: 1013, market: '1x2', outcome: 'home' }],
    });
    assert.equal(r.body.legs[0]?.selection_id, 1013);
    assert.equal(r.body.status, 'lost');
  });

  it('a parlay with a refunded leg counts it at 1.00', async () => {
    const r = await check({
      legs: [
        { event_id: 'won', market_id: 1001, selection_id: 1011, odds: 2.5 },
        { event_id: 'void', market_id: 5001, selection_id: 5011, odds: 3 },
      ],
      stake: 10,
    });
    assert.equal(r.body.legs[1]?.result, 'refund');
    assert.equal(r.body.combined_odds, 2.5);
    assert.equal(r.body.payout, 25);
    assert.equal(r.body.status, 'won');
  });

  it('a quarter-line leg that is half lost returns half the stake: the single is lost', async () => {
    const r = await check({ legs: [{ event_id: 'draw', market_id: 2002, selection_id: 2021 }], stake: 10 });
    assert.equal(r.body.legs[0]?.result, 'lost');
    assert.equal(r.body.legs[0]?.void_factor, 0.5);
    assert.equal(r.body.payout, 5);
    assert.equal(r.body.status, 'lost');
  });

  it('pending legs say why: not started, live', async () => {
    const r = await check({
      legs: [
        { event_id: 'soon', market_id: 3001, selection_id: 3011 },
        { event_id: 'live', market_id: 4001, selection_id: 4011 },
        { event_id: 'won', market_id: 1001, selection_id: 1011 },
      ],
      stake: 2,
    });
    assert.equal(r.body.status, 'pending');
    assert.equal(r.body.payout, null);
    assert.deepEqual(
      r.body.legs.map((l) => [l.result, l.reason]),
      [
        ['pending', 'not started'],
        ['pending', 'live'],
        ['won', null],
      ],
    );
  });

  it('a wholly lost leg settles the parlay as lost even with legs pending', async () => {
    const r = await check({
      legs: [
        { event_id: 'soon', market_id: 3001, selection_id: 3011 },
        { event_id: 'won', market_id: 1001, selection_id: 1012 },
      ],
      stake: 2,
    });
    assert.equal(r.body.status, 'lost');
    assert.equal(r.body.payout, 0);
  });

  it('rejects bad input with bad_request and unknown ids with not_found, naming the leg', async () => {
    const cases: Array<[unknown, number, RegExp]> = [
      [{ legs: [] }, 400, /legs/],
      [
        { legs: Array.from({ length: 21 }, () => ({ event_id: 'won', market_id: 1001, selection_id: 1011 })) },
        400,
        /legs/,
      ],
      [{ legs: [{ event_id: 'won', market_id: 1001, selection_id: 1011, odds: 0.5 }] }, 400, /odds/],
      [{ legs: [{ event_id: 'won', market_id: 1001, selection_id: 1011 }], stake: 0 }, 400, /stake/],
      [{ legs: [{ event_id: 'won' }] }, 400, /legs\[0\]/],
      [{ legs: [{ event_id: 'nope', market_id: 1, selection_id: 2 }] }, 404, /nope/],
      [{ legs: [{ event_id: 'won', market_id: 999, selection_id: 1011 }] }, 404, /999/],
      [{ legs: [{ event_id: 'won', market_id: 1001, selection_id: 999 }] }, 404, /999/],
      [{ legs: [{ event_id: 'won', market: 'Corners', outcome: 'over' }] }, 404, /Corners/],
    ];
    for (const [body, status, message] of cases) {
      const r = await svc.inject<{ error: string; message: string }>('POST', '/v1/bets/check', { body });
      assert.equal(r.status, status, JSON.stringify(body).slice(0, 80));
      assert.equal(r.body.error, status === 400 ? 'bad_request' : 'not_found');
      assert.match(r.body.message, message);
    }
  });
});
