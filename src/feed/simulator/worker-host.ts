// The simulator's worker thread as its consumer sees it: starts the worker and hands its batches on in order.
// Apart from the rest of the simulator, which runs in the worker: the thread that starts it loads none of it.
import { Worker } from 'node:worker_threads';
import type { FeedMessage } from '../messages.js';
import type { SimConfigInput } from './config.js';
import type { ParentToWorker, WorkerInput, WorkerToParent } from './worker.js';

export interface SimulatorWorkerOptions {
  seed: number;
  /** Simulated seconds per wall second. */
  speed: number;
  /** Receives each batch in order; the next batch is only sent after it resolved. */
  onBatch: (messages: FeedMessage[]) => Promise<unknown>;
  /** Simulated start (epoch ms); default: now. */
  startAt?: number;
  /** Wall time that `startAt` corresponds to; default: now. */
  wallStartAt?: number;
  config?: SimConfigInput;
  /** How often the worker advances the world (wall ms). */
  tickMs?: number;
  /** Errors of the worker or of onBatch (default: ignored; the simulation goes on). */
  onError?: (err: unknown) => void;
  /** Called once, when the world as it stood at the start has been sent and applied (readiness). */
  onLoaded?: () => void;
  /** While that world loads: its events applied so far, of how many it has (after every batch). */
  onLoadProgress?: (events: number, of: number) => void;
  /** Before that: the worker building the world as it stands, games made of games to make. */
  onBuildProgress?: (done: number, of: number) => void;
  /** Simulator events the consumer still holds open from an earlier run (id → status). */
  openEvents?: ReadonlyMap<string, string>;
  /** Outright markets the consumer holds unsettled from an earlier run (tournament id → market ids). */
  openOutrights?: ReadonlyMap<string, readonly number[]>;
}

export interface SimulatorWorkerHandle {
  /** Stops the worker after the batch being applied (if any) is done. */
  stop(): Promise<void>;
}

export function startSimulatorWorker(opts: SimulatorWorkerOptions): SimulatorWorkerHandle {
  const input: WorkerInput = {
    seed: opts.seed,
    speed: opts.speed,
    startAt: opts.startAt ?? Date.now(),
    wallStartAt: opts.wallStartAt ?? Date.now(),
    tickMs: opts.tickMs ?? 150,
    highWater: 20_000,
    ...(opts.openEvents !== undefined ? { openEvents: [...opts.openEvents] } : {}),
    ...(opts.openOutrights !== undefined
      ? { openOutrights: [...opts.openOutrights].map(([id, markets]): [string, number[]] => [id, [...markets]]) }
      : {}),
    ...(opts.config !== undefined ? { config: opts.config } : {}),
  };
  const worker = new Worker(new URL('./worker.js', import.meta.url), { workerData: input });
  const onError = opts.onError ?? (() => undefined);
  let stopping = false;
  let loaded = false;
  let worldEvents = 0;
  let eventsApplied = 0;
  let inFlight: Promise<void> = Promise.resolve();
  const post = (m: ParentToWorker): void => {
    if (!stopping) worker.postMessage(m);
  };
  worker.on('message', (m: WorkerToParent) => {
    // A batch the worker sent before it read `stop` can still arrive while it is terminated: once
    // stopped, the consumer gets nothing more (a deposed leader must not apply it).
    if (stopping) return;
    if (m.type === 'error') {
      onError(new Error(`simulator: ${m.message}`));
      return;
    }
    if (m.type === 'building') {
      opts.onBuildProgress?.(m.done, m.of);
      return;
    }
    if (m.worldEvents !== undefined) {
      // Told as soon as the world is made, before its first batch is applied (seconds, on a full world).
      worldEvents = m.worldEvents;
      if (!loaded) opts.onLoadProgress?.(eventsApplied, worldEvents);
    }
    inFlight = (async () => {
      try {
        if (m.messages.length > 0) await opts.onBatch(m.messages as FeedMessage[]);
      } catch (err) {
        onError(err);
      }
      if (!loaded) {
        for (const x of m.messages as FeedMessage[]) if (x.type === 'fixture') eventsApplied++;
        opts.onLoadProgress?.(Math.min(eventsApplied, worldEvents), worldEvents);
      }
      if (m.drained && !loaded) {
        loaded = true;
        opts.onLoaded?.();
      }
      post({ type: 'pull' });
    })();
  });
  worker.on('error', onError);
  post({ type: 'pull' });
  return {
    async stop() {
      if (stopping) return;
      worker.postMessage({ type: 'stop' } satisfies ParentToWorker);
      stopping = true;
      await inFlight;
      await worker.terminate();
    },
  };
}
