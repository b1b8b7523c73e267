// Fault: the store refuses commits while the simulator ends games; every refused result is sent again until accepted, and survives a restart.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { loadConfig } from '../../src/config.js';
import { isTerminal } from '../../src/domain/lifecycle.js';
import type { EventResult } from '../../src/domain/types.js';
import { createService, type Service } from '../../src/service.js';
import type { Store } from '../../src/store/store.js';
import { untilProgress } from '../helpers/until.js';
import { anyOf, cpuBudget, worldBudget, worldOf, working, type WorldReadings } from '../helpers/world-progress.js';

/** Simulated seconds per wall second: games end every few hundred milliseconds. */
const SIM_SPEED = '1200';
/** Minor tiers, half a day of fixtures ahead: the games that end soon, not days of books waiting to start. */
const SIM = { tiers: [2, 3] as Array<1 | 2 | 3>, horizonHours: { 1: 12, 2: 12, 3: 12 } };
/** World time within which the simulator ends enough games for a wait (30 wall seconds at SIM_SPEED on an idle machine). */
const WORLD_BUDGET_MS = 10 * 3_600_000;
/** CPU the process may use before the world's first message (building it: ~10 s on an idle machine). */
const LOAD_CPU_BUDGET_MS = 180_000;
/** Within WORLD_BUDGET_MS of the world once it runs; before it does, within LOAD_CPU_BUDGET_MS of CPU. */
const budget = (world: WorldReadings): (() => string | null) =>
  anyOf(
    cpuBudget(LOAD_CPU_BUDGET_MS, 'no world yet', () => world.at() === 0),
    worldBudget(world, WORLD_BUDGET_MS),
  );
/** A wait fails when its work has not moved for this long (wall ms): twice the retry queue's longest backoff (15 s). */
const STALL_MS = 30_000;

/**
 * Waits for what the simulated world brings (games that end) as long as the world goes on, until it
 * has played WORLD_BUDGET_MS: a deadline in world time, not in a machine's wall time.
 */
function untilTheWorld(what: string, check: () => boolean, world: WorldReadings): Promise<number> {
  return untilProgress(what, check, {
    progress: working(world),
    stallMs: STALL_MS,
    exhausted: budget(world),
    pollMs: 100,
  });
}

/**
 * Waits for the service's own work (retries, writes, settlement) to leave nothing: as long as what is
 * left or the world changes, within WORLD_BUDGET_MS of the world.
 */
function untilNoneLeft(what: string, left: () => Promise<number>, world: WorldReadings): Promise<number> {
  let n = -1;
  return untilProgress(
    what,
    async () => {
      n = await left();
      return n === 0;
    },
    {
      progress: () => `${n} left, ${working(world)()}`,
      stallMs: STALL_MS,
      exhausted: budget(world),
      pollMs: 100,
    },
  );
}

/** What a full disk answers: better-sqlite3's SQLITE_FULL. */
function diskFull(): Error {
  return Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
}

/**
 * Makes the service's own store refuse every write while `failing` is true (reads keep working, as
 * on a full disk), and records which results it refused and accepted.
 */
class FailingWrites {
  failing = false;
  /** Event id → result commits refused. */
  readonly refused = new Map<string, number>();
  /** Event id → result commits accepted. */
  readonly accepted = new Map<string, number>();

  constructor(store: Store) {
    const saveResult = store.saveResult.bind(store);
    store.saveResult = async (result: EventResult, batch) => {
      if (this.failing) {
        this.refused.set(result.eventId, (this.refused.get(result.eventId) ?? 0) + 1);
        throw diskFull();
      }
      await saveResult(result, batch);
      this.accepted.set(result.eventId, (this.accepted.get(result.eventId) ?? 0) + 1);
    };
    for (const name of ['writeBatch', 'saveTournament', 'saveOutrightMarket', 'settleOutrightMarket'] as const) {
      const original = (store[name] as (...a: unknown[]) => Promise<void>).bind(store);
      (store as unknown as Record<string, unknown>)[name] = async (...args: unknown[]): Promise<void> => {
        if (this.failing) throw diskFull();
        await original(...args);
      };
    }
  }
}

async function start(dataDir: string): Promise<Service> {
  const config = loadConfig({
    DATA_DIR: dataDir,
    FEED: 'simulator',
    SIM_SPEED,
    SIM_SEED: '11',
    ADMIN_KEY: 'fault-admin',
    DEMO_API_KEY: 'fault-demo',
    LOG_LEVEL: 'silent',
  });
  return createService(config, { simulator: SIM });
}

/** The `feed_retry_held` gauge of /metrics. */
async function retryHeld(service: Service): Promise<number> {
  const r = await service.app.inject({ method: 'GET', url: '/metrics', headers: { 'x-admin-key': 'fault-admin' } });
  assert.equal(r.statusCode, 200, r.body);
  const line = /^feed_retry_held (\d+)$/m.exec(r.body);
  assert.ok(line !== null, 'feed_retry_held is exported');
  return Number(line[1]);
}

