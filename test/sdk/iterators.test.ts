// The SDK's settlement iterators against a real service: cursor paging newest first, and updated_since oldest change first.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { SportsDataClient, type FetchLike } from '../../sdk/src/index.js';
import { outrightResult } from '../helpers/outrights.js';
import { at, DEMO_KEY, feedOk, HOUR, MINUTE } from '../helpers/service.js';
import { CUP, playedGame, startWorld, type SdkWorld } from './world.js';

/** A client whose requests are recorded (path and query), to count pages. */
function recordingClient(baseUrl: string): { client: SportsDataClient; urls: string[] } {
  const urls: string[] = [];
  const f: FetchLike = (input, init) => {
    urls.push(input.slice(baseUrl.length));
    return fetch(input, init);
  };
  return { client: new SportsDataClient({ baseUrl, apiKey: DEMO_KEY, fetch: f }), urls };
}

const GAMES = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];

describe('settlement iterators', () => {
  let w: SdkWorld;
  /** When each game's entry was last changed: they are settled one by one, a minute apart. */
  const since = at(-MINUTE);
  before(async () => {
    w = await startWorld([]);
    // Games ended in order a (oldest) … g; each settled at its own instant; e's entry settled first of all.
    for (const [i, id] of ['e', 'a', 'b', 'c', 'd', 'f', 'g'].entries()) {
      w.svc.clock.set(at(i * MINUTE));
      const end = -10 * HOUR + GAMES.indexOf(id) * HOUR;
      await feedOk(w.svc, playedGame(id, end));
      await w.svc.service.settlement.idle();
    }
    w.svc.clock.set(at(10 * MINUTE));
    await feedOk(w.svc, [...CUP, outrightResult('cup-2026', 10, [102], at(2 * MINUTE))]);
    await feedOk(w.svc, [outrightResult('cup-2026', 20, [201], at(3 * MINUTE))]);
    await w.svc.service.settlement.idle();
  });
  after(() => w.svc.close());

  test('iterateSettlements pages by cursor, newest first, to the last page', async () => {
    const { client, urls } = recordingClient(w.baseUrl);
    const ids: string[] = [];
    for await (const entry of client.iterateSettlements({ limit: 2 })) ids.push(entry.event_id);
    assert.deepEqual(ids, [...GAMES].reverse());
    assert.equal(urls.length, 4, 'pages of 2, 2, 2 and 1');
    assert.ok(!urls[0]?.includes('cursor'));
    assert.ok(urls.slice(1).every((u) => u.includes('cursor=')));
  });

  test('settlementPages with a filter: the pages and their counters', async () => {
    const { client } = recordingClient(w.baseUrl);
    const pages = [];
    for await (const page of client.settlementPages({ limit: 2, event_ids: 'a,b,c' })) pages.push(page);
    assert.deepEqual(
      pages.map((p) => p.settlements.map((s) => s.event_id)),
      [['c', 'b'], ['a']],
    );
    assert.deepEqual(
      pages.map((p) => [p.total, p.has_more, p.next_cursor === null]),
      [
        [3, true, false],
        [3, false, true],
      ],
    );
  });

  test('iterateSettlements with updated_since: changes after the instant, oldest change first, on its own cursor', async () => {
    const { client, urls } = recordingClient(w.baseUrl);
    const all: Array<[string, string]> = [];
    for await (const e of client.iterateSettlements({ updated_since: since, limit: 2 }))
      all.push([e.event_id, e.updated_at]);
    assert.deepEqual(
      all.map(([id]) => id),
      ['e', 'a', 'b', 'c', 'd', 'f', 'g'],
    );
    assert.deepEqual(
      all.map(([, u]) => u),
      all.map(([, u]) => u).sort(),
    );
    assert.equal(urls.length, 4);
    assert.ok(urls.every((u) => u.includes('updated_since=')));
    // Polling on from the last change seen: only what changed later (a correction of b).
    const last = all[all.length - 1]?.[1] ?? since;
    w.svc.clock.set(at(20 * MINUTE));
    await feedOk(w.svc, [
      {
        type: 'result',
        event_id: 'b',
        status: 'ended',
        score: { home: 0, away: 3 },
        period_scores: [
          { period: '1H', home: 0, away: 1 },
          { period: '2H', home: 0, away: 2 },
        ],
        ended_at: at(-10 * HOUR + HOUR),
      },
    ]);
    await w.svc.service.settlement.idle();
    const next = [];
    for await (const e of client.iterateSettlements({ updated_since: last })) next.push(e);
    assert.deepEqual(
      next.map((e) => e.event_id),
      ['b'],
    );
    assert.ok((next[0]?.revision ?? 0) > 1, 'the corrected entry, with a higher revision');
  });

  test('iterateOutrightSettlements pages by cursor, newest first, and agrees with one big page', async () => {
    const { client, urls } = recordingClient(w.baseUrl);
    const paged = [];
    for await (const e of client.iterateOutrightSettlements({ limit: 2, tournament_id: 'cup-2026' })) paged.push(e);
    const whole = await client.listOutrightSettlements({ limit: 200, tournament_id: 'cup-2026' });
    assert.equal(paged.length, 7, 'three winner selections and four top scorer selections');
    assert.deepEqual(paged, whole.outright_settlements);
    assert.deepEqual(
      paged.map((e) => e.market_id),
      [20, 20, 20, 20, 10, 10, 10],
      'the later settled market first',
    );
    assert.equal(urls.length, 5, 'four pages and the whole');
  });
});
