// The access log: one `info` line per request with route, path, status, duration, key id and address; never a secret; ACCESS_LOG=off and LOG_LEVEL turn it off.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createLogger } from '../../src/api/logging.js';
import { ConfigError, loadConfig } from '../../src/config.js';
import { createService, type Service } from '../../src/service.js';
import { at, fixture, HOUR, markets, T0 } from '../helpers/service.js';
import { until } from '../helpers/until.js';

const DEMO = 'sk_demo_access_log_0123456789abcdef';
const ADMIN = 'admin_access_log_fedcba9876543210';
const WRONG = 'sk_wrong_access_log_5555555555555555';

interface Line {
  level: number;
  msg: string;
  reqId?: string;
  method?: string;
  route?: string | null;
  path?: string;
  status?: number;
  ms?: number;
  key?: string;
  ip?: string;
}

interface Logged {
  service: Service;
  lines: string[];
  /** The access lines written so far, parsed. */
  access(): Line[];
  close(): Promise<void>;
}

async function start(env: Record<string, string>, loggerLevel: string): Promise<Logged> {
  const dataDir = await mkdtemp(join(tmpdir(), 'access-log-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    FEED: 'none',
    ADMIN_KEY: ADMIN,
    DEMO_API_KEY: DEMO,
    DEMO_PLAN: 'unlimited',
    LOG_LEVEL: loggerLevel,
    ...env,
  });
  const lines: string[] = [];
  const logger = createLogger(loggerLevel, { write: (line: string) => void lines.push(line) });
  const service = await createService(config, { logger, now: () => T0 });
  return {
    service,
    lines,
    access: () => lines.map((l) => JSON.parse(l) as Line).filter((l) => l.msg === 'request'),
    async close() {
      await service.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

const get = (service: Service, url: string, headers: Record<string, string> = {}) =>
  service.app.inject({ method: 'GET', url, headers });

async function feedOne(service: Service): Promise<void> {
  const body = [fixture('al-1', { start_time: at(HOUR) }), markets('al-1')].map((m) => JSON.stringify(m)).join('\n');
  const res = await service.app.inject({
    method: 'POST',
    url: '/admin/v1/feed',
    headers: { 'x-admin-key': ADMIN, 'content-type': 'application/x-ndjson' },
    payload: body,
  });
  assert.equal(res.statusCode, 200, res.body);
}

describe('access log (ACCESS_LOG on, the default, at LOG_LEVEL=info)', () => {
  let svc: Logged;
  let demoId: string;
  before(async () => {
    svc = await start({}, 'info');
    demoId = (await svc.service.store.listApiKeys())[0]!.id;
    await feedOne(svc.service);
  });
  after(() => svc.close());

  /** The one access line the request just made (every request writes exactly one). */
  async function lineOf(request: () => Promise<{ statusCode: number }>, status: number): Promise<Line> {
    const before = svc.access().length;
    const res = await request();
    assert.equal(res.statusCode, status);
    const lines = svc.access().slice(before);
    assert.equal(lines.length, 1, `one line per request, got ${JSON.stringify(lines)}`);
    return lines[0]!;
  }

  test('a 200 on a key route: method, route pattern, path, status, duration, key id, client address at info', async () => {
    const line = await lineOf(
      () => get(svc.service, '/v1/events/al-1/odds?format=american', { 'x-api-key': DEMO }),
      200,
    );
    assert.equal(line.level, 30, 'info');
    assert.equal(line.method, 'GET');
    assert.equal(line.route, '/v1/events/:eventId/odds');
    assert.equal(line.path, '/v1/events/al-1/odds', 'the path, without the query string');
    assert.equal(line.status, 200);
    assert.equal(typeof line.ms, 'number');
    assert.ok(line.ms! >= 0 && line.ms! < 10_000, String(line.ms));
    assert.equal(line.key, demoId);
    assert.match(demoId, /^demo-/, 'the id, not the secret');
    assert.equal(line.ip, '127.0.0.1');
    assert.equal(typeof line.reqId, 'string');
  });

  test('a 404 of a key route carries the key id; an unknown path has no route', async () => {
    const missing = await lineOf(() => get(svc.service, '/v1/events/nope', { 'x-api-key': DEMO }), 404);
    assert.deepEqual(
      [missing.route, missing.path, missing.status, missing.key],
      ['/v1/events/:eventId', '/v1/events/nope', 404, demoId],
    );
    const unknown = await lineOf(() => get(svc.service, '/no/such/thing'), 404);
    assert.equal(unknown.route, null);
    assert.equal(unknown.path, '/no/such/thing');
    assert.equal(unknown.key, undefined);
  });

  test('a 401 (no key, a wrong key, a key in the query string) has no key id and no secret', async () => {
    const none = await lineOf(() => get(svc.service, '/v1/events'), 401);
    assert.equal(none.status, 401);
    assert.equal(none.key, undefined);
    assert.equal(none.route, '/v1/events');
    const wrong = await lineOf(() => get(svc.service, '/v1/events', { 'x-api-key': WRONG }), 401);
    assert.equal(wrong.key, undefined);
    const query = await lineOf(() => get(svc.service, `/v1/events?api_key=${WRONG}&limit=1`), 401);
    assert.equal(query.path, '/v1/events');
    const admin = await lineOf(() => get(svc.service, '/metrics', { 'x-admin-key': WRONG }), 401);
    assert.equal(admin.route, '/metrics');
  });

  test('a 500 is logged with its key id, and its access line shares the reqId of the error line', async () => {
    const usage = svc.service.usage as { snapshot: (...args: unknown[]) => Promise<unknown> };
    const real = usage.snapshot;
    usage.snapshot = () => Promise.reject(new Error('usage store on fire'));
    let line: Line;
    try {
      line = await lineOf(() => get(svc.service, '/v1/usage', { 'x-api-key': DEMO }), 500);
    } finally {
      usage.snapshot = real;
    }
    assert.deepEqual([line.route, line.status, line.key], ['/v1/usage', 500, demoId]);
    const failure = svc.lines.map((l) => JSON.parse(l) as Line).find((l) => l.msg === 'request failed');
    assert.ok(failure, 'the error handler logged the failure');
    assert.equal(failure.reqId, line.reqId);
  });

  test('admin and public routes, POST included, get a line too', async () => {
    const feed = await lineOf(
      () =>
        svc.service.app.inject({
          method: 'POST',
          url: '/admin/v1/feed',
          headers: { 'x-admin-key': ADMIN, 'content-type': 'application/x-ndjson' },
          payload: JSON.stringify(fixture('al-2')),
        }),
      200,
    );
    assert.deepEqual([feed.method, feed.route, feed.status, feed.key], ['POST', '/admin/v1/feed', 200, undefined]);
    const status = await lineOf(() => get(svc.service, '/v1/status'), 200);
    assert.equal(status.route, '/v1/status');
  });

  test('a stream its client closes gets one line, as long as it was open, and is counted, not timed', async () => {
    await svc.service.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = svc.service.app.server.address() as AddressInfo;
    const streamLines = (): Line[] => svc.access().filter((l) => l.route === '/v1/stream');
    const metric = async (pattern: RegExp): Promise<string | undefined> => {
      const res = await get(svc.service, '/metrics', { 'x-admin-key': ADMIN });
      return res.body.split('\n').find((l) => pattern.test(l));
    };

    // The client goes away: Fastify finishes only responses that end, so this one was never logged.
    const aborted = new AbortController();
    const res = await fetch(`http://127.0.0.1:${port}/v1/stream?api_key=${DEMO}&types=score`, {
      signal: aborted.signal,
    });
    assert.equal(res.status, 200);
    await new Promise((r) => setTimeout(r, 300));
    aborted.abort();
    await until('the stream closed by its client is logged', () => streamLines().length === 1);
    const line = streamLines()[0]!;
    assert.deepEqual([line.method, line.path, line.status, line.key], ['GET', '/v1/stream', 200, demoId]);
    assert.ok(line.ms! >= 250, `the line's ms is how long the stream was open: ${line.ms}`);

    assert.match((await metric(/^http_requests_total\{route="\/v1\/stream",method="GET",status="200"\}/)) ?? '', / 1$/);
    assert.equal(
      await metric(/^http_request_duration_seconds_count\{route="\/v1\/stream"\}/),
      undefined,
      "a stream's hours are not request latency (the stream_* metrics cover them)",
    );
  });

  test('no secret sent in any header or the query string appears in the log', () => {
    const output = svc.lines.join('');
    assert.ok(svc.access().length >= 10, 'the lines were captured');
    for (const secret of [DEMO, ADMIN, WRONG]) assert.ok(!output.includes(secret), secret.slice(0, 14));
  });
});

describe('access log of a stream the service closes', () => {
  test('shutting down: the open stream gets its one line, status 200', async () => {
    const svc2 = await start({}, 'info');
    await svc2.service.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = svc2.service.app.server.address() as AddressInfo;
    const res = await fetch(`http://127.0.0.1:${port}/v1/stream?types=score`, { headers: { 'x-api-key': DEMO } });
    assert.equal(res.status, 200);
    const reader = res.body!.getReader();
    const drained = (async () => {
      while (!(await reader.read()).done);
    })();
    await svc2.close();
    await drained;
    const lines = svc2.access().filter((l) => l.route === '/v1/stream');
    assert.equal(lines.length, 1, JSON.stringify(lines));
    assert.deepEqual([lines[0]!.path, lines[0]!.status], ['/v1/stream', 200]);
  });
});

describe('access log off', () => {
  test('ACCESS_LOG=off: no access lines, errors still logged', async () => {
    const svc = await start({ ACCESS_LOG: 'off' }, 'info');
    try {
      assert.equal((await get(svc.service, '/v1/events', { 'x-api-key': DEMO })).statusCode, 200);
      assert.equal((await get(svc.service, '/v1/events')).statusCode, 401);
      const usage = svc.service.usage as { snapshot: (...args: unknown[]) => Promise<unknown> };
      usage.snapshot = () => Promise.reject(new Error('usage store on fire'));
      assert.equal((await get(svc.service, '/v1/usage', { 'x-api-key': DEMO })).statusCode, 500);
      assert.deepEqual(svc.access(), []);
      assert.match(svc.lines.join(''), /usage store on fire/);
    } finally {
      await svc.close();
    }
  });

  test('LOG_LEVEL above info (warn) hides the access lines', async () => {
    const svc = await start({}, 'warn');
    try {
      assert.equal((await get(svc.service, '/v1/events', { 'x-api-key': DEMO })).statusCode, 200);
      assert.equal((await get(svc.service, '/v1/events/nope', { 'x-api-key': DEMO })).statusCode, 404);
      assert.deepEqual(svc.access(), []);
    } finally {
      await svc.close();
    }
  });

  test('LOG_LEVEL=debug shows them', async () => {
    const svc = await start({}, 'debug');
    try {
      assert.equal((await get(svc.service, '/v1/events', { 'x-api-key': DEMO })).statusCode, 200);
      assert.equal(svc.access().length, 1);
    } finally {
      await svc.close();
    }
  });

  test('ACCESS_LOG is on by default, on/off (or true/false), anything else is a clear error', () => {
    assert.equal(loadConfig({}).accessLog, true);
    assert.equal(loadConfig({ ACCESS_LOG: 'on' }).accessLog, true);
    assert.equal(loadConfig({ ACCESS_LOG: 'off' }).accessLog, false);
    assert.equal(loadConfig({ ACCESS_LOG: 'false' }).accessLog, false);
    assert.throws(
      () => loadConfig({ ACCESS_LOG: 'yes please' }),
      (err: unknown) => err instanceof ConfigError && /ACCESS_LOG must be one of on, off/.test(err.message),
    );
  });
});