/** Ids (of those given) whose result the store does not hold, or holds revised. */
async function missing(store: Store, ids: Iterable<string>): Promise<string[]> {
  const out: string[] = [];
  for (const id of ids) {
    const r = await store.getResult(id);
    if (r === null || r.revision !== 1) out.push(id);
  }
  return out;
}

async function unsettled(store: Store, ids: Iterable<string>): Promise<string[]> {
  const out: string[] = [];
  for (const id of ids) if ((await store.getSettlement(id)) === null) out.push(id);
  return out;
}

describe('fault: a producer’s messages are refused (store cannot commit)', () => {
  let dataDir = '';
  after(async () => {
    if (dataDir !== '') await rm(dataDir, { recursive: true, force: true });
  });

  it('retries every refused simulator result until the store takes it; nothing is lost across a restart', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'sds-fault-producer-'));
    let service = await start(dataDir);
    const faultA = new FailingWrites(service.store);
    const world = worldOf(service);
    try {
      await untilTheWorld('the first results', () => faultA.accepted.size >= 3, world);

      // Outage A: the store refuses every write for a while, then recovers; the service keeps running.
      faultA.failing = true;
      const outageStart = Date.now();
      await untilTheWorld('results refused during the outage', () => faultA.refused.size >= 5, world);
      // Long enough for a refused result to be sent again and refused again (the retries back off
      // from 250 ms): the outage outlasts the first retries.
      await untilTheWorld(
        'a result refused three times',
        () => [...faultA.refused.values()].some((n) => n >= 3),
        world,
      );
      // Operators see what waits to be sent again.
      assert.ok((await retryHeld(service)) > 0, 'feed_retry_held during the outage');
      faultA.failing = false;
      const outageMs = Date.now() - outageStart;
      const refusedA = [...faultA.refused.keys()];
      const refusedCallsA = [...faultA.refused.values()].reduce((a, b) => a + b, 0);
      const drainMs = await untilNoneLeft(
        'every refused result stored',
        async () => (await missing(service.store, refusedA)).length,
        world,
      );
      const settleMs = await untilNoneLeft(
        'every refused result settled',
        async () => (await unsettled(service.store, refusedA)).length,
        world,
      );
      await untilNoneLeft('nothing held any more', () => retryHeld(service), world);
      const acceptedA = refusedA.filter((id) => (faultA.accepted.get(id) ?? 0) > 0).length;
      assert.equal(acceptedA, refusedA.length);
      for (const id of refusedA) {
        const le = service.readModel.get(id);
        assert.ok(le === undefined || isTerminal(le.event.status), `${id} is final in the read model`);
      }

      // Outage B: the service is stopped while the store still refuses (what it held is gone), then
      // restarted on a store that works: the restarted world closes what was left open.
      const refusedBefore = new Set(faultA.refused.keys());
      faultA.failing = true;
      await untilTheWorld(
        'results refused during the second outage',
        () => faultA.refused.size >= refusedBefore.size + 3,
        world,
      );
      const refusedB = [...faultA.refused.keys()].filter((id) => !refusedBefore.has(id));
      await service.close();
      faultA.failing = false;
      service = await start(dataDir);
      const restarted = worldOf(service);
      const restartMs = await untilNoneLeft(
        'results refused before the restart stored',
        async () => (await missing(service.store, refusedB)).length,
        restarted,
      );
      await untilNoneLeft('…and settled', async () => (await unsettled(service.store, refusedB)).length, restarted);
      assert.deepEqual(await missing(service.store, refusedA), [], 'outage A results still there, never revised');
      // No result of any finished simulator event was revised by the restart (walkovers included).
      const finals = [...service.readModel.all()].filter((le) => isTerminal(le.event.status)).map((le) => le.event.id);
      assert.ok(finals.length > 20, `${finals.length} finished events`);
      const revised = await missing(service.store, finals);
      assert.deepEqual(revised, [], 'every finished event has its first result, unrevised');

      console.log(
        `FAULT-FIGURES producer-retry: outage A (${outageMs} ms, SIM_SPEED ${SIM_SPEED}): ${refusedA.length} results refused ` +
          `(${refusedCallsA} refused commits: first tries and retries), ${acceptedA} accepted after recovery, lost 0, ` +
          `drained ${drainMs} ms after recovery, settled ${settleMs} ms later; ` +
          `outage B (stopped during it): ${refusedB.length} results refused, ${refusedB.length} stored by the restarted world ${restartMs} ms after its start, lost 0; ${finals.length} finished events checked, revisions 0`,
      );
    } finally {
      await service.close();
    }
  });
});
