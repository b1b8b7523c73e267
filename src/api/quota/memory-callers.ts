// In-process per-caller limits (health and status): a whole-second window plus a sliding hour of accepted requests.
import { HEALTH_LIMITS, secondsUntil } from '../../domain/quota.js';
import type { CallerLimiter, RateDecision } from './counter.js';

const HOUR = 3_600_000;
/** Callers remembered at most (~1 KB each): beyond, the longest-known are forgotten first. */
const MAX_CALLERS = 100_000;

class CallerState {
  secondAt = -1;
  secondCount = 0;
  /** Times of the last accepted requests (at most perHour); `head` is where the next one goes. */
  readonly accepted: Float64Array;
  head = 0;
  size = 0;
  lastAt = 0;

  constructor(perHour: number) {
    this.accepted = new Float64Array(perHour);
  }
}

/**
 * "2 per second and 120 per hour": at most `perSecond` in each whole second of the clock, and at most
 * `perHour` in any 60 minutes (the oldest of the last `perHour` accepted must be an hour old). A
 * refused request takes nothing. Callers silent for an hour are forgotten.
 */
export class MemoryCallerLimiter implements CallerLimiter {
  private readonly callers = new Map<string, CallerState>();
  private lastSweep = 0;

  constructor(
    private readonly limits: { perSecond: number; perHour: number } = HEALTH_LIMITS,
    private readonly maxCallers = MAX_CALLERS,
  ) {}

  hit(caller: string, now: number): RateDecision {
    if (now - this.lastSweep >= 60_000 || now < this.lastSweep) this.sweep(now);
    let s = this.callers.get(caller);
    if (s === undefined) {
      if (this.callers.size >= this.maxCallers) this.evict(now);
      s = new CallerState(this.limits.perHour);
      this.callers.set(caller, s);
    }
    s.lastAt = now;
    const second = Math.floor(now / 1000);
    if (s.secondAt !== second) {
      s.secondAt = second;
      s.secondCount = 0;
    }
    if (s.size === this.limits.perHour) {
      const oldest = s.accepted[s.head]!;
      if (oldest > now - HOUR) return { ok: false, retryAfterSeconds: secondsUntil(oldest + HOUR, now) };
    }
    if (s.secondCount >= this.limits.perSecond) {
      return { ok: false, retryAfterSeconds: secondsUntil((second + 1) * 1000, now) };
    }
    s.secondCount++;
    s.accepted[s.head] = now;
    s.head = (s.head + 1) % this.limits.perHour;
    if (s.size < this.limits.perHour) s.size++;
    return { ok: true };
  }

  /** How many callers are remembered (tests). */
  get size(): number {
    return this.callers.size;
  }

  /**
   * A flood of distinct addresses must not grow memory without bound: drop the silent ones, then
   * (still full) the first-seen ones, which then start with a fresh allowance.
   */
  private evict(now: number): void {
    this.sweep(now);
    for (const caller of this.callers.keys()) {
      if (this.callers.size < this.maxCallers) break;
      this.callers.delete(caller);
    }
  }

  private sweep(now: number): void {
    this.lastSweep = now;
    for (const [caller, s] of this.callers) {
      if (s.lastAt <= now - HOUR) this.callers.delete(caller);
    }
  }
}
