// How far a simulated world feeding a service has come: waits scaled to the world's work, not to a machine's wall time.
import type { Service } from '../../src/service.js';

export interface WorldReadings {
  /** The latest world time the service's pipeline has taken or refused (its messages' ts); 0 before any. */
  at(): number;
  /** Batches the pipeline has answered. */
  batches(): number;
}

/**
 * Counts what the service's pipeline answers from now on (its built-in simulator looks the
 * pipeline's applyAll up at each batch, so it is counted too).
 */
export function worldOf(service: Service): WorldReadings {
  let at = 0;
  let batches = 0;
  const pipeline = service.pipeline;
  const applyAll = pipeline.applyAll.bind(pipeline);
  pipeline.applyAll = (messages) =>
    // Counted once the pipeline has answered: whatever the world reached, a check then sees it.
    applyAll(messages).then((outcomes) => {
      batches++;
      for (const m of messages) {
        const ts = (m as { ts?: string }).ts;
        if (ts !== undefined) at = Math.max(at, Date.parse(ts));
      }
      return outcomes;
    });
  return { at: () => at, batches: () => batches };
}

/**
 * An `exhausted` reading for untilProgress: says so once the world has played `budgetMs` of world
 * time from where it stood at the first call (counted from its first message when none had come).
 */
export function worldBudget(world: WorldReadings, budgetMs: number): () => string | null {
  let from = 0;
  return () => {
    if (from === 0) from = world.at();
    const played = world.at() - from;
    return from > 0 && played > budgetMs ? `the world played ${Math.round(played / 60_000)} minutes without it` : null;
  };
}

/** CPU ms this process has used, all its threads (a simulator worker's too). */
export function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/** CPU ms a process working for the world uses, at the least, before it counts as progress (polling alone uses far less). */
export const CPU_STEP_MS = 5_000;

/**
 * A progress reading for untilProgress that moves with the world (its time, its batches) and with
 * every CPU_STEP_MS of CPU the process uses: a simulator worker building its world sends nothing for
 * a while on a loaded machine, but works. A stall is a process neither fed nor working.
 */
export function working(world: WorldReadings): () => string {
  return () => `${world.at()}:${world.batches()}:${Math.floor(cpuMs() / CPU_STEP_MS)}`;
}

/** An `exhausted` reading: says so once the process has used `budgetMs` of CPU from the first call while `pending()` holds. */
export function cpuBudget(budgetMs: number, what: string, pending: () => boolean = () => true): () => string | null {
  let from = -1;
  return () => {
    if (from < 0) from = cpuMs();
    const used = cpuMs() - from;
    return pending() && used > budgetMs ? `${what} after ${Math.round(used / 1000)} CPU seconds` : null;
  };
}

/** The first reason of several `exhausted` readings (all are read, so each starts counting at once). */
export function anyOf(...readings: Array<() => string | null>): () => string | null {
  return () => readings.map((r) => r()).find((r) => r !== null) ?? null;
}
