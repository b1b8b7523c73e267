// POST /admin/v1/feed: admin-only access, per-line errors, all-or-nothing messages, idempotent re-delivery, lifecycle rules.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  ADMIN_KEY,
  at,
  DEMO_KEY,
  feedOk,
  fixture,
  HOUR,
  markets,
  MINUTE,
  odds,
  result,
  score,
  SEL,
  startService,
  status,
  type FeedReport,
  type TestService,
} from '../helpers/service.js';
import type { ErrorBody, EventDetail, EventList, EventResult, OddsPayload } from '../helpers/payloads.js';

const ndjson = (messages: object[]): string => messages.map((m) => JSON.stringify(m)).join('\n') + '\n';

describe('POST /admin/v1/feed access', () => {
  let svc: TestService;
  before(async () => {
    svc = await startService();
  });
  after(() => svc.close());

  const post = (headers: Record<string, string>, key: string | null = null) =>
    svc.inject<ErrorBody>('POST', '/admin/v1/feed', {
      key,
      headers: { 'content-type': 'application/x-ndjson', ...headers },
      body: ndjson([fixture('sneaky')]),
    });

  test('no key, a wrong key or a client key is 401 unauthorized, and nothing is applied', async () => {
    const attempts: Array<[string, Record<string, string>, string | null]> = [
      ['no key', {}, null],
      ['wrong admin key', { 'x-admin-key': 'nope' }, null],
      ['client key as X-API-Key', {}, DEMO_KEY],
      ['client key as X-Admin-Key', { 'x-admin-key': DEMO_KEY }, null],
      ['admin key as X-API-Key', {}, ADMIN_KEY],
    ];
    for (const [name, headers, key] of attempts) {
      const res = await post(headers, key);
      assert.equal(res.status, 401, name);
      assert.equal(res.body.error, 'unauthorized', name);
    }
    assert.equal((await svc.get('/v1/events/sneaky')).status, 404);
  });

  test('the admin key is accepted', async () => {
    const res = await post({ 'x-admin-key': ADMIN_KEY });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { accepted: 1, rejected: 0, errors: [] });
  });

  test('without ADMIN_KEY configured every admin route is off the same way: 404 saying so, documented', async () => {
    const off = await startService({ env: { ADMIN_KEY: '' } });
    try {
      const feed = await off.inject<ErrorBody>('POST', '/admin/v1/feed', {
        key: null,
        headers: { 'content-type': 'application/x-ndjson', 'x-admin-key': 'anything' },
        body: ndjson([fixture('x')]),
      });
      const metrics = await off.inject<ErrorBody>('GET', '/metrics', {
        key: null,
        headers: { 'x-admin-key': 'anything' },
      });
      for (const res of [feed, metrics]) {
        assert.equal(res.status, 404, res.text);
        assert.equal(res.body.error, 'not_found');
        assert.match(res.body.message, /admin routes are off.*ADMIN_KEY/);
      }
      assert.equal((await off.get('/v1/events/x')).status, 404, 'nothing was applied');
      // The document still describes them (what they are, and that they answer 404 while off).
      const doc = await off.inject<{ paths: Record<string, unknown> }>('GET', '/openapi.json', { key: null });
      assert.ok(doc.body.paths['/admin/v1/feed'] !== undefined && doc.body.paths['/metrics'] !== undefined);
    } finally {
      await off.close();
    }
  });
});

describe('POST /admin/v1/feed body size', () => {
  test('a body over FEED_BODY_LIMIT_BYTES is 400 and applies nothing; bodies under it, long then short, apply exactly', async () => {
    const small = await startService({ env: { FEED_BODY_LIMIT_BYTES: '4096' } });
    try {
      const post = (body: string): Promise<{ status: number; body: ErrorBody & { accepted?: number } }> =>
        small.inject<ErrorBody & { accepted?: number }>('POST', '/admin/v1/feed', {
          key: null,
          headers: { 'content-type': 'application/x-ndjson', 'x-admin-key': ADMIN_KEY },
          body,
        });
      const big = ndjson(Array.from({ length: 40 }, (_, i) => fixture(`big${i}`)));
      assert.ok(big.length > 4096);
      const refused = await post(big);
      assert.equal(refused.status, 400);
      assert.equal(refused.body.error, 'bad_request');
      assert.equal(refused.body.message, 'request body is too large');
      assert.equal((await small.get('/v1/events/big0')).status, 404);
      const long = ndjson(Array.from({ length: 8 }, (_, i) => fixture(`ok${i}`)));
      assert.equal((await post(long)).body.accepted, 8);
      assert.equal((await post(ndjson([fixture('after')]))).body.accepted, 1);
      assert.equal((await small.get('/v1/events/after')).status, 200);
    } finally {
      await small.close();
    }
  });
});

