// The simulator worker feeding a real service: sports listed, live games, results, and not one rejected message.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../../../src/config.js';
import type { FeedMessage } from '../../../src/feed/messages.js';
import { startSimulatorWorker, type SimulatorWorkerHandle } from '../../../src/feed/simulator/index.js';
import { createService, type Service } from '../../../src/service.js';
import { untilProgress } from '../../helpers/until.js';
import { anyOf, CPU_STEP_MS, cpuBudget, cpuMs } from '../../helpers/world-progress.js';

const KEY = 'sim-worker-test-key';
const SPEED = 600;
/** World time by which games must have ended (5 world hours: 30 wall seconds at SPEED on an idle machine). */
const WORLD_BUDGET_MS = 5 * 3_600_000;
/** CPU the process may use building and applying the world it starts with (~20 s on an idle machine). */
const LOAD_CPU_BUDGET_MS = 180_000;
/** Stuck: for this long (wall ms) no batch came and the process did not work (CPU_STEP_MS of CPU). */
const STALL_MS = 30_000;

describe('simulator worker → pipeline', () => {
  let dir: string;
  let service: Service;
  let worker: SimulatorWorkerHandle;
  const errors: unknown[] = [];
  const rejections: string[] = [];
  let batches = 0;
  let largest = 0;
  /** How far the world the service was given has come (the latest message time applied). */
  let appliedTo = 0;
  let loaded = false;
  const startAt = Date.now();

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sim-worker-'));
    service = await createService(
      loadConfig({ DATA_DIR: dir, FEED: 'none', DEMO_API_KEY: KEY, DEMO_PLAN: 'unlimited', LOG_LEVEL: 'silent' }),
    );
    worker = startSimulatorWorker({
      seed: 42,
      speed: SPEED,
      startAt,
      wallStartAt: startAt,
      // A day of fixtures ahead, not two weeks of tier-1 books: every sport and the games under way
      // are there, the first world still takes two batches (3,700 messages), and the worker builds
      // it in half the CPU. The default world goes through the worker in the serve and bundle tests.
      config: { horizonHours: { 1: 24, 2: 24, 3: 24 } },
      onBatch: async (messages: FeedMessage[]) => {
        largest = Math.max(largest, messages.length);
        const outcomes = await service.pipeline.applyAll(messages);
        for (const m of messages) if (m.ts !== undefined) appliedTo = Math.max(appliedTo, Date.parse(m.ts));
        batches++;
        outcomes.forEach((o, i) => {
          if (!o.ok && rejections.length < 5)
            rejections.push(`${o.message} ← ${JSON.stringify(messages[i]).slice(0, 200)}`);
        });
      },
      onError: (err) => errors.push(err),
      onLoaded: () => {
        loaded = true;
      },
    });
  });

  after(async () => {
    await worker.stop();
    await service.close();
    await rm(dir, { recursive: true, force: true });
  });

  async function get<T>(url: string): Promise<T> {
    const res = await service.app.inject({ method: 'GET', url, headers: { 'x-api-key': KEY } });
    assert.equal(res.statusCode, 200, `${url}: ${res.body}`);
    return JSON.parse(res.body) as T;
  }

  it('lists the sports, shows live games and ends games with a result, rejecting nothing', async () => {
    // Not a wall deadline: how long the world takes to load and play depends on the machine. The
    // wait goes on while the process works, up to LOAD_CPU_BUDGET_MS of CPU for the world to load,
    // then until the world applied is WORLD_BUDGET_MS past its start.
    let sports = 0;
    let live = 0;
    let ended: Array<{ id: string }> = [];
    await untilProgress(
      'the sports, live games and ended games',
      async () => {
        sports = (await get<{ total: number }>('/v1/sports')).total;
        live = (await get<{ total: number }>('/v1/live?limit=1')).total;
        ended = (await get<{ events: Array<{ id: string }> }>('/v1/events?status=ended&limit=5')).events;
        return sports >= 17 && live > 0 && ended.length > 0;
      },
      {
        progress: () => `${batches}:${Math.floor(cpuMs() / CPU_STEP_MS)}`,
        stallMs: STALL_MS,
        exhausted: anyOf(
          cpuBudget(LOAD_CPU_BUDGET_MS, 'the world not loaded', () => !loaded),
          () =>
            loaded && appliedTo >= startAt + WORLD_BUDGET_MS
              ? `the world played ${WORLD_BUDGET_MS / 3_600_000} hours: ${sports} sports, ${live} live, ${ended.length} ended`
              : null,
        ),
        pollMs: 500,
      },
    );
    assert.ok(sports >= 17, `${sports} sports`);
    assert.ok(live > 0, 'live events');
    assert.ok(ended.length > 0, 'ended events');
    const result = await get<{ status: string; score: { home: number; away: number } }>(
      `/v1/events/${ended[0]!.id}/result`,
    );
    assert.equal(result.status, 'ended');
    assert.ok(Number.isInteger(result.score.home) && Number.isInteger(result.score.away));
    assert.deepEqual(rejections, []);
    assert.equal(service.pipeline.counters.rejected, 0);
    assert.deepEqual(errors, []);
    assert.ok(batches > 1 && largest <= 2_000, `${batches} batches, largest ${largest}`);
  });

  it('stops cleanly', async () => {
    await worker.stop();
    const before = batches;
    await new Promise((r) => setTimeout(r, 400));
    assert.equal(batches, before);
  });
});
