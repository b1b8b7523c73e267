// Composes the service: store, read model, pipeline, key checks, metrics and the HTTP app.
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { buildApp } from './api/app.js';
import { API_VERSION, type ApiContext } from './api/context.js';
import { KeyAdmin } from './api/key-admin.js';
import { ensureApiKey, generateApiKey, hashApiKey, KeyAuthenticator } from './api/keys.js';
import { teamLogoSource } from './api/logo-source.js';
import { ApiMetrics } from './api/metrics.js';
import type { UsageCounter } from './api/quota/counter.js';
import { MemoryCallerLimiter } from './api/quota/memory-callers.js';
import { MemoryUsageCounter } from './api/quota/memory-counter.js';
import type { Config } from './config.js';
import { acceleratedClock } from './domain/clock.js';
import { PlanBook } from './domain/quota.js';
import { isTerminal } from './domain/lifecycle.js';
import { startSimulatorWorker } from './feed/simulator/index.js';
import { LocalChangeBus } from './live/change-bus.js';
import type { OutrightBook } from './live/outright-book.js';
import { ReadModel } from './live/read-model.js';
import { SettlementIndex } from './live/settlement-index.js';
import { catalogGrader } from './pipeline/settlement/catalog-grader.js';
import { SettlementEngine } from './pipeline/settlement/engine.js';
import { Pipeline } from './pipeline/pipeline.js';
import { portalPlugin } from './portal/plugin.js';
import { openPostgresStore } from './store/postgres-store.js';
import { openSqliteStore } from './store/sqlite-store.js';
import type { Store } from './store/store.js';

export interface ServiceOptions {
  /** Injected wall clock (tests); defaults to Date.now. */
  now?: () => number;
  /** A pino logger, or none (tests). */
  logger?: Logger;
}

export interface Service {
  config: Config;
  app: FastifyInstance;
  readModel: ReadModel;
  pipeline: Pipeline;
  settlement: SettlementEngine;
  store: Store;
  bus: LocalChangeBus;
  /** Key management effective at once on this node (the portal, tests). */
  keyAdmin: KeyAdmin;
  /** The quota counters (tests flush them). */
  usage: UsageCounter;
  /** The demo key's secret when this start created it (printed once), else null. */
  demoKeyCreated: string | null;
  /** Stops the app (finishing in-flight requests), flushes the pipeline, closes the store. */
  close(): Promise<void>;
}

/** The configured store, migrated: PostgreSQL with DATABASE_URL (rejects when it does not answer), else the embedded file. */
export async function openStore(config: Config): Promise<Store> {
  if (config.databaseUrl !== null) {
    return openPostgresStore({ url: config.databaseUrl, poolSize: config.databasePoolSize });
  }
  return openSqliteStore({ dataDir: config.dataDir });
}

/** The world time the store last heard of: event updates, outright prices and results. */
function latestUpdate(readModel: ReadModel, outrights: OutrightBook): number {
  let latest = 0;
  for (const le of readModel.all()) latest = Math.max(latest, le.event.updatedAt);
  for (const t of outrights.tournaments.values()) {
    for (const m of t.markets.values()) latest = Math.max(latest, m.updatedAt);
    for (const r of t.results.values()) latest = Math.max(latest, r.settledAt);
  }
  return latest;
}

/** Simulator outright markets still unsettled from an earlier run: the simulator settles those that are over. */
function openSimulatorOutrights(outrights: OutrightBook): Map<string, number[]> {
  const open = new Map<string, number[]>();
  for (const t of outrights.tournaments.values()) {
    if (!t.tournamentId.startsWith('t-')) continue;
    const ids = [...t.markets.keys()].filter((id) => !t.results.has(id));
    if (ids.length > 0) open.set(t.tournamentId, ids);
  }
  return open;
}

/** Simulator events left open by an earlier run: the simulator closes those that are over. */
function openSimulatorEvents(readModel: ReadModel): Map<string, string> {
  const open = new Map<string, string>();
  for (const le of readModel.all()) {
    if (le.event.id.startsWith('sim-') && !isTerminal(le.event.status)) open.set(le.event.id, le.event.status);
  }
  return open;
}

const silentLog = { warn: () => undefined, error: () => undefined };