describe('POST /admin/v1/feed reports', () => {
  let svc: TestService;
  before(async () => {
    svc = await startService();
  });
  after(() => svc.close());

  test('bad lines are reported with their line numbers; the good lines around them are applied in order', async () => {
    const body = [
      JSON.stringify(fixture('ev')), // 1
      '{"type": "fixture", "event_id": ', // 2: not JSON
      '', // 3: blank, still counted
      JSON.stringify(markets('ev')), // 4
      JSON.stringify({ type: 'bogus', event_id: 'ev' }), // 5: unknown type
      JSON.stringify(odds('ev', [{ selection_id: SEL.home, odds: 2.75 }])), // 6
      JSON.stringify(odds('ev', [{ selection_id: 999, odds: 2 }])), // 7: unknown selection
      JSON.stringify({ ...fixture('ev2'), start_time: 'next tuesday' }), // 8: schema
      '[1, 2]', // 9: not an object
      JSON.stringify(status('ev', 'live')), // 10
    ].join('\n');
    const report = await svc.feed(body);
    assert.equal(report.accepted, 4);
    assert.equal(report.rejected, 5);
    assert.deepEqual(
      report.errors.map((e) => e.line),
      [2, 5, 7, 8, 9],
    );
    for (const e of report.errors) {
      assert.equal(e.error, 'bad_request');
      assert.equal(typeof e.message, 'string');
      assert.ok(e.message.length > 0);
    }
    assert.match(report.errors[1]?.message ?? '', /bogus/);
    assert.match(report.errors[2]?.message ?? '', /999/);
    assert.match(report.errors[3]?.message ?? '', /start_time/);
    const d = (await svc.get<EventDetail>('/v1/events/ev')).body;
    assert.equal(d.status, 'live');
    assert.equal(d.markets[0]?.outcomes[0]?.odds, 2.75);
    assert.equal((await svc.get('/v1/events/ev2')).status, 404);
  });

  test('an empty body applies nothing', async () => {
    assert.deepEqual(await svc.feed(''), { accepted: 0, rejected: 0, errors: [] });
  });

  test('a JSON array of messages is accepted too, numbered from 1', async () => {
    const res = await svc.inject<FeedReport>('POST', '/admin/v1/feed', {
      key: null,
      headers: { 'x-admin-key': ADMIN_KEY },
      body: [fixture('json-1'), { type: 'nope' }, fixture('json-2')],
    });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.accepted, 2);
    assert.deepEqual(
      res.body.errors.map((e) => e.line),
      [2],
    );
    assert.equal((await svc.get('/v1/events/json-2')).status, 200);
  });

  test('a message with ts stamps updated_at with it', async () => {
    await feedOk(svc, [{ ...fixture('stamped'), ts: '2026-03-01T11:59:30Z' }]);
    const d = (await svc.get<EventDetail>('/v1/events/stamped')).body;
    assert.equal(d.updated_at, '2026-03-01T11:59:30.000Z');
  });
});

