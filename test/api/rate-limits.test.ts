// 429 behaviour: per-second plan rates, the exhausted monthly quota, month rollover, warnings, health/status limits.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { ErrorBody } from '../helpers/payloads.js';
import { startService, type TestService } from '../helpers/service.js';
import { keyOn, TEST_PLANS, usageOf, warningsOf } from '../helpers/usage.js';

async function countRequests(svc: TestService, key: string, n: number, url = '/v1/sports'): Promise<void> {
  for (let i = 0; i < n; i++) {
    const res = await svc.get(url, { key });
    if (res.status === 429) throw new Error(`request ${i + 1} of ${n} to ${url} was refused: ${res.text}`);
  }
}

describe('per-second rate of a plan', () => {
  let svc: TestService;
  before(async () => {
    svc = await startService({ env: { PLANS: TEST_PLANS } });
  });
  after(() => svc.close());

  test('free: 5 requests in one second pass, the 6th is 429 rate_limited with Retry-After 1; nothing is counted for it', async () => {
    const key = await keyOn(svc, 'free');
    svc.clock.set('2026-03-05T10:00:00.200Z');
    for (let i = 0; i < 5; i++) assert.equal((await svc.get('/v1/sports', { key })).status, 200, `request ${i + 1}`);
    const refused = await svc.get<ErrorBody>('/v1/events', { key });
    assert.equal(refused.status, 429);
    assert.equal(refused.body.error, 'rate_limited');
    assert.match(refused.body.message, /5 requests per second/);
    assert.equal(refused.headers['retry-after'], '1');
    assert.equal(refused.headers['x-ratelimit-remaining'], '9995', 'the quota headers show the untouched quota');
    svc.clock.advance(800);
    const usage = await usageOf(svc, key);
    assert.equal(usage.current.this_month, 6, '5 requests and this usage read; the refusal took nothing');
  });

  test('/v1/usage/warnings is not counted but still keeps to the per-second rate', async () => {
    const key = await keyOn(svc, 'free');
    svc.clock.set('2026-03-05T11:00:00Z');
    for (let i = 0; i < 5; i++) assert.equal((await svc.get('/v1/usage/warnings', { key })).status, 200);
    assert.equal((await svc.get('/v1/usage/warnings', { key })).status, 429);
    svc.clock.advance(1000);
    assert.equal((await usageOf(svc, key)).current.this_month, 1);
  });

  test('a plan without a per-second rate is never refused for speed', async () => {
    const key = await keyOn(svc, 'meter');
    await countRequests(svc, key, 50);
  });
});

describe('exhausted monthly quota', () => {
  let svc: TestService;
  before(async () => {
    svc = await startService({ env: { PLANS: TEST_PLANS }, now: Date.parse('2026-03-31T23:59:58Z') });
  });
  after(() => svc.close());

  test('the 11th request of a 10-request plan is 429: "monthly quota exhausted", Retry-After until the month turns', async () => {
    const { key, secret } = await svc.service.keyAdmin.create({ name: 'tiny', plan: 'tiny', accountId: null });
    await countRequests(svc, secret, 10);
    const refused = await svc.get<ErrorBody>('/v1/events', { key: secret });
    assert.equal(refused.status, 429);
    assert.equal(refused.body.error, 'rate_limited');
    assert.match(refused.body.message, /monthly quota exhausted/);
    assert.match(refused.body.message, /2026-04-01T00:00:00.000Z/);
    assert.equal(refused.headers['retry-after'], '2');
    assert.equal(refused.headers['x-ratelimit-remaining'], '0');
    assert.equal(refused.headers['x-ratelimit-limit'], '10');

    // Every counted endpoint is refused, /v1/usage included; the uncounted ones still answer.
    assert.equal((await svc.get('/v1/usage', { key: secret })).status, 429);
    assert.equal((await svc.get('/v1/health', { key: secret })).status, 200);
    const warnings = await warningsOf(svc, secret);
    assert.deepEqual(
      warnings.map((w) => [w.level, w.percent]),
      [['blocked', 100]],
    );
    assert.match(warnings[0]?.message ?? '', /monthly quota exhausted/);
    const snap = await svc.service.usage.snapshot(key.id, svc.clock.now());
    assert.equal(snap.thisMonth, 10, 'refusals are not counted');

    // Blocked until the month turns (UTC), then whole again.
    svc.clock.set('2026-03-31T23:59:59.999Z');
    assert.equal((await svc.get('/v1/events', { key: secret })).status, 429);
    svc.clock.set('2026-04-01T00:00:00Z');
    const allowed = await svc.get('/v1/events', { key: secret });
    assert.equal(allowed.status, 200);
    assert.equal(allowed.headers['x-ratelimit-remaining'], '9');
    assert.equal(allowed.headers['x-ratelimit-reset'], String(Date.parse('2026-05-01T00:00:00Z') / 1000));
    assert.deepEqual(await warningsOf(svc, secret), []);
    const usage = await usageOf(svc, secret);
    assert.equal(usage.current.this_month, 2);
    assert.deepEqual(usage.daily, [{ date: '2026-04-01', requests: 2, errors: 0 }]);
  });
});

