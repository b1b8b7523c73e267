// Per-caller limits (health and status) shared by every API node in Redis: one Lua step per request, same rules as in memory.
import type { Redis } from 'ioredis';
import { HEALTH_LIMITS, secondsUntil } from '../../domain/quota.js';
import { within } from '../deadline.js';
import type { CallerLimiter, RateDecision } from './counter.js';
import { MemoryCallerLimiter } from './memory-callers.js';
import { quotaScripts, type QuotaScripts } from './redis-scripts.js';

const HOUR = 3_600_000;
/** As for the usage counters: a second's counter outlives its second a little. */
const SECOND_TTL_MS = 5_000;

export interface RedisCallerLimiterOptions {
  redis: Redis;
  /** Key prefix (default `sds`). */
  prefix?: string;
  limits?: { perSecond: number; perHour: number };
  /** How long a decision waits for Redis before this node decides alone (default CALLER_DEADLINE_MS). */
  deadlineMs?: number;
}

/**
 * Health is how a client learns that Redis is stalled: its limit must not wait for Redis longer
 * than this (the counters' command timeout is 2 s), or health answers late whatever it finds.
 */
export const CALLER_DEADLINE_MS = 150;

/**
 * "2 per second and 120 per hour" as MemoryCallerLimiter decides it, across nodes: a counter per
 * whole second and a sorted set of the last `perHour` accepted times per caller. Both expire, so
 * callers silent for an hour leave nothing behind (a flood of addresses costs memory for an hour at most).
 */
export class RedisCallerLimiter implements CallerLimiter {
  private readonly redis: Redis & QuotaScripts;
  private readonly prefix: string;
  private readonly limits: { perSecond: number; perHour: number };
  /** While Redis is down: the same limits counted on this node alone. */
  private readonly local: MemoryCallerLimiter;
  private readonly deadlineMs: number;

  constructor(opts: RedisCallerLimiterOptions) {
    this.redis = quotaScripts(opts.redis);
    this.prefix = opts.prefix ?? 'sds';
    this.limits = opts.limits ?? HEALTH_LIMITS;
    this.local = new MemoryCallerLimiter(this.limits);
    this.deadlineMs = opts.deadlineMs ?? CALLER_DEADLINE_MS;
  }

  async hit(caller: string, now: number): Promise<RateDecision> {
    const second = Math.floor(now / 1000);
    const reply = await within(
      this.redis.sdsCallerHit(
        `${this.prefix}:caller:${caller}:s:${second}`,
        `${this.prefix}:caller:${caller}:h`,
        now,
        this.limits.perSecond,
        this.limits.perHour,
        HOUR,
        SECOND_TTL_MS,
      ),
      this.deadlineMs,
    );
    // Health and status must answer while Redis is down or stalled (health is how a client learns
    // that it is): their limits are then counted per node, which is looser but still a limit.
    if (reply === null) return this.local.hit(caller, now);
    const [outcome, oldest] = reply;
    if (outcome === 1) return { ok: true };
    if (outcome === 0) return { ok: false, retryAfterSeconds: secondsUntil(oldest + HOUR, now) };
    return { ok: false, retryAfterSeconds: secondsUntil((second + 1) * 1000, now) };
  }
}
