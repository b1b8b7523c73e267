// Chooses the quota counters: in-process by default, shared in Redis with REDIS_URL (several API nodes).
import type { Redis } from 'ioredis';
import type { Store } from '../../store/store.js';
import type { CallerLimiter, UsageCounter } from './counter.js';
import { MemoryCallerLimiter } from './memory-callers.js';
import { MemoryUsageCounter, type UsageLog } from './memory-counter.js';

export interface QuotaCounters {
  kind: 'memory' | 'redis';
  usage: UsageCounter;
  callerLimits: CallerLimiter;
  /** Flushes the usage counts to the store, then closes the Redis connection (if any). */
  close(): Promise<void>;
}

export interface QuotaCountersOptions {
  /** REDIS_URL, or null for the in-process counters. */
  redisUrl: string | null;
  /** REDIS_PREFIX: the namespace of every key (default `sds`). */
  redisPrefix?: string;
  store: Pick<Store, 'loadUsage' | 'saveUsage'>;
  log?: UsageLog;
  now: number;
}

/** Opens the counters, loading or seeding this month's counts; rejects when REDIS_URL is set and Redis does not answer. */
export async function openQuotaCounters(opts: QuotaCountersOptions): Promise<QuotaCounters> {
  const log = opts.log ? { log: opts.log } : {};
  if (opts.redisUrl === null) {
    const usage = await MemoryUsageCounter.open({ store: opts.store, ...log }, opts.now);
    return { kind: 'memory', usage, callerLimits: new MemoryCallerLimiter(), close: () => usage.close() };
  }
  // Loaded only with REDIS_URL: a single process never pays for the Redis client's modules.
  const [{ RedisCallerLimiter }, { checkEvictionPolicy, connectRedis }, { RedisUsageCounter }] = await Promise.all([
    import('./redis-callers.js'),
    import('./redis-client.js'),
    import('./redis-counter.js'),
  ]);
  const redis: Redis = await connectRedis(opts.redisUrl, log);
  try {
    if (opts.log) await checkEvictionPolicy(redis, opts.log);
    const prefix = opts.redisPrefix ?? 'sds';
    const usage = await RedisUsageCounter.open({ redis, prefix, store: opts.store, ...log }, opts.now);
    return {
      kind: 'redis',
      usage,
      callerLimits: new RedisCallerLimiter({ redis, prefix }),
      async close() {
        await usage.close();
        await redis.quit().catch(() => redis.disconnect());
      },
    };
  } catch (err) {
    redis.disconnect();
    throw err;
  }
}