describe('usage warnings at their thresholds', () => {
  let svc: TestService;
  before(async () => {
    svc = await startService({ env: { PLANS: TEST_PLANS } });
  });
  after(() => svc.close());

  test('a 100-request plan: nothing at 49, info at 50, warning at 81, critical at 96, blocked at 100', async () => {
    const key = await keyOn(svc, 'hundred');
    const steps: Array<[number, string | null, number | null]> = [
      [49, null, null],
      [50, 'info', 50],
      [80, 'info', 80],
      [81, 'warning', 81],
      [95, 'warning', 95],
      [96, 'critical', 96],
      [99, 'critical', 99],
      [100, 'blocked', 100],
    ];
    let used = 0;
    for (const [target, level, percent] of steps) {
      await countRequests(svc, key, target - used);
      used = target;
      const warnings = await warningsOf(svc, key);
      assert.deepEqual(
        warnings.map((w) => [w.level, w.percent]),
        level === null ? [] : [[level, percent]],
        `at ${target}%`,
      );
    }
  });
});

describe('elevated error rate notice', () => {
  let svc: TestService;
  before(async () => {
    svc = await startService({ env: { PLANS: TEST_PLANS } });
  });
  after(() => svc.close());

  test('more than 20% of at least 50 requests of the last hour answered 4xx/5xx adds a warning', async () => {
    const key = await keyOn(svc, 'meter');
    await countRequests(svc, key, 39);
    await countRequests(svc, key, 11, '/v1/events/ghost');
    const [notice, ...rest] = await warningsOf(svc, key);
    assert.deepEqual(rest, []);
    assert.equal(notice?.level, 'warning');
    assert.match(notice?.message ?? '', /error rate/);
    svc.clock.advance(61 * 60_000);
    assert.deepEqual(await warningsOf(svc, key), [], 'an hour later the errors have left the window');
  });

  test('exactly 20%, or fewer than 50 requests, is no notice', async () => {
    const atTwenty = await keyOn(svc, 'meter');
    await countRequests(svc, atTwenty, 40);
    await countRequests(svc, atTwenty, 10, '/v1/events?limit=0');
    assert.deepEqual(await warningsOf(svc, atTwenty), []);
    const few = await keyOn(svc, 'meter');
    await countRequests(svc, few, 49, '/v1/events/ghost');
    assert.deepEqual(await warningsOf(svc, few), []);
  });
});

