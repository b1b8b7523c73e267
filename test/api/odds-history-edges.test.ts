// Odds history and `?at=` at their edges: strict instants, cursors bound to their query, back-dated messages, the instant an event went live or ended.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  at,
  feedOk,
  fixture,
  HOUR,
  markets,
  MINUTE,
  odds,
  result,
  SEL,
  startService,
  status,
  T0,
  type TestService,
} from '../helpers/service.js';
import type { HistoryChange as Change, HistoryPage, OddsAtPayload as OddsAt } from '../helpers/payloads.js';

const outcomeOf = (p: OddsAt, sel: number): OddsAt['markets'][number]['outcomes'][number] | undefined =>
  p.markets.flatMap((m) => m.outcomes).find((o) => o.selection_id === sel);

describe('odds history edges', () => {
  let svc: TestService;

  before(async () => {
    svc = await startService();
    // e1: priced at T0, re-priced at T0+1m, kicked off early (T0+2m, its start_time is T0+1h),
    // re-priced live at T0+3m, ended at T0+5m.
    await feedOk(svc, [fixture('e1', { ts: at(0) }), { ...markets('e1'), ts: at(0) }]);
    await feedOk(svc, [{ ...odds('e1', [{ selection_id: SEL.home, odds: 2.2 }]), ts: at(MINUTE) }]);
    await feedOk(svc, [{ ...status('e1', 'live'), ts: at(2 * MINUTE) }]);
    await feedOk(svc, [{ ...odds('e1', [{ selection_id: SEL.home, odds: 1.6 }]), ts: at(3 * MINUTE) }]);
    await feedOk(svc, [{ ...result('e1', 2, 0), ts: at(5 * MINUTE) }]);
    // e2: another event, with enough changes for several pages.
    await feedOk(svc, [fixture('e2', { ts: at(0) }), { ...markets('e2'), ts: at(0) }]);
    svc.clock.set(T0 + 10 * MINUTE);
  });

  after(async () => {
    await svc.close();
  });

  it('refuses instants that are not real ISO 8601 date-times with a zone', async () => {
    for (const bad of ['2026-02-30T10:00:00Z', '2026-03-01T10:00:00', '2026-03-01T10:00', '2026-03-01T24:30:00Z']) {
      for (const url of [`/v1/events/e1/odds/history?from=${bad}`, `/v1/events/e1/odds?at=${bad}`]) {
        const r = await svc.get<{ error: string; message: string }>(url);
        assert.equal(r.status, 400, `${url}: ${r.text}`);
        assert.equal(r.body.error, 'bad_request');
        assert.match(r.body.message, /'(from|at)'/);
      }
    }
    // Offsets and fractions are fine.
    const ok = await svc.get(`/v1/events/e1/odds/history?from=2026-03-01T13:00:00.5%2B01:00`);
    assert.equal(ok.status, 200, ok.text);
  });

  it("refuses a cursor from another event's history, or from another query", async () => {
    const first = await svc.get<HistoryPage>('/v1/events/e2/odds/history?limit=2');
    const cursor = first.body.next_cursor;
    assert.ok(cursor !== null);
    for (const url of [
      `/v1/events/e1/odds/history?limit=2&cursor=${cursor}`,
      `/v1/events/e2/odds/history?limit=2&market_id=2&cursor=${cursor}`,
      `/v1/events/e2/odds/history?limit=2&from=${at(0)}&cursor=${cursor}`,
    ]) {
      const r = await svc.get<{ error: string; message: string }>(url);
      assert.equal(r.status, 400, `${url}: ${r.text}`);
      assert.match(r.body.message, /'cursor'/);
    }
    // The same query goes on, whatever the page size.
    const next = await svc.get<HistoryPage>(`/v1/events/e2/odds/history?limit=3&cursor=${cursor}`);
    assert.equal(next.status, 200, next.text);
    assert.equal(next.body.history.length, 3);
  });

  it('refuses market and selection ids the event does not have (a typo is not an empty history)', async () => {
    const cases: Array<[string, RegExp]> = [
      ['market_id=99', /'market_id'/],
      ['selection_id=99', /'selection_id'/],
      [`market_id=2&selection_id=${SEL.home}`, /'selection_id'/],
    ];
    for (const [q, name] of cases) {
      const r = await svc.get<{ error: string; message: string }>(`/v1/events/e2/odds/history?${q}`);
      assert.equal(r.status, 400, `${q}: ${r.text}`);
      assert.equal(r.body.error, 'bad_request');
      assert.match(r.body.message, name);
    }
    // Known ids with nothing in the window are an empty page.
    const empty = await svc.get<HistoryPage>(`/v1/events/e2/odds/history?market_id=2&to=${at(-HOUR)}`);
    assert.equal(empty.status, 200, empty.text);
    assert.deepEqual(empty.body.history, []);
  });

  it('?at= reports every selection locked while the event is suspended, as the odds payload does', async () => {
    await feedOk(svc, [fixture('e3', { ts: at(0) }), { ...markets('e3'), ts: at(0) }]);
    await feedOk(svc, [
      { ...status('e3', 'live'), ts: at(MINUTE) },
      { ...status('e3', 'suspended'), ts: at(2 * MINUTE) },
    ]);
    const open = await svc.get<OddsAt>(`/v1/events/e3/odds?at=${at(2 * MINUTE - 1)}`);
    assert.equal(outcomeOf(open.body, SEL.home)?.is_locked, false);
    const suspended = await svc.get<OddsAt>(`/v1/events/e3/odds?at=${at(3 * MINUTE)}`);
    const locks = suspended.body.markets.flatMap((m) => m.outcomes.map((o) => o.is_locked));
    assert.ok(locks.length > 0 && locks.every((l) => l), JSON.stringify(locks));
  });

  it('a back-dated message is recorded at the latest change, so the end of the history is the current price', async () => {
    const end = await svc.get<HistoryPage>('/v1/events/e2/odds/history');
    const last = end.body.history[end.body.history.length - 1] as Change;
    const seen = end.body.history.length;
    // A client paged to the end; a message then arrives stamped before everything it saw.
    const cursorBefore = (await svc.get<HistoryPage>(`/v1/events/e2/odds/history?limit=${seen - 1}`)).body.next_cursor;
    await feedOk(svc, [{ ...odds('e2', [{ selection_id: SEL.away, odds: 3.5 }]), ts: at(-MINUTE) }]);
    const all = (await svc.get<HistoryPage>('/v1/events/e2/odds/history')).body.history;
    const newest = all[all.length - 1] as Change;
    assert.deepEqual([newest.selection_id, newest.odds], [SEL.away, 3.5]);
    assert.ok(Date.parse(newest.at) >= Date.parse(last.at), `${newest.at} before ${last.at}`);
    // Paging on from where the client was sees it.
    const rest = await svc.get<HistoryPage>(`/v1/events/e2/odds/history?limit=${seen - 1}&cursor=${cursorBefore}`);
    assert.deepEqual(rest.body.history.slice(-1), [newest]);
    // And the odds as they stand now agree with the payload.
    const now = await svc.get<OddsAt>(`/v1/events/e2/odds?at=${new Date(svc.clock.now()).toISOString()}`);
    assert.equal(outcomeOf(now.body, SEL.away)?.odds, 3.5);
  });

  it('?at= shows closing prices from the instant the event went live, not from its start_time', async () => {
    const prematch = await svc.get<OddsAt>(`/v1/events/e1/odds?at=${at(2 * MINUTE - 1)}`);
    assert.equal(outcomeOf(prematch.body, SEL.home)?.closing_odds, null);
    const kickOff = await svc.get<OddsAt>(`/v1/events/e1/odds?at=${at(2 * MINUTE)}`);
    assert.equal(outcomeOf(kickOff.body, SEL.home)?.closing_odds, 2.2);
    const live = await svc.get<OddsAt>(`/v1/events/e1/odds?at=${at(4 * MINUTE)}`);
    assert.deepEqual([outcomeOf(live.body, SEL.home)?.odds, outcomeOf(live.body, SEL.home)?.closing_odds], [1.6, 2.2]);
  });

  it('?at= after the end has no markets, as the odds payload had none then', async () => {
    const before = await svc.get<OddsAt>(`/v1/events/e1/odds?at=${at(5 * MINUTE - 1)}`);
    assert.equal(before.body.markets.length, 2);
    for (const t of [5 * MINUTE, 9 * MINUTE]) {
      const r = await svc.get<OddsAt>(`/v1/events/e1/odds?at=${at(t)}`);
      assert.equal(r.status, 200, r.text);
      assert.deepEqual(r.body.markets, [], at(t));
    }
  });
});
