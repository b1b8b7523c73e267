// The settlement feed over HTTP, driven by the feed: gradual entries, cursor paging, corrections, windows, void rules.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { at, DAY, HOUR, MINUTE, startService, T0, type TestService } from '../helpers/service.js';

interface Outcome {
  label: string;
  result: string;
  selection_id: number | null;
  opening_odds: number | null;
  closing_odds: number | null;
  void_factor?: number;
}
interface Entry {
  event_id: string;
  home_team: string;
  final_score: { home: number; away: number };
  sport: string | null;
  league: string | null;
  start_time: string | null;
  ended_at: string;
  status: string;
  settlement_status: string;
  resolved_markets: Array<{ key: string; name: string; market_id: number | null; outcomes: Outcome[] }>;
  resolved_markets_count: number;
  total_markets_count: number | null;
  pending_markets_count: number | null;
  updated_at: string;
  revision: number;
}
interface Feed {
  settlements: Entry[];
  total: number;
  fully_settled: number;
  score_only: number;
  limit: number;
  offset: number;
  has_more: boolean;
  next_cursor: string | null;
  applied_filters: { event_ids_count: number; using_cursor: boolean };
}

let sel = 0;
function market(id: number, key: string, outcomes: Array<[string, number]>): object {
  return {
    market_id: id,
    key,
    name: key,
    outcomes: outcomes.map(([code, odds]) => ({ selection_id: ++sel, code, label: code, odds })),
  };
}

/** A soccer event with a handful of markets, played and ended with `score` (half time `ht`). */
function game(
  id: string,
  opts: { start?: number; score?: [number, number]; ht?: [number, number]; endOffset?: number } = {},
): object[] {
  const start = opts.start ?? -2 * HOUR;
  const [h, a] = opts.score ?? [2, 1];
  const [hh, ha] = opts.ht ?? [1, 1];
  return [
    {
      type: 'fixture',
      event_id: id,
      sport: 'soccer',
      league: { slug: 'england-premier-league', name: 'Premier League', country: 'England', tier: 1 },
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
        market(1, '1x2', [
          ['home', 2.1],
          ['draw', 3.4],
          ['away', 3.6],
        ]),
        market(2, 'totals:2.5', [
          ['over', 1.9],
          ['under', 1.9],
        ]),
        market(3, 'asian_handicap:-0.25', [
          ['home', 1.95],
          ['away', 1.95],
        ]),
        market(4, 'btts', [
          ['yes', 1.8],
          ['no', 2.0],
        ]),
        market(5, '1x2@1h', [
          ['home', 2.9],
          ['draw', 2.1],
          ['away', 4.0],
        ]),
        market(6, 'player_goals_p9:0.5', [
          ['over', 2.5],
          ['under', 1.5],
        ]),
      ],
    },
    { type: 'status', event_id: id, status: 'live', ts: at(start) },
    {
      type: 'result',
      event_id: id,
      status: 'ended',
      score: { home: h, away: a },
      period_scores: [
        { period: '1H', home: hh, away: ha },
        { period: '2H', home: h - hh, away: a - ha },
      ],
      ended_at: at(opts.endOffset ?? start + 115 * MINUTE),
      ts: at(opts.endOffset ?? start + 115 * MINUTE),
    },
  ];
}

async function settled(svc: TestService): Promise<void> {
  await svc.service.settlement.idle();
}

async function feedAndSettle(svc: TestService, messages: object[]): Promise<void> {
  const r = await svc.feed(messages);
  assert.equal(r.rejected, 0, JSON.stringify(r.errors));
  await settled(svc);
}

const resultOf = (e: Entry, key: string, label: string): Outcome | undefined =>
  e.resolved_markets.find((m) => m.key === key)?.outcomes.find((o) => o.label === label);

