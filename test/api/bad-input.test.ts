// Bad input that used to get through: overflowing bet figures, wrongly typed JSON bodies, other charsets, numeric query params.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  ADMIN_KEY,
  DEMO_KEY,
  feedOk,
  liveEventMessages,
  MARKET,
  prematchEvent,
  result,
  SEL,
  startService,
  type TestService,
} from '../helpers/service.js';

interface Check {
  status: string;
  combined_odds: number;
  stake?: number;
  payout?: number | null;
}

describe('bad input', () => {
  let svc: TestService;
  const leg = (eventId: string, extra: Record<string, unknown> = {}) => ({
    event_id: eventId,
    market_id: MARKET.oneXTwo,
    selection_id: SEL.home,
    ...extra,
  });
  const check = (body: unknown) =>
    svc.inject<Check & { error?: string; message?: string }>('POST', '/v1/bets/check', { body });

  before(async () => {
    svc = await startService();
    await feedOk(svc, prematchEvent('pre'));
    await feedOk(svc, [...liveEventMessages('won1'), result('won1', 2, 0)]);
    await feedOk(svc, [...liveEventMessages('won2'), result('won2', 3, 1)]);
  });
  after(async () => svc.close());

  describe('bet check figures never overflow', () => {
    it('a stake of 1e308 is a 400 naming stake, not a 500', async () => {
      const r = await check({ legs: [leg('won1', { odds: 2 })], stake: 1e308 });
      assert.equal(r.status, 400, r.text);
      assert.equal(r.body.error, 'bad_request');
      assert.match(r.body.message ?? '', /'stake' must be <= 1000000000000/);
    });

    it('odds of 1e200 on two legs are a 400 naming the leg odds', async () => {
      const r = await check({ legs: [leg('won1', { odds: 1e200 }), leg('won2', { odds: 1e200 })] });
      assert.equal(r.status, 400, r.text);
      assert.match(r.body.message ?? '', /'legs\[0\]\.odds' must be <= 1000000/);
    });

    it('the largest stake and odds allowed give finite figures', async () => {
      const legs = [leg('won1', { odds: 1_000_000 }), leg('won2', { odds: 1_000_000 })];
      const r = await check({ legs, stake: 1e12 });
      assert.equal(r.status, 200, r.text);
      assert.deepEqual([r.body.status, r.body.combined_odds, r.body.payout], ['won', 1e12, 1e24]);
    });

    it('odds from the feed whose product overflows are a 400 naming legs', async () => {
      await feedOk(svc, [
        ...prematchEvent('huge'),
        { type: 'odds', event_id: 'huge', changes: [{ selection_id: SEL.home, odds: 1e300 }] },
      ]);
      const r = await check({ legs: [leg('huge'), leg('huge')] });
      assert.equal(r.status, 400, r.text);
      assert.match(r.body.message ?? '', /^legs: the combined odds of these legs are too large/);
    });

    it('without a stake, combined_odds is the parlay price (pending and settled)', async () => {
      const pending = await check({ legs: [leg('pre'), leg('won1', { odds: 2 })] });
      assert.equal(pending.status, 200, pending.text);
      assert.deepEqual(
        [pending.body.status, pending.body.combined_odds, 'payout' in pending.body],
        ['pending', 5, false],
      );
      const won = await check({ legs: [leg('won1', { odds: 2 }), leg('won2', { odds: 3.5 })] });
      assert.deepEqual([won.body.status, won.body.combined_odds], ['won', 7]);
      assert.ok(/"combined_odds":7[,}]/.test(won.text), won.text);
    });
  });

  describe('JSON bodies are validated as sent, with no type coercion', () => {
    const cases: Array<[string, string, unknown, RegExp]> = [
      ['batch ids as a string', '/v1/events/batch', { ids: 'pre' }, /body field 'ids' must be array/],
      ['batch ids as numbers', '/v1/events/batch', { ids: [1, 2] }, /body field 'ids\[0\]' must be string/],
      ['batch ids as an object', '/v1/events/batch', { ids: { 0: 'pre' } }, /body field 'ids' must be array/],
      [
        'odds as a string',
        '/v1/bets/check',
        { legs: [leg('pre', { odds: '2.1' })] },
        /'legs\[0\]\.odds' must be number/,
      ],
      ['stake as a string', '/v1/bets/check', { legs: [leg('pre')], stake: '10' }, /'stake' must be number/],
      [
        'market_id as a string',
        '/v1/bets/check',
        { legs: [leg('pre', { market_id: '1' })] },
        /'legs\[0\]\.market_id' must be integer/,
      ],
      [
        'selection_id as a boolean',
        '/v1/bets/check',
        { legs: [leg('pre', { selection_id: true })] },
        /'legs\[0\]\.selection_id' must be integer/,
      ],
      [
        'event_id as a number',
        '/v1/bets/check',
        { legs: [{ ...leg('pre'), event_id: 7 }] },
        /'legs\[0\]\.event_id' must be string/,
      ],
      ['legs as one object', '/v1/bets/check', { legs: leg('pre') }, /'legs' must be array/],
      [
        'an outright leg with a string market_id',
        '/v1/bets/check',
        { legs: [{ tournament_id: 't', market_id: '1', selection_id: 1 }] },
        /'legs\[0\]\.market_id' must be integer/,
      ],
      ['stake null', '/v1/bets/check', { legs: [leg('pre')], stake: null }, /'stake' must be number/],
    ];
    for (const [name, url, body, message] of cases) {
      it(`${name}: 400 naming the field`, async () => {
        const r = await svc.inject<{ error: string; message: string }>('POST', url, { body });
        assert.equal(r.status, 400, r.text);
        assert.deepEqual(Object.keys(r.body).sort(), ['error', 'message']);
        assert.equal(r.body.error, 'bad_request');
        assert.match(r.body.message, message);
      });
    }

    it('well-typed bodies still work, and query strings are still parsed into numbers', async () => {
      const batch = await svc.inject<{ found: number }>('POST', '/v1/events/batch?odds_format=american', {
        body: { ids: ['pre'] },
      });
      assert.deepEqual([batch.status, batch.body.found], [200, 1]);
      const list = await svc.get<{ limit: number; offset: number }>('/v1/events?limit=5&offset=0');
      assert.deepEqual([list.status, list.body.limit, list.body.offset], [200, 5, 0]);
    });
  });

  describe('numeric query parameters', () => {
    const urls = [
      ...['limit=abc', 'limit=1e3', 'limit=0', 'limit=5.5', 'limit=', 'offset=-1', 'offset=1e308', 'offset=NaN'].map(
        (q) => `/v1/events?${q}`,
      ),
      ...['offset=Infinity', 'offset=-Infinity', 'limit=Infinity', 'limit=1e400'].map((q) => `/v1/events?${q}`),
      // Found by the fuzz test: an offset past 2^53 reached the store's query and answered 500.
      '/v1/settlements?offset=1e20',
      '/v1/settlements/outrights?offset=6.6e248',
      '/v1/live?offset=Infinity',
      '/v1/scores?limit=Infinity',
      '/v1/outrights?sport_id=Infinity',
      // Number() reads these, a client would not mean them: only decimal digits are a number.
      ...['limit=0x10', 'limit=1e2', 'limit=%205', 'limit=5%20', 'limit=+5', 'offset=0b1', 'offset=0o7'].map(
        (q) => `/v1/events?${q}`,
      ),
      '/v1/outrights?sport_id=0x1',
      '/v1/events/pre/odds/history?limit=1e1',
    ];
    for (const url of urls) {
      it(`${url} is a 400 naming the parameter`, async () => {
        const name = /[?&]([a-z_]+)=/.exec(url)?.[1] ?? '';
        const r = await svc.get<{ error: string; message: string }>(url);
        assert.equal(r.status, 400, r.text);
        assert.equal(r.body.error, 'bad_request');
        assert.ok(r.body.message.includes(`'${name}'`), r.body.message);
      });
    }
  });

  describe('a query parameter given twice is a 400 that says so', () => {
    const urls = [
      '/v1/events?limit=5&limit=6',
      '/v1/events?odds_format=american&odds_format=decimal',
      '/v1/events?sport=soccer&sport=soccer',
      '/v1/settlements?event_id=a&event_id=b',
      '/v1/outrights?sport_id=1&sport_id=2',
      '/v1/events/pre/odds?at=2026-03-01T00:00:00Z&at=2026-03-01T00:00:00Z',
    ];
    for (const url of urls) {
      it(url, async () => {
        const name = /[?&]([a-z_]+)=/.exec(url)?.[1] ?? '';
        const r = await svc.get<{ error: string; message: string }>(url);
        assert.equal(r.status, 400, r.text);
        assert.equal(r.body.error, 'bad_request');
        assert.equal(r.body.message, `query parameter '${name}' must be given once, not 2 times`);
      });
    }
    it('an unknown parameter given twice is still ignored', async () => {
      assert.equal((await svc.get('/v1/events?x=1&x=2')).status, 200);
    });
  });

  describe('charsets other than UTF-8 are refused, naming the charset', () => {
    const utf16 = Buffer.from(JSON.stringify({ ids: ['pre'] }), 'utf16le');
    for (const ct of [
      'application/json; charset=utf-16',
      'application/json;charset="UTF-16LE"',
      'application/json; charset=latin1',
    ]) {
      it(`${ct} on a client body`, async () => {
        const res = await svc.service.app.inject({
          method: 'POST',
          url: '/v1/events/batch',
          headers: { 'content-type': ct, 'x-api-key': DEMO_KEY },
          payload: utf16,
        });
        assert.equal(res.statusCode, 400, res.body);
        const body = JSON.parse(res.body) as { error: string; message: string };
        assert.equal(body.error, 'bad_request');
        const declared = /charset="?([^";]+)/i.exec(ct)?.[1]?.toLowerCase();
        assert.ok(body.message.includes(`charset '${declared}'`), body.message);
      });
    }

    for (const ct of [
      'application/json; charset=utf-8',
      'application/json; charset="UTF-8"',
      'application/json;charset=utf8',
      'application/json',
    ]) {
      it(`${ct} is read`, async () => {
        const res = await svc.service.app.inject({
          method: 'POST',
          url: '/v1/events/batch',
          headers: { 'content-type': ct, 'x-api-key': DEMO_KEY },
          payload: JSON.stringify({ ids: ['pre'] }),
        });
        assert.equal(res.statusCode, 200, res.body);
      });
    }

    for (const ct of ['application/x-ndjson; charset=utf-16', 'application/json; charset=utf-16']) {
      it(`the admin feed refuses ${ct}`, async () => {
        const res = await svc.service.app.inject({
          method: 'POST',
          url: '/admin/v1/feed',
          headers: { 'content-type': ct, 'x-admin-key': ADMIN_KEY },
          payload: Buffer.from(`${JSON.stringify({ type: 'status', event_id: 'pre', status: 'live' })}\n`, 'utf16le'),
        });
        assert.equal(res.statusCode, 400, res.body);
        assert.match(res.body, /charset 'utf-16' is not supported/);
        const pre = await svc.get<{ status: string }>('/v1/events/pre');
        assert.equal(pre.body.status, 'prematch');
      });
    }
  });
});
