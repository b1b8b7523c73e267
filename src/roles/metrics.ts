// The node's /metrics sources: feed lag and counts, settlement and write-behind backlogs, the read model and its payload caches.
import { ApiMetrics } from '../api/metrics.js';
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
  return new ApiMetrics({
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
}
