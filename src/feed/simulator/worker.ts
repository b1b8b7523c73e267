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
export type WorkerToParent =
  /** `drained`: nothing more waits in the outbox (the first such batch ends the world's first load). */
  | {
      type: 'batch';
      messages: unknown[];
      drained: boolean;
      /** The first batch: how many events the world it starts with has (its load's progress). */
      worldEvents?: number;
    }
  /** The world the simulator starts with is being built: games made of games to make. */
  | { type: 'building'; done: number; of: number }
  | { type: 'error'; message: string };

/** How often the world's build says how far along it is (its last step is always told). */
const BUILD_REPORT_MS = 250;

function run(port: NonNullable<typeof parentPort>, input: WorkerInput): void {
  let reportedAt = -Infinity;
  const onBuild = (done: number, of: number): void => {
    const now = Date.now();
    if (done < of && now - reportedAt < BUILD_REPORT_MS) return;
    reportedAt = now;
    const msg: WorkerToParent = { type: 'building', done, of };
    port.postMessage(msg);
  };
  const sim = new Simulator({
    onBuild,
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
  // The first advance (run below before any pull can arrive) makes the whole world as it stands:
  // once it has all been sent, the parent hears `drained` (an empty batch if it had nothing).
  let loadAnnounced = false;
  /** Fixtures of the first advance (the world as it stands), told with the first batch. */
  let worldEvents: number | null = null;
  let counted = false;

  const send = (): void => {
    if (!requested || (outbox.size === 0 && loadAnnounced)) return;
    requested = false;
    const messages = outbox.take();
    const drained = outbox.size === 0;
    if (drained) loadAnnounced = true;
    const msg: WorkerToParent = { type: 'batch', messages, drained };
    if (worldEvents !== null) msg.worldEvents = worldEvents;
    worldEvents = null;
    port.postMessage(msg);
  };

  const tick = (): void => {
    if (stopped) return;
    try {
      if (outbox.size < input.highWater) {
        const simulatedNow = input.startAt + (Date.now() - input.wallStartAt) * input.speed;
        const messages = sim.advance(simulatedNow);
        if (!loadAnnounced && worldEvents === null && !counted) {
          counted = true;
          worldEvents = 0;
          for (const m of messages) if (m.type === 'fixture') worldEvents++;
        }
        outbox.push(messages);
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