describe('/v1/health and /v1/status: 2 per second and 120 per hour per caller', () => {
  let svc: TestService;
  before(async () => {
    svc = await startService({ env: { PLANS: TEST_PLANS } });
  });
  after(() => svc.close());

  const status = (key: string | null, remoteAddress = '127.0.0.1') =>
    svc.service.app.inject({
      method: 'GET',
      url: '/v1/status',
      remoteAddress,
      headers: key === null ? {} : { 'x-api-key': key },
    });

  test('a third /v1/health in the same second is 429 with Retry-After; not counted, no quota headers', async () => {
    const key = await keyOn(svc, 'meter');
    svc.clock.set('2026-03-06T08:00:00.500Z');
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await svc.get<ErrorBody>('/v1/health', { key }));
    assert.deepEqual(
      answers.map((a) => a.status),
      [200, 200, 429],
    );
    const refused = answers[2]!;
    assert.equal(refused.body.error, 'rate_limited');
    assert.equal(refused.headers['retry-after'], '1');
    assert.match(refused.body.message, /2 requests per second and 120 per hour/);
    for (const a of answers) assert.equal(a.headers['x-ratelimit-limit'], undefined);
    assert.equal((await svc.get('/v1/status', { key: null })).status, 200, 'status has its own allowance');
    svc.clock.advance(500);
    assert.equal((await svc.get('/v1/health', { key })).status, 200);
    assert.equal((await usageOf(svc, key)).current.this_month, 1, 'only the usage read counted');
  });

  test('keyless /v1/status is limited per client address; a valid key gets its own allowance', async () => {
    svc.clock.set('2026-03-06T09:00:00Z');
    assert.deepEqual(
      [(await status(null, '10.0.0.1')).statusCode, (await status(null, '10.0.0.1')).statusCode],
      [200, 200],
    );
    const third = await status(null, '10.0.0.1');
    assert.equal(third.statusCode, 429);
    assert.equal(third.headers['retry-after'], '1');
    assert.equal((await status('not-a-key', '10.0.0.1')).statusCode, 429, 'an invalid key is just its address');
    assert.equal((await status(null, '10.0.0.2')).statusCode, 200);
    const key = await keyOn(svc, 'meter');
    assert.equal((await status(key, '10.0.0.1')).statusCode, 200);
    assert.equal((await status(key, '10.0.0.1')).statusCode, 200);
    assert.equal((await status(key, '10.0.0.3')).statusCode, 429, 'the key is the caller, wherever it calls from');
  });

  test('120 an hour: the 121st within the hour is refused until the first is an hour old', async () => {
    const key = await keyOn(svc, 'meter');
    const start = Date.parse('2026-03-07T00:00:00Z');
    svc.clock.set(start);
    for (let i = 0; i < 120; i++) {
      assert.equal((await svc.get('/v1/health', { key })).status, 200, `request ${i + 1}`);
      svc.clock.advance(1000);
    }
    const refused = await svc.get<ErrorBody>('/v1/health', { key });
    assert.equal(refused.status, 429);
    assert.equal(refused.headers['retry-after'], String(3600 - 120));
    svc.clock.set(start + 3_600_000);
    assert.equal((await svc.get('/v1/health', { key })).status, 200);
    assert.equal((await usageOf(svc, key)).current.this_month, 1);
  });

  test('/livez and /readyz are never limited', async () => {
    svc.clock.set('2026-03-08T00:00:00Z');
    for (let i = 0; i < 200; i++) {
      assert.equal((await svc.get('/livez', { key: null })).status, 200);
      assert.equal((await svc.get('/readyz', { key: null })).status, 200);
    }
  });
});

describe('keyless /v1/status behind a load balancer (TRUST_PROXY)', () => {
  const statusFrom = (svc: TestService, forwardedFor: string) =>
    svc.service.app.inject({
      method: 'GET',
      url: '/v1/status',
      remoteAddress: '10.1.1.1',
      headers: { 'x-forwarded-for': forwardedFor },
    });

  test('trusted: each forwarded client address has its own allowance', async () => {
    const svc = await startService({ env: { TRUST_PROXY: '1' } });
    try {
      for (let i = 0; i < 2; i++) assert.equal((await statusFrom(svc, '203.0.113.7')).statusCode, 200);
      assert.equal((await statusFrom(svc, '203.0.113.7')).statusCode, 429);
      assert.equal((await statusFrom(svc, '203.0.113.8')).statusCode, 200);
    } finally {
      await svc.close();
    }
  });

  test('not trusted (the default): X-Forwarded-For is ignored, the proxy is the caller', async () => {
    const svc = await startService();
    try {
      assert.equal((await statusFrom(svc, '203.0.113.7')).statusCode, 200);
      assert.equal((await statusFrom(svc, '203.0.113.8')).statusCode, 200);
      assert.equal((await statusFrom(svc, '203.0.113.9')).statusCode, 429);
    } finally {
      await svc.close();
    }
  });
});
