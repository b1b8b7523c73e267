// Operational endpoints: /v1/status, /v1/health (200/503), /livez, /readyz, /metrics, /openapi.json and /docs.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  ADMIN_KEY,
  at,
  DEMO_KEY,
  feedOk,
  fixture,
  HOUR,
  liveEventMessages,
  markets,
  odds,
  SEL,
  startService,
  T0,
  status,
  type TestService,
} from '../helpers/service.js';
import type { ErrorBody } from '../helpers/payloads.js';

interface Health {
  status: string;
  version: string;
  uptime_seconds: number;
  timestamp: string;
  services: {
    datastore: { status: string; latency_ms: number };
    data_pipeline: { status: string; last_update_seconds_ago: number; total_events: number };
  };
}

interface ApiStatus {
  status: string;
  version: string;
  data_freshness_ms: number;
  active_sports: number;
  live_events: number;
  prematch_events: number;
  world_time: string;
  world_speed: number;
}

/** Every /v1 path the service serves (interface.md + decisions.md); openapi.json must list each. */
const V1_PATHS = [
  '/v1/events',
  '/v1/events/featured',
  '/v1/events/batch',
  '/v1/events/{eventId}',
  '/v1/events/{eventId}/odds',
  '/v1/events/{eventId}/result',
  '/v1/live',
  '/v1/leagues',
  '/v1/sports',
  '/v1/scores',
  '/v1/health',
  '/v1/status',
];

describe('status, health and probes', () => {
  let svc: TestService;
  before(async () => {
    svc = await startService();
  });
  after(() => svc.close());

  test('/v1/status is public and reports the API status', async () => {
    await feedOk(svc, [
      fixture('live', { start_time: at(-HOUR) }),
      status('live', 'live'),
      fixture('pre'),
      fixture('nba', { sport: 'basketball', league: { slug: 'usa-nba', name: 'NBA', country: 'United States' } }),
    ]);
    for (const key of [null, 'not-a-key', DEMO_KEY]) {
      // A second apart: /v1/status allows 2 requests a second per caller.
      svc.clock.advance(1000);
      const res = await svc.get<ApiStatus>('/v1/status', { key });
      assert.equal(res.status, 200, `key ${String(key)}`);
      assert.deepEqual(res.body, {
        status: 'operational',
        version: '1.0.0',
        data_freshness_ms: svc.clock.now() - T0,
        active_sports: 2,
        live_events: 1,
        prematch_events: 2,
        world_time: new Date(svc.clock.now()).toISOString(),
        world_speed: 1,
      });
    }
    svc.clock.advance(1500);
    assert.equal((await svc.get<ApiStatus>('/v1/status', { key: null })).body.data_freshness_ms, 4500);
  });

  test('/v1/health answers 200 with the health report when healthy', async () => {
    svc.clock.advance(57_000);
    const res = await svc.get<Health>('/v1/health');
    assert.equal(res.status, 200, res.text);
    const h = res.body;
    assert.deepEqual(Object.keys(h).sort(), ['services', 'status', 'timestamp', 'uptime_seconds', 'version']);
    assert.equal(h.status, 'healthy');
    assert.equal(h.version, '1.0.0');
    assert.equal(h.uptime_seconds, 61);
    assert.equal(h.timestamp, new Date(svc.clock.now()).toISOString());
    assert.equal(h.services.datastore.status, 'connected');
    assert.ok(Number.isInteger(h.services.datastore.latency_ms) && h.services.datastore.latency_ms >= 0);
    assert.equal(h.services.data_pipeline.status, 'active');
    assert.equal(h.services.data_pipeline.last_update_seconds_ago, 61);
    assert.equal(h.services.data_pipeline.total_events, 3);
  });

  test('/v1/health is 503 degraded when a live game has not been updated for too long', async () => {
    svc.clock.advance(120_000);
    const res = await svc.get<Health>('/v1/health');
    assert.equal(res.status, 503, res.text);
    assert.equal(res.body.status, 'degraded');
    assert.equal(res.body.services.data_pipeline.status, 'stale');
    assert.equal(res.body.services.datastore.status, 'connected');
    await feedOk(svc, [{ type: 'score', event_id: 'live', score: { home: 1, away: 0 } }]);
    svc.clock.advance(1000);
    const recovered = await svc.get<Health>('/v1/health');
    assert.equal(recovered.status, 200);
    assert.equal(recovered.body.services.data_pipeline.last_update_seconds_ago, 1);
  });

  test('/livez and /readyz need no key and answer tiny bodies', async () => {
    const live = await svc.get('/livez', { key: null });
    assert.equal(live.status, 200);
    assert.deepEqual(live.body, { status: 'ok' });
    const ready = await svc.get('/readyz', { key: null });
    assert.equal(ready.status, 200);
    assert.deepEqual(ready.body, { status: 'ready' });
  });

  test('/metrics needs the admin key; a client key is not enough', async () => {
    const attempts: Array<Record<string, string>> = [{}, { 'x-admin-key': 'wrong' }, { 'x-admin-key': DEMO_KEY }];
    for (const headers of attempts) {
      const res = await svc.get<ErrorBody>('/metrics', { key: DEMO_KEY, headers });
      assert.equal(res.status, 401, JSON.stringify(headers));
      assert.equal(res.body.error, 'unauthorized');
    }
    const res = await svc.get('/metrics', { key: null, headers: { 'x-admin-key': ADMIN_KEY } });
    assert.equal(res.status, 200);
    assert.match(String(res.headers['content-type']), /^text\/plain/);
    for (const name of [
      'http_requests_total',
      'http_request_duration_seconds',
      'feed_lag_seconds',
      'read_model_events',
    ]) {
      assert.ok(res.text.includes(name), name);
    }
    assert.match(res.text, /http_requests_total\{[^}]*route="\/v1\/status"[^}]*\} \d+/);
  });
});

