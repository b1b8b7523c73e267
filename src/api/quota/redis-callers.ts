// Per-caller limits (health and status) shared by every API node in Redis: one Lua step per request, same rules as in memory.
import type { Redis } from 'ioredis';
import { ServiceError } from '../../domain/errors.js';
import { HEALTH_LIMITS, secondsUntil } from '../../domain/quota.js';
import type { CallerLimiter, RateDecision } from './counter.js';
import { quotaScripts, type QuotaScripts } from './redis-scripts.js';

const HOUR = 3_600_000;
/** As for the usage counters: a second's counter outlives its second a little. */
const SECOND_TTL_MS = 5_000;

export interface RedisCallerLimiterOptions {
  redis: Redis;
  /** Key prefix (default `sds`). */
  prefix?: string;
  limits?: { perSecond: number; perHour: number };
}

/**
 * "2 per second and 120 per hour" as MemoryCallerLimiter decides it, across nodes: a counter per
 * whole second and a sorted set of the last `perHour` accepted times per caller. Both expire, so
 * callers silent for an hour leave nothing behind (a flood of addresses costs memory for an hour at most).
 */
export class RedisCallerLimiter implements CallerLimiter {
  private readonly redis: Redis & QuotaScripts;
  private readonly prefix: string;
  private readonly limits: { perSecond: number; perHour: number };

  constructor(opts: RedisCallerLimiterOptions) {
    this.redis = quotaScripts(opts.redis);
    this.prefix = opts.prefix ?? 'sds';
    this.limits = opts.limits ?? HEALTH_LIMITS;
  }

  async hit(caller: string, now: number): Promise<RateDecision> {
    const second = Math.floor(now / 1000);
    let reply: [number, number];
    try {
      reply = await this.redis.sdsCallerHit(
        `${this.prefix}:caller:${caller}:s:${second}`,
        `${this.prefix}:caller:${caller}:h`,
        now,
        this.limits.perSecond,
        this.limits.perHour,
        HOUR,
        SECOND_TTL_MS,
      );
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      throw new ServiceError('service_unavailable', `the rate limits (Redis) are unavailable: ${reason}`, {
        component: 'usage_counters',
      });
    }
    const [outcome, oldest] = reply;
    if (outcome === 1) return { ok: true };
    if (outcome === 0) return { ok: false, retryAfterSeconds: secondsUntil(oldest + HOUR, now) };
    return { ok: false, retryAfterSeconds: secondsUntil((second + 1) * 1000, now) };
  }
}
