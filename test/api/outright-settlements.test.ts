// GET /v1/settlements/outrights over HTTP, driven by the feed: entries, dead heat, void, corrections, paging, bounds.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ErrorBody } from '../helpers/payloads.js';
import { outrightMarket, outrightResult, tournament, type OutrightFeed } from '../helpers/outrights.js';
import { at, feedOk, HOUR, MINUTE, startService, type TestService } from '../helpers/service.js';

const WORLD_CUP: object[] = [
  tournament('wc-2026', 'soccer', 'World Cup 2026'),
  outrightMarket('wc-2026', 10, [
    [101, 'Brazil', 5],
    [102, 'France', 6],
    [103, 'Spain', 7],
  ]),
  outrightMarket(
    'wc-2026',
    20,
    [
      [201, 'Player A', 8],
      [202, 'Player B', 9],
      [203, 'Player C', 10],
      [204, 'Player D', 12],
    ],
    'Top Scorer',
  ),
];

const entryIds = (feed: OutrightFeed): string[] => feed.outright_settlements.map((e) => e.entry_id);

async function withWorldCup(body: (svc: TestService) => Promise<void>): Promise<void> {
  const svc = await startService();
  try {
    await feedOk(svc, WORLD_CUP);
    await body(svc);
  } finally {
    await svc.close();
  }
}

