// Collects an SDK stream's events in the background and waits, bounded, for a condition on them.
import type { EventStream, StreamEvent } from '../../sdk/src/index.js';

export interface Collected {
  events: StreamEvent[];
  /** Resolves once `pred` holds (checked every 10 ms); rejects after `timeoutMs`. */
  until(pred: (events: StreamEvent[]) => boolean, timeoutMs?: number): Promise<void>;
  /** Resolves when the iteration ends, with the error it threw (or null). */
  done: Promise<unknown>;
}

export function collect(stream: EventStream): Collected {
  const events: StreamEvent[] = [];
  let finished = false;
  const done = (async () => {
    try {
      for await (const e of stream) events.push(e);
      return null;
    } catch (err) {
      return err;
    } finally {
      finished = true;
    }
  })();
  return {
    events,
    done,
    async until(pred, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      while (!pred(events)) {
        if (Date.now() > deadline) {
          throw new Error(
            `timed out; ${finished ? 'the stream ended' : 'still open'}; got ${JSON.stringify(events.map((e) => e.event))}`,
          );
        }
        await new Promise((r) => setTimeout(r, 10));
      }
    },
  };
}

/** Odds events' home prices, in order received. */
export function pricesOf(events: StreamEvent[], selectionId: number): unknown[] {
  const out: unknown[] = [];
  for (const e of events) {
    if (e.event !== 'odds') continue;
    for (const c of e.data.changes) if (c.selection_id === selectionId) out.push(c.odds);
  }
  return out;
}
