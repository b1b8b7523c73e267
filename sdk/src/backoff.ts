// Reconnection delays: exponential backoff with jitter from an injectable random source.

export interface BackoffOptions {
  /** First delay in ms (default 500). */
  initialMs?: number;
  /** Longest delay in ms (default 30 000). */
  maxMs?: number;
  /** Growth per failed attempt (default 2). */
  factor?: number;
  /** Random numbers in [0, 1) for the jitter (default Math.random; tests pass a seeded one). */
  random?: () => number;
}

/**
 * The delay before attempt `n` (0-based) after a failure: the exponential step, capped, with
 * "equal jitter" (half fixed, half random) so clients cut off together do not return together,
 * yet none retries at once.
 */
export function backoffDelay(attempt: number, o: BackoffOptions = {}): number {
  const initial = o.initialMs ?? 500;
  const max = o.maxMs ?? 30_000;
  const step = Math.min(max, initial * (o.factor ?? 2) ** Math.max(0, attempt));
  const r = (o.random ?? Math.random)();
  return Math.round(step / 2 + (step / 2) * r);
}

/** A small seeded generator (mulberry32), for reproducible jitter. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
