// Which requests count toward the monthly quota (every endpoint), the X-RateLimit headers, and GET /v1/usage.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { UNLIMITED_HEADER } from '../../src/api/quota/metering.js';
import { utcDay } from '../../src/domain/quota.js';
import type { ErrorBody } from '../helpers/payloads.js';
import {
  ADMIN_KEY,
  DEMO_KEY,
  feedOk,
  fixture,
  markets,
  startService,
  T0,
  type TestService,
} from '../helpers/service.js';
import { keyOn, TEST_PLANS, usageOf, type UsageBody } from '../helpers/usage.js';

interface Route {
  method: string;
  url: string;
  body?: unknown;
  headers?: Record<string, string>;
}

/** decisions.md: every authenticated request counts except these three. */
const NOT_COUNTED_URLS = new Set(['/v1/health', '/v1/status', '/v1/usage/warnings']);
/** Not counted: health, status, the warnings, and managing webhook subscriptions (docs/quotas.md). */
const NOT_COUNTED = { has: (url: string): boolean => NOT_COUNTED_URLS.has(url) || url.startsWith('/v1/webhooks') };
/** The helpers' clock starts in March 2026 (T0): the quota resets on 1 April, 00:00 UTC. */
const APRIL = Math.floor(utcDay(T0).monthEnd / 1000);

describe('which requests count', () => {
  let svc: TestService;
  let key: string;
  let routes: Route[];
  before(async () => {
    svc = await startService({ env: { PLANS: TEST_PLANS } });
    key = await keyOn(svc, 'meter');
    await feedOk(svc, [fixture('ev'), markets('ev')]);
    const doc = (await svc.get<{ paths: Record<string, Record<string, unknown>> }>('/openapi.json', { key: null }))
      .body;
    routes = [];
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const method of Object.keys(ops)) {
        const url = path.replace(/\{[^}]+\}/g, 'ev');
        routes.push({ method: method.toUpperCase(), url, ...(method === 'post' ? { body: { ids: ['ev'] } } : {}) });
      }
    }
  });
  after(() => svc.close());

  test('the route table covers every /v1 endpoint, the usage endpoints included', () => {
    const urls = new Set(routes.map((r) => r.url));
    for (const url of [
      '/v1/events',
      '/v1/events/ev/odds',
      '/v1/health',
      '/v1/status',
      '/v1/usage',
      '/v1/usage/warnings',
    ]) {
      assert.ok(urls.has(url), url);
    }
  });

  test('every /v1 endpoint counts one request, except /v1/health, /v1/status, /v1/usage/warnings and the webhook routes', async () => {
    for (const r of routes.filter((x) => x.url.startsWith('/v1/'))) {
      svc.clock.advance(1000); // health and status allow 2 a second
      const before = (await usageOf(svc, key)).current.this_month;
      // An accepted stream never ends (inject would wait for ever); a 400 for a bad filter counts like any answer.
      const url = r.url === '/v1/stream' ? '/v1/stream?types=-' : r.url;
      const res = await svc.inject(r.method, url, { key, ...(r.body !== undefined ? { body: r.body } : {}) });
      assert.notEqual(res.status, 401, `${r.method} ${r.url}`);
      assert.notEqual(res.status, 429, `${r.method} ${r.url}: ${res.text}`);
      const after = (await usageOf(svc, key)).current.this_month;
      // Each /v1/usage read counts itself.
      const counted = after - before - 1;
      assert.equal(counted, NOT_COUNTED.has(r.url) ? 0 : 1, `${r.method} ${r.url}`);
      const headers = res.headers['x-ratelimit-limit'] !== undefined;
      assert.equal(headers, !NOT_COUNTED.has(r.url), `${r.method} ${r.url}: X-RateLimit headers on counted only`);
    }
  });

  test('operator and public routes are never counted, even with a client key', async () => {
    const others: Route[] = [
      { method: 'GET', url: '/livez' },
      { method: 'GET', url: '/readyz' },
      { method: 'GET', url: '/openapi.json' },
      { method: 'GET', url: '/docs' },
      { method: 'GET', url: '/api/logo/default' },
      { method: 'GET', url: '/metrics', headers: { 'x-admin-key': ADMIN_KEY } },
    ];
    const before = (await usageOf(svc, key)).current.this_month;
    for (const r of others) {
      const res = await svc.inject(r.method, r.url, { key, ...(r.headers ? { headers: r.headers } : {}) });
      assert.equal(res.status, 200, `${r.url}: ${res.text}`);
      assert.equal(res.headers['x-ratelimit-limit'], undefined, r.url);
    }
    assert.equal((await usageOf(svc, key)).current.this_month, before + 1);
  });

  test('a 4xx answer counts and is an error; 401s count nowhere', async () => {
    const before = (await usageOf(svc, key)).current;
    assert.equal((await svc.get('/v1/events?limit=0', { key })).status, 400);
    assert.equal((await svc.get('/v1/events/ghost', { key })).status, 404);
    assert.equal((await svc.get('/v1/events', { key: `${key}x` })).status, 401);
    assert.equal((await svc.get('/v1/events', { key: null })).status, 401);
    const now = (await usageOf(svc, key)).current;
    assert.equal(now.this_month, before.this_month + 3);
    assert.equal(now.errors_today, before.errors_today + 2);
  });

  test('an unknown route under /v1 is 404 and counts nothing', async () => {
    const before = (await usageOf(svc, key)).current.this_month;
    assert.equal((await svc.get('/v1/nothing-here', { key })).status, 404);
    assert.equal((await usageOf(svc, key)).current.this_month, before + 1);
  });
});

