// Worker-thread entry: runs a Simulator on the wall clock (× speed) and posts its messages in bounded batches on request.
import { parentPort, workerData } from 'node:worker_threads';
import { Outbox } from './batching.js';
import type { SimConfigInput } from './config.js';
import { Simulator } from './simulator.js';

export interface WorkerInput {
  seed: number;
  speed: number;
  /** World time at the start. */
  startAt: number;
  /** Wall time at the start (world time may be ahead of it after a restart of an accelerated world). */
  wallStartAt: number;
  config?: SimConfigInput;
  tickMs: number;
  /** Stop advancing while this many messages wait for the parent (backpressure). */
  highWater: number;
  /** Events the consumer still holds open from an earlier run (id → status), to close if over. */
  openEvents?: Array<[string, string]>;
  /** Outright markets the consumer holds unsettled (tournament id → market ids), to settle if over. */
  openOutrights?: Array<[string, number[]]>;
}

export type ParentToWorker = { type: 'pull' } | { type: 'stop' };
export type WorkerToParent = { type: 'batch'; messages: unknown[] } | { type: 'error'; message: string };

function run(port: NonNullable<typeof parentPort>, input: WorkerInput): void {
  const sim = new Simulator({
    seed: input.seed,
    speed: input.speed,
    startAt: input.startAt,
    config: input.config,
    ...(input.openEvents !== undefined ? { openEvents: new Map(input.openEvents) } : {}),
    ...(input.openOutrights !== undefined ? { openOutrights: new Map(input.openOutrights) } : {}),
  });
  const outbox = new Outbox();
  let requested = false;
  let stopped = false;

  const send = (): void => {
    if (!requested || outbox.size === 0) return;
    requested = false;
    const msg: WorkerToParent = { type: 'batch', messages: outbox.take() };
    port.postMessage(msg);
  };

  const tick = (): void => {
    if (stopped) return;
    try {
      if (outbox.size < input.highWater) {
        const simulatedNow = input.startAt + (Date.now() - input.wallStartAt) * input.speed;
        outbox.push(sim.advance(simulatedNow));
      }
      send();
    } catch (err) {
      const msg: WorkerToParent = {
        type: 'error',
        message: err instanceof Error ? (err.stack ?? err.message) : String(err),
      };
      port.postMessage(msg);
    }
  };

  const timer = setInterval(tick, input.tickMs);
  port.on('message', (m: ParentToWorker) => {
    if (m.type === 'pull') {
      requested = true;
      send();
    } else if (m.type === 'stop') {
      stopped = true;
      clearInterval(timer);
      port.close();
    }
  });
  tick();
}

if (parentPort !== null) run(parentPort, workerData as WorkerInput);
