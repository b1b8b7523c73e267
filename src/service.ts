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
import type { ApiSettings } from './api/settings.js';
import { openQuotaCounters, type QuotaCounters } from './api/quota/counters.js';
import type { Config } from './config.js';
import { WorldClock } from './domain/clock.js';
import { PlanBook } from './domain/quota.js';
import { isTerminal } from './domain/lifecycle.js';
import { startSimulatorWorker, type SimConfigInput } from './feed/simulator/index.js';
import { ChangeLog } from './live/change-log.js';
import type { OutrightBook } from './live/outright-book.js';
import { ReadModel } from './live/read-model.js';
import { SettlementIndex } from './live/settlement-index.js';
import { catalogGrader } from './pipeline/settlement/catalog-grader.js';
import { SettlementEngine } from './pipeline/settlement/engine.js';
import { Pipeline } from './pipeline/pipeline.js';
import { retryingProducer, type RetryingProducer } from './pipeline/retrying-producer.js';
import { Follower } from './pipeline/follower.js';
import { LeaderElection } from './pipeline/leader-election.js';
import { Leadership } from './pipeline/leadership.js';
import type { WorldClockParams } from './pipeline/redis-change-stream.js';
import { checkScaleOutConfig, openChangeStream, registerScaleOutMetrics, type ChangeStreamEnds } from './scale-out.js';
import { portalPlugin } from './portal/plugin.js';
import { openPostgresStore } from './store/postgres-store.js';
import { openSqliteStore } from './store/sqlite-store.js';
import { logStoreHealth } from './store/store-health.js';
import type { Store } from './store/store.js';

export interface ServiceOptions {
  /** Injected wall clock (tests); defaults to Date.now. */
  now?: () => number;
  /** A pino logger, or none (tests). */
  logger?: Logger;
  /**
   * ROLE=pipeline: told when this node lost its leadership (its election lock, or leading failed to
   * start). Whatever it does, the node has stopped writing and steps down to a standby that stands
   * for election again; the process goes on (tests record the reason).
   */
  onLeadershipLost?: (reason: string) => void;
  /** Settings of the built-in simulator (tests: a smaller world); default: the whole world. */
  simulator?: SimConfigInput;
}

export interface Service {
  config: Config;
  app: FastifyInstance;
  readModel: ReadModel;
  pipeline: Pipeline;
  settlement: SettlementEngine;
  store: Store;
  /** The ordered change log (the stream and settlement follow it; tests too). */
  log: ChangeLog;
  /** Key management effective at once on this node (the portal, tests). */
  keyAdmin: KeyAdmin;
  /** The quota counters (tests flush them). */
  usage: UsageCounter;
  /** The demo key's secret when this start created it (printed once), else null. */
  demoKeyCreated: string | null;
  /** ROLE=api: the replica following the change stream; ROLE=pipeline: the leader election. */
  follower: Follower | null;
  election: LeaderElection | null;
  /** Stops the app (finishing in-flight requests), flushes the pipeline, closes the store. */
  close(): Promise<void>;
}

