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
