// Waiting for a component with a deadline: health says what a stalled component is (not connected) instead of waiting for it.

/**
 * How long health waits for one component (they are asked together): a component that has not
 * answered by then is reported down. Health's own answer then comes within about a second,
 * whatever a component does (a stalled Redis, a database holding every connection).
 */
export const COMPONENT_DEADLINE_MS = 500;

/** A promise's value if it settles within `timeoutMs`, else null (a rejection is null too). */
export async function within<T>(work: Promise<T>, timeoutMs: number): Promise<T | null> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), timeoutMs);
  });
  try {
    return await Promise.race([work.catch(() => null), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A component's probe (a ping) asked with a deadline. One probe runs at a time and whoever asks
 * meanwhile waits for that one: a stalled component then holds one probe, not one per health
 * call (each holding a pooled connection). The first probe to answer after the component comes
 * back says so, and the next check starts a fresh one.
 */
export class DeadlineProbe<T> {
  private running: Promise<T> | null = null;

  constructor(private readonly probe: () => Promise<T>) {}

  /** The probe's value if it answers within `deadlineMs`, else null (it failed, or is still held). */
  check(deadlineMs: number): Promise<T | null> {
    let running = this.running;
    if (running === null) {
      let started: Promise<T>;
      try {
        started = this.probe();
      } catch (err) {
        started = Promise.reject(err instanceof Error ? err : new Error(String(err)));
      }
      running = started;
      this.running = started;
      const done = (): void => {
        if (this.running === started) this.running = null;
      };
      started.then(done, done);
    }
    return within(running, deadlineMs);
  }
}
