// Who may call what: every /v1 endpoint except /v1/status needs a valid X-API-Key; operator and public routes.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ADMIN_KEY, DEMO_KEY, feedOk, fixture, markets, startService, type TestService } from '../helpers/service.js';
import type { ErrorBody } from '../helpers/payloads.js';

interface Route {
  method: string;
  url: string;
  body?: unknown;
}

/** The client endpoints of interface.md and decisions.md (openapi.json adds any newer ones below). */
const KNOWN: Route[] = [
  { method: 'GET', url: '/v1/events' },
  { method: 'GET', url: '/v1/live' },
  { method: 'GET', url: '/v1/events/featured' },
  { method: 'GET', url: '/v1/events/ev' },
  { method: 'GET', url: '/v1/events/ev/odds' },
  { method: 'GET', url: '/v1/events/ev/result' },
  { method: 'POST', url: '/v1/events/batch', body: { ids: ['ev'] } },
  { method: 'GET', url: '/v1/leagues' },
  { method: 'GET', url: '/v1/sports' },
  { method: 'GET', url: '/v1/scores' },
  { method: 'GET', url: '/v1/health' },
];

const PUBLIC_V1 = new Set(['/v1/status']);

describe('API key access', () => {
  let svc: TestService;
  let routes: Route[];
  before(async () => {
    svc = await startService();
    await feedOk(svc, [fixture('ev'), markets('ev')]);
    // Every documented /v1 operation, so a route added later is covered without editing this table.
    const doc = (await svc.get<{ paths: Record<string, Record<string, unknown>> }>('/openapi.json', { key: null }))
      .body;
    const documented: Route[] = [];
    for (const [path, ops] of Object.entries(doc.paths)) {
      if (!path.startsWith('/v1/') || PUBLIC_V1.has(path)) continue;
      for (const method of Object.keys(ops)) {
        const url = path.replace(/\{[^}]+\}/g, 'ev');
        const known = KNOWN.find((r) => r.url === url && r.method === method.toUpperCase());
        documented.push(known ?? { method: method.toUpperCase(), url });
      }
    }
    routes = [...documented];
    for (const r of KNOWN) {
      if (!routes.some((d) => d.method === r.method && d.url === r.url)) routes.push(r);
    }
  });
  after(() => svc.close());

  const call = (r: Route, key: string | null) =>
    svc.inject<ErrorBody>(r.method, r.url, { key, ...(r.body !== undefined ? { body: r.body } : {}) });

  test('openapi.json documents at least the known client endpoints', () => {
    assert.ok(routes.length >= KNOWN.length);
  });

  test('no key: 401 unauthorized on every /v1 endpoint but /v1/status', async () => {
    for (const r of routes) {
      const res = await call(r, null);
      assert.equal(res.status, 401, `${r.method} ${r.url}`);
      assert.equal(res.body.error, 'unauthorized', `${r.method} ${r.url}`);
    }
  });

  test('an invalid key: 401 unauthorized on every /v1 endpoint but /v1/status', async () => {
    for (const r of routes) {
      for (const key of ['wrong-key', `${DEMO_KEY}x`, DEMO_KEY.toUpperCase(), ADMIN_KEY]) {
        const res = await call(r, key);
        assert.equal(res.status, 401, `${r.method} ${r.url} with '${key}'`);
        assert.equal(res.body.error, 'unauthorized');
      }
    }
  });

  test('a valid key: every known endpoint answers 200', async () => {
    for (const r of KNOWN) {
      const res = await call(r, DEMO_KEY);
      assert.equal(res.status, 200, `${r.method} ${r.url}: ${res.text}`);
    }
    svc.clock.advance(1000);
    for (const r of routes) {
      // An accepted stream never ends (inject would wait for ever): a bad filter shows the key passed.
      const res = await call(r.url === '/v1/stream' ? { ...r, url: '/v1/stream?types=-' } : r, DEMO_KEY);
      assert.notEqual(res.status, 401, `${r.method} ${r.url}`);
    }
  });

  test('/v1/status answers 200 with no key, a bad key or a good key', async () => {
    for (const key of [null, 'wrong-key', DEMO_KEY]) {
      // A second apart: /v1/status allows 2 requests a second per caller.
      svc.clock.advance(1000);
      assert.equal((await svc.get('/v1/status', { key })).status, 200, String(key));
    }
  });

  test('the key is checked before anything else: no key and a bad parameter or unknown event is still 401', async () => {
    for (const url of [
      '/v1/events?limit=0',
      '/v1/events/ghost',
      '/v1/events/ghost/result',
      '/v1/events?sport=curling',
    ]) {
      const res = await svc.get<ErrorBody>(url, { key: null });
      assert.equal(res.status, 401, url);
    }
  });

  test('the key is read from the X-API-Key header only, not from the query string or Authorization', async () => {
    const viaQuery = await svc.get(`/v1/events?api_key=${DEMO_KEY}&key=${DEMO_KEY}`, { key: null });
    assert.equal(viaQuery.status, 401);
    const viaBearer = await svc.get('/v1/events', { key: null, headers: { authorization: `Bearer ${DEMO_KEY}` } });
    assert.equal(viaBearer.status, 401);
  });

  test('operator and public routes: probes, docs and logos need no key; metrics and the feed need the admin key', async () => {
    for (const url of ['/livez', '/readyz', '/openapi.json', '/docs', '/api/logo/default']) {
      assert.equal((await svc.get(url, { key: null })).status, 200, url);
    }
    assert.equal((await svc.get('/metrics', { key: DEMO_KEY })).status, 401);
    assert.equal((await svc.get('/metrics', { key: null, headers: { 'x-admin-key': ADMIN_KEY } })).status, 200);
  });
});