/** The configured store, migrated: PostgreSQL with DATABASE_URL (rejects when it does not answer), else the embedded file. */
export async function openStore(config: Config): Promise<Store> {
  if (config.databaseUrl !== null) {
    return openPostgresStore({ url: config.databaseUrl, poolSize: config.databasePoolSize });
  }
  // Write-behind flushes commit on a thread of their own, off the loop that answers requests.
  return openSqliteStore({ dataDir: config.dataDir, writerThread: true });
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

/** The plain values the HTTP app reads, from the configuration. */
function apiSettings(config: Config): ApiSettings {
  return {
    publicUrl: config.publicUrl,
    host: config.host,
    port: config.port,
    servesReads: config.role !== 'pipeline',
    adminKey: config.adminKey,
    accessLog: config.accessLog,
    bodyLimitBytes: config.bodyLimitBytes,
    feedBodyLimitBytes: config.feedBodyLimitBytes,
    trustProxy: config.trustProxy,
    corsOrigins: config.corsOrigins,
    pipelineStaleSeconds: config.pipelineStaleSeconds,
    settlementFeedDays: config.settlementFeedDays,
    settlementDetailDays: config.settlementDetailDays,
    streamHeartbeatSeconds: config.streamHeartbeatSeconds,
    streamBufferBytes: config.streamBufferBytes,
  };
}

const silentLog = { warn: () => undefined, error: () => undefined };

export async function createService(config: Config, opts: ServiceOptions = {}): Promise<Service> {
  const now = opts.now ?? Date.now;
  const startedAt = now();
  // With the simulator at SIM_SPEED > 1, event times are world times running ahead of the wall;
  // the world clock runs once the store tells where it stopped last time. It is every client's "now".
  const simulated = config.feed === 'simulator' && config.role !== 'api';
  const worldClock = new WorldClock(now);
  const world = worldClock.now;
  checkScaleOutConfig(config);
  const log = opts.logger ?? silentLog;
  const store = await openStore(config);
  logStoreHealth(store.health, log);
  let quota: QuotaCounters | null = null;
  let stream: ChangeStreamEnds | null = null;
  try {
    await store.migrate();
    // Scaled out, an API node (ROLE=api) is a replica fed by the change stream, and a pipeline node
    // (ROLE=pipeline) publishes to it once elected; ROLE=all is the one process of the default.
    stream = await openChangeStream(config, log);
    const writer = stream.writer;
    const changeLog = new ChangeLog({
      now,
      windowMs: config.streamReplaySeconds * 1000,
      maxBytes: config.streamReplayBytes,
    });
    const readModel = new ReadModel({ now: world, log: changeLog });
    // A pipeline candidate writes through a fence that closes the moment it is deposed.
    let simulator: ReturnType<typeof startSimulatorWorker> | null = null;
    const leadership =
      config.role === 'pipeline'
        ? new Leadership(store, { start: (current) => lead(current), stop: () => stepDown() })
        : null;
    const pipelineStore = leadership?.store ?? store;
    const pipeline = new Pipeline({
      readModel,
      store: pipelineStore,
      now: world,
      wallNow: now,
      flushIntervalMs: config.flushIntervalMs,
      endedRetentionMs: config.endedRetentionHours * 3_600_000,
      log,
      ...(config.role === 'api' ? { replica: true } : {}),
      ...(writer !== null ? { sink: writer } : {}),
    });
    if (config.role === 'all') await pipeline.load();
    const settlementIndex = new SettlementIndex();
    const settlement = new SettlementEngine({
      store: pipelineStore,
      readModel,
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
    let worldStartAt = startedAt;
    let wallStartAt = startedAt;
    /** Starts applying and settling (ROLE=all at once; ROLE=pipeline once elected, after loading the store). */
    const startWork = async (): Promise<void> => {
      wallStartAt = now();
      // An accelerated world resumes where it stopped: its clock never goes back across restarts.
      worldStartAt = simulated ? Math.max(wallStartAt, latestUpdate(readModel, pipeline.outrights)) : wallStartAt;
      if (simulated) worldClock.run({ startAt: worldStartAt, wallStartAt, speed: config.simSpeed });
      const clock: WorldClockParams = {
        startAt: worldStartAt,
        wallStartAt,
        speed: simulated ? config.simSpeed : 1,
      };
      await writer?.begin(clock);
      pipeline.start();
      await settlement.start();
    };
    if (config.role === 'all') await startWork();
    if (config.role === 'api') pipeline.start(); // its timers sweep old events; a replica never flushes
    if (writer !== null) {
      // Settlement counters of the API nodes follow every committed settlement batch.
      changeLog.subscribe((c) => {
        if (c.kind !== 'settlement') return;
        const entry = settlementIndex.get(c.eventId);
        if (entry !== undefined) {
          writer.settlement({ event_id: c.eventId, ended_at: entry.endedAt, pending: !entry.settled });
        }
      });
    }

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
      writeBehindWaits: () => pipeline.counters.backpressureWaits,
      readModelEvents: () => readModel.size,
      payloads: () => ({
        builds: readModel.payloadBuilds,
        builtBytes: readModel.payloadBuiltBytes,
        refreshes: readModel.payloadRefreshes,
        cacheBytes: readModel.payloadCacheBytes,
        poolAllocatedBytes: readModel.buffers.allocatedBytes,
      }),
      feedMessages: () => pipeline.counters.applied,
      feedRejected: () => pipeline.counters.rejected,
      // Read only at scrape time, once the producer below exists.
      feedRetryHeld: () => producer?.queue.size ?? 0,
    });
    // Quota counters (in memory, or in Redis with REDIS_URL): this month's counts come back from the
    // store; written every second and on close.
    quota = await openQuotaCounters({
      redisUrl: config.redisUrl,
      redisPrefix: config.redisPrefix,
      store,
      ...(opts.logger ? { log: opts.logger } : {}),
      now: now(),
    });
    const usage = quota.usage;
    const plans = new PlanBook(config.plans);
    const keys = new KeyAuthenticator(store, now);
    const keyAdmin = new KeyAdmin({ store, keys, plans, now });
    const settings = apiSettings(config);
    const ctx: ApiContext = {
      settings,
      readModel,
      settlementIndex,
      outrights: pipeline.outrights,
      results: { result: (id) => pipeline.result(id) },
      freshness: { lastChangeAt: () => pipeline.lastChangeAt },
      ingress: pipeline,
      store,
      keys,
      keyAdmin,
      plans,
      usage,
      callerLimits: quota.callerLimits,
      metrics,
      now,
      worldNow: world,
      worldClock,
      startedAt,
    };
    const app = await buildApp(ctx, {
      ...(opts.logger ? { loggerInstance: opts.logger } : {}),
      logos: teamLogoSource(readModel),
      portal: portalPlugin({ store, keyAdmin, plans, usage, now, site: settings }),
    });

    // What the store refuses (it cannot commit) the simulator sends again until it is taken.
    let producer: RetryingProducer | null = null;
    const startSimulator = (): ReturnType<typeof startSimulatorWorker> | null =>
      simulated
        ? startSimulatorWorker({
            seed: config.simSeed,
            speed: config.simSpeed,
            startAt: worldStartAt,
            wallStartAt,
            openEvents: openSimulatorEvents(readModel),
            openOutrights: openSimulatorOutrights(pipeline.outrights),
            ...(opts.simulator !== undefined ? { config: opts.simulator } : {}),
            onBatch: (messages) => (producer ??= retryingProducer((m) => pipeline.applyAll(m), log)).submit(messages),
            onError: (err) => opts.logger?.error({ err }, 'simulator error'),
          })
        : null;
    if (config.role === 'all') simulator = startSimulator();

    let follower: Follower | null = null;
    let election: LeaderElection | null = null;
    if (config.role === 'api' && stream.reader !== null) {
      const scaleMetrics = registerScaleOutMetrics(metrics.registry, { follower: () => follower });
      follower = new Follower({
        pipeline,
        reader: stream.reader,
        store,
        index: settlementIndex,
        now: world,
        feedRetentionMs: config.settlementFeedDays * 86_400_000,
        setClock: (c) => worldClock.run(c),
        log,
        onLag: scaleMetrics.observeLag,
      });
      const replica = follower;
      ctx.feedRole = {
        kind: 'relay',
        pipelineUrls: config.pipelineUrls,
        waitFor: (position, timeoutMs) => replica.waitFor(position, timeoutMs),
      };
      // The first snapshot is loaded before the node listens, as a single process loads at start.
      await follower.start();
    }
    /** A new term: the store afresh (an earlier term's state is gone), then every writer; stops where it is once deposed. */
    async function lead(current: () => boolean): Promise<void> {
      opts.logger?.info('elected pipeline leader: loading the store and taking the feed');
      const t0 = performance.now();
      const events = await pipeline.reload();
      if (!current()) return;
      const t1 = performance.now();
      await startWork();
      if (!current()) return;
      simulator = startSimulator();
      const ms = (t: number): number => Math.round(performance.now() - t);
      opts.logger?.info({ events, loadMs: Math.round(t1 - t0), startMs: ms(t1) }, 'leading: store loaded, feed taken');
    }
    /** Deposed: stop everything that writes or publishes, write nothing more, drop the state. */
    async function stepDown(): Promise<void> {
      stream?.writer?.stop();
      const running = simulator;
      simulator = null;
      await running?.stop().catch(() => undefined);
      await settlement.stop();
      await pipeline.discard();
      for (const id of settlementIndex.idsEndedBefore(Number.POSITIVE_INFINITY)) settlementIndex.delete(id);
      log.warn({}, 'stepped down: a standby again, standing for election');
    }
    if (leadership !== null && writer !== null && config.databaseUrl !== null) {
      registerScaleOutMetrics(metrics.registry, {
        leading: () => leadership.leading,
        stepDowns: () => election?.stepDowns ?? 0,
      });
      ctx.feedRole = { kind: 'candidate', leading: () => leadership.leading, position: () => writer.position };
      election = new LeaderElection({
        url: config.databaseUrl,
        log,
        onElected: () => leadership.elected(),
        onLost: (reason) => {
          // Synchronously: no write, no entry from here on; then the rest stops.
          writer.stop();
          const stepped = leadership.lost();
          opts.onLeadershipLost?.(reason);
          return stepped;
        },
      });
      election.start();
    }

    let closed = false;
    const counters = quota;
    const streamEnds = stream;
    return {
      config,
      app,
      readModel,
      pipeline,
      settlement,
      store,
      log: changeLog,
      keyAdmin,
      usage,
      demoKeyCreated,
      follower,
      election,
      async close() {
        if (closed) return;
        closed = true;
        await app.close();
        await counters.close();
        await follower?.stop();
        // The producer stops waiting for the store first: the simulator's last batch may be waiting.
        const producerClosed = producer?.close();
        await simulator?.stop();
        await producerClosed;
        await pipeline.stop();
        await settlement.stop();
        // The lock goes last: a standby takes over only once this node's writes are flushed.
        await election?.stop();
        await streamEnds.close();
        await store.close();
      },
    };
  } catch (err) {
    await quota?.close();
    await stream?.close().catch(() => undefined);
    await store.close().catch(() => undefined);
    throw err;
  }
}

export { API_VERSION };
