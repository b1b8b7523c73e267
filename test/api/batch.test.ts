// POST /v1/events/batch: up to 20 ids, events keyed by id with every market, found/requested, body validation.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  at,
  feedOk,
  fixture,
  HOUR,
  markets,
  MINUTE,
  result,
  startService,
  status,
  type TestService,
} from '../helpers/service.js';
import type { BatchResponse, ErrorBody, EventList } from '../helpers/payloads.js';

describe('POST /v1/events/batch', () => {
  let svc: TestService;
  before(async () => {
    svc = await startService();
    const msgs: object[] = [];
    for (let i = 1; i <= 21; i++) msgs.push(fixture(`e${i}`, { start_time: at(i * HOUR) }), markets(`e${i}`));
    msgs.push(
      fixture('done', { start_time: at(-2 * HOUR) }),
      markets('done'),
      status('done', 'live'),
      result('done', 1, 0),
    );
    await feedOk(svc, msgs);
  });
  after(() => svc.close());

  const batch = (body: unknown, query = '') =>
    svc.inject<BatchResponse & ErrorBody>('POST', `/v1/events/batch${query}`, { body });

  async function badRequest(body: unknown, mention: string, headers?: Record<string, string>): Promise<void> {
    const res =
      headers === undefined
        ? await batch(body)
        : await svc.inject<ErrorBody>('POST', '/v1/events/batch', { body, headers });
    assert.equal(res.status, 400, res.text);
    assert.equal(res.body.error, 'bad_request');
    assert.ok(res.body.message.includes(mention), `message should mention '${mention}': ${res.body.message}`);
  }

  test('answers the events keyed by id, each a list item plus every market', async () => {
    const res = await batch({ ids: ['e1', 'e2'] });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(Object.keys(res.body).sort(), ['events', 'found', 'requested']);
    assert.equal(res.body.found, 2);
    assert.equal(res.body.requested, 2);
    assert.deepEqual(Object.keys(res.body.events).sort(), ['e1', 'e2']);
    const list = (await svc.get<EventList>('/v1/events?limit=2')).body.events;
    for (const item of list) {
      const got = res.body.events[item.id];
      assert.ok(got, item.id);
      const { markets: ms, ...fields } = got;
      assert.deepEqual(fields, item, 'same fields as the list item');
      assert.deepEqual(
        ms.map((m) => [m.market_id, m.key, m.name, m.outcomes.map((o) => [o.selection_id, o.label, o.odds])]),
        [
          [
            1,
            '1x2',
            'Match Result',
            [
              [11, 'Home', 2.5],
              [12, 'Draw', 3.2],
              [13, 'Away', 2.9],
            ],
          ],
          [
            2,
            'totals:2.5',
            'Total Goals 2.5',
            [
              [21, 'Over 2.5', 1.91],
              [22, 'Under 2.5', 1.91],
            ],
          ],
        ],
      );
    }
  });

  test('20 ids is the most allowed', async () => {
    const ids = Array.from({ length: 20 }, (_, i) => `e${i + 1}`);
    const res = await batch({ ids });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.found, 20);
    assert.equal(res.body.requested, 20);
  });

  test('21 ids is 400 naming ids', async () => {
    await badRequest({ ids: Array.from({ length: 21 }, (_, i) => `e${i + 1}`) }, 'ids');
  });

  test('unknown ids are left out: found is lower than requested', async () => {
    const res = await batch({ ids: ['e1', 'ghost', 'e3', 'phantom'] });
    assert.equal(res.status, 200);
    assert.equal(res.body.found, 2);
    assert.equal(res.body.requested, 4);
    assert.deepEqual(Object.keys(res.body.events).sort(), ['e1', 'e3']);
    const none = await batch({ ids: ['ghost'] });
    assert.equal(none.status, 200);
    assert.deepEqual(none.body.events, {});
    assert.equal(none.body.found, 0);
  });

  test('a repeated id is looked up once and counted once in requested', async () => {
    const res = await batch({ ids: ['e1', 'e1', 'e2', 'ghost', 'ghost'] });
    assert.equal(res.status, 200);
    assert.deepEqual(Object.keys(res.body.events).sort(), ['e1', 'e2']);
    assert.equal(res.body.found, 2);
    assert.equal(res.body.requested, 3);
  });

  test('odds_format applies to the main odds and to every market', async () => {
    const res = await batch({ ids: ['e1'] }, '?odds_format=fractional');
    assert.equal(res.status, 200);
    const e = res.body.events.e1;
    assert.equal(e?.odds_format, 'fractional');
    assert.deepEqual(e?.odds, { home: '3/2', draw: '9/4', away: '15/8' });
    assert.deepEqual(
      e?.markets.flatMap((m) => m.outcomes.map((o) => o.odds)),
      ['3/2', '9/4', '15/8', '10/11', '10/11'],
    );
    const exact = await batch({ ids: ['e1'] }, '?odds_format=fractional_exact');
    assert.equal(exact.body.events.e1?.odds_format, 'fractional_exact');
    assert.deepEqual(
      exact.body.events.e1?.markets.flatMap((m) => m.outcomes.map((o) => o.odds)),
      ['3/2', '11/5', '19/10', '10/11', '10/11'],
    );
    const american = await batch({ ids: ['e1'] }, '?odds_format=american');
    assert.deepEqual(
      american.body.events.e1?.markets.flatMap((m) => m.outcomes.map((o) => o.odds)),
      [150, 220, 190, -110, -110],
    );
    const bad = await batch({ ids: ['e1'] }, '?odds_format=x');
    assert.equal(bad.status, 400);
  });

  test('an ended event comes with markets []', async () => {
    const res = await batch({ ids: ['done'] });
    assert.equal(res.body.events.done?.status, 'ended');
    assert.deepEqual(res.body.events.done?.markets, []);
    assert.equal(res.body.events.done?.markets_count, 0);
  });

  test('a body that is not JSON is 400', async () => {
    await badRequest('{"ids": [', 'JSON', { 'content-type': 'application/json' });
    await badRequest('ids=e1', 'Content-Type', { 'content-type': 'application/x-www-form-urlencoded' });
  });

  test('a missing, empty or mistyped ids is 400 naming ids', async () => {
    await badRequest({}, 'ids');
    await badRequest({ ids: [] }, 'ids');
    await badRequest({ ids: { e1: true } }, 'ids');
    await badRequest({ ids: [{ id: 'e1' }] }, 'ids');
    await badRequest({ ids: [''] }, 'ids');
    await badRequest({ ids: ['x'.repeat(129)] }, 'ids');
  });

  test('a JSON body that is not an object is 400', async () => {
    const res = await svc.inject<ErrorBody>('POST', '/v1/events/batch', {
      body: '["e1"]',
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(res.status, 400);
    assert.equal(res.body.error, 'bad_request');
  });

  test('an empty body is 400', async () => {
    const res = await svc.inject<ErrorBody>('POST', '/v1/events/batch', {
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(res.status, 400);
    assert.equal(res.body.error, 'bad_request');
  });

  test('the batch reflects later odds changes', async () => {
    svc.clock.advance(MINUTE);
    await feedOk(svc, [{ type: 'odds', event_id: 'e5', changes: [{ selection_id: 22, odds: 2.05, is_locked: true }] }]);
    const res = await batch({ ids: ['e5'] });
    const under = res.body.events.e5?.markets[1]?.outcomes[1];
    assert.equal(under?.odds, 2.05);
    assert.equal(res.body.events.e5?.updated_at, new Date(svc.clock.now()).toISOString());
  });
});