describe('payload metrics', () => {
  let svc: TestService;
  before(async () => {
    svc = await startService();
  });
  after(() => svc.close());

  test('/metrics counts whole payload builds apart from in-place refreshes after a price tick', async () => {
    const gauge = async (name: string): Promise<number> => {
      const res = await svc.get('/metrics', { key: null, headers: { 'x-admin-key': ADMIN_KEY } });
      const m = new RegExp(`^${name} (\\d+)$`, 'm').exec(res.text);
      assert.ok(m, `${name} in /metrics`);
      return Number(m[1]);
    };
    await feedOk(svc, liveEventMessages('pm1'));
    const before = {
      builds: await gauge('read_model_payload_builds'),
      refreshes: await gauge('read_model_payload_refreshes'),
    };
    assert.equal((await svc.get('/v1/events/pm1/odds')).status, 200);
    assert.equal((await svc.get('/v1/events/pm1/odds')).status, 200);
    assert.equal(await gauge('read_model_payload_builds'), before.builds + 1, 'built once, then served as cached');
    assert.ok((await gauge('read_model_payload_built_bytes')) > 0);
    assert.ok((await gauge('read_model_payload_cache_bytes')) > 0);
    await feedOk(svc, [odds('pm1', [{ selection_id: SEL.home, odds: 7.25 }])]);
    const res = await svc.get<{ markets: Array<{ outcomes: Array<{ odds: number }> }> }>('/v1/events/pm1/odds');
    assert.ok(JSON.stringify(res.body).includes('7.25'));
    assert.equal(await gauge('read_model_payload_builds'), before.builds + 1, 'a price tick does not rebuild');
    assert.equal(await gauge('read_model_payload_refreshes'), before.refreshes + 1);
    assert.ok((await gauge('read_model_payload_pool_allocated_bytes')) >= 0);
  });
});

describe('health when the store is unreachable', () => {
  let svc: TestService;
  before(async () => {
    svc = await startService();
  });
  after(() => svc.close());

  test('/v1/health is 503 with datastore disconnected, /readyz 503, /livez still 200', async () => {
    assert.equal((await svc.get('/v1/health')).status, 200);
    await svc.service.store.close();
    svc.clock.advance(1000);
    const res = await svc.get<Health>('/v1/health');
    assert.equal(res.status, 503, res.text);
    assert.equal(res.body.status, 'degraded');
    assert.equal(res.body.services.datastore.status, 'disconnected');
    const ready = await svc.get('/readyz', { key: null });
    assert.equal(ready.status, 503);
    assert.deepEqual(ready.body, { status: 'not_ready' });
    assert.equal((await svc.get('/livez', { key: null })).status, 200);
  });

  test('requests that need the store answer 503 service_unavailable naming the component', async () => {
    // A key not seen before must be looked up in the store.
    const unknownKey = await svc.get<ErrorBody>('/v1/events', { key: 'never-seen-key' });
    assert.equal(unknownKey.status, 503, unknownKey.text);
    assert.equal(unknownKey.body.error, 'service_unavailable');
    assert.equal(typeof unknownKey.body.component, 'string');
    // Results of events not in memory come from the store.
    const res = await svc.get<ErrorBody>('/v1/events/archived-event/result');
    assert.equal(res.status, 503, res.text);
    assert.equal(res.body.error, 'service_unavailable');
    assert.equal(typeof res.body.component, 'string');
    // Live data does not wait on the store.
    assert.equal((await svc.get('/v1/events')).status, 200);
  });
});

