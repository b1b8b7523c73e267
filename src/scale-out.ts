// Scale-out pieces the composer wires per ROLE: the config check, the change-stream connections, and their metrics.
import { Gauge, Histogram, type Registry } from 'prom-client';
import { ConfigError, type Config } from './config.js';
import {
  ChangeStreamKeys,
  ChangeStreamReader,
  ChangeStreamWriter,
  connectStreamRedis,
} from './pipeline/redis-change-stream.js';
import type { Follower } from './pipeline/follower.js';
import type { PipelineLogger } from './pipeline/pipeline.js';

/** ROLE=api and ROLE=pipeline share state through PostgreSQL and Redis: both must be configured. */
export function checkScaleOutConfig(config: Config): void {
  if (config.role === 'all') return;
  const missing = [
    config.databaseUrl === null ? 'DATABASE_URL' : null,
    config.redisUrl === null ? 'REDIS_URL' : null,
  ].filter((v) => v !== null);
  if (missing.length > 0) {
    throw new ConfigError(
      `ROLE=${config.role} needs ${missing.join(' and ')}: the nodes of a scaled-out deployment share PostgreSQL and Redis (leave ROLE unset to run everything in one process)`,
    );
  }
}

export interface ChangeStreamEnds {
  /** ROLE=pipeline: what the leader publishes through. */
  writer: ChangeStreamWriter | null;
  /** ROLE=api: what the follower reads. */
  reader: ChangeStreamReader | null;
  close(): Promise<void>;
}

/** The change stream's connections for this role (none for ROLE=all). */
export async function openChangeStream(config: Config, log: PipelineLogger): Promise<ChangeStreamEnds> {
  if (config.role === 'all' || config.redisUrl === null) {
    return { writer: null, reader: null, close: async () => undefined };
  }
  const keys = new ChangeStreamKeys(config.redisPrefix);
  // The reader blocks on its connection (XREAD BLOCK): it gets one of its own.
  const redis = await connectStreamRedis(config.redisUrl, `sports-data ${config.role} change stream`);
  if (config.role === 'pipeline') {
    const writer = new ChangeStreamWriter(redis, keys, log);
    return {
      writer,
      reader: null,
      close: async () => {
        writer.stop();
        await redis.quit().catch(() => redis.disconnect());
      },
    };
  }
  const reader = new ChangeStreamReader(redis, keys);
  return { writer: null, reader, close: async () => reader.close() };
}

/** Gauges of leadership (pipeline nodes) and stream lag and snapshots (API nodes) on the node's /metrics. */
export function registerScaleOutMetrics(
  registry: Registry,
  sources: { leading?: () => boolean; stepDowns?: () => number; follower?: () => Follower | null },
): { observeLag(ms: number): void } {
  const registers = [registry];
  if (sources.leading !== undefined) {
    const leading = sources.leading;
    new Gauge({
      name: 'pipeline_leader',
      help: '1 while this pipeline node leads (holds the election lock and applies the feed), else 0',
      registers,
      collect() {
        this.set(leading() ? 1 : 0);
      },
    });
  }
  if (sources.stepDowns !== undefined) {
    const stepDowns = sources.stepDowns;
    new Gauge({
      name: 'pipeline_step_downs',
      help: 'Times this pipeline node lost its leadership (its election session, or leading failed to start) and stepped down to standby since it started',
      registers,
      collect() {
        this.set(stepDowns());
      },
    });
  }
  const lag = new Histogram({
    name: 'change_stream_lag_seconds',
    help: 'Age of each change-stream entry when this API node applied it',
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: sources.follower !== undefined ? registers : [],
  });
  if (sources.follower !== undefined) {
    const follower = sources.follower;
    new Gauge({
      name: 'change_stream_snapshots',
      help: 'Fresh snapshots this API node took from the store after a gap in the stream, or swapped in after a new leader',
      registers,
      collect() {
        this.set(follower()?.snapshots ?? 0);
      },
    });
  }
  return { observeLag: (ms) => lag.observe(ms / 1000) };
}
