// Fields every payload that carries an event writes the same way (list, detail, live, scores, the stream).
import type { SportEvent } from '../domain/types.js';

/**
 * interface.md: an Event's clock is null for prematch, and the live score item's clock is a
 * string. A started event of a sport without a clock (tennis, darts) therefore says "" everywhere,
 * never null in one payload and "" in another.
 */
export function clockOf(e: SportEvent): string | null {
  return e.status === 'prematch' ? null : (e.clock ?? '');
}

/** The period: "" before the start. */
export function periodOf(e: SportEvent): string {
  return e.status === 'prematch' ? '' : e.period;
}
