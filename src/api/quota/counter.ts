// The counters behind quotas and rate limits, as interfaces: in-process now (memory.ts), shared (Redis) when scaled out.
import { dateInMonth, type Plan, type UtcDay } from '../../domain/quota.js';

/** A value now (in-process counters) or later (a network round trip). */
export type Awaitable<T> = T | Promise<T>;

/** Where a key stands against its monthly quota after a decision. */
export interface QuotaState {
  /** Requests counted this month, this one included when it was allowed. */
  used: number;
  /** The instant the month turns (UTC) and the quota resets. */
  resetAt: number;
}

/** The answer to "may this request go ahead?", taken and counted atomically. */
export type QuotaDecision =
  ({ ok: true } & QuotaState) | ({ ok: false; reason: 'quota' | 'rate'; retryAfterSeconds: number } & QuotaState);

export type RateDecision = { ok: true } | { ok: false; retryAfterSeconds: number };

export interface DailyUsage {
  /** `YYYY-MM-DD` (UTC). */
  date: string;
  requests: number;
  errors: number;
}

/** A key's usage as of an instant. */
export interface UsageSnapshot {
  today: number;
  errorsToday: number;
  thisMonth: number;
  /** Every day of the month so far, the first to today. */
  daily: DailyUsage[];
  /** Counted requests of the last hour, and those answered 4xx/5xx (the error-rate notice). */
  lastHour: { requests: number; errors: number };
  /** When the month turns. */
  monthEnd: number;
}

/**
 * Counts requests per key. `consume` is the one atomic "check and count" step: two concurrent
 * requests can never both take the last unit of a quota or a second's rate.
 */
export interface UsageCounter {
  /** Counts one request if the plan allows it now (monthly quota, then per-second rate); a refusal counts nothing. */
  consume(keyId: string, plan: Plan, now: number): Awaitable<QuotaDecision>;
  /** Takes a slot of the plan's per-second rate without counting toward the quota (uncounted endpoints). */
  throttle(keyId: string, plan: Plan, now: number): Awaitable<RateDecision>;
  /** A counted request of the key was answered 4xx/5xx. */
  recordError(keyId: string, now: number): void;
  snapshot(keyId: string, now: number): Awaitable<UsageSnapshot>;
  /** Writes what is not yet durable. */
  flush(): Promise<void>;
  /**
   * Shared counters only (Redis): whether they answer now, within `deadlineMs` (one that holds
   * its answer, a stalled server, is not connected); health reports it as `usage_counters`.
   */
  status?(deadlineMs: number): Awaitable<'connected' | 'disconnected'>;
  /** Stops background work and flushes a last time. */
  close(): Promise<void>;
}

/** A fixed per-caller limit (the health and status endpoints): so many per second and per hour. */
export interface CallerLimiter {
  hit(caller: string, now: number): Awaitable<RateDecision>;
}

/** A snapshot from a counter's raw numbers: the month's days so far (day 1 first) and the last hour. */
export function usageSnapshot(
  day: UtcDay,
  thisMonth: number,
  dayCounts: (dayOfMonth: number) => { requests: number; errors: number },
  lastHour: { requests: number; errors: number },
): UsageSnapshot {
  const daily: DailyUsage[] = [];
  for (let d = 1; d <= day.dayOfMonth; d++) daily.push({ date: dateInMonth(day.monthStart, d), ...dayCounts(d) });
  const today = daily[daily.length - 1]!;
  return { today: today.requests, errorsToday: today.errors, thisMonth, daily, lastHour, monthEnd: day.monthEnd };
}

/** Runs a counter's writes one at a time: a call waits for the one in progress, then writes. */
export class SerialWrites {
  private running: Promise<void> | null = null;

  async run(write: () => Promise<void>): Promise<void> {
    while (this.running !== null) await this.running;
    const current = write();
    this.running = current;
    try {
      await current;
    } finally {
      this.running = null;
    }
  }
}

/** Flushes a counter every `intervalMs` (0: never) without keeping the process alive; failures wait for the next turn. */
export function periodicFlush(counter: { flush(): Promise<void> }, intervalMs: number): NodeJS.Timeout | null {
  if (intervalMs <= 0) return null;
  const timer = setInterval(() => void counter.flush().catch(() => undefined), intervalMs);
  timer.unref();
  return timer;
}
