// Error answers: every code of decisions.md with its status and {error, message} body, never a stack trace.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import Fastify, { type FastifyInstance } from 'fastify';
import { ServiceError, type ErrorCode } from '../../src/domain/errors.js';
import { HTTP_STATUS, installErrorHandling } from '../../src/api/errors.js';
import { feedOk, fixture, markets, startService, type TestService } from '../helpers/service.js';
import type { ErrorBody } from '../helpers/payloads.js';

function assertErrorBody(body: unknown, code: string): asserts body is ErrorBody {
  assert.ok(typeof body === 'object' && body !== null, 'the body is a JSON object');
  const b = body as Record<string, unknown>;
  assert.equal(b.error, code);
  assert.equal(typeof b.message, 'string');
  assert.ok((b.message as string).length > 0);
  const allowed = code === 'service_unavailable' ? ['component', 'error', 'message'] : ['error', 'message'];
  for (const k of Object.keys(b)) assert.ok(allowed.includes(k), `unexpected field '${k}' in an error body`);
}

describe('errors over HTTP', () => {
  let svc: TestService;
  before(async () => {
    svc = await startService();
    await feedOk(svc, [fixture('ev'), markets('ev')]);
  });
  after(() => svc.close());

  test('an unknown route is 404 not_found with the error body, with or without a key', async () => {
    for (const [method, url, key] of [
      ['GET', '/v1/nope', undefined],
      ['GET', '/v1/nope', null],
      ['GET', '/nope', undefined],
      ['POST', '/v1/unknown', undefined],
      ['GET', '/v2/events', undefined],
      ['GET', '/v1/events/ev/odds/extra', undefined],
    ] as const) {
      const res = await svc.inject(method, url, key === null ? { key: null } : {});
      assert.equal(res.status, 404, `${method} ${url}`);
      assert.match(String(res.headers['content-type']), /^application\/json/);
      assertErrorBody(res.body, 'not_found');
    }
  });

  test('a wrong method on a known path is 400 bad_request with an Allow header', async () => {
    const cases: Array<[string, string, string]> = [
      ['DELETE', '/v1/events', 'GET'],
      ['POST', '/v1/events/ev/odds', 'GET'],
      ['PUT', '/v1/events/batch', 'POST'],
      ['PATCH', '/v1/leagues', 'GET'],
    ];
    for (const [method, url, allow] of cases) {
      const res = await svc.inject(method, url);
      assert.equal(res.status, 400, `${method} ${url}: ${res.text}`);
      assertErrorBody(res.body, 'bad_request');
      assert.ok(String(res.headers.allow).includes(allow), `${method} ${url}: allow ${String(res.headers.allow)}`);
      assert.ok(res.body.message.includes(method));
    }
  });

  test('a malformed JSON body is 400 bad_request', async () => {
    const res = await svc.inject('POST', '/v1/events/batch', {
      body: '{"ids": ["ev",}',
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(res.status, 400);
    assertErrorBody(res.body, 'bad_request');
  });

  test('an oversized body is 400 bad_request', async () => {
    const huge = JSON.stringify({ ids: ['ev'], padding: 'x'.repeat(2 * 1024 * 1024) });
    const res = await svc.inject('POST', '/v1/events/batch', {
      body: huge,
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(res.status, 400, res.text);
    assertErrorBody(res.body, 'bad_request');
    assert.match(res.body.message, /large/);
  });

  test('an unsupported content type is 400 bad_request', async () => {
    const res = await svc.inject('POST', '/v1/events/batch', {
      body: '<ids/>',
      headers: { 'content-type': 'application/xml' },
    });
    assert.equal(res.status, 400);
    assertErrorBody(res.body, 'bad_request');
  });

  test('invalid parameters are 400 bad_request whose message names the parameter', async () => {
    const cases: Array<[string, string]> = [
      ['/v1/events?limit=0', 'limit'],
      ['/v1/events?limit=201', 'limit'],
      ['/v1/events?offset=-1', 'offset'],
      ['/v1/events?odds_format=x', 'odds_format'],
      ['/v1/events?sport=x', 'sport'],
      ['/v1/events?status=x', 'status'],
      ['/v1/events?date=2026-02-30', 'date'],
      ['/v1/events?from=x', 'from'],
      ['/v1/events?to=x', 'to'],
      ['/v1/events?starts_within=x', 'starts_within'],
      ['/v1/events?league=', 'league'],
      ['/v1/events?country=', 'country'],
      ['/v1/live?limit=0', 'limit'],
      ['/v1/scores?limit=500', 'limit'],
      ['/v1/events/featured?limit=0', 'limit'],
      ['/v1/events/ev?odds_format=x', 'odds_format'],
      ['/v1/events/ev/odds?odds_format=x', 'odds_format'],
      [`/v1/events/${'x'.repeat(150)}`, 'eventId'],
    ];
    for (const [url, param] of cases) {
      const res = await svc.get(url);
      assert.equal(res.status, 400, `${url}: ${res.text}`);
      assertErrorBody(res.body, 'bad_request');
      assert.ok(res.body.message.includes(param), `${url}: '${res.body.message}' should name '${param}'`);
    }
  });

  test('a URL the router cannot read is 400 bad_request with the error body', async () => {
    for (const url of ['/v1/events/%E0%A4%A', '/v1/events/%', `/v1/events/${'x'.repeat(250)}`]) {
      const res = await svc.get(url);
      assert.equal(res.status, 400, `${url.slice(0, 40)}: ${res.text}`);
      assertErrorBody(res.body, 'bad_request');
    }
  });

  test('a missing or invalid key is 401 unauthorized', async () => {
    for (const key of [null, '', 'not-a-real-key', 'x'.repeat(300)]) {
      const res = await svc.get('/v1/events', { key });
      assert.equal(res.status, 401, `key '${String(key).slice(0, 20)}'`);
      assertErrorBody(res.body, 'unauthorized');
    }
  });

  test('an unknown event is 404 not_found on every event endpoint', async () => {
    for (const url of ['/v1/events/ghost', '/v1/events/ghost/odds', '/v1/events/ghost/result']) {
      const res = await svc.get(url);
      assert.equal(res.status, 404, url);
      assertErrorBody(res.body, 'not_found');
    }
  });

  test('a store that cannot be reached is 503 service_unavailable with a component', async () => {
    const broken = await startService();
    try {
      await broken.service.store.close();
      const res = await broken.get('/v1/events/ghost/result');
      assert.equal(res.status, 503, res.text);
      assertErrorBody(res.body, 'service_unavailable');
      assert.equal(typeof res.body.component, 'string');
    } finally {
      await broken.close();
    }
  });
});

describe('the error handler (installErrorHandling)', () => {
  let app: FastifyInstance;
  const logged: unknown[] = [];
  before(async () => {
    app = Fastify({ logger: false });
    installErrorHandling(app);
    app.get('/boom', async () => {
      throw new Error('database password is hunter2 at /srv/app/secret.ts:42');
    });
    app.get('/type-error', async () => {
      const o = JSON.parse('null') as { deep: { value: number } };
      return { value: o.deep.value };
    });
    app.get('/code/:code', async (request) => {
      const { code } = request.params as { code: ErrorCode };
      throw new ServiceError(code, `failed with ${code}`, {
        ...(code === 'service_unavailable' ? { component: 'realtime_data' } : {}),
        ...(code === 'rate_limited' ? { retryAfter: 30 } : {}),
      });
    });
    app.get('/reply-error', async (_request, reply) => {
      return reply.code(500).send(new Error('sent, not thrown: internal detail'));
    });
    app.addHook('onError', async (_request, _reply, err) => {
      logged.push(err);
    });
    await app.ready();
  });
  after(() => app.close());

  test('an unexpected error is 500 server_error with a generic message and no stack trace', async () => {
    for (const url of ['/boom', '/type-error', '/reply-error']) {
      const res = await app.inject({ method: 'GET', url });
      assert.equal(res.statusCode, 500, url);
      const body = JSON.parse(res.body) as Record<string, unknown>;
      assertErrorBody(body, 'server_error');
      assert.equal(body.message, 'internal server error');
      assert.ok(!/hunter2|secret|\.ts:|at \/|stack|TypeError|internal detail/.test(res.body), res.body);
    }
    assert.ok(logged.length >= 2, 'the failure is still seen server-side');
  });

  test('every error code answers its decisions.md status', async () => {
    const expected: Record<ErrorCode, number> = {
      bad_request: 400,
      unauthorized: 401,
      not_found: 404,
      rate_limited: 429,
      server_error: 500,
      service_unavailable: 503,
    };
    assert.deepEqual(HTTP_STATUS, expected);
    for (const [code, statusCode] of Object.entries(expected)) {
      const res = await app.inject({ method: 'GET', url: `/code/${code}` });
      assert.equal(res.statusCode, statusCode, code);
      const body = JSON.parse(res.body) as Record<string, unknown>;
      assertErrorBody(body, code);
      assert.equal(body.message, `failed with ${code}`);
    }
  });

  test('service_unavailable names its component; rate_limited carries Retry-After', async () => {
    const unavailable = await app.inject({ method: 'GET', url: '/code/service_unavailable' });
    assert.equal((JSON.parse(unavailable.body) as ErrorBody).component, 'realtime_data');
    const limited = await app.inject({ method: 'GET', url: '/code/rate_limited' });
    assert.equal(limited.headers['retry-after'], '30');
  });

  test('unknown routes get the not_found body', async () => {
    const res = await app.inject({ method: 'GET', url: '/nothing-here' });
    assert.equal(res.statusCode, 404);
    assertErrorBody(JSON.parse(res.body), 'not_found');
  });
});
