// Capacity restart (BENCH_CAPACITY_RESTART=1): the service stopped after ticking and started again on the same store; how long until it is ready with the whole world.
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import type { CapacityWorld } from './capacity.js';
import { readProcessMemory } from './proc-status.js';
import type { BenchContext } from './section.js';
import { startService } from './service-process.js';

export interface RestartFigures {
  /** From the spawn of the new process until /readyz answers 200 and every event is served. */
  readyMs: number;
  /** From the spawn until /livez answered (the HTTP server listens). */
  listeningMs: number;
  events: number;
  rssBytes: number;
}

/**
 * Stops the capacity service (SIGTERM: it flushes and closes the store), starts a new one on the
 * same DATA_DIR and waits until it is ready and lists every event the world had. What a restart
 * of a production node with this world costs before it serves.
 */
export async function measureRestart(ctx: BenchContext, w: CapacityWorld, name: string): Promise<RestartFigures> {
  await ctx.children.stop(w.service.child, 120_000);
  // A copy of the stopped world's store, to time and profile restarts on it again without the load.
  const keep = process.env.BENCH_CAPACITY_KEEP_STORE;
  if (keep !== undefined && keep !== '') {
    cpSync(join(ctx.tempDir, name, 'data'), keep, { recursive: true });
    ctx.log(`[${name}] the stopped world's store is copied to ${keep}`);
  }
  const spawnedAt = Date.now();
  const again = await startService(ctx.children, {
    dataDir: join(ctx.tempDir, name, 'data'),
    nodeArgs: ctx.settings.serviceNodeArgs,
    listenTimeoutMs: 15 * 60_000,
  });
  const listeningMs = Date.now() - spawnedAt;
  const deadline = spawnedAt + 15 * 60_000;
  let events = 0;
  for (;;) {
    const ready = await fetch(`${again.baseUrl}/readyz`).then((r) => r.status);
    if (ready === 200) {
      const page = await again.get('/v1/events?limit=1&status=all');
      if (page.status === 200) {
        events = (JSON.parse(page.body.toString('utf8')) as { total: number }).total;
        if (events >= w.load.events) break;
      }
    }
    if (Date.now() > deadline)
      throw new Error(`the restarted service was not ready with ${w.load.events} events in 15 minutes`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const readyMs = Date.now() - spawnedAt;
  const pid = again.child.process.pid;
  const rssBytes = pid === undefined ? 0 : ((await readProcessMemory(pid))?.rssBytes ?? 0);
  ctx.log(
    `[${name}] restart: listening after ${(listeningMs / 1000).toFixed(1)} s, ready with ${events} events after ${(readyMs / 1000).toFixed(1)} s, RSS ${Math.round(rssBytes / 2 ** 20)} MB`,
  );
  await ctx.children.stop(again.child);
  return { readyMs, listeningMs, events, rssBytes };
}
