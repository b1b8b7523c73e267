// Scale-out pieces the roles wire: the config check, the change-stream connections of each role, and their metrics.
import { Gauge, Histogram, type Registry } from 'prom-client';
import { ConfigError, type Config } from '../config.js';
import {
  ChangeStreamKeys,
  ChangeStreamReader,
  ChangeStreamWriter,
  connectStreamRedis,
} from '../pipeline/redis-change-stream.js';
import type { Follower } from '../pipeline/follower.js';
import type { PipelineLogger } from '../pipeline/pipeline.js';

/** The shared engines of a scaled-out deployment. */
export interface ScaleOutUrls {
  databaseUrl: string;
  redisUrl: string;
}

/** ROLE=api and ROLE=pipeline share state through PostgreSQL and Redis: both must be configured. */
export function scaleOutUrls(config: Config): ScaleOutUrls {
  const { databaseUrl, redisUrl } = config;
  if (databaseUrl === null || redisUrl === null) {
    const missing = [databaseUrl === null ? 'DATABASE_URL' : null, redisUrl === null ? 'REDIS_URL' : null];
    throw new ConfigError(
      `ROLE=${config.role} needs ${missing.filter((v) => v !== null).join(' and ')}: the nodes of a scaled-out deployment share PostgreSQL and Redis (leave ROLE unset to run everything in one process)`,
    );
  }
  return { databaseUrl, redisUrl };
}

/** Refuses a scaled-out ROLE without its engines (ROLE=all needs none). */
export function checkScaleOutConfig(config: Config): void {
  if (config.role !== 'all') scaleOutUrls(config);
}

/** ROLE=pipeline: what the leader publishes the change stream through. */
export interface StreamWriterEnd {
  writer: ChangeStreamWriter;
  close(): Promise<void>;
}

export async function openStreamWriter(
  config: Config,
  redisUrl: string,
  log: PipelineLogger,
): Promise<StreamWriterEnd> {
  const redis = await connectStreamRedis(redisUrl, 'sports-data pipeline change stream', { failInFlight: true });
  const writer = new ChangeStreamWriter(redis, new ChangeStreamKeys(config.redisPrefix), log);
  return {
    writer,
    close: async () => {
      writer.stop();
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}

/** ROLE=api: what the follower reads the change stream from; it blocks on its connection (XREAD BLOCK), so it gets one of its own. */
export async function openStreamReader(config: Config, redisUrl: string): Promise<ChangeStreamReader> {
  const redis = await connectStreamRedis(redisUrl, 'sports-data api change stream');
  return new ChangeStreamReader(redis, new ChangeStreamKeys(config.redisPrefix));
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
    new Gauge({
      name: 'change_stream_divergences',
      help: "Change-stream batches whose replay on this API node did not make the leader's log entries (each one made the node reload; its streams said snapshot_required)",
      registers,
      collect() {
        this.set(follower()?.divergences ?? 0);
      },
    });
    new Gauge({
      name: 'change_stream_window_loaded_entries',
      help: "Entries of the leader's stored replay window this API node loaded at start (ids from before it started resume); -1: none could be proven",
      registers,
      collect() {
        this.set(follower()?.windowRestored ?? -1);
      },
    });
  }
  return { observeLag: (ms) => lag.observe(ms / 1000) };
}
