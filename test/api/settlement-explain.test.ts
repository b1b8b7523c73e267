// Why an outcome was graded so, over HTTP: GET /v1/events/{id}/settlement, explain=true on the feed and on bet check.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { outrightMarket, outrightResult, tournament } from '../helpers/outrights.js';
import { at, DAY, feedOk, HOUR, MINUTE, startService, type TestService } from '../helpers/service.js';

interface Explanation {
  text: string;
  score: { home: number; away: number } | null;
  scope: string | null;
  line: number | null;
  rule: string;
  void_factor: number | null;
  dead_heat_factor: number | null;
  stat: { name: string; player_id: string | null; value: number } | null;
  winner: string | null;
  half_time_score: { home: number; away: number } | null;
  result_revision: number | null;
}
interface Outcome {
  label: string;
  code?: string;
  result: string;
  selection_id: number | null;
  void_factor?: number;
  explanation?: Explanation;
}
interface Market {
  key: string;
  market_id: number | null;
  outcomes: Outcome[];
}
interface EventSettlement {
  event_id: string;
  status: string;
  settlement_status: string;
  final_score: { home: number; away: number } | null;
  resolved_markets: Market[];
  resolved_markets_count: number;
  total_markets_count: number;
  pending_markets_count: number;
  revision: number;
}
interface ErrorBody {
  error: string;
  message: string;
}

let sel = 0;
function market(id: number, key: string, codes: string[]): object {
  return {
    market_id: id,
    key,
    name: key,
    outcomes: codes.map((code) => ({ selection_id: ++sel, code, label: `Label ${code}`, odds: 1.9 })),
  };
}

/** An ice hockey game level after regulation, won in overtime: `score` regulation rows then OT. */
function hockeyGame(id: string, rows: Array<[string, number, number]>, finalScore: [number, number]): object[] {
  const start = -4 * HOUR;
  return [
    {
      type: 'fixture',
      event_id: id,
      sport: 'ice_hockey',
      league: { slug: 'nhl', name: 'NHL', country: 'USA', tier: 1 },
      home_team: `Home ${id}`,
      away_team: `Away ${id}`,
      start_time: at(start),
      ts: at(start - DAY),
    },
    {
      type: 'markets',
      event_id: id,
      ts: at(start - DAY),
      markets: [
        market(1, '1x2', ['home', 'draw', 'away']),
        market(2, 'moneyline', ['home', 'away']),
        market(3, 'asian_handicap:-0.25', ['home', 'away']),
        market(4, 'totals:4', ['over', 'under']),
        market(5, 'totals@p1:1.5', ['over', 'under']),
        market(6, 'player_goals_p9:0.5', ['over', 'under']),
      ],
    },
    { type: 'status', event_id: id, status: 'live', ts: at(start) },
    {
      type: 'result',
      event_id: id,
      status: 'ended',
      score: { home: finalScore[0], away: finalScore[1] },
      period_scores: rows.map(([period, home, away]) => ({ period, home, away })),
      winner: finalScore[0] > finalScore[1] ? 'home' : 'away',
      ended_at: at(start + 170 * MINUTE),
      ts: at(start + 170 * MINUTE),
    },
  ];
}

const GAME = hockeyGame(
  'h1',
  [
    ['P1', 1, 1],
    ['P2', 0, 1],
    ['P3', 1, 0],
    ['OT', 1, 0],
  ],
  [3, 2],
);

async function settle(svc: TestService, messages: readonly object[]): Promise<void> {
  await feedOk(svc, messages);
  await svc.service.settlement.idle();
}

const outcome = (m: Market[], key: string, code: string): Outcome | undefined =>
  m.find((x) => x.key === key)?.outcomes.find((o) => o.label === `Label ${code}`);

function assertExplained(body: EventSettlement): void {
  for (const m of body.resolved_markets) {
    for (const o of m.outcomes) {
      assert.ok(o.explanation !== undefined, `${m.key} ${o.label} has an explanation`);
      assert.ok(o.explanation.text.length > 10, `${m.key} ${o.label}: ${o.explanation.text}`);
      assert.equal(o.explanation.void_factor, o.void_factor ?? null, `${m.key} ${o.label}`);
    }
  }
}

