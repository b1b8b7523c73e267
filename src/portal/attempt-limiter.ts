// Counts failed attempts per name (an email, a client address) in a sliding window: sign-in and sign-up throttling.

export interface AttemptLimit {
  /** Attempts allowed in the window; the next one is refused until the oldest leaves it. */
  max: number;
  windowMs: number;
}

/** Beyond this many names the limiter forgets names with no attempt left in the window. */
const SWEEP_AT = 10_000;

/**
 * In this process's memory (like the quota counters): with several API nodes each node counts its
 * own attempts. Times come from the injected clock.
 */
export class AttemptLimiter {
  private readonly attempts = new Map<string, number[]>();

  constructor(
    private readonly limit: AttemptLimit,
    private readonly now: () => number,
  ) {}

  private recent(name: string, now: number): number[] {
    const list = this.attempts.get(name);
    if (list === undefined) return [];
    const from = now - this.limit.windowMs;
    while (list.length > 0 && (list[0] ?? 0) <= from) list.shift();
    if (list.length === 0) this.attempts.delete(name);
    return list;
  }

  /** Milliseconds until `name` may try again; 0 when it may now. */
  retryAfterMs(name: string): number {
    const now = this.now();
    const list = this.recent(name, now);
    if (list.length < this.limit.max) return 0;
    const oldest = list[list.length - this.limit.max] ?? now;
    return Math.max(1, oldest + this.limit.windowMs - now);
  }

  record(name: string): void {
    const now = this.now();
    if (this.attempts.size >= SWEEP_AT) {
      for (const key of [...this.attempts.keys()]) this.recent(key, now);
      // Still full of live names (a flood of addresses): start over rather than grow without bound.
      if (this.attempts.size >= SWEEP_AT) this.attempts.clear();
    }
    const list = this.recent(name, now);
    list.push(now);
    this.attempts.set(name, list);
  }

  /** Forgets a name's attempts (a successful sign-in clears its email's failures). */
  clear(name: string): void {
    this.attempts.delete(name);
  }
}
