// Worker thread of the capacity section: generates the world's NDJSON bodies one on request, so the upload thread never waits on generation.
import { parentPort, workerData } from 'node:worker_threads';
import { capacityBodies, type CapacityPlan, type LiveBook } from './capacity-world.js';

export interface FeederOptions {
  plan: CapacityPlan;
  eventsPerBody: number;
}

export type FeederMessage =
  | {
      kind: 'body';
      /** UTF-8 NDJSON, transferred (not copied) to the requesting thread. */
      body: Uint8Array;
      events: number;
      markets: number;
      selections: number;
      live: LiveBook[];
      /** Time this thread spent generating and encoding the body. */
      generateMs: number;
    }
  | { kind: 'end' }
  | { kind: 'error'; message: string };

const { plan, eventsPerBody } = workerData as FeederOptions;
const bodies = capacityBodies(plan, eventsPerBody);
const encoder = new TextEncoder();

function reply(message: FeederMessage, transfer: ArrayBuffer[] = []): void {
  parentPort?.postMessage(message, transfer);
}

// One body per 'next' request: the requester keeps one in hand and one in flight, no more, so
// memory stays at a few bodies however large the world is.
parentPort?.on('message', () => {
  try {
    const started = performance.now();
    const next = bodies.next();
    if (next.done === true) {
      reply({ kind: 'end' });
      return;
    }
    const body = encoder.encode(next.value.body);
    const { events, markets, selections, live } = next.value;
    reply({ kind: 'body', body, events, markets, selections, live, generateMs: performance.now() - started }, [
      body.buffer as ArrayBuffer,
    ]);
  } catch (err) {
    reply({ kind: 'error', message: err instanceof Error ? (err.stack ?? err.message) : String(err) });
  }
});
