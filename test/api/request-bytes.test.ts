// Bytes no route can take: broken percent-encoding in a query string (400 naming the parameter: it used to filter on the raw bytes), and bodies of a type no route reads (400 unsupported Content-Type).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { badlyEncodedParameter } from '../../src/api/query-encoding.js';
import { ADMIN_KEY, feedOk, prematchEvent, startService, type TestService } from '../helpers/service.js';

describe('query strings with broken percent-encoding', () => {
  let svc: TestService;
  before(async () => {
    svc = await startService();
    await feedOk(svc, prematchEvent('pre'));
  });
  after(() => svc.close());

  const cases: Array<[url: string, param: string]> = [
    ['/v1/events?league=%ZZ', 'league'],
    ['/v1/events?country=%E0%A4%A', 'country'],
    ['/v1/events?limit=5&league=abc%', 'league'],
    ['/v1/live?league=%C3%28', 'league'],
    ['/v1/scores?event_ids=%ZZ', 'event_ids'],
    ['/v1/settlements?event_id=%G1', 'event_id'],
    ['/v1/outrights?tournament_id=%', 'tournament_id'],
    ['/v1/events/pre/odds/history?market_id=1&selection_id=%1', 'selection_id'],
    ['/v1/stream?event_ids=%ZZ', 'event_ids'],
    ['/v1/stream?league=x%zz', 'league'],
    ['/v1/stream?last_event_id=1%2', 'last_event_id'],
    ['/v1/events?le%ZZague=x', 'le%ZZague'],
  ];
  for (const [url, param] of cases) {
    it(`${url} → 400 naming '${param}'`, async () => {
      const r = await svc.inject<{ error: string; message: string }>('GET', url);
      assert.equal(r.status, 400, r.text);
      assert.equal(r.body.error, 'bad_request');
      assert.match(r.body.message, new RegExp(`'${param.replace(/[%]/g, '%')}'`));
    });
  }

  it('valid encodings still filter as before (UTF-8 of a name, a reserved character, +)', async () => {
    for (const url of ['/v1/events?league=%65ngland', '/v1/events?country=C%C3%B4te', '/v1/events?league=a+b%26c']) {
      const r = await svc.inject('GET', url);
      assert.equal(r.status, 200, `${url}: ${r.text}`);
    }
  });

  it('without a key the answer is still 401 (the key check comes first)', async () => {
    const r = await svc.inject('GET', '/v1/events?league=%ZZ', { key: null });
    assert.equal(r.status, 401);
  });
});

describe('badlyEncodedParameter', () => {
  it('names the first broken parameter, or null', () => {
    assert.equal(badlyEncodedParameter('/v1/events'), null);
    assert.equal(badlyEncodedParameter('/v1/events?a=%41&b=c'), null);
    assert.equal(badlyEncodedParameter('/v1/events?a=%4&b=%ZZ'), 'a');
    assert.equal(badlyEncodedParameter('/v1/events?a=1&b=%ZZ'), 'b');
    assert.equal(badlyEncodedParameter('/v1/events?%41%42=%ZZ'), 'AB');
    assert.equal(badlyEncodedParameter('/v1/events?flag%'), 'flag%');
    assert.equal(badlyEncodedParameter('/v1/events?a=%ED%A0%80'), 'a', 'a lone surrogate is not UTF-8');
  });
});

describe('bodies of a type no route takes', () => {
  let svc: TestService;
  before(async () => {
    svc = await startService();
  });
  after(() => svc.close());

  for (const [url, admin] of [
    ['/v1/bets/check', false],
    ['/v1/events/batch', false],
    ['/admin/v1/feed', true],
  ] as const) {
    for (const type of ['text/plain', 'text/plain; charset=utf-8', 'application/xml', 'text/csv']) {
      it(`${url} with ${type}: 400 unsupported Content-Type, nothing applied`, async () => {
        const r = await svc.inject<{ error: string; message: string }>('POST', url, {
          key: admin ? null : undefined,
          body: '{"type":"fixture","event_id":"t1"}',
          headers: { 'content-type': type, ...(admin ? { 'x-admin-key': ADMIN_KEY } : {}) },
        });
        assert.equal(r.status, 400, r.text);
        assert.equal(r.body.error, 'bad_request');
        assert.match(r.body.message, /unsupported Content-Type/);
      });
    }
  }
});
