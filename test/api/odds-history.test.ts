// Odds history over HTTP: every price and lock change kept (durably), oldest first, filtered and paged exactly, and the odds as they stood at an instant.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  feedOk,
  fixture,
  HOUR,
  MARKET,
  markets,
  MINUTE,
  odds,
  SEL,
  startService,
  T0,
  type TestService,
} from '../helpers/service.js';
import type { HistoryChange as Change, HistoryPage, OddsAtPayload as OddsAt } from '../helpers/payloads.js';

const iso = (ms: number): string => new Date(ms).toISOString();

/** Every page of a history query, following next_cursor. */
async function allPages(svc: TestService, url: string): Promise<Change[]> {
  const out: Change[] = [];
  let cursor: string | null = null;
  for (let i = 0; i < 200; i++) {
    const sep = url.includes('?') ? '&' : '?';
    const r: { status: number; text: string; body: HistoryPage } = await svc.get<HistoryPage>(
      cursor === null ? url : `${url}${sep}cursor=${cursor}`,
    );
    assert.equal(r.status, 200, r.text);
    out.push(...r.body.history);
    assert.equal(r.body.has_more, r.body.next_cursor !== null);
    if (r.body.next_cursor === null) return out;
    cursor = r.body.next_cursor;
  }
  throw new Error('more than 200 pages');
}

