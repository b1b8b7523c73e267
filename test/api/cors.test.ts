// CORS (decisions.md): browser apps on CORS_ORIGINS may call the API, preflight included; other origins and an unset CORS_ORIGINS get no CORS headers.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.js';
import type { AddressInfo } from 'node:net';
import { SseClient } from '../helpers/sse.js';
import { DEMO_KEY, startService, type TestService } from '../helpers/service.js';

const APP = 'https://app.example.com';
const LOCAL = 'http://localhost:5173';
const EVIL = 'https://evil.example.com';

/** What a browser sends before a GET with an X-API-Key header from another origin. */
const preflight = (origin: string): Record<string, string> => ({
  origin,
  'access-control-request-method': 'GET',
  'access-control-request-headers': 'x-api-key',
});

function headerList(value: unknown): string[] {
  return String(value ?? '')
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter((h) => h !== '');
}

describe('CORS with CORS_ORIGINS set to a list of origins', () => {
  let svc: TestService;
  before(async () => {
    svc = await startService({ env: { CORS_ORIGINS: `${APP}, ${LOCAL}` } });
  });
  after(async () => svc.close());

  test('a read from an allowed origin carries its origin, Vary: Origin and the exposed quota headers', async () => {
    for (const origin of [APP, LOCAL]) {
      const r = await svc.get('/v1/events?limit=1', { headers: { origin } });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.headers['access-control-allow-origin'], origin);
      assert.ok(headerList(r.headers.vary).includes('origin'), `Vary: ${String(r.headers.vary)}`);
      const exposed = headerList(r.headers['access-control-expose-headers']);
      for (const h of ['x-ratelimit-remaining', 'retry-after', 'x-world-time']) assert.ok(exposed.includes(h), h);
    }
  });

  test('the preflight is answered without a key, with the methods and X-API-Key allowed', async () => {
    const r = await svc.inject('OPTIONS', '/v1/events', { key: null, headers: preflight(APP) });
    assert.equal(r.status, 204, r.text);
    assert.equal(r.headers['access-control-allow-origin'], APP);
    const methods = headerList(r.headers['access-control-allow-methods']);
    for (const m of ['get', 'post']) assert.ok(methods.includes(m), `methods: ${methods.join(',')}`);
    assert.ok(headerList(r.headers['access-control-allow-headers']).includes('x-api-key'));
    assert.equal(r.headers['access-control-max-age'], '600');
    // A preflight of a POST with a JSON body (bet check, batch).
    const post = await svc.inject('OPTIONS', '/v1/bets/check', {
      key: null,
      headers: {
        ...preflight(APP),
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'x-api-key, content-type',
      },
    });
    assert.equal(post.status, 204);
    assert.ok(headerList(post.headers['access-control-allow-headers']).includes('content-type'));
  });

  test('an error a browser must read (401 without a key) carries the CORS headers and {error, message}', async () => {
    const r = await svc.inject<{ error: string }>('GET', '/v1/events', { key: null, headers: { origin: APP } });
    assert.equal(r.status, 401);
    assert.equal(r.body.error, 'unauthorized');
    assert.equal(r.headers['access-control-allow-origin'], APP);
  });

  test("a browser's EventSource from an allowed origin (key as api_key=) gets the stream with the CORS headers", async () => {
    await svc.service.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(svc.service.app.server.address() as AddressInfo).port}`;
    const c = await SseClient.connect(base, `/v1/stream?api_key=${DEMO_KEY}`, { origin: APP });
    c.close();
    assert.equal(c.res.headers['access-control-allow-origin'], APP);
    assert.match(String(c.res.headers['content-type']), /text\/event-stream/);
    // A resume from a browser sends Last-Event-ID: the preflight of a fetch-based client allows it.
    const pre = await svc.inject('OPTIONS', '/v1/stream', {
      key: null,
      headers: { ...preflight(APP), 'access-control-request-headers': 'x-api-key, last-event-id' },
    });
    assert.ok(headerList(pre.headers['access-control-allow-headers']).includes('last-event-id'));
  });

  test('another origin gets no Access-Control-Allow-Origin (the browser refuses it), on reads and preflights', async () => {
    const read = await svc.get('/v1/events?limit=1', { headers: { origin: EVIL } });
    assert.equal(read.status, 200);
    assert.equal(read.headers['access-control-allow-origin'], undefined);
    const pre = await svc.inject('OPTIONS', '/v1/events', { key: null, headers: preflight(EVIL) });
    assert.equal(pre.headers['access-control-allow-origin'], undefined);
    // Near misses are other origins too.
    for (const origin of [`${APP}.evil.com`, 'http://app.example.com', `${APP}:8443`]) {
      const r = await svc.get('/v1/events?limit=1', { headers: { origin } });
      assert.equal(r.headers['access-control-allow-origin'], undefined, origin);
    }
  });
});

describe('CORS with CORS_ORIGINS=*', () => {
  let svc: TestService;
  before(async () => {
    svc = await startService({ env: { CORS_ORIGINS: '*' } });
  });
  after(async () => svc.close());

  test('any origin may read, and preflights are answered', async () => {
    const r = await svc.get('/v1/events?limit=1', { headers: { origin: EVIL } });
    assert.equal(r.headers['access-control-allow-origin'], '*');
    const pre = await svc.inject('OPTIONS', '/v1/events', { key: null, headers: preflight(EVIL) });
    assert.equal(pre.status, 204);
    assert.equal(pre.headers['access-control-allow-origin'], '*');
  });
});

describe('CORS without CORS_ORIGINS (the default)', () => {
  let svc: TestService;
  before(async () => {
    svc = await startService();
  });
  after(async () => svc.close());

  test('no cross-origin access: no CORS headers, a preflight is not answered as one', async () => {
    const r = await svc.get('/v1/events?limit=1', { headers: { origin: APP } });
    assert.equal(r.status, 200);
    assert.equal(r.headers['access-control-allow-origin'], undefined);
    const pre = await svc.inject<{ error: string }>('OPTIONS', '/v1/events', { key: null, headers: preflight(APP) });
    assert.equal(pre.headers['access-control-allow-origin'], undefined);
    // Answered as any unsupported method is, with an error body, not a 204.
    assert.ok(pre.status >= 400, `${pre.status}`);
    assert.equal(typeof pre.body.error, 'string');
  });
});

describe('CORS_ORIGINS configuration', () => {
  const base = { DATA_DIR: '/tmp/unused' };
  test('origins are read as a list, * as any, empty as none', () => {
    assert.deepEqual(loadConfig({ ...base, CORS_ORIGINS: `${APP},${LOCAL}` }).corsOrigins, [APP, LOCAL]);
    assert.equal(loadConfig({ ...base, CORS_ORIGINS: '*' }).corsOrigins, '*');
    assert.equal(loadConfig({ ...base, CORS_ORIGINS: '' }).corsOrigins, null);
    assert.equal(loadConfig(base).corsOrigins, null);
  });

  test('origins are kept as a browser serializes its Origin: lower-case scheme and host, no default port', () => {
    const env = {
      ...base,
      CORS_ORIGINS: 'HTTPS://App.Example.com, https://b.example.com:443, http://localhost:80, http://localhost:8080',
    };
    assert.deepEqual(loadConfig(env).corsOrigins, [
      'https://app.example.com',
      'https://b.example.com',
      'http://localhost',
      'http://localhost:8080',
    ]);
  });

  test('an origin with a path, a trailing slash or no scheme is refused with a message naming it', () => {
    for (const bad of [
      `${APP}/`,
      `${APP}/app`,
      'app.example.com',
      `${APP},ftp://x.example.com`,
      'https://user@app.example.com',
      'https://app.example.com:99999',
      'https://',
    ]) {
      assert.throws(
        () => loadConfig({ ...base, CORS_ORIGINS: bad }),
        (err: unknown) => err instanceof ConfigError && /CORS_ORIGINS/.test(err.message),
        bad,
      );
    }
  });
});