describe('nothing half-applied', () => {
  let svc: TestService;
  before(async () => {
    svc = await startService();
    await feedOk(svc, [fixture('ev', { start_time: at(-HOUR) }), markets('ev'), status('ev', 'live')]);
  });
  after(() => svc.close());

  const snapshot = async (): Promise<string> => (await svc.get('/v1/events/ev')).text;

  test('an odds message with one unknown selection changes no price at all', async () => {
    const before = await snapshot();
    svc.clock.advance(MINUTE);
    const report = await svc.feed([
      odds('ev', [
        { selection_id: SEL.home, odds: 9.5 },
        { selection_id: 4242, odds: 2 },
      ]),
    ]);
    assert.equal(report.rejected, 1);
    assert.equal(await snapshot(), before);
  });

  test('a markets message with one bad market applies none of its markets', async () => {
    const before = await snapshot();
    const report = await svc.feed([
      {
        type: 'markets',
        event_id: 'ev',
        markets: [
          {
            market_id: 7,
            key: 'btts',
            name: 'Both Teams To Score',
            outcomes: [
              { selection_id: 71, code: 'yes', label: 'Yes', odds: 1.8 },
              { selection_id: 72, code: 'no', label: 'No', odds: 2 },
            ],
          },
          {
            // Selection 11 belongs to market 1 already.
            market_id: 8,
            key: 'draw_no_bet',
            name: 'Draw No Bet',
            outcomes: [
              { selection_id: SEL.home, code: 'home', label: 'Home', odds: 1.6 },
              { selection_id: 82, code: 'away', label: 'Away', odds: 2.3 },
            ],
          },
        ],
      },
    ]);
    assert.equal(report.rejected, 1);
    assert.equal(report.errors[0]?.line, 1);
    assert.equal(await snapshot(), before);
  });

  test('a message that fails its schema changes nothing', async () => {
    const before = await snapshot();
    const report = await svc.feed([
      {
        type: 'odds',
        event_id: 'ev',
        changes: [
          { selection_id: SEL.home, odds: 1.5 },
          { selection_id: SEL.away, odds: 0.5 },
        ],
      },
    ]);
    assert.equal(report.rejected, 1);
    assert.match(report.errors[0]?.message ?? '', /odds/);
    assert.equal(await snapshot(), before);
  });
});

describe('re-delivery is harmless', () => {
  let svc: TestService;
  before(async () => {
    svc = await startService();
  });
  after(() => svc.close());

  /** Everything a client can see of the event. */
  const view = async (id: string): Promise<string[]> => [
    (await svc.get(`/v1/events/${id}`)).text,
    (await svc.get(`/v1/events/${id}/odds?odds_format=american`)).text,
    (await svc.get(`/v1/events/${id}/result`)).text,
    (await svc.get('/v1/events?status=all')).text,
    (await svc.get('/v1/scores')).text,
  ];

  const steps: Array<[string, object]> = [
    ['fixture', fixture('ev', { start_time: at(-HOUR), home_logo_id: 'home-logo' })],
    ['markets', markets('ev')],
    ['status', status('ev', 'live')],
    ['score', score('ev', 1, 0, { period: '1H', clock: '12:00', sport_data: { period: '1H' } })],
    ['odds', odds('ev', [{ selection_id: SEL.home, odds: 1.8, is_locked: true }])],
    ['remove_markets', { type: 'remove_markets', event_id: 'ev', market_ids: [2] }],
    ['result', result('ev', 2, 0, { ended_at: at(HOUR) })],
  ];

  for (const [name, message] of steps) {
    test(`the same ${name} message twice: the second changes nothing, updated_at included`, async () => {
      svc.clock.advance(MINUTE);
      const first = await svc.feed([message]);
      assert.deepEqual(first, { accepted: 1, rejected: 0, errors: [] }, `first ${name}`);
      const seen = await view('ev');
      svc.clock.advance(MINUTE);
      const again = await svc.feed([message]);
      assert.deepEqual(again, { accepted: 1, rejected: 0, errors: [] }, `second ${name}`);
      assert.deepEqual(await view('ev'), seen);
    });
  }

  test('a whole body delivered twice changes nothing the second time', async () => {
    const body = [
      fixture('ev2', { start_time: at(-HOUR) }),
      markets('ev2', { draw: 3.3 }),
      status('ev2', 'live'),
      score('ev2', 0, 1, { period: '1H', clock: '20:00' }),
    ];
    await feedOk(svc, body);
    const seen = await view('ev2');
    svc.clock.advance(MINUTE);
    assert.deepEqual(await svc.feed(body), { accepted: 4, rejected: 0, errors: [] });
    assert.deepEqual(await view('ev2'), seen);
  });

  test('a result without ended_at delivered again later keeps the first ended_at', async () => {
    await feedOk(svc, [fixture('ev3', { start_time: at(-HOUR) }), status('ev3', 'live'), result('ev3', 1, 1)]);
    const seen = await view('ev3');
    svc.clock.advance(MINUTE);
    await feedOk(svc, [result('ev3', 1, 1)]);
    assert.deepEqual(await view('ev3'), seen);
  });
});