describe('API description', () => {
  let svc: TestService;
  before(async () => {
    svc = await startService();
  });
  after(() => svc.close());

  test('/openapi.json is OpenAPI 3.1 and lists every /v1 path', async () => {
    const res = await svc.get<{ openapi: string; info: { version: string }; paths: Record<string, unknown> }>(
      '/openapi.json',
      { key: null },
    );
    assert.equal(res.status, 200);
    assert.match(res.body.openapi, /^3\.1\./);
    assert.equal(res.body.info.version, '1.0.0');
    const paths = Object.keys(res.body.paths);
    for (const p of V1_PATHS) assert.ok(paths.includes(p), `openapi.json lacks ${p}`);
  });

  test('every /v1 path of openapi.json is served (nothing documented that does not exist)', async () => {
    const doc = (await svc.get<{ paths: Record<string, Record<string, unknown>> }>('/openapi.json', { key: null }))
      .body;
    for (const [path, ops] of Object.entries(doc.paths)) {
      if (!path.startsWith('/v1/')) continue;
      for (const method of Object.keys(ops)) {
        // An accepted stream never ends (inject would wait for ever): a bad filter still shows it is served.
        const url = path === '/v1/stream' ? '/v1/stream?types=-' : path.replace(/\{[^}]+\}/g, 'x');
        const res = await svc.inject<ErrorBody>(
          method.toUpperCase(),
          url,
          method === 'post' ? { body: { ids: ['x'] } } : {},
        );
        const unknownRoute = res.status === 404 && res.body.message.startsWith('no endpoint');
        assert.ok(!unknownRoute, `${method.toUpperCase()} ${url}: ${res.text}`);
      }
    }
  });

  test('/docs serves the HTML documentation without a key', async () => {
    const res = await svc.get('/docs', { key: null });
    assert.equal(res.status, 200);
    assert.match(String(res.headers['content-type']), /^text\/html/);
    assert.match(res.text, /<html/i);
  });
});

describe('a fresh service without a feed', () => {
  test('/v1/health is 200 healthy while nothing has arrived: silence is only stale when games are live', async () => {
    const svc = await startService();
    try {
      svc.clock.advance(10 * 60_000);
      const res = await svc.get<Health>('/v1/health');
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.status, 'healthy');
      assert.equal(res.body.services.data_pipeline.status, 'active');
      assert.equal(res.body.services.data_pipeline.last_update_seconds_ago, 600);
      assert.equal(res.body.services.data_pipeline.total_events, 0);
      await feedOk(svc, [fixture('a')]);
      svc.clock.advance(1000);
      const after = (await svc.get<Health>('/v1/health')).body.services.data_pipeline;
      assert.deepEqual([after.status, after.last_update_seconds_ago, after.total_events], ['active', 1, 1]);
    } finally {
      await svc.close();
    }
  });
});

describe('feed data shows in status counts', () => {
  test('prematch and live counts follow kick-off', async () => {
    const svc = await startService();
    try {
      await feedOk(svc, [fixture('a'), markets('a')]);
      assert.equal((await svc.get<ApiStatus>('/v1/status', { key: null })).body.prematch_events, 1);
      await feedOk(svc, [status('a', 'live')]);
      svc.clock.advance(1000);
      const s = (await svc.get<ApiStatus>('/v1/status', { key: null })).body;
      assert.equal(s.prematch_events, 0);
      assert.equal(s.live_events, 1);
    } finally {
      await svc.close();
    }
  });
});
