// Fault: PostgreSQL stalls (every connection held, nothing refused): health says 503 datastore within its own deadline while it does, readiness too, and 200 again once it answers.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestSchema, postgresSkip, type TestSchema } from '../helpers/postgres.js';
import { startService, type TestService } from '../helpers/service.js';
import { StallProxy } from '../helpers/stall-proxy.js';
import { health, liveGame, untilHealthy } from './store-fault-kit.js';

const skip = await postgresSkip();
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
/** How long the database stalls. */
const STALL_MS = 5000;
/** Health's own deadline is about 1 s; the answer must come well before the stall ends. */
const ANSWER_WITHIN_MS = 1500;

interface HealthView {
  status: string;
  component?: string;
  services: { datastore: { status: string } };
}

describe('fault: PostgreSQL stalls', { skip }, () => {
  let schema: TestSchema;
  let proxy: StallProxy;
  let svc: TestService | undefined;

  before(async () => {
    schema = await createTestSchema();
    const target = new URL(schema.url);
    proxy = await StallProxy.start(Number(target.port || 5432), target.hostname);
  });

  after(async () => {
    proxy?.resume();
    await svc?.close().catch(() => undefined);
    await proxy?.close();
    await schema?.drop();
  });

  it('health answers 503 datastore with Retry-After within its deadline while every connection is held, readiness 503, and 200 once it answers', async () => {
    // The service reaches the database through the proxy: a stall holds every connection of its pool.
    const url = new URL(schema.url);
    url.port = String(proxy.port);
    svc = await startService({ env: { DATABASE_URL: url.toString() } });
    await svc.feed(liveGame('s1'));
    assert.equal((await health(svc)).status, 200);

    proxy.stall();
    const stalledAt = performance.now();
    const resumed = sleep(STALL_MS).then(() => proxy.resume());
    const during: string[] = [];
    try {
      for (let i = 0; i < 3; i++) {
        const t0 = performance.now();
        svc.clock.advance(600); // health's own limit is 2 a second per caller; the key stays cached
        const h: { status: number; body: HealthView; text: string; headers: Record<string, unknown> } =
          await svc.get<HealthView>('/v1/health');
        const ms = Math.round(performance.now() - t0);
        during.push(`${h.status} ${h.body.component ?? '-'} ${ms} ms`);
        assert.ok(proxy.isStalled, 'the stall lasted through the check');
        assert.ok(ms <= ANSWER_WITHIN_MS, `health held ${ms} ms by a stalled database (its deadline is about 1 s)`);
        assert.equal(h.status, 503, `health during the stall: ${h.text}`);
        assert.equal(h.body.component, 'datastore');
        assert.equal(h.body.services.datastore.status, 'disconnected');
        assert.equal(h.headers['retry-after'], '1', 'Retry-After on the 503');
        // Reads from memory go on meanwhile.
        assert.equal((await svc.get('/v1/events/s1/odds')).status, 200);
      }
      const t0 = performance.now();
      const ready = await svc.get<{ status: string }>('/readyz', { key: null });
      const readyMs = Math.round(performance.now() - t0);
      assert.equal(ready.status, 503, ready.text);
      assert.ok(readyMs <= ANSWER_WITHIN_MS, `readiness held ${readyMs} ms`);
      during.push(`readyz ${ready.status} ${readyMs} ms`);
      assert.ok(proxy.isStalled, 'the stall lasted through the checks');
    } finally {
      await resumed;
    }
    const back = await untilHealthy(svc, 10_000);
    console.log(
      `FAULT-FIGURES postgres-stall: ${Math.round(performance.now() - stalledAt)} ms of stall and recovery: ` +
        `health during the stall [${during.join('; ')}]; 200 again ${back} ms after the database answered`,
    );
  });
});
