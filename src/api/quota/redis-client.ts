// The one Redis connection of the quota counters (REDIS_URL): connected at boot with a clear error, failing fast afterwards.
import { Redis } from 'ioredis';
import { redactDatabaseUrl } from '../../store/database-url.js';
import type { UsageLog } from './memory-counter.js';

export interface RedisConnectOptions {
  /** How long the first connection may take before the boot fails (default 5000 ms). */
  connectTimeoutMs?: number;
  /** How long one command may take before the request gets a 503 (default 2000 ms). */
  commandTimeoutMs?: number;
  log?: UsageLog;
}

/**
 * Connects and checks that Redis answers; rejects with a message naming the server (password
 * hidden) when it does not. Afterwards a lost connection is retried in the background while
 * commands fail at once (no offline queue), so requests get 503 instead of hanging.
 */
export async function connectRedis(url: string, opts: RedisConnectOptions = {}): Promise<Redis> {
  const where = redactDatabaseUrl(url).replace('the configured DATABASE_URL', 'the configured REDIS_URL');
  const redis = new Redis(url, {
    lazyConnect: true,
    connectTimeout: opts.connectTimeoutMs ?? 5000,
    commandTimeout: opts.commandTimeoutMs ?? 2000,
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    retryStrategy: (times) => Math.min(times * 100, 2000),
  });
  let booted = false;
  let down = false;
  // connect() rejects with a bare "Connection is closed."; the cause comes as an 'error' event.
  let cause: Error | null = null;
  redis.on('error', (err: Error) => {
    cause = err;
    // ioredis reports every failed reconnect: one warning per outage is enough (the boot reports its own).
    if (down || !booted) return;
    down = true;
    opts.log?.warn(
      { err: err.message },
      `Redis at ${where} is unreachable; quota requests answer 503 until it is back`,
    );
  });
  redis.on('ready', () => {
    if (!down) return;
    down = false;
    opts.log?.info({}, `Redis at ${where} answers again`);
  });
  try {
    await redis.connect();
    await redis.ping();
    booted = true;
  } catch (error) {
    redis.disconnect();
    const failure: unknown = cause ?? error;
    const reason = failure instanceof Error ? failure.message : String(failure);
    throw new Error(`Redis at ${where} (REDIS_URL) does not answer: ${reason || 'connection failed'}`, {
      cause: failure,
    });
  }
  return redis;
}

/** Warns when Redis may evict keys: an evicted month counter would restart from zero (docs/quotas.md). */
export async function checkEvictionPolicy(redis: Redis, log: UsageLog): Promise<void> {
  try {
    const reply = (await redis.config('GET', 'maxmemory-policy')) as string[];
    const policy = reply[1];
    // Every counter key has a TTL, so the volatile-* policies may evict them too.
    if (policy !== undefined && policy !== 'noeviction') {
      log.warn({ policy }, 'Redis maxmemory-policy may evict quota counters; use noeviction (docs/deploy.md)');
    }
  } catch {
    // Managed Redis services often forbid CONFIG: nothing to check then.
  }
}
