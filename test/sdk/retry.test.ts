// The SDK's 429 handling against a real service: Retry-After honoured with bounded retries; backoff and Retry-After parsing.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { backoffDelay, parseRetryAfter, seededRandom, SportsDataClient, SportsDataError } from '../../sdk/src/index.js';
import { keyOn } from '../helpers/usage.js';
import { startWorld, type SdkWorld } from './world.js';

const PLANS = JSON.stringify({
  one_per_second: { per_month: 1000, per_second: 1 },
  tiny: { per_month: 3, per_second: null },
});

describe('429 Retry-After', () => {
  let w: SdkWorld;
  before(async () => {
    w = await startWorld([], { env: { PLANS } });
  });
  after(() => w.svc.close());

  /** A client whose waits move the service's clock instead of the test's time. */
  function clientOn(key: string, retry: { maxRetries?: number; maxWaitMs?: number } = {}) {
    const waits: number[] = [];
    const client = new SportsDataClient({
      baseUrl: w.baseUrl,
      apiKey: key,
      retry: {
        ...retry,
        sleep: async (ms) => {
          waits.push(ms);
          w.svc.clock.advance(ms);
        },
      },
    });
    return { client, waits };
  }

  test('a per-second refusal is retried after Retry-After and succeeds', async () => {
    const { client, waits } = clientOn(await keyOn(w.svc, 'one_per_second'));
    await client.listSports();
    const sports = await client.listSports();
    assert.ok(Array.isArray(sports.sports));
    assert.deepEqual(waits, [1000]);
    const usage = await client.getUsage();
    assert.equal(usage.current.this_month, 3, 'two reads and this one; the refusal counted nothing');
  });

  test('retries are bounded: maxRetries 0 throws the 429 with its retryAfter', async () => {
    const { client, waits } = clientOn(await keyOn(w.svc, 'one_per_second'), { maxRetries: 0 });
    await client.listSports();
    const err = await client.listSports().catch((e: unknown) => e);
    assert.ok(err instanceof SportsDataError);
    assert.deepEqual([err.status, err.code, err.retryAfter], [429, 'rate_limited', 1]);
    assert.deepEqual(waits, []);
  });

  test('a Retry-After beyond maxWaitMs (an exhausted monthly quota) is thrown at once', async () => {
    const { client, waits } = clientOn(await keyOn(w.svc, 'tiny'));
    for (let i = 0; i < 3; i++) await client.listLeagues();
    const err = await client.listLeagues().catch((e: unknown) => e);
    assert.ok(err instanceof SportsDataError);
    assert.equal(err.status, 429);
    assert.match(err.message, /quota/);
    assert.ok((err.retryAfter ?? 0) * 1000 > 60_000);
    assert.deepEqual(waits, []);
  });
});

describe('backoff and Retry-After parsing', () => {
  test('backoff doubles from initialMs up to maxMs, with half of each step jittered', () => {
    const steps = [0, 1, 2, 3, 10].map((n) => backoffDelay(n, { initialMs: 100, maxMs: 1000, random: () => 0 }));
    assert.deepEqual(steps, [50, 100, 200, 400, 500]);
    assert.equal(backoffDelay(0, { initialMs: 100, random: () => 0.999999 }), 100);
  });

  test('a seeded random gives the same jitter every run, within the step', () => {
    const a = [0, 1, 2, 3].map((n) => backoffDelay(n, { random: seededRandom(42) }));
    const b = [0, 1, 2, 3].map((n) => backoffDelay(n, { random: seededRandom(42) }));
    assert.deepEqual(a, b);
    a.forEach((d, n) => assert.ok(d >= 250 * 2 ** n && d <= 500 * 2 ** n, `attempt ${n}: ${d}`));
  });

  test('Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2026-03-01T12:00:00Z');
    assert.equal(parseRetryAfter('7', now), 7);
    assert.equal(parseRetryAfter('Sun, 01 Mar 2026 12:00:30 GMT', now), 30);
    assert.equal(parseRetryAfter(null, now), null);
    assert.equal(parseRetryAfter('soon', now), null);
  });
});