describe('X-RateLimit headers', () => {
  let svc: TestService;
  before(async () => {
    svc = await startService({ env: { PLANS: TEST_PLANS } });
  });
  after(() => svc.close());

  test('a free key: the monthly limit, what remains after this request, and the reset as epoch seconds', async () => {
    const key = await keyOn(svc, 'free');
    const first = await svc.get('/v1/events', { key });
    assert.equal(first.status, 200);
    assert.equal(first.headers['x-ratelimit-limit'], '10000');
    assert.equal(first.headers['x-ratelimit-remaining'], '9999');
    assert.equal(first.headers['x-ratelimit-reset'], String(APRIL));
    svc.clock.advance(1000);
    const second = await svc.get('/v1/events/ghost', { key });
    assert.equal(second.status, 404);
    assert.equal(second.headers['x-ratelimit-remaining'], '9998', 'an error answer carries them too');
  });

  test('a plan without a monthly quota reports the largest safe integer as its limit', async () => {
    const res = await svc.get('/v1/sports', { key: DEMO_KEY });
    assert.equal(res.headers['x-ratelimit-limit'], String(UNLIMITED_HEADER));
    const remaining = Number(res.headers['x-ratelimit-remaining']);
    assert.ok(Number.isSafeInteger(remaining) && remaining < UNLIMITED_HEADER);
  });
});

describe('GET /v1/usage', () => {
  let svc: TestService;
  before(async () => {
    svc = await startService({ env: { PLANS: TEST_PLANS }, now: Date.parse('2026-03-03T10:00:00Z') });
  });
  after(() => svc.close());

  test('plan, limits, today, this month, remaining, percent, errors and every day of the month so far', async () => {
    const key = await keyOn(svc, 'hundred');
    svc.clock.set('2026-03-01T08:00:00Z');
    for (let i = 0; i < 3; i++) await svc.get('/v1/sports', { key });
    svc.clock.set('2026-03-03T09:00:00Z');
    await svc.get('/v1/events/ghost', { key });
    await svc.get('/v1/sports', { key });
    const usage = await usageOf(svc, key);
    const expected: UsageBody = {
      plan: 'hundred',
      limits: { per_second: null, per_month: 100 },
      current: { today: 3, this_month: 6, month_remaining: 94, month_percent: 6, errors_today: 1 },
      daily: [
        { date: '2026-03-01', requests: 3, errors: 0 },
        { date: '2026-03-02', requests: 0, errors: 0 },
        { date: '2026-03-03', requests: 3, errors: 1 },
      ],
    };
    assert.deepEqual(usage, expected);
  });

  test('the free plan: 10,000 a month, 5 a second', async () => {
    const usage = await usageOf(svc, await keyOn(svc, 'free'));
    assert.equal(usage.plan, 'free');
    assert.deepEqual(usage.limits, { per_second: 5, per_month: 10_000 });
    assert.equal(usage.current.month_remaining, 9_999);
    assert.equal(usage.current.month_percent, 0.01);
  });

  test('the unlimited plan has null limits, no remaining count and 0 percent', async () => {
    const usage = await usageOf(svc, DEMO_KEY);
    assert.equal(usage.plan, 'unlimited');
    assert.deepEqual(usage.limits, { per_second: null, per_month: null });
    assert.equal(usage.current.month_remaining, null);
    assert.equal(usage.current.month_percent, 0);
  });

  test('keys never share counts', async () => {
    const a = await keyOn(svc, 'meter');
    const b = await keyOn(svc, 'meter');
    for (let i = 0; i < 4; i++) await svc.get('/v1/sports', { key: a });
    assert.equal((await usageOf(svc, a)).current.this_month, 5);
    assert.equal((await usageOf(svc, b)).current.this_month, 1);
  });

  test('no key: 401, and the error body is the usual {error, message}', async () => {
    const res = await svc.get<ErrorBody>('/v1/usage', { key: null });
    assert.equal(res.status, 401);
    assert.equal(res.body.error, 'unauthorized');
  });

  test('openapi.json documents both usage endpoints', async () => {
    const doc = (await svc.get<{ paths: Record<string, unknown> }>('/openapi.json', { key: null })).body;
    assert.ok('/v1/usage' in doc.paths);
    assert.ok('/v1/usage/warnings' in doc.paths);
  });
});