describe('GET /v1/settlements/outrights', () => {
  it('a settled market gives one entry per selection: won for the winner, lost for the others', () =>
    withWorldCup(async (svc) => {
      assert.deepEqual((await svc.get<OutrightFeed>('/v1/settlements/outrights')).body.outright_settlements, []);
      await feedOk(svc, [outrightResult('wc-2026', 10, [102], at(HOUR))]);
      const res = await svc.get<OutrightFeed>('/v1/settlements/outrights');
      assert.equal(res.status, 200, res.text);
      const entry = (selection_id: number, selection: string, result: string) => ({
        entry_id: `wc-2026:10:${selection_id}:${result}`,
        tournament_id: 'wc-2026',
        tournament: 'World Cup 2026',
        market_id: 10,
        market: 'Winner',
        selection_id,
        selection,
        result,
        settled_at: at(HOUR),
        sport: 'soccer',
      });
      assert.deepEqual(res.body, {
        outright_settlements: [entry(103, 'Spain', 'lost'), entry(102, 'France', 'won'), entry(101, 'Brazil', 'lost')],
        total: 3,
        limit: 100,
        offset: 0,
        has_more: false,
        next_cursor: null,
        applied_filters: { tournament_ids_count: 0, using_cursor: false },
      });
      // Settled markets are no longer offered.
      const list = (await svc.get<{ tournaments: Array<{ markets: Array<{ market_id: number }> }> }>('/v1/outrights'))
        .body;
      assert.deepEqual(
        list.tournaments[0]?.markets.map((m) => m.market_id),
        [20],
      );
    }));

  it('a dead heat: each tied winner is won with its dead_heat_factor; a factor of 1 is a whole win', () =>
    withWorldCup(async (svc) => {
      await feedOk(svc, [
        outrightResult(
          'wc-2026',
          20,
          [
            [203, 0.5],
            [201, 0.5],
          ],
          at(HOUR),
        ),
        outrightResult('wc-2026', 10, [[101, 1]], at(2 * HOUR)),
      ]);
      const feed = (await svc.get<OutrightFeed>('/v1/settlements/outrights')).body;
      assert.deepEqual(
        feed.outright_settlements.map((e) => [e.entry_id, e.result, e.dead_heat_factor]),
        [
          ['wc-2026:10:103:lost', 'lost', undefined],
          ['wc-2026:10:102:lost', 'lost', undefined],
          ['wc-2026:10:101:won', 'won', undefined],
          ['wc-2026:20:204:lost', 'lost', undefined],
          ['wc-2026:20:203:won', 'won', 0.5],
          ['wc-2026:20:202:lost', 'lost', undefined],
          ['wc-2026:20:201:won', 'won', 0.5],
        ],
      );
      assert.ok(!('dead_heat_factor' in (feed.outright_settlements[2] ?? {})));
    }));

  it('a void market refunds every selection', () =>
    withWorldCup(async (svc) => {
      await feedOk(svc, [outrightResult('wc-2026', 10, 'void', at(HOUR))]);
      const feed = (await svc.get<OutrightFeed>('/v1/settlements/outrights')).body;
      assert.deepEqual(entryIds(feed), ['wc-2026:10:103:refund', 'wc-2026:10:102:refund', 'wc-2026:10:101:refund']);
      assert.ok(feed.outright_settlements.every((e) => e.result === 'refund' && e.settled_at === at(HOUR)));
    }));

  it('a repeated result changes nothing; a different one is a correction that replaces the market’s entries', () =>
    withWorldCup(async (svc) => {
      await feedOk(svc, [
        outrightResult('wc-2026', 20, [202], at(HOUR)),
        outrightResult('wc-2026', 10, [102], at(2 * HOUR)),
      ]);
      const before = (await svc.get<OutrightFeed>('/v1/settlements/outrights')).text;
      // The same result again, later: accepted, nothing changes (not even settled_at).
      const again = await svc.feed([outrightResult('wc-2026', 10, [102], at(3 * HOUR))]);
      assert.deepEqual(again, { accepted: 1, rejected: 0, errors: [] });
      assert.equal((await svc.get<OutrightFeed>('/v1/settlements/outrights')).text, before);

      // A correction of the first-settled market: its entries move to the top with the new settled_at.
      await feedOk(svc, [
        outrightResult(
          'wc-2026',
          20,
          [
            [204, 0.5],
            [201, 0.5],
          ],
          at(4 * HOUR),
        ),
      ]);
      const corrected = (await svc.get<OutrightFeed>('/v1/settlements/outrights')).body;
      assert.equal(corrected.total, 7);
      assert.deepEqual(
        corrected.outright_settlements.map((e) => [e.entry_id, e.settled_at]),
        [
          ['wc-2026:20:204:won', at(4 * HOUR)],
          ['wc-2026:20:203:lost', at(4 * HOUR)],
          ['wc-2026:20:202:lost', at(4 * HOUR)],
          ['wc-2026:20:201:won', at(4 * HOUR)],
          ['wc-2026:10:103:lost', at(2 * HOUR)],
          ['wc-2026:10:102:won', at(2 * HOUR)],
          ['wc-2026:10:101:lost', at(2 * HOUR)],
        ],
      );
      // Corrected to void.
      await feedOk(svc, [outrightResult('wc-2026', 10, 'void', at(5 * HOUR))]);
      const voided = (await svc.get<OutrightFeed>('/v1/settlements/outrights?limit=3')).body;
      assert.deepEqual(entryIds(voided), ['wc-2026:10:103:refund', 'wc-2026:10:102:refund', 'wc-2026:10:101:refund']);
      assert.equal(voided.total, 7);
    }));

  it('pages to the end with the cursor: 250 entries, limit 7, newest first, no gap and no repeat', async () => {
    const svc = await startService();
    try {
      const messages: object[] = [];
      const resultsAt: Array<[string, number, string]> = [];
      for (let t = 0; t < 10; t++) {
        const tid = `t${t}`;
        messages.push(tournament(tid, t % 2 === 0 ? 'tennis' : 'darts'));
        for (let m = 1; m <= 5; m++) {
          messages.push(
            outrightMarket(
              tid,
              m,
              Array.from({ length: 5 }, (_, k): [number, string, number] => [m * 10 + k, `S${k}`, 2 + k]),
            ),
          );
          // Two markets settle at each instant: ties everywhere for entry_id to break.
          const k = t * 5 + m - 1;
          resultsAt.push([tid, m, at(Math.floor(k / 2) * MINUTE)]);
        }
      }
      for (const [tid, m, ts] of resultsAt) {
        messages.push(outrightResult(tid, m, k2winner(tid, m), ts));
      }
      await feedOk(svc, messages);

      const seen: string[] = [];
      const settledAt = new Map<string, string>();
      let url = '/v1/settlements/outrights?limit=7';
      let pages = 0;
      for (;;) {
        const res = await svc.get<OutrightFeed>(url);
        assert.equal(res.status, 200, res.text);
        pages++;
        const page = res.body;
        assert.equal(page.total, 250);
        assert.equal(page.applied_filters.using_cursor, pages > 1);
        for (const e of page.outright_settlements) {
          seen.push(e.entry_id);
          settledAt.set(e.entry_id, e.settled_at);
        }
        if (page.next_cursor === null) {
          assert.equal(page.has_more, false);
          assert.equal(page.outright_settlements.length, 250 % 7);
          break;
        }
        assert.equal(page.has_more, true);
        assert.equal(page.outright_settlements.length, 7);
        url = `/v1/settlements/outrights?limit=7&cursor=${page.next_cursor}`;
        assert.ok(pages < 100, 'paging does not end');
      }
      assert.equal(pages, Math.ceil(250 / 7));
      assert.equal(seen.length, 250);
      assert.equal(new Set(seen).size, 250);
      const expected = [...seen].sort((a, b) => {
        const ta = settledAt.get(a) ?? '';
        const tb = settledAt.get(b) ?? '';
        return ta !== tb ? (ta < tb ? 1 : -1) : a < b ? 1 : a > b ? -1 : 0;
      });
      assert.deepEqual(seen, expected, 'settled_at descending, then entry_id descending');

      // Offset paging walks the same order.
      const byOffset: string[] = [];
      for (let offset = 0; offset < 250; offset += 7) {
        const page = (await svc.get<OutrightFeed>(`/v1/settlements/outrights?limit=7&offset=${offset}`)).body;
        assert.equal(page.offset, offset);
        byOffset.push(...entryIds(page));
      }
      assert.deepEqual(byOffset, seen);

      // The cursor also pages a filtered feed to its end.
      const filtered: string[] = [];
      let next: string | null = null;
      do {
        const cursor: string = next === null ? '' : `&cursor=${next}`;
        const page: OutrightFeed = (
          await svc.get<OutrightFeed>(`/v1/settlements/outrights?tournament_ids=t3,t7&limit=7${cursor}`)
        ).body;
        assert.equal(page.total, 50);
        filtered.push(...entryIds(page));
        next = page.next_cursor;
      } while (next !== null);
      assert.deepEqual(
        filtered,
        seen.filter((id) => id.startsWith('t3:') || id.startsWith('t7:')),
      );
    } finally {
      await svc.close();
    }
  });

  it('filters by tournament_id and tournament_ids (their union, each id once); unknown ids match nothing', async () => {
    const svc = await startService();
    try {
      const messages: object[] = [];
      for (const [i, tid] of ['a', 'b', 'c'].entries()) {
        messages.push(
          tournament(tid, 'tennis'),
          outrightMarket(tid, 1, [
            [1, 'X', 2],
            [2, 'Y', 2],
          ]),
          outrightResult(tid, 1, [1], at(i * MINUTE)),
        );
      }
      await feedOk(svc, messages);
      const get = async (q: string) => {
        const res = await svc.get<OutrightFeed>(`/v1/settlements/outrights?${q}`);
        assert.equal(res.status, 200, `${q}: ${res.text}`);
        return res.body;
      };
      const one = await get('tournament_id=b');
      assert.deepEqual(entryIds(one), ['b:1:2:lost', 'b:1:1:won']);
      assert.equal(one.total, 2);
      assert.equal(one.applied_filters.tournament_ids_count, 1);

      const csv = await get('tournament_ids=a,c,a');
      assert.deepEqual(entryIds(csv), ['c:1:2:lost', 'c:1:1:won', 'a:1:2:lost', 'a:1:1:won']);
      assert.equal(csv.total, 4);
      assert.equal(csv.applied_filters.tournament_ids_count, 2);

      const both = await get('tournament_id=b&tournament_ids=c,zz');
      assert.deepEqual(entryIds(both), ['c:1:2:lost', 'c:1:1:won', 'b:1:2:lost', 'b:1:1:won']);
      assert.equal(both.applied_filters.tournament_ids_count, 3);

      const none = await get('tournament_ids=zz,yy');
      assert.deepEqual(none, {
        outright_settlements: [],
        total: 0,
        limit: 100,
        offset: 0,
        has_more: false,
        next_cursor: null,
        applied_filters: { tournament_ids_count: 2, using_cursor: false },
      });
      const fifty = Array.from({ length: 50 }, (_, i) => (i === 0 ? 'a' : `x${i}`)).join(',');
      assert.equal((await get(`tournament_ids=${fifty}`)).total, 2);
      // A cursor with offset 0 is fine.
      const first = await get('limit=1');
      assert.ok(first.next_cursor !== null);
      assert.deepEqual(entryIds(await get(`limit=1&offset=0&cursor=${first.next_cursor}`)), ['c:1:1:won']);
    } finally {
      await svc.close();
    }
  });

  it('rejects every out-of-bounds parameter with bad_request naming it', async () => {
    const svc = await startService();
    try {
      const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
      const good = b64({ settled_at: at(0), entry_id: 'a:1:1:won' });
      const ids = (n: number) => Array.from({ length: n }, (_, i) => `t${i}`).join(',');
      for (const [q, param] of [
        ['limit=0', 'limit'],
        ['limit=201', 'limit'],
        ['limit=abc', 'limit'],
        ['limit=1.5', 'limit'],
        ['offset=-1', 'offset'],
        ['offset=x', 'offset'],
        [`cursor=${good}&offset=3`, 'cursor'],
        ['cursor=%%%', 'cursor'],
        ['cursor=!!', 'cursor'],
        [`cursor=${Buffer.from('not json').toString('base64url')}`, 'cursor'],
        [`cursor=${b64({ settled_at: at(0) })}`, 'cursor'],
        [`cursor=${b64({ ended_at: at(0), event_id: 'e1' })}`, 'cursor'],
        [`cursor=${b64({ settled_at: 'yesterday', entry_id: 'x' })}`, 'cursor'],
        [`cursor=${b64([1, 2])}`, 'cursor'],
        [`tournament_ids=${ids(51)}`, 'tournament_ids'],
        ['tournament_ids=a,,b', 'tournament_ids'],
        ['tournament_ids=a,', 'tournament_ids'],
        ['tournament_ids=', 'tournament_ids'],
        ['tournament_id=', 'tournament_id'],
      ] as const) {
        const res = await svc.get<ErrorBody>(`/v1/settlements/outrights?${q}`);
        assert.equal(res.status, 400, `${q}: ${res.text}`);
        assert.equal(res.body.error, 'bad_request', q);
        assert.match(res.body.message, new RegExp(param), q);
      }
      // The edges themselves are fine.
      for (const q of [
        'limit=1',
        'limit=200',
        'offset=0',
        'offset=1000',
        `cursor=${good}`,
        `tournament_ids=${ids(50)}`,
      ]) {
        const res = await svc.get<OutrightFeed>(`/v1/settlements/outrights?${q}`);
        assert.equal(res.status, 200, `${q}: ${res.text}`);
      }
      const top = (await svc.get<OutrightFeed>('/v1/settlements/outrights')).body;
      assert.deepEqual(
        { limit: top.limit, offset: top.offset, next: top.next_cursor, more: top.has_more },
        { limit: 100, offset: 0, next: null, more: false },
      );
    } finally {
      await svc.close();
    }
  });
});

/** The winner of market m of tournament tid in the paging world: a selection that varies with both. */
function k2winner(tid: string, m: number): number[] {
  return [m * 10 + ((Number(tid.slice(1)) + m) % 5)];
}