export async function createService(config: Config, opts: ServiceOptions = {}): Promise<Service> {
  const now = opts.now ?? Date.now;
  const startedAt = now();
  // With the simulator at SIM_SPEED > 1, event times are world times running ahead of the wall;
  // `worldNow` is set once the store tells where the world's clock stopped last time.
  const simulated = config.feed === 'simulator' && config.role !== 'api';
  let worldNow: () => number = now;
  const world = (): number => worldNow();
  const store = await openStore(config);
  let usage: MemoryUsageCounter | null = null;
  try {
    await store.migrate();
    const readModel = new ReadModel({ now: world });
    const bus = new LocalChangeBus();
    const pipeline = new Pipeline({
      readModel,
      store,
      bus,
      now: world,
      wallNow: now,
      flushIntervalMs: config.flushIntervalMs,
      endedRetentionMs: config.endedRetentionHours * 3_600_000,
      log: opts.logger ?? silentLog,
    });
    await pipeline.load();
    const settlementIndex = new SettlementIndex();
    const settlement = new SettlementEngine({
      store,
      readModel,
      bus,
      index: settlementIndex,
      grade: catalogGrader({
        tennisRetirement: config.tennisRetirementPolicy,
        walkover: config.walkoverPolicy,
        esportsForfeit: config.esportsForfeitPolicy,
      }),
      now: world,
      log: opts.logger ?? silentLog,
      resultOf: (id) => pipeline.result(id),
      batchSize: config.settlementBatchSize,
      voidAfterMs: () => config.voidAfterHours * 3_600_000,
      feedRetentionMs: config.settlementFeedDays * 86_400_000,
      statsTimeoutMs: config.statsTimeoutHours * 3_600_000,
    });
    // An accelerated world resumes where it stopped: its clock never goes back across restarts.
    const worldStartAt = simulated ? Math.max(startedAt, latestUpdate(readModel, pipeline.outrights)) : startedAt;
    if (simulated) worldNow = acceleratedClock(worldStartAt, startedAt, config.simSpeed, now);
    pipeline.start();
    await settlement.start();

    let demoKeyCreated: string | null = null;
    if (config.demoApiKey !== null) {
      const created = await ensureApiKey(store, config.demoApiKey, {
        id: `demo-${hashApiKey(config.demoApiKey).slice(0, 12)}`,
        name: 'demo',
        plan: config.demoPlan,
        now: now(),
      });
      if (created) demoKeyCreated = config.demoApiKey;
    } else if ((await store.listApiKeys()).length === 0) {
      // A fresh install gets one key so the quick start works; its secret is printed once.
      const secret = generateApiKey();
      await ensureApiKey(store, secret, {
        id: `demo-${hashApiKey(secret).slice(0, 12)}`,
        name: 'demo',
        plan: config.demoPlan,
        now: now(),
      });
      demoKeyCreated = secret;
    }

    const metrics = new ApiMetrics({
      feedLagSeconds: () => pipeline.lastLagMs / 1000,
      settlementBacklog: () => settlement.backlog,
      writeBehindBacklog: () => pipeline.backlog,
      readModelEvents: () => readModel.size,
      feedMessages: () => pipeline.counters.applied,
      feedRejected: () => pipeline.counters.rejected,
    });
    // Quota counters: this month's counts come back from the store; written every second and on close.
    usage = await MemoryUsageCounter.open({ store, ...(opts.logger ? { log: opts.logger } : {}) }, now());
    const plans = new PlanBook(config.plans);
    const keys = new KeyAuthenticator(store, now);
    const keyAdmin = new KeyAdmin({ store, keys, plans, now });
    const ctx: ApiContext = {
      config,
      readModel,
      settlementIndex,
      outrights: pipeline.outrights,
      store,
      pipeline,
      keys,
      keyAdmin,
      plans,
      usage,
      callerLimits: new MemoryCallerLimiter(),
      metrics,
      now,
      worldNow: world,
      startedAt,
    };
    const app = await buildApp(ctx, {
      ...(opts.logger ? { loggerInstance: opts.logger } : {}),
      logos: teamLogoSource(readModel),
      portal: portalPlugin(ctx),
    });

    const simulator = simulated
      ? startSimulatorWorker({
          seed: config.simSeed,
          speed: config.simSpeed,
          startAt: worldStartAt,
          wallStartAt: startedAt,
          openEvents: openSimulatorEvents(readModel),
          openOutrights: openSimulatorOutrights(pipeline.outrights),
          onBatch: (messages) => pipeline.applyAll(messages),
          onError: (err) => opts.logger?.error({ err }, 'simulator error'),
        })
      : null;

    let closed = false;
    const counters = usage;
    return {
      config,
      app,
      readModel,
      pipeline,
      settlement,
      store,
      bus,
      keyAdmin,
      usage: counters,
      demoKeyCreated,
      async close() {
        if (closed) return;
        closed = true;
        await app.close();
        await counters.close();
        await simulator?.stop();
        await pipeline.stop();
        await settlement.stop();
        await store.close();
      },
    };
  } catch (err) {
    await usage?.close();
    await store.close().catch(() => undefined);
    throw err;
  }
}

export { API_VERSION };
