// What every role starts from: the clocks, the logger, the store (opened and migrated), the change log and read model, and the pipeline and settlement engine over them.
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import { WorldClock } from '../domain/clock.js';
import { ChangeLog } from '../live/change-log.js';
import { ReadModel } from '../live/read-model.js';
import { SettlementIndex } from '../live/settlement-index.js';
import { Pipeline, type AppliedSink, type PipelineLogger } from '../pipeline/pipeline.js';
import { catalogGrader } from '../pipeline/settlement/catalog-grader.js';
import { LogWindowKeeper } from '../pipeline/log-window.js';
import { SettlementEngine, type SettlementEngineOptions } from '../pipeline/settlement/engine.js';
import { logStoreHealth } from '../store/store-health.js';
import type { Store } from '../store/store.js';
import type { ServiceOptions } from './service-types.js';
import { openStore } from './store.js';

export interface NodeParts {
  config: Config;
  opts: ServiceOptions;
  /** Wall clock. */
  now: () => number;
  startedAt: number;
  /**
   * Every client's "now": with the simulator at SIM_SPEED > 1, event times are world times running
   * ahead of the wall; it runs once the store tells where the world stopped last time.
   */
  worldClock: WorldClock;
  /** The pino logger when given, else nothing logged. */
  logger: Logger | undefined;
  log: PipelineLogger;
  store: Store;
  /** The ordered change log the read model appends to (settlement, write-behind and the stream follow it). */
  changeLog: ChangeLog;
  readModel: ReadModel;
  settlementIndex: SettlementIndex;
}

const silentLog: PipelineLogger = { warn: () => undefined, error: () => undefined };

/** Opens and migrates the store (closed again if migrating fails) and makes the empty in-memory parts. */
export async function openNode(config: Config, opts: ServiceOptions): Promise<NodeParts> {
  const now = opts.now ?? Date.now;
  const startedAt = now();
  const log = opts.logger ?? silentLog;
  const store = await openStore(config);
  logStoreHealth(store.health, log);
  try {
    await store.migrate();
  } catch (err) {
    await store.close().catch(() => undefined);
    throw err;
  }
  const worldClock = new WorldClock(now);
  const changeLog = new ChangeLog({
    now,
    windowMs: config.streamReplaySeconds * 1000,
    maxBytes: config.streamReplayBytes,
    memoryBytes: config.streamReplayMemoryBytes,
  });
  return {
    config,
    opts,
    now,
    startedAt,
    worldClock,
    logger: opts.logger,
    log,
    store,
    changeLog,
    readModel: new ReadModel({ now: worldClock.now, log: changeLog }),
    settlementIndex: new SettlementIndex(),
  };
}

export interface PipelineParts {
  /** The store it writes (a pipeline candidate's is fenced: closed the moment it is deposed). */
  store: Store;
  /** ROLE=api: a replica, fed by the change stream; it never writes. */
  replica?: boolean;
  /** ROLE=pipeline: where every applied change is published (the change stream). */
  sink?: AppliedSink;
}

export function newPipeline(node: NodeParts, parts: PipelineParts): Pipeline {
  const { config } = node;
  // ROLE=all keeps its replay window in the store (unless there is none: STREAM_REPLAY_SECONDS=0)
  // and restores it at a restart; scaled out, the pipeline leader stores it, a run per term
  // (startWork begins it), and an API node loads it at start (pipeline/follower.ts).
  const logWindow =
    parts.replica !== true && config.streamReplaySeconds > 0
      ? new LogWindowKeeper({
          log: node.changeLog,
          now: node.now,
          windowMs: config.streamReplaySeconds * 1000,
          maxBytes: config.streamReplayBytes,
          logger: node.log,
          readStored: (from, to) => parts.store.readLogSegments(from, to),
          memoryBytes: config.streamReplayMemoryBytes,
        })
      : undefined;
  return new Pipeline({
    readModel: node.readModel,
    store: parts.store,
    now: node.worldClock.now,
    wallNow: node.now,
    staleLockMs: config.staleLockSeconds * 1000,
    flushIntervalMs: config.flushIntervalMs,
    endedRetentionMs: config.endedRetentionHours * 3_600_000,
    historyRetentionMs: config.oddsHistoryDays * 86_400_000,
    log: node.log,
    ...(parts.replica === true ? { replica: true } : {}),
    ...(parts.sink !== undefined ? { sink: parts.sink } : {}),
    ...(logWindow !== undefined ? { logWindow } : {}),
  });
}

/** The settlement engine over the pipeline's results, writing `store`. */
export function newSettlement(
  node: NodeParts,
  pipeline: Pipeline,
  store: Store,
  /** A publishing leader's settlement entries go between feed batches (each batch's log positions stay together). */
  appendEntry?: SettlementEngineOptions['appendEntry'],
): SettlementEngine {
  const { config } = node;
  return new SettlementEngine({
    store,
    readModel: node.readModel,
    index: node.settlementIndex,
    grade: catalogGrader({
      tennisRetirement: config.tennisRetirementPolicy,
      walkover: config.walkoverPolicy,
      esportsForfeit: config.esportsForfeitPolicy,
    }),
    now: node.worldClock.now,
    log: node.log,
    resultOf: (id) => pipeline.result(id),
    batchSize: config.settlementBatchSize,
    voidAfterMs: () => config.voidAfterHours * 3_600_000,
    feedRetentionMs: config.settlementFeedDays * 86_400_000,
    statsTimeoutMs: config.statsTimeoutHours * 3_600_000,
    ...(appendEntry !== undefined ? { appendEntry } : {}),
  });
}