describe('lifecycle rules', () => {
  let svc: TestService;
  before(async () => {
    svc = await startService();
    await feedOk(svc, [
      fixture('done', { start_time: at(-2 * HOUR) }),
      markets('done'),
      status('done', 'live'),
      result('done', 1, 0),
      fixture('pre', { start_time: at(HOUR) }),
      markets('pre'),
    ]);
  });
  after(() => svc.close());

  async function rejectedWithoutChange(message: object, eventId: string, reason: RegExp): Promise<void> {
    const before = [
      (await svc.get(`/v1/events/${eventId}`)).text,
      (await svc.get(`/v1/events/${eventId}/result`)).text,
    ];
    svc.clock.advance(MINUTE);
    const report = await svc.feed([fixture('filler', { start_time: at(3 * HOUR) }), message]);
    assert.equal(report.accepted, 1, JSON.stringify(report));
    assert.equal(report.rejected, 1);
    assert.equal(report.errors[0]?.line, 2);
    assert.equal(report.errors[0]?.error, 'bad_request');
    assert.match(report.errors[0]?.message ?? '', reason);
    const afterwards = [
      (await svc.get(`/v1/events/${eventId}`)).text,
      (await svc.get(`/v1/events/${eventId}/result`)).text,
    ];
    assert.deepEqual(afterwards, before);
  }

  test('odds for an ended event are rejected', async () => {
    await rejectedWithoutChange(odds('done', [{ selection_id: SEL.home, odds: 5 }]), 'done', /ended/);
  });

  test('markets for an ended event are rejected', async () => {
    await rejectedWithoutChange(markets('done', { home: 7 }), 'done', /ended/);
  });

  test('live after ended is rejected', async () => {
    await rejectedWithoutChange(status('done', 'live'), 'done', /ended/);
  });

  test('a fixture change for an ended event is rejected', async () => {
    await rejectedWithoutChange(fixture('done', { home_team: 'Rewritten' }), 'done', /ended/);
  });

  test('a score for a prematch event is rejected', async () => {
    await rejectedWithoutChange(score('pre', 1, 0), 'pre', /prematch/);
  });

  test('a status move the state machine does not allow is rejected', async () => {
    await rejectedWithoutChange(status('pre', 'abandoned'), 'pre', /abandoned/);
  });

  test('ended can only be reached by a result', async () => {
    await rejectedWithoutChange(status('pre', 'ended'), 'pre', /status/);
  });

  test('a result for an unknown event is rejected and no result appears', async () => {
    const report = await svc.feed([result('ghost', 1, 0)]);
    assert.equal(report.rejected, 1);
    assert.equal(report.errors[0]?.line, 1);
    assert.match(report.errors[0]?.message ?? '', /ghost/);
    assert.equal((await svc.get('/v1/events/ghost/result')).status, 404);
    assert.equal((await svc.get('/v1/events/ghost')).status, 404);
  });

  test('a status equal to the current one is a no-op, not an error', async () => {
    await feedOk(svc, [status('pre', 'live')]);
    const before = (await svc.get('/v1/events/pre')).text;
    svc.clock.advance(MINUTE);
    assert.deepEqual(await svc.feed([status('pre', 'live')]), { accepted: 1, rejected: 0, errors: [] });
    assert.equal((await svc.get('/v1/events/pre')).text, before);
  });

  test('a rejected line in the middle of a game leaves the game playable', async () => {
    const report = await svc.feed([score('pre', 1, 0), result('pre', 9, 9, { status: 'bogus' }), score('pre', 2, 0)]);
    assert.equal(report.accepted, 2);
    assert.deepEqual(
      report.errors.map((e) => e.line),
      [2],
    );
    assert.deepEqual((await svc.get<EventList>('/v1/events?status=live')).body.events[0]?.score, { home: 2, away: 0 });
    const r = (await svc.get<EventResult>('/v1/events/pre/result')).body;
    assert.equal(r.status, 'not_ended');
    const o = (await svc.get<OddsPayload>('/v1/events/pre/odds')).body;
    assert.equal(o.markets.length, 2);
  });
});