describe('GET /v1/events/{id}/settlement', () => {
  it('explains every resolved outcome: regulation 2-2 for 1x2, the overtime winner for the moneyline, the quarter line, the push', async () => {
    const svc = await startService();
    try {
      await settle(svc, GAME);
      const res = await svc.get<EventSettlement>('/v1/events/h1/settlement');
      assert.equal(res.status, 200, res.text);
      const b = res.body;
      assert.equal(b.status, 'settled');
      assert.equal(b.resolved_markets_count, 5);
      assert.equal(b.pending_markets_count, 1);
      assertExplained(b);
      const m = b.resolved_markets;
      const draw = outcome(m, '1x2', 'draw')!;
      assert.equal(draw.result, 'won');
      assert.equal(draw.explanation!.scope, 'regulation');
      assert.deepEqual(draw.explanation!.score, { home: 2, away: 2 });
      assert.match(draw.explanation!.text, /P1-P3; overtime and shoot-out excluded/);
      const ml = outcome(m, 'moneyline', 'home')!;
      assert.equal(ml.result, 'won');
      assert.equal(ml.explanation!.scope, 'full_game');
      assert.deepEqual(ml.explanation!.score, { home: 3, away: 2 });
      const ah = outcome(m, 'asian_handicap:-0.25', 'home')!;
      assert.equal(ah.result, 'lost');
      assert.equal(ah.void_factor, 0.5);
      assert.equal(ah.explanation!.rule, 'handicap_quarter');
      assert.equal(outcome(m, 'asian_handicap:-0.25', 'away')!.explanation!.line, 0.25);
      const over = outcome(m, 'totals:4', 'over')!;
      assert.equal(over.result, 'refund');
      assert.equal(over.explanation!.rule, 'total_push');
      const p1 = outcome(m, 'totals@p1:1.5', 'over')!;
      assert.equal(p1.explanation!.scope, 'p1');
      assert.deepEqual(p1.explanation!.score, { home: 1, away: 1 });
      assert.equal(p1.result, 'won');
    } finally {
      await svc.close();
    }
  });

  it('a player prop explains the stat it read once the final stats arrive', async () => {
    const svc = await startService();
    try {
      await settle(svc, [
        ...GAME,
        {
          type: 'stats',
          event_id: 'h1',
          final: true,
          players: [{ player_id: 'p9', name: 'Nine', team: 'home', goals: 2 }],
        },
      ]);
      const b = (await svc.get<EventSettlement>('/v1/events/h1/settlement')).body;
      const over = outcome(b.resolved_markets, 'player_goals_p9:0.5', 'over')!;
      assert.equal(over.result, 'won');
      assert.deepEqual(over.explanation!.stat, { name: 'goals', player_id: 'p9', value: 2 });
    } finally {
      await svc.close();
    }
  });

  it('still explains after the event left memory, and past the detail window while the store holds the entry', async () => {
    const svc = await startService({ env: { ENDED_RETENTION_HOURS: '1', SETTLEMENT_DETAIL_DAYS: '1' } });
    try {
      await settle(svc, [
        ...GAME,
        {
          type: 'stats',
          event_id: 'h1',
          final: true,
          players: [{ player_id: 'p9', name: 'Nine', team: 'home', goals: 0 }],
        },
      ]);
      await svc.service.pipeline.flush();
      const before = (await svc.get<EventSettlement>('/v1/events/h1/settlement')).body;
      svc.clock.advance(3 * DAY);
      assert.equal(svc.service.pipeline.sweep(), 1);
      assert.equal((await svc.get('/v1/events/h1')).status, 404, 'the event left memory');
      const res = await svc.get<EventSettlement>('/v1/events/h1/settlement');
      assert.equal(res.status, 200, res.text);
      assertExplained(res.body);
      // The same explanations either side of the eviction: codes and statistics are stored, the result is archived.
      assert.deepEqual(res.body.resolved_markets, before.resolved_markets);
      const under = outcome(res.body.resolved_markets, 'player_goals_p9:0.5', 'under')!;
      assert.equal(under.result, 'won');
      assert.deepEqual(under.explanation!.stat, { name: 'goals', player_id: 'p9', value: 0 });
      assert.ok(res.body.resolved_markets.every((m) => m.outcomes.every((o) => o.explanation!.rule !== 'as_settled')));
    } finally {
      await svc.close();
    }
  });

  it('names the 48-hour refund of a postponed event and the stats timeout of a player prop', async () => {
    const svc = await startService();
    try {
      const postponed = hockeyGame('pp', [], [0, 0]).slice(0, 2);
      await feedOk(svc, [...postponed, { type: 'status', event_id: 'pp', status: 'postponed', ts: at(-4 * HOUR) }]);
      await settle(svc, GAME);
      svc.clock.advance(49 * HOUR);
      await svc.service.settlement.housekeeping();
      await svc.service.settlement.idle();
      const refunded = await svc.get<EventSettlement>('/v1/events/pp/settlement');
      assert.equal(refunded.status, 200, refunded.text);
      assertExplained(refunded.body);
      for (const m of refunded.body.resolved_markets)
        for (const o of m.outcomes) {
          assert.equal(o.result, 'refund');
          assert.equal(o.explanation!.rule, 'refund_48h');
        }
      const prop = outcome(
        (await svc.get<EventSettlement>('/v1/events/h1/settlement')).body.resolved_markets,
        'player_goals_p9:0.5',
        'over',
      )!;
      assert.equal(prop.result, 'refund');
      assert.equal(prop.explanation!.rule, 'stats_timeout');
    } finally {
      await svc.close();
    }
  });

  it('an outcome the regrade would grade otherwise (the policy changed since) is explained as settled, never contradicted', async () => {
    const tennis = (id: string): object[] => [
      {
        type: 'fixture',
        event_id: id,
        sport: 'tennis',
        league: { slug: 'atp', name: 'ATP', country: 'World', tier: 1 },
        home_team: 'A',
        away_team: 'B',
        start_time: at(-3 * HOUR),
        ts: at(-DAY),
      },
      { type: 'markets', event_id: id, ts: at(-DAY), markets: [market(1, 'moneyline', ['home', 'away'])] },
      { type: 'status', event_id: id, status: 'live', ts: at(-3 * HOUR) },
      {
        type: 'result',
        event_id: id,
        status: 'retired',
        score: { home: 1, away: 0 },
        period_scores: [
          { period: 'S1', home: 6, away: 3 },
          { period: 'S2', home: 1, away: 2 },
        ],
        winner: 'home',
        ended_at: at(-HOUR),
        ts: at(-HOUR),
      },
    ];
    const svc = await startService();
    try {
      await settle(svc, tennis('t1'));
      const now = (await svc.get<EventSettlement>('/v1/events/t1/settlement')).body;
      const home = outcome(now.resolved_markets, 'moneyline', 'home')!;
      assert.equal(home.result, 'won');
      assert.equal(home.explanation!.rule, 'retirement');
      assert.match(home.explanation!.text, /one_set_completed/);
    } finally {
      await svc.close();
    }
    const refunding = await startService({ env: { TENNIS_RETIREMENT_POLICY: 'refund' } });
    try {
      // Settled under one_set_completed, explained by a node configured to refund: as settled.
      await settle(refunding, tennis('t2'));
      const rec = await refunding.service.store.getSettlement('t2');
      assert.ok(rec !== null);
      await refunding.service.store.saveSettlement({
        ...rec,
        marketsJson: rec.marketsJson
          .replace('"result":"refund"', '"result":"won"')
          .replace(/"result":"refund"/, '"result":"lost"'),
      });
      const b = (await refunding.get<EventSettlement>('/v1/events/t2/settlement')).body;
      const h = outcome(b.resolved_markets, 'moneyline', 'home')!;
      assert.equal(h.result, 'won');
      assert.equal(h.explanation!.rule, 'as_settled');
      assert.match(h.explanation!.text, /settled won/i);
    } finally {
      await refunding.close();
    }
  });

  it('answers pending for an event known but not settled, 404 for an unknown one', async () => {
    const svc = await startService();
    try {
      await feedOk(svc, GAME.slice(0, 3));
      const pending = await svc.get<EventSettlement>('/v1/events/h1/settlement');
      assert.equal(pending.status, 200, pending.text);
      assert.equal(pending.body.status, 'pending');
      assert.equal(pending.body.final_score, null);
      assert.deepEqual(pending.body.resolved_markets, []);
      assert.equal(pending.body.total_markets_count, 6);
      const missing = await svc.get<ErrorBody>('/v1/events/nope/settlement');
      assert.equal(missing.status, 404);
      assert.equal(missing.body.error, 'not_found');
      assert.match(missing.body.message, /nope/);
    } finally {
      await svc.close();
    }
  });

  it('a corrected result is explained with its revision', async () => {
    const svc = await startService();
    try {
      await settle(svc, GAME);
      const corrected = { ...(GAME[3] as Record<string, unknown>) };
      corrected.period_scores = [
        { period: 'P1', home: 1, away: 1 },
        { period: 'P2', home: 0, away: 1 },
        { period: 'P3', home: 3, away: 0 },
      ];
      corrected.score = { home: 4, away: 2 };
      corrected.ts = at(-30 * MINUTE);
      await settle(svc, [corrected]);
      const b = (await svc.get<EventSettlement>('/v1/events/h1/settlement')).body;
      const home = outcome(b.resolved_markets, '1x2', 'home')!;
      assert.equal(home.result, 'won');
      assert.equal(home.explanation!.result_revision, 2);
      assert.match(home.explanation!.text, /revision 2/);
    } finally {
      await svc.close();
    }
  });
});

