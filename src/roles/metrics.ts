// The node's /metrics sources: feed lag and counts, settlement and write-behind backlogs, the read model and its payload caches.
import { Counter, Gauge, type Registry } from 'prom-client';
import { ApiMetrics } from '../api/metrics.js';
import type { LogWindowKeeper } from '../pipeline/log-window.js';
import type { Pipeline } from '../pipeline/pipeline.js';
import type { SettlementEngine } from '../pipeline/settlement/engine.js';
import type { NodeParts } from './node.js';
import type { UpstreamStatus } from '../feed/upstream/the-odds-api/producer.js';

export interface MetricSources {
  pipeline: Pipeline;
  settlement: SettlementEngine;
  /** Messages the built-in producer holds to send again (read at scrape time). */
  retryHeld: () => number;
  /** FEED=the-odds-api: the adapter's freshness and budget (read at scrape time). */
  upstream?: () => UpstreamStatus | null;
}

export function nodeMetrics(node: NodeParts, { pipeline, settlement, retryHeld, upstream }: MetricSources): ApiMetrics {
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
      variantCacheBytes: readModel.variantCache.bytes,
      poolAllocatedBytes: readModel.buffers.allocatedBytes,
    }),
    compressedPayloads: () => ({ ...readModel.compression, heldBytes: readModel.compressedBytes }),
    feedMessages: () => pipeline.counters.applied,
    feedRejected: () => pipeline.counters.rejected,
    feedRetryHeld: retryHeld,
  });
  const keeper = pipeline.logWindow;
  if (keeper !== undefined) registerLogWindowMetrics(metrics.registry, keeper);
  if (upstream !== undefined) registerUpstreamMetrics(metrics.registry, upstream, node.now);
  return metrics;
}

/** The upstream adapter: how fresh its data is, and what the monthly budget has left. */
function registerUpstreamMetrics(registry: Registry, status: () => UpstreamStatus | null, now: () => number): void {
  const registers = [registry];
  const gauge = (name: string, help: string, read: (s: UpstreamStatus) => number | null): void => {
    new Gauge({
      name,
      help,
      registers,
      collect() {
        const s = status();
        const v = s === null ? null : read(s);
        // No value yet (never answered, header never seen): -1 rather than a misleading 0.
        this.set(v ?? -1);
      },
    });
  };
  gauge('upstream_last_success_age_seconds', 'Seconds since the upstream last answered (-1: never)', (s) =>
    s.lastSuccessAt === null ? null : Math.max(0, (now() - s.lastSuccessAt) / 1000),
  );
  gauge(
    'upstream_budget_monthly_credits',
    'UPSTREAM_MONTHLY_BUDGET: credits this service may spend per UTC month',
    (s) => s.monthlyBudget,
  );
  gauge(
    'upstream_budget_used_credits',
    'Credits spent this UTC month (stored: counted across restarts and pipeline leaders)',
    (s) => s.creditsSpentThisMonth,
  );
  gauge(
    'upstream_budget_left_credits',
    'Credits that may still be spent this month (budget, or the provider remaining if lower)',
    (s) => s.creditsLeft,
  );
  gauge(
    'upstream_provider_remaining_credits',
    "The provider's last x-requests-remaining (-1: not seen)",
    (s) => s.providerRemaining,
  );
  gauge('upstream_calls', 'Upstream calls made since start', (s) => s.calls);
  gauge('upstream_consecutive_failures', 'Failed upstream calls in a row (0: answering)', (s) => s.failures);
  gauge('upstream_next_poll_seconds', 'Seconds until the next planned poll (-1: none planned)', (s) =>
    s.nextPollAt === null ? null : Math.max(0, (s.nextPollAt - now()) / 1000),
  );
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
