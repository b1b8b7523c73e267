// Prometheus metrics: requests by route and status, latency, feed lag and backlog, read-model size.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export interface MetricSources {
  feedLagSeconds: () => number;
  settlementBacklog: () => number;
  writeBehindBacklog: () => number;
  /** Times the feed was held back until the store caught up (write-behind backpressure). */
  writeBehindWaits: () => number;
  readModelEvents: () => number;
  /** Live events reported locked because their feed went quiet (STALE_LOCK_SECONDS). */
  staleLockedEvents?: () => number;
  /** Market payloads (odds, detail, batch items): whole builds, in-place refreshes, and their memory. */
  payloads: () => {
    builds: number;
    builtBytes: number;
    refreshes: number;
    cacheBytes: number;
    /** Bytes held by the cache of filtered payloads (`markets=`). */
    variantCacheBytes?: number;
    poolAllocatedBytes: number;
  };
  /**
   * Compressed forms of cached payloads (odds, detail, batch, list pages): built (once per change
   * and coding), reused by later requests, and the bytes held now.
   */
  compressedPayloads?: () => { builds: number; builtBytes: number; reuses: number; heldBytes: number };
  feedMessages: () => Map<string, number>;
  feedRejected: () => number;
  /** Messages an in-process producer (the simulator) holds to send again after a retryable refusal. */
  feedRetryHeld?: () => number;
}

export class ApiMetrics {
  readonly registry = new Registry();
  readonly requests: Counter<'route' | 'method' | 'status'>;
  readonly latency: Histogram<'route'>;

  constructor(sources: MetricSources) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.requests = new Counter({
      name: 'http_requests_total',
      help: 'HTTP requests by route pattern, method and status',
      labelNames: ['route', 'method', 'status'],
      registers,
    });
    this.latency = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP request latency by route pattern',
      labelNames: ['route'],
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
      registers,
    });
    new Gauge({
      name: 'feed_lag_seconds',
      help: 'Apply time minus the ts of the last applied feed message',
      registers,
      collect() {
        this.set(sources.feedLagSeconds());
      },
    });
    new Gauge({
      name: 'settlement_backlog',
      help: 'Markets of ended events not yet settled',
      registers,
      collect() {
        this.set(sources.settlementBacklog());
      },
    });
    new Gauge({
      name: 'store_write_behind_backlog',
      help: 'Events and markets changed in memory and not yet flushed to the store',
      registers,
      collect() {
        this.set(sources.writeBehindBacklog());
      },
    });
    new Gauge({
      name: 'store_write_behind_waits',
      help: 'Times the feed was held back because too many market documents waited for the store',
      registers,
      collect() {
        this.set(sources.writeBehindWaits());
      },
    });
    const payloadGauge = (
      name: string,
      help: string,
      pick: (p: ReturnType<MetricSources['payloads']>) => number,
    ): void => {
      new Gauge({
        name,
        help,
        registers,
        collect() {
          this.set(pick(sources.payloads()));
        },
      });
    };
    payloadGauge('read_model_payload_builds', 'Market payloads rendered whole since start', (p) => p.builds);
    payloadGauge(
      'read_model_payload_built_bytes',
      'Bytes of market payloads rendered whole since start',
      (p) => p.builtBytes,
    );
    payloadGauge(
      'read_model_payload_refreshes',
      'Market payloads refreshed in place after price ticks since start',
      (p) => p.refreshes,
    );
    payloadGauge('read_model_payload_cache_bytes', 'Bytes held by the market payload cache', (p) => p.cacheBytes);
    payloadGauge(
      'read_model_variant_cache_bytes',
      'Bytes held by the cache of filtered market payloads (markets=), compressed forms included',
      (p) => p.variantCacheBytes ?? 0,
    );
    payloadGauge(
      'read_model_payload_pool_allocated_bytes',
      'Bytes allocated since start for refreshed payloads because no pooled buffer fitted',
      (p) => p.poolAllocatedBytes,
    );
    const compressed = sources.compressedPayloads;
    if (compressed !== undefined) {
      const compressedGauge = (
        name: string,
        help: string,
        pick: (c: ReturnType<NonNullable<MetricSources['compressedPayloads']>>) => number,
      ): void => {
        new Gauge({
          name,
          help,
          registers,
          collect() {
            this.set(pick(compressed()));
          },
        });
      };
      compressedGauge(
        'read_model_payload_compressions',
        'Compressed forms (br, gzip) of cached payloads built since start: once per change and coding asked for',
        (c) => c.builds,
      );
      compressedGauge(
        'read_model_payload_compressed_built_bytes',
        'Bytes of the compressed forms built since start',
        (c) => c.builtBytes,
      );
      compressedGauge(
        'read_model_payload_compression_reuses',
        'Answers served from a compressed form built for an earlier request, since start',
        (c) => c.reuses,
      );
      compressedGauge(
        'read_model_payload_compressed_bytes',
        'Bytes of compressed forms held (market payloads, list pages, batch answers); those of market payloads count in read_model_payload_cache_bytes (filtered ones in read_model_variant_cache_bytes)',
        (c) => c.heldBytes,
      );
    }
    new Gauge({
      name: 'read_model_events',
      help: 'Events held in the in-memory read model',
      registers,
      collect() {
        this.set(sources.readModelEvents());
      },
    });
    const stale = sources.staleLockedEvents;
    if (stale !== undefined) {
      new Gauge({
        name: 'feed_stale_locked_events',
        help: 'Live events whose selections are all reported locked because the feed said nothing about them for STALE_LOCK_SECONDS',
        registers,
        collect() {
          this.set(stale());
        },
      });
    }
    new Gauge({
      name: 'feed_messages_applied',
      help: 'Feed messages that changed something, by type',
      labelNames: ['type'],
      registers,
      collect() {
        for (const [type, n] of sources.feedMessages()) this.set({ type }, n);
      },
    });
    new Gauge({
      name: 'feed_messages_rejected',
      help: 'Feed messages rejected',
      registers,
      collect() {
        this.set(sources.feedRejected());
      },
    });
    const held = sources.feedRetryHeld;
    if (held !== undefined) {
      new Gauge({
        name: 'feed_retry_held',
        help: 'Feed messages the built-in producer holds to send again (the store refused them for now)',
        registers,
        collect() {
          this.set(held());
        },
      });
    }
  }
}
