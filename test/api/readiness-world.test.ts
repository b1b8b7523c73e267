// Not ready until the world is in: with the built-in simulator, /readyz and /v1/status wait for its first world instead of serving 1 sport and 0 live events.
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { startService, type TestService } from '../helpers/service.js';
import { untilProgress } from '../helpers/until.js';
import { anyOf, cpuBudget, worldBudget, worldOf, working, type WorldReadings } from '../helpers/world-progress.js';

/** The world must be in before it has played this long past its start (world ms; SIM_SPEED=1). */
const WORLD_BUDGET_MS = 10 * 60_000;
/** CPU the process may use building and applying the world (~20 s on an idle machine). */
const LOAD_CPU_BUDGET_MS = 180_000;
/** Loading has stopped when for this long (wall ms) no batch came and the process did not work. */
const STALL_MS = 30_000;
/**
 * Every sport and fixture of the default world (three batches of up to 2,000 messages, so ready must
 * wait past the first), with full books a day ahead instead of a week: 38,000 markets instead of
 * 94,000 to build and store.
 */
const WORLD = {
  env: { FEED: 'simulator', SIM_SEED: '7' },
  options: { simulator: { fullMarketsLeadMs: 24 * 3_600_000 } },
};

interface Status {
  status: string;
  active_sports: number;
  live_events: number;
  prematch_events: number;
}

describe('readiness while the simulated world loads', () => {
  let svc: TestService;
  let world: WorldReadings;

  before(async () => {
    // The worker runs the world on the wall clock from where the (injected, still) clock started:
    // start it at the wall's now, or it would first play every day since T0.
    svc = await startService({ ...WORLD, now: Date.now() });
    world = worldOf(svc.service);
  });
  after(async () => {
    await svc.close();
  });

  it('answers 503 loading and status starting until the first world is applied, then ready with that world', async () => {
    // /v1/status is limited to 2 a second per caller: asked once while loading, once when ready.
    const before = await svc.inject<Status>('GET', '/v1/status', { key: null });
    const probes: number[] = [];
    // Probes 100 ms apart for as long as the world comes in (3-20 s, longer on a loaded machine):
    // bounded by the work, not the wall: CPU spent on it, and the world in long before it has played 10 minutes.
    await untilProgress(
      'ready',
      async () => {
        const ready = await svc.inject('GET', '/readyz', { key: null });
        probes.push(ready.status);
        if (ready.status === 200) return true;
        assert.equal(ready.status, 503, ready.text);
        assert.deepEqual(ready.body, { status: 'loading' });
        return false;
      },
      {
        progress: working(world),
        stallMs: STALL_MS,
        exhausted: anyOf(cpuBudget(LOAD_CPU_BUDGET_MS, 'not ready'), worldBudget(world, WORLD_BUDGET_MS)),
        pollMs: 100,
      },
    );
    assert.equal(probes[0], 503, 'the service said ready before its world had arrived');
    assert.equal(before.status, 200, before.text);
    assert.equal(before.body.status, 'starting');
    assert.equal(probes[probes.length - 1], 200, `never ready after ${probes.length} probes`);
    // A new second of the (injected, still) wall clock for /v1/status's per-caller limit.
    svc.clock.advance(1000);
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
    const again = await startService({ ...WORLD, dataDir, now: Date.now() });
    try {
      const ready = await again.inject('GET', '/readyz', { key: null });
      assert.equal(ready.status, 200, ready.text);
    } finally {
      await again.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