describe('explain=true', () => {
  it('adds explanations to the settlement feed; without it none; explain=maybe is 400 naming the parameter', async () => {
    const svc = await startService();
    try {
      await settle(svc, GAME);
      const plain = await svc.get<{ settlements: EventSettlement[] }>('/v1/settlements');
      assert.equal(plain.status, 200);
      assert.equal(outcome(plain.body.settlements[0]!.resolved_markets, '1x2', 'draw')!.explanation, undefined);
      const explained = await svc.get<{ settlements: EventSettlement[] }>('/v1/settlements?explain=true');
      assert.equal(explained.status, 200, explained.text);
      assertExplained(explained.body.settlements[0]!);
      const single = (await svc.get<EventSettlement>('/v1/events/h1/settlement')).body;
      assert.deepEqual(explained.body.settlements[0]!.resolved_markets, single.resolved_markets);
      for (const url of ['/v1/settlements?explain=maybe', '/v1/settlements?explain=', '/v1/settlements?explain=1']) {
        const bad = await svc.get<ErrorBody>(url);
        assert.equal(bad.status, 400, url);
        assert.equal(bad.body.error, 'bad_request');
        assert.match(bad.body.message, /explain/);
      }
    } finally {
      await svc.close();
    }
  });

  it('bet check explains each leg (a match leg by code, an outright dead heat, a pending leg null); so does the outright feed', async () => {
    const svc = await startService();
    try {
      await settle(svc, [
        ...GAME,
        tournament('t1', 'ice_hockey'),
        outrightMarket('t1', 1, [
          [1, 'Alpha', 3],
          [2, 'Beta', 4],
          [3, 'Gamma', 5],
        ]),
        outrightResult('t1', 1, [
          [1, 0.5],
          [2, 0.5],
        ]),
        outrightMarket('t1', 2, [
          [4, 'Delta', 2],
          [5, 'Epsilon', 2],
        ]),
      ]);
      const body = {
        legs: [
          { event_id: 'h1', market: 'asian_handicap:-0.25', outcome: 'home', odds: 2 },
          { tournament_id: 't1', market_id: 1, selection_id: 1, odds: 3 },
          { tournament_id: 't1', market_id: 2, selection_id: 4, odds: 2 },
          { event_id: 'h1', market: 'player_goals_p9:0.5', outcome: 'over', odds: 2 },
        ],
      };
      const res = await svc.inject<{ legs: Array<{ result: string; explanation?: Explanation | null }> }>(
        'POST',
        '/v1/bets/check?explain=true',
        { body },
      );
      assert.equal(res.status, 200, res.text);
      const [ah, dh, open, prop] = res.body.legs;
      assert.equal(ah!.result, 'lost');
      assert.equal(ah!.explanation!.rule, 'handicap_quarter');
      assert.equal(ah!.explanation!.void_factor, 0.5);
      assert.equal(dh!.explanation!.rule, 'outright_dead_heat');
      assert.equal(dh!.explanation!.dead_heat_factor, 0.5);
      assert.match(dh!.explanation!.text, /2-way dead heat/);
      assert.equal(open!.explanation, null);
      assert.equal(prop!.result, 'pending');
      assert.equal(prop!.explanation, null);
      const plain = await svc.inject<{ legs: Array<Record<string, unknown>> }>('POST', '/v1/bets/check', { body });
      assert.ok(!('explanation' in plain.body.legs[0]!));
      const feed = await svc.get<{
        outright_settlements: Array<{ selection: string; result: string; explanation?: Explanation }>;
      }>('/v1/settlements/outrights?explain=true');
      assert.equal(feed.status, 200, feed.text);
      const bySelection = new Map(feed.body.outright_settlements.map((e) => [e.selection, e]));
      assert.equal(bySelection.get('Beta')!.explanation!.rule, 'outright_dead_heat');
      assert.equal(bySelection.get('Beta')!.explanation!.dead_heat_factor, 0.5);
      assert.equal(bySelection.get('Gamma')!.explanation!.rule, 'outright_loser');
      assert.match(bySelection.get('Gamma')!.explanation!.text, /not among the 2 winners/);
      const plainFeed = await svc.get<{ outright_settlements: Array<Record<string, unknown>> }>(
        '/v1/settlements/outrights',
      );
      assert.ok(!('explanation' in plainFeed.body.outright_settlements[0]!));
      assert.equal((await svc.get('/v1/settlements/outrights?explain=yes')).status, 400);
      const bad = await svc.inject<ErrorBody>('POST', '/v1/bets/check?explain=maybe', { body });
      assert.equal(bad.status, 400);
      assert.match(bad.body.message, /explain/);
    } finally {
      await svc.close();
    }
  });
});
