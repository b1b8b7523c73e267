// Waiting in tests: sleep, and poll a condition until it holds or a deadline passes.

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Polls `check` every `pollMs` until it holds; throws after `timeoutMs`. Resolves with the ms it took. */
export async function until(
  what: string,
  check: () => boolean | Promise<boolean>,
  timeoutMs = 5000,
  pollMs = 10,
): Promise<number> {
  const t0 = Date.now();
  while (!(await check())) {
    if (Date.now() - t0 > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(pollMs);
  }
  return Date.now() - t0;
}

export interface ProgressWait {
  /** A reading of the work under way (a count, a world time): the wait goes on while it changes. */
  progress: () => unknown;
  /** Throws when the reading has not changed for this long (wall ms): the work stopped. */
  stallMs: number;
  /** Why the condition can no longer come (the work it needed is done without it), or null while it may. */
  exhausted?: () => string | null;
  pollMs?: number;
}

/**
 * Polls `check` until it holds, for as long as the work it waits on goes on: a deadline scaled to
 * the work, not to a machine's speed. Throws when the work stalls (no progress for `stallMs`) or
 * is exhausted without the condition. Resolves with the ms it took.
 */
export async function untilProgress(
  what: string,
  check: () => boolean | Promise<boolean>,
  wait: ProgressWait,
): Promise<number> {
  const t0 = Date.now();
  let last = wait.progress();
  let lastAt = t0;
  while (!(await check())) {
    const over = wait.exhausted?.() ?? null;
    if (over !== null) {
      if (await check()) break; // it came with the last of the work
      throw new Error(`waiting for ${what}: ${over}`);
    }
    const now = Date.now();
    const p = wait.progress();
    if (!Object.is(p, last)) {
      last = p;
      lastAt = now;
    } else if (now - lastAt > wait.stallMs) {
      throw new Error(`waiting for ${what}: no progress for ${wait.stallMs} ms (stuck at ${String(p)})`);
    }
    await sleep(wait.pollMs ?? 10);
  }
  return Date.now() - t0;
}

/**
 * Polls `check` until it holds; throws once the process has had `budgetMs` of time to run. Time it
 * did not get (its timers fired late: a machine busy with other work) is not counted, so a bound on
 * the service's own timers (a flush every second) holds alike on a quiet and on a loaded machine.
 * Resolves with the wall ms it took.
 */
export async function untilWithin(
  what: string,
  check: () => boolean | Promise<boolean>,
  budgetMs: number,
  pollMs = 10,
): Promise<number> {
  const t0 = Date.now();
  let late = 0;
  while (!(await check())) {
    if (Date.now() - t0 - late > budgetMs) {
      throw new Error(
        `timed out after ${budgetMs} ms (and ${late} ms the machine did not run this process) waiting for ${what}`,
      );
    }
    const before = Date.now();
    await sleep(pollMs);
    late += Math.max(0, Date.now() - before - 2 * pollMs);
  }
  return Date.now() - t0;
}