describe('settlement feed', () => {
  it('settles every market exactly once the result arrives; player props wait for final stats', async () => {
    const svc = await startService();
    try {
      await feedAndSettle(svc, game('g1', { score: [2, 1], ht: [1, 1] }));
      const page = await svc.get<Feed>('/v1/settlements');
      assert.equal(page.status, 200, page.text);
      assert.equal(page.body.total, 1);
      const e = page.body.settlements[0] as Entry;
      assert.equal(e.event_id, 'g1');
      assert.equal(e.status, 'settled');
      assert.equal(e.settlement_status, 'settled');
      assert.deepEqual(e.final_score, { home: 2, away: 1 });
      assert.equal(e.sport, 'soccer');
      assert.equal(e.league, 'Premier League');
      assert.equal(resultOf(e, '1x2', 'home')?.result, 'won');
      assert.equal(resultOf(e, '1x2', 'draw')?.result, 'lost');
      assert.equal(resultOf(e, 'totals:2.5', 'over')?.result, 'won');
      assert.equal(resultOf(e, 'totals:2.5', 'under')?.result, 'lost');
      assert.equal(resultOf(e, 'asian_handicap:-0.25', 'home')?.result, 'won');
      assert.equal(resultOf(e, 'btts', 'yes')?.result, 'won');
      assert.equal(resultOf(e, '1x2@1h', 'draw')?.result, 'won');
      assert.equal(e.resolved_markets_count, 5);
      assert.equal(e.total_markets_count, 6);
      assert.equal(e.pending_markets_count, 1);
      assert.equal(page.body.fully_settled, 0);
      const before = e.revision;

      await feedAndSettle(svc, [
        {
          type: 'stats',
          event_id: 'g1',
          final: true,
          players: [{ player_id: 'p9', name: 'Nine', team: 'home', goals: 1 }],
        },
      ]);
      const after = (await svc.get<Feed>('/v1/settlements')).body;
      const e2 = after.settlements[0] as Entry;
      assert.equal(e2.pending_markets_count, 0);
      assert.equal(e2.resolved_markets_count, 6);
      assert.equal(resultOf(e2, 'player_goals_p9:0.5', 'over')?.result, 'won');
      assert.ok(e2.revision > before);
      assert.equal(after.fully_settled, 1);
    } finally {
      await svc.close();
    }
  });

  it('a quarter line splits the stake: a draw on -0.25 is half lost with void_factor 0.5', async () => {
    const svc = await startService();
    try {
      await feedAndSettle(svc, game('q1', { score: [1, 1], ht: [0, 0] }));
      const e = (await svc.get<Feed>('/v1/settlements?event_id=q1')).body.settlements[0] as Entry;
      assert.deepEqual(resultOf(e, 'asian_handicap:-0.25', 'home'), {
        label: 'home',
        code: 'home',
        result: 'lost',
        selection_id: resultOf(e, 'asian_handicap:-0.25', 'home')?.selection_id,
        // Offered at 1.95 a day before kick-off, unmoved: opening and closing alike.
        opening_odds: 1.95,
        closing_odds: 1.95,
        void_factor: 0.5,
      });
      assert.equal(resultOf(e, 'asian_handicap:-0.25', 'away')?.result, 'won');
      assert.equal(resultOf(e, 'asian_handicap:-0.25', 'away')?.void_factor, 0.5);
    } finally {
      await svc.close();
    }
  });

  it('entries move gradually: with small batches the counts rise commit by commit', async () => {
    const svc = await startService({ env: { SETTLEMENT_BATCH_SIZE: '2' } });
    const seen: number[] = [];
    const stop = svc.service.log.subscribe((c) => {
      if (c.kind === 'settlement') seen.push(c.at);
    });
    try {
      await feedAndSettle(svc, game('s1'));
      assert.ok(seen.length >= 3, `expected several commits, saw ${seen.length}`);
      const e = (await svc.get<Feed>('/v1/settlements')).body.settlements[0] as Entry;
      assert.equal(e.resolved_markets_count, 5);
      assert.equal(e.revision, seen.length);
    } finally {
      stop();
      await svc.close();
    }
  });

  it('pages to the end with the cursor: newest first, nothing missed, nothing twice', async () => {
    const svc = await startService();
    try {
      const messages: object[] = [];
      for (let i = 0; i < 23; i++) {
        // Two games end at the same instant: event_id breaks the tie.
        messages.push(
          ...game(`p${String(i).padStart(2, '0')}`, {
            start: -3 * HOUR,
            endOffset: -HOUR + Math.floor(i / 2) * MINUTE,
          }),
        );
      }
      await feedAndSettle(svc, messages);
      const ids: string[] = [];
      let url = '/v1/settlements?limit=5';
      for (let guard = 0; guard < 20; guard++) {
        const page = await svc.get<Feed>(url);
        assert.equal(page.status, 200, page.text);
        ids.push(...page.body.settlements.map((e) => e.event_id));
        assert.equal(page.body.total, 23);
        if (page.body.next_cursor === null) {
          assert.equal(page.body.has_more, false);
          break;
        }
        assert.equal(page.body.has_more, true);
        url = `/v1/settlements?limit=5&cursor=${page.body.next_cursor}`;
        assert.equal((await svc.get<Feed>(url)).body.applied_filters.using_cursor, true);
      }
      assert.equal(ids.length, 23);
      assert.equal(new Set(ids).size, 23);
      const expected = [...ids].sort((a, b) => {
        const ea = Number(a.slice(1));
        const eb = Number(b.slice(1));
        return Math.floor(eb / 2) - Math.floor(ea / 2) || (a < b ? 1 : -1);
      });
      assert.deepEqual(ids, expected, 'ended_at descending, then event_id descending');
    } finally {
      await svc.close();
    }
  });

  it('validates its parameters with bad_request naming the parameter', async () => {
    const svc = await startService();
    try {
      const many = Array.from({ length: 51 }, (_, i) => `e${i}`).join(',');
      for (const [url, param] of [
        ['/v1/settlements?limit=0', 'limit'],
        ['/v1/settlements?limit=201', 'limit'],
        ['/v1/settlements?offset=-1', 'offset'],
        ['/v1/settlements?cursor=%%%', 'cursor'],
        ['/v1/settlements?cursor=bm90LWpzb24', 'cursor'],
        ['/v1/settlements?cursor=eyJlbmRlZF9hdCI6MX0&offset=5', 'cursor'],
        [`/v1/settlements?event_ids=${many}`, 'event_ids'],
        ['/v1/settlements?updated_since=yesterday', 'updated_since'],
      ] as const) {
        const r = await svc.get<{ error: string; message: string }>(url);
        assert.equal(r.status, 400, url);
        assert.equal(r.body.error, 'bad_request');
        assert.match(r.body.message, new RegExp(param), url);
      }
      const ok = await svc.get<Feed>('/v1/settlements');
      assert.deepEqual(
        { limit: ok.body.limit, offset: ok.body.offset, next: ok.body.next_cursor, more: ok.body.has_more },
        { limit: 100, offset: 0, next: null, more: false },
      );
    } finally {
      await svc.close();
    }
  });

  it('filters by event_id and event_ids', async () => {
    const svc = await startService();
    try {
      await feedAndSettle(svc, [...game('a1'), ...game('a2'), ...game('a3')]);
      const one = (await svc.get<Feed>('/v1/settlements?event_id=a2')).body;
      assert.deepEqual(
        one.settlements.map((e) => e.event_id),
        ['a2'],
      );
      assert.equal(one.total, 1);
      const two = (await svc.get<Feed>('/v1/settlements?event_ids=a1,a3,zz')).body;
      assert.deepEqual(two.settlements.map((e) => e.event_id).sort(), ['a1', 'a3']);
      assert.equal(two.applied_filters.event_ids_count, 3);
      assert.equal(two.total, 2);
    } finally {
      await svc.close();
    }
  });

  it('a corrected result re-grades the entry and raises its revision', async () => {
    const svc = await startService();
    try {
      await feedAndSettle(svc, game('c1', { score: [2, 1], ht: [1, 1] }));
      const first = (await svc.get<Feed>('/v1/settlements')).body.settlements[0] as Entry;
      svc.clock.advance(MINUTE);
      await feedAndSettle(svc, [
        {
          type: 'result',
          event_id: 'c1',
          status: 'ended',
          score: { home: 2, away: 2 },
          period_scores: [
            { period: '1H', home: 1, away: 1 },
            { period: '2H', home: 1, away: 1 },
          ],
          ended_at: first.ended_at,
        },
      ]);
      const fixed = (await svc.get<Feed>('/v1/settlements')).body.settlements[0] as Entry;
      assert.ok(fixed.revision > first.revision);
      assert.deepEqual(fixed.final_score, { home: 2, away: 2 });
      assert.equal(resultOf(fixed, '1x2', 'draw')?.result, 'won');
      assert.equal(resultOf(fixed, '1x2', 'home')?.result, 'lost');
      assert.equal(fixed.resolved_markets_count, first.resolved_markets_count);
      const changes = (await svc.get<Feed>(`/v1/settlements?updated_since=${encodeURIComponent(first.updated_at)}`))
        .body;
      assert.deepEqual(
        changes.settlements.map((e) => e.event_id),
        ['c1'],
      );
    } finally {
      await svc.close();
    }
  });

  it('updated_since lists entries changed after the instant, oldest change first, with its own cursor', async () => {
    const svc = await startService();
    try {
      await feedAndSettle(svc, game('u1'));
      const since = new Date(svc.clock.now()).toISOString();
      svc.clock.advance(MINUTE);
      await feedAndSettle(svc, game('u2'));
      svc.clock.advance(MINUTE);
      await feedAndSettle(svc, game('u3'));
      const first = (await svc.get<Feed>(`/v1/settlements?updated_since=${since}&limit=1`)).body;
      assert.deepEqual(
        first.settlements.map((e) => e.event_id),
        ['u2'],
      );
      assert.equal(first.total, 2);
      assert.ok(first.next_cursor !== null);
      const second = (await svc.get<Feed>(`/v1/settlements?updated_since=${since}&limit=1&cursor=${first.next_cursor}`))
        .body;
      assert.deepEqual(
        second.settlements.map((e) => e.event_id),
        ['u3'],
      );
      assert.equal(second.next_cursor, null);
    } finally {
      await svc.close();
    }
  });

  it('past the detail window an entry is score_only; past the feed window it is gone, its result stays', async () => {
    const svc = await startService();
    try {
      await feedAndSettle(svc, game('old'));
      svc.clock.advance(8 * DAY);
      const aged = (await svc.get<Feed>('/v1/settlements')).body;
      const e = aged.settlements[0] as Entry;
      assert.deepEqual(e.resolved_markets, []);
      assert.equal(e.total_markets_count, null);
      assert.equal(e.pending_markets_count, null);
      assert.equal(e.sport, null);
      assert.equal(e.league, null);
      assert.deepEqual(e.final_score, { home: 2, away: 1 });
      assert.equal(aged.score_only, 1);
      assert.equal(aged.fully_settled, 0);
      svc.clock.advance(23 * DAY);
      const gone = (await svc.get<Feed>('/v1/settlements')).body;
      assert.equal(gone.total, 0);
      assert.deepEqual(gone.settlements, []);
      const result = await svc.get<{ status: string }>('/v1/events/old/result');
      assert.equal(result.status, 200);
      assert.equal(result.body.status, 'ended');
    } finally {
      await svc.close();
    }
  });

  it('a market withdrawn near the end still settles (bets were taken on it)', async () => {
    const svc = await startService();
    try {
      const messages = game('w1', { score: [0, 0], ht: [0, 0] });
      messages.splice(3, 0, { type: 'remove_markets', event_id: 'w1', market_ids: [4] });
      await feedAndSettle(svc, messages);
      const odds = (await svc.get<{ markets: Array<{ market_id: number }> }>('/v1/events/w1/odds')).body;
      assert.deepEqual(odds.markets, [], 'an ended event returns no markets');
      const e = (await svc.get<Feed>('/v1/settlements')).body.settlements[0] as Entry;
      assert.equal(resultOf(e, 'btts', 'no')?.result, 'won');
      assert.equal(e.total_markets_count, 6);
    } finally {
      await svc.close();
    }
  });

  it('player props still without final statistics are refunded after the stats timeout', async () => {
    const svc = await startService();
    try {
      await feedAndSettle(svc, game('t1'));
      svc.clock.advance(23 * HOUR);
      await svc.service.settlement.housekeeping();
      await settled(svc);
      assert.equal(((await svc.get<Feed>('/v1/settlements')).body.settlements[0] as Entry).pending_markets_count, 1);
      svc.clock.advance(2 * HOUR);
      await svc.service.settlement.housekeeping();
      await settled(svc);
      const e = (await svc.get<Feed>('/v1/settlements')).body.settlements[0] as Entry;
      assert.equal(e.pending_markets_count, 0);
      assert.equal(resultOf(e, 'player_goals_p9:0.5', 'over')?.result, 'refund');
    } finally {
      await svc.close();
    }
  });

  it('an abandoned game: markets already decided stand, the rest is refunded', async () => {
    const svc = await startService();
    try {
      const messages = game('ab', { score: [2, 1], ht: [1, 1] });
      messages[3] = {
        type: 'result',
        event_id: 'ab',
        status: 'abandoned',
        score: { home: 2, away: 1 },
        period_scores: [
          { period: '1H', home: 1, away: 1 },
          { period: '2H', home: 1, away: 0 },
        ],
      };
      await feedAndSettle(svc, messages);
      const e = (await svc.get<Feed>('/v1/settlements')).body.settlements[0] as Entry;
      assert.equal(resultOf(e, '1x2@1h', 'draw')?.result, 'won', 'the first half was completed');
      assert.equal(resultOf(e, '1x2', 'home')?.result, 'refund');
      assert.equal(resultOf(e, 'totals:2.5', 'over')?.result, 'won', 'three goals: over 2.5 was already decided');
      assert.equal(resultOf(e, 'btts', 'yes')?.result, 'won', 'both teams had already scored');
    } finally {
      await svc.close();
    }
  });

  it('a cancelled event refunds every market at once', async () => {
    const svc = await startService();
    try {
      const [fixture, markets] = game('x1', { start: 2 * HOUR });
      await feedAndSettle(svc, [
        fixture as object,
        markets as object,
        { type: 'status', event_id: 'x1', status: 'cancelled' },
      ]);
      const e = (await svc.get<Feed>('/v1/settlements')).body.settlements[0] as Entry;
      assert.equal(e.pending_markets_count, 0);
      assert.ok(e.resolved_markets.every((m) => m.outcomes.every((o) => o.result === 'refund')));
    } finally {
      await svc.close();
    }
  });

  it('a postponed event not resumed within 48 hours is refunded automatically', async () => {
    const svc = await startService();
    try {
      const [fixture, markets] = game('pp', { start: HOUR });
      await feedAndSettle(svc, [
        fixture as object,
        markets as object,
        { type: 'status', event_id: 'pp', status: 'postponed' },
      ]);
      svc.clock.advance(47 * HOUR);
      await svc.service.settlement.housekeeping();
      await settled(svc);
      assert.equal((await svc.get<Feed>('/v1/settlements')).body.total, 0);
      svc.clock.advance(2 * HOUR);
      await svc.service.settlement.housekeeping();
      await settled(svc);
      const e = (await svc.get<Feed>('/v1/settlements')).body.settlements[0] as Entry;
      assert.equal(e.event_id, 'pp');
      assert.ok(e.resolved_markets.every((m) => m.outcomes.every((o) => o.result === 'refund')));
    } finally {
      await svc.close();
    }
  });

  it('settlement resumes after a restart and finishes what was pending', async () => {
    const svc = await startService();
    await feedAndSettle(svc, game('r1'));
    await svc.close({ keepDir: true });
    const again = await startService({ dataDir: svc.dataDir, now: T0 + MINUTE });
    try {
      await again.feed([
        {
          type: 'stats',
          event_id: 'r1',
          final: true,
          players: [{ player_id: 'p9', name: 'Nine', team: 'home', goals: 0 }],
        },
      ]);
      await again.service.settlement.idle();
      const e = (await again.get<Feed>('/v1/settlements')).body.settlements[0] as Entry;
      assert.equal(e.pending_markets_count, 0);
      assert.equal(resultOf(e, 'player_goals_p9:0.5', 'under')?.result, 'won');
    } finally {
      await again.close();
    }
  });
});
