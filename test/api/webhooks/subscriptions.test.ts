// /v1/webhooks: create (secret once), read, change, delete, rotate; validation answers 400 {error, message}; another key's subscription is 404; the plan's limit.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startService, type TestService } from '../../helpers/service.js';

interface Webhook {
  id: string;
  url: string;
  types: string[];
  sport: string | null;
  event_ids: string[] | null;
  odds_format: string;
  enabled: boolean;
  disabled_reason: string | null;
  previous_secret_expires_at: string | null;
  secret?: string;
}
interface ErrorBody {
  error: string;
  message: string;
}

// A public address literal: nothing is resolved, nothing is posted by these tests.
const URL_OK = 'https://93.184.216.34/hooks/sports';

describe('webhook subscriptions', () => {
  let svc: TestService;
  let freeKey: string;
  let otherKey: string;
  before(async () => {
    svc = await startService();
    freeKey = (await svc.service.keyAdmin.create({ name: 'free one', plan: 'free', accountId: null })).secret;
    otherKey = (await svc.service.keyAdmin.create({ name: 'other', plan: 'pro', accountId: null })).secret;
  });
  after(() => svc.close());

  test('create answers 201 with a whsec_ secret once; GET and the list never show it', async () => {
    const res = await svc.inject<Webhook>('POST', '/v1/webhooks', {
      body: { url: URL_OK, types: ['settlement', 'result'], sport: 'soccer', odds_format: 'american' },
    });
    assert.equal(res.status, 201, res.text);
    assert.match(res.body.secret!, /^whsec_[A-Za-z0-9+/]+=*$/);
    assert.ok(Buffer.from(res.body.secret!.slice(6), 'base64').length >= 24);
    assert.deepEqual(res.body.types, ['settlement', 'result']);
    assert.equal(res.body.sport, 'soccer');
    assert.equal(res.body.odds_format, 'american');
    assert.equal(res.body.enabled, true);
    const one = await svc.get<Webhook>(`/v1/webhooks/${res.body.id}`);
    assert.equal(one.status, 200);
    assert.equal(one.body.secret, undefined);
    assert.equal(one.body.url, URL_OK);
    const list = await svc.get<{ webhooks: Webhook[] }>('/v1/webhooks');
    assert.ok(list.body.webhooks.some((w) => w.id === res.body.id));
    assert.ok(list.body.webhooks.every((w) => w.secret === undefined));
  });

  test('PATCH changes fields and keeps the rest; DELETE removes it (then 404)', async () => {
    const created = await svc.inject<Webhook>('POST', '/v1/webhooks', { body: { url: URL_OK, types: ['status'] } });
    const id = created.body.id;
    const patched = await svc.inject<Webhook>('PATCH', `/v1/webhooks/${id}`, {
      body: { types: ['status', 'settlement.completed'], enabled: false },
    });
    assert.equal(patched.status, 200, patched.text);
    assert.deepEqual(patched.body.types, ['status', 'settlement.completed']);
    assert.equal(patched.body.enabled, false);
    assert.equal(patched.body.disabled_reason, 'owner');
    assert.equal(patched.body.url, URL_OK);
    const del = await svc.inject('DELETE', `/v1/webhooks/${id}`);
    assert.equal(del.status, 204);
    assert.equal((await svc.get(`/v1/webhooks/${id}`)).status, 404);
  });

  test('rotating the secret gives a new one and an overlap during which the old one still signs', async () => {
    const created = await svc.inject<Webhook>('POST', '/v1/webhooks', { body: { url: URL_OK, types: ['result'] } });
    const rotated = await svc.inject<Webhook>('POST', `/v1/webhooks/${created.body.id}/rotate-secret`);
    assert.equal(rotated.status, 200, rotated.text);
    assert.match(rotated.body.secret!, /^whsec_/);
    assert.notEqual(rotated.body.secret, created.body.secret);
    assert.equal(rotated.body.previous_secret_expires_at, new Date(svc.clock.now() + 24 * 3_600_000).toISOString());
  });

  const bad: Array<[string, unknown, RegExp]> = [
    ['no url', { types: ['result'] }, /url/],
    ['no types', { url: URL_OK }, /types/],
    ['empty types', { url: URL_OK, types: [] }, /types/],
    ['an unknown type', { url: URL_OK, types: ['goals'] }, /types/],
    ['not a URL', { url: 'hooks please', types: ['result'] }, /url/],
    ['ftp', { url: 'ftp://93.184.216.34/x', types: ['result'] }, /https/],
    ['plain http', { url: 'http://93.184.216.34/x', types: ['result'] }, /https/],
    ['a loopback address', { url: 'https://127.0.0.1/x', types: ['result'] }, /public address/],
    ['a private address', { url: 'https://10.1.2.3/x', types: ['result'] }, /public address/],
    ['link-local (cloud metadata)', { url: 'https://169.254.169.254/x', types: ['result'] }, /public address/],
    ['IPv6 loopback', { url: 'https://[::1]/x', types: ['result'] }, /public address/],
    ['IPv4-mapped loopback', { url: 'https://[::ffff:127.0.0.1]/x', types: ['result'] }, /public address/],
    ['localhost', { url: 'https://localhost/x', types: ['result'] }, /public address/],
    ['credentials in the URL', { url: 'https://u:p@93.184.216.34/x', types: ['result'] }, /credentials/],
    ['odds without event_ids', { url: URL_OK, types: ['odds'] }, /event_ids/],
    ['an odds format nobody knows', { url: URL_OK, types: ['result'], odds_format: 'roman' }, /odds_format/],
  ];
  for (const [name, body, message] of bad) {
    test(`refused with 400 and nothing created: ${name}`, async () => {
      const before = (await svc.get<{ webhooks: Webhook[] }>('/v1/webhooks')).body.webhooks.length;
      const res = await svc.inject<ErrorBody>('POST', '/v1/webhooks', { body });
      assert.equal(res.status, 400, res.text);
      assert.equal(res.body.error, 'bad_request');
      assert.match(res.body.message, message);
      assert.equal((await svc.get<{ webhooks: Webhook[] }>('/v1/webhooks')).body.webhooks.length, before);
    });
  }

  test('a bad PATCH is 400 and changes nothing', async () => {
    const created = await svc.inject<Webhook>('POST', '/v1/webhooks', { body: { url: URL_OK, types: ['result'] } });
    const res = await svc.inject<ErrorBody>('PATCH', `/v1/webhooks/${created.body.id}`, {
      body: { url: 'https://192.168.1.1/x' },
    });
    assert.equal(res.status, 400);
    assert.equal((await svc.get<Webhook>(`/v1/webhooks/${created.body.id}`)).body.url, URL_OK);
  });

  test("another key's subscription is 404 for every verb, and not in its list", async () => {
    const created = await svc.inject<Webhook>('POST', '/v1/webhooks', { body: { url: URL_OK, types: ['result'] } });
    const id = created.body.id;
    const calls: Array<[string, string, unknown?]> = [
      ['GET', `/v1/webhooks/${id}`],
      ['PATCH', `/v1/webhooks/${id}`, { enabled: false }],
      ['DELETE', `/v1/webhooks/${id}`],
      ['POST', `/v1/webhooks/${id}/rotate-secret`],
      ['GET', `/v1/webhooks/${id}/deliveries`],
      ['POST', `/v1/webhooks/${id}/replay`, { since: '2026-01-01T00:00:00Z' }],
      ['POST', `/v1/webhooks/${id}/test`],
    ];
    for (const [method, url, body] of calls) {
      const res = await svc.inject<ErrorBody>(method, url, { key: otherKey, ...(body !== undefined ? { body } : {}) });
      assert.equal(res.status, 404, `${method} ${url}: ${res.text}`);
      assert.equal(res.body.error, 'not_found');
    }
    const list = await svc.get<{ webhooks: Webhook[] }>('/v1/webhooks', { key: otherKey });
    assert.equal(list.body.webhooks.length, 0);
    assert.equal((await svc.get<Webhook>(`/v1/webhooks/${id}`)).body.enabled, true);
  });

  test('the free plan allows 2 subscriptions per key: the third is 400 naming the limit', async () => {
    for (let i = 0; i < 2; i++) {
      const ok = await svc.inject('POST', '/v1/webhooks', { key: freeKey, body: { url: URL_OK, types: ['result'] } });
      assert.equal(ok.status, 201, ok.text);
    }
    const third = await svc.inject<ErrorBody>('POST', '/v1/webhooks', {
      key: freeKey,
      body: { url: URL_OK, types: ['result'] },
    });
    assert.equal(third.status, 400);
    assert.match(third.body.message, /free plan allows 2/);
    assert.equal((await svc.get<{ webhooks: Webhook[] }>('/v1/webhooks', { key: freeKey })).body.webhooks.length, 2);
  });

  test('without a key: 401', async () => {
    assert.equal((await svc.inject('GET', '/v1/webhooks', { key: null })).status, 401);
  });
});
