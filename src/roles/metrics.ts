// The node's /metrics sources: feed lag and counts, settlement and write-behind backlogs, the read model and its payload caches.
import { Counter, Gauge, type Registry } from 'prom-client';
import { ApiMetrics } from '../api/metrics.js';
import type { LogWindowKeeper } from '../pipeline/log-window.js';
import type { Pipeline } from '../pipeline/pipeline.js';
import type { SettlementEngine } from '../pipeline/settlement/engine.js';
import type { NodeParts } from './node.js';

export interface MetricSources {
  pipeline: Pipeline;
  settlement: SettlementEngine;
  /** Messages the built-in producer holds to send again (read at scrape time). */
  retryHeld: () => number;
}

export function nodeMetrics(node: NodeParts, { pipeline, settlement, retryHeld }: MetricSources): ApiMetrics {
  const { readModel } = node;
  const metrics = new ApiMetrics({
    feedLagSeconds: () => pipeline.lastLagMs / 1000,
    settlementBacklog: () => settlement.backlog,
    writeBehindBacklog: () => pipeline.backlog,
    writeBehindWaits: () => pipeline.counters.backpressureWaits,
    readModelEvents: () => readModel.size,
    staleLockedEvents: () => readModel.staleCount(),
    payloads: () => ({
      builds: readModel.payloadBuilds,
      builtBytes: readModel.payloadBuiltBytes,
      refreshes: readModel.payloadRefreshes,
      cacheBytes: readModel.payloadCacheBytes,
      poolAllocatedBytes: readModel.buffers.allocatedBytes,
    }),
    compressedPayloads: () => ({ ...readModel.compression, heldBytes: readModel.compressedBytes }),
    feedMessages: () => pipeline.counters.applied,
    feedRejected: () => pipeline.counters.rejected,
    feedRetryHeld: retryHeld,
  });
  const keeper = pipeline.logWindow;
  if (keeper !== undefined) registerLogWindowMetrics(metrics.registry, keeper);
  return metrics;
}

/** The stored replay window: what a restart can resume from. */
function registerLogWindowMetrics(registry: Registry, keeper: LogWindowKeeper): void {
  const registers = [registry];
  new Counter({
    name: 'stream_replay_segments_stored_total',
    help: 'Segments of the replay window written to the store (one per write-behind flush with changes)',
    registers,
    collect() {
      this.reset();
      this.inc(keeper.segmentsStored);
    },
  });
  new Counter({
    name: 'stream_replay_stored_bytes_total',
    help: 'Bytes of replay-window segments written to the store',
    registers,
    collect() {
      this.reset();
      this.inc(keeper.bytesStored);
    },
  });
  new Gauge({
    name: 'stream_replay_stored_through_ms',
    help: 'Wall milliseconds of the last change-log position stored (a restart resumes exactly up to it); 0 before the first',
    registers,
    collect() {
      this.set(keeper.storedThrough?.ms ?? 0);
    },
  });
}
