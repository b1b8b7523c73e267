// Not ready until the world is in: with the built-in simulator, /readyz and /v1/status wait for its first world instead of serving 1 sport and 0 live events.
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { startService, type TestService } from '../helpers/service.js';

interface Status {
  status: string;
  active_sports: number;
  live_events: number;
  prematch_events: number;
}

describe('readiness while the simulated world loads', () => {
  let svc: TestService;

  before(async () => {
    // The worker runs the world on the wall clock from where the (injected, still) clock started:
    // start it at the wall's now, or it would first play every day since T0.
    svc = await startService({ env: { FEED: 'simulator', SIM_SEED: '7' }, now: Date.now() });
  });
  after(async () => {
    await svc.close();
  });

  it('answers 503 loading and status starting until the first world is applied, then ready with that world', async () => {
    // /v1/status is limited to 2 a second per caller: asked once while loading, once when ready.
    const before = await svc.inject<Status>('GET', '/v1/status', { key: null });
    const probes: number[] = [];
    // Bounded: 1,200 probes 100 ms apart (2 minutes; the world takes 3-20 s, longer on a loaded machine).
    for (let i = 0; i < 1200; i++) {
      const ready = await svc.inject('GET', '/readyz', { key: null });
      probes.push(ready.status);
      if (ready.status === 200) break;
      assert.equal(ready.status, 503, ready.text);
      assert.deepEqual(ready.body, { status: 'loading' });
      await sleep(100);
    }
    assert.equal(probes[0], 503, 'the service said ready before its world had arrived');
    assert.equal(before.status, 200, before.text);
    assert.equal(before.body.status, 'starting');
    assert.equal(probes[probes.length - 1], 200, `never ready after ${probes.length} probes`);
    await sleep(1100);
    const status = await svc.inject<Status>('GET', '/v1/status', { key: null });
    assert.equal(status.status, 200, status.text);
    assert.equal(status.body.status, 'operational');
    // Ready means the world is there: many sports and events, not the first batch of it.
    assert.ok(status.body.active_sports >= 10, JSON.stringify(status.body));
    assert.ok(status.body.prematch_events + status.body.live_events >= 100, JSON.stringify(status.body));
  });

  it('stays ready afterwards', async () => {
    const ready = await svc.inject('GET', '/readyz', { key: null });
    assert.equal(ready.status, 200);
  });

  it('a restart holding the stored world is ready at once (its simulator only catches it up)', async () => {
    const dataDir = svc.dataDir;
    await svc.close({ keepDir: true });
    const again = await startService({ dataDir, env: { FEED: 'simulator', SIM_SEED: '7' }, now: Date.now() });
    try {
      const ready = await again.inject('GET', '/readyz', { key: null });
      assert.equal(ready.status, 200, ready.text);
    } finally {
      await again.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