describe('odds history', () => {
  let svc: TestService;
  // What the test fed, in order: [at, selection, odds, locked].
  const fed: Array<[number, number, number, boolean]> = [];

  before(async () => {
    svc = await startService();
    await feedOk(svc, [fixture('h1', { start_time: iso(T0 + 5 * HOUR) }), markets('h1')]);
    // The opening prices of markets(): 1x2 2.5/3.2/2.9, totals 1.91/1.91.
    for (const [sel, price] of [
      [SEL.home, 2.5],
      [SEL.draw, 3.2],
      [SEL.away, 2.9],
      [SEL.over, 1.91],
      [SEL.under, 1.91],
    ] as const)
      fed.push([T0, sel, price, false]);
    // Three changes at one instant (a page boundary may fall among them), then more, one a lock.
    svc.clock.advance(MINUTE);
    await feedOk(svc, [
      odds('h1', [
        { selection_id: SEL.home, odds: 2.4 },
        { selection_id: SEL.draw, odds: 3.3 },
        { selection_id: SEL.away, odds: 3.05 },
      ]),
    ]);
    fed.push(
      [T0 + MINUTE, SEL.home, 2.4, false],
      [T0 + MINUTE, SEL.draw, 3.3, false],
      [T0 + MINUTE, SEL.away, 3.05, false],
    );
    svc.clock.advance(MINUTE);
    await feedOk(svc, [odds('h1', [{ selection_id: SEL.over, odds: 1.85 }])]);
    fed.push([T0 + 2 * MINUTE, SEL.over, 1.85, false]);
    // Written to the store in between: the history reads stored chunks and what is pending alike.
    await svc.service.pipeline.flush();
    svc.clock.advance(MINUTE);
    await feedOk(svc, [
      odds('h1', [
        { selection_id: SEL.home, odds: 2.333 },
        { selection_id: SEL.under, is_locked: true },
      ]),
    ]);
    fed.push([T0 + 3 * MINUTE, SEL.home, 2.333, false], [T0 + 3 * MINUTE, SEL.under, 1.91, true]);
    // The markets re-sent with the same prices: no change is recorded but the one they make (they
    // carry no lock, so `under` opens again).
    svc.clock.advance(MINUTE);
    await feedOk(svc, [markets('h1', { home: 2.333, draw: 3.3, away: 3.05, over: 1.85, under: 1.91 })]);
    fed.push([T0 + 4 * MINUTE, SEL.under, 1.91, false]);
  });

  after(async () => {
    await svc.close();
  });

  const expected = (filter: (f: [number, number, number, boolean]) => boolean = () => true): Change[] =>
    fed.filter(filter).map(([at, sel, price, locked]) => ({
      market_id: sel === SEL.over || sel === SEL.under ? MARKET.totals : MARKET.oneXTwo,
      selection_id: sel,
      // Decimal odds are served to two decimals, as in every payload (2.333 is stored, 2.33 shown).
      odds: Math.round(price * 100) / 100,
      is_locked: locked,
      at: iso(at),
    }));

  it('lists every price and lock change, opening prices first, oldest first', async () => {
    const r = await svc.get<HistoryPage>('/v1/events/h1/odds/history');
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.event_id, 'h1');
    assert.equal(r.body.odds_format, 'decimal');
    assert.deepEqual(r.body.history, expected());
    assert.equal(r.body.has_more, false);
  });

  it('pages exactly: every limit gives the same sequence, a page boundary among changes of one instant included', async () => {
    for (const limit of [1, 2, 3, 4, 7]) {
      assert.deepEqual(await allPages(svc, `/v1/events/h1/odds/history?limit=${limit}`), expected(), `limit ${limit}`);
    }
  });

  it('filters by market, selection and time', async () => {
    const totals = await svc.get<HistoryPage>(`/v1/events/h1/odds/history?market_id=${MARKET.totals}`);
    assert.deepEqual(
      totals.body.history,
      expected(([, sel]) => sel === SEL.over || sel === SEL.under),
    );
    const home = await svc.get<HistoryPage>(`/v1/events/h1/odds/history?selection_id=${SEL.home}`);
    assert.deepEqual(
      home.body.history,
      expected(([, sel]) => sel === SEL.home),
    );
    const from = iso(T0 + MINUTE);
    const to = iso(T0 + 2 * MINUTE);
    const window = await svc.get<HistoryPage>(`/v1/events/h1/odds/history?from=${from}&to=${to}`);
    assert.deepEqual(
      window.body.history,
      expected(([at]) => at >= T0 + MINUTE && at <= T0 + 2 * MINUTE),
    );
    assert.deepEqual(
      await allPages(svc, `/v1/events/h1/odds/history?from=${from}&limit=2`),
      expected(([at]) => at >= T0 + MINUTE),
    );
  });

  it('in every odds format', async () => {
    const r = await svc.get<HistoryPage>(`/v1/events/h1/odds/history?selection_id=${SEL.home}&odds_format=american`);
    assert.deepEqual(
      r.body.history.map((c) => c.odds),
      [150, 140, 133],
    );
    const f = await svc.get<HistoryPage>(`/v1/events/h1/odds/history?selection_id=${SEL.home}&odds_format=fractional`);
    assert.equal(f.body.history[0]?.odds, '3/2');
  });

  it('GET /odds?at= gives the odds as they stood at that instant', async () => {
    const at = await svc.get<OddsAt>(`/v1/events/h1/odds?at=${iso(T0 + 2 * MINUTE + 30_000)}`);
    assert.equal(at.status, 200, at.text);
    assert.equal(at.body.at, iso(T0 + 2 * MINUTE + 30_000));
    assert.equal(at.body.updated_at, iso(T0 + 2 * MINUTE));
    const prices = Object.fromEntries(
      at.body.markets.flatMap((m) => m.outcomes.map((o) => [o.selection_id, [o.odds, o.is_locked]])),
    );
    assert.deepEqual(prices, {
      [SEL.home]: [2.4, false],
      [SEL.draw]: [3.3, false],
      [SEL.away]: [3.05, false],
      [SEL.over]: [1.85, false],
      [SEL.under]: [1.91, false],
    });
    const later = await svc.get<OddsAt>(`/v1/events/h1/odds?at=${iso(T0 + 4 * MINUTE)}`);
    const under = (t: number) =>
      svc
        .get<OddsAt>(`/v1/events/h1/odds?at=${iso(t)}`)
        .then((r) => r.body.markets.flatMap((m) => m.outcomes).find((o) => o.selection_id === SEL.under));
    assert.equal((await under(T0 + 3 * MINUTE))?.is_locked, true);
    assert.equal((await under(T0 + 4 * MINUTE))?.is_locked, false);
    assert.equal(later.body.updated_at, iso(T0 + 4 * MINUTE));
    const before = await svc.get<OddsAt>(`/v1/events/h1/odds?at=${iso(T0 - HOUR)}`);
    assert.deepEqual(before.body.markets, []);
    assert.equal(before.body.updated_at, null);
  });

  it('refuses bad input with 400 and an unknown event with 404', async () => {
    const cases: Array<[string, number]> = [
      ['/v1/events/h1/odds/history?from=yesterday', 400],
      [`/v1/events/h1/odds/history?from=${iso(T0 + HOUR)}&to=${iso(T0)}`, 400],
      ['/v1/events/h1/odds/history?cursor=nope!', 400],
      ['/v1/events/h1/odds/history?limit=0', 400],
      ['/v1/events/h1/odds/history?limit=1001', 400],
      ['/v1/events/h1/odds/history?market_id=-1', 400],
      ['/v1/events/h1/odds?at=noon', 400],
      [`/v1/events/h1/odds?at=${iso(T0 + 365 * 24 * HOUR)}`, 400],
      ['/v1/events/nope/odds/history', 404],
      [`/v1/events/nope/odds?at=${iso(T0)}`, 404],
    ];
    for (const [url, status] of cases) {
      const r = await svc.get<{ error: string; message: string }>(url);
      assert.equal(r.status, status, `${url}: ${r.text}`);
      assert.equal(typeof r.body.message, 'string');
    }
  });

  it('survives a restart: the same history from the store', async () => {
    const before = (await svc.get<HistoryPage>('/v1/events/h1/odds/history')).body.history;
    const dataDir = svc.dataDir;
    const now = svc.clock.now();
    await svc.close({ keepDir: true });
    svc = await startService({ dataDir, now });
    const after = await svc.get<HistoryPage>('/v1/events/h1/odds/history');
    assert.deepEqual(after.body.history, before);
  });

  it('is deleted past ODDS_HISTORY_DAYS', async () => {
    svc.clock.advance(31 * 24 * HOUR);
    const removed = await svc.service.pipeline.pruneHistory();
    assert.ok(removed > 0);
    const r = await svc.get<HistoryPage>('/v1/events/h1/odds/history');
    assert.deepEqual(r.body.history, []);
  });
});

describe('ODDS_HISTORY_DAYS=0 keeps no history', () => {
  it('records nothing', async () => {
    const svc = await startService({ env: { ODDS_HISTORY_DAYS: '0' } });
    try {
      await feedOk(svc, [fixture('n1'), markets('n1'), odds('n1', [{ selection_id: SEL.home, odds: 2.2 }])]);
      const r = await svc.get<HistoryPage>('/v1/events/n1/odds/history');
      assert.equal(r.status, 200, r.text);
      assert.deepEqual(r.body.history, []);
    } finally {
      await svc.close();
    }
  });
});
