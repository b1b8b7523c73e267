// One event in the read model: its state, markets in producer order, a selection index and a version.
import type { Market, Outcome, SportEvent } from '../domain/types.js';

export interface SelectionRef {
  market: Market;
  outcome: Outcome;
}

export interface LiveEvent {
  event: SportEvent;
  /** Insertion order is the producer's order. */
  markets: Map<number, Market>;
  selections: Map<number, SelectionRef>;
  /** Raised on every change; cached payloads built from an older version are stale. */
  version: number;
  /** Stored position of each market: assigned once, increasing, so order survives removals and restarts. */
  positions: Map<number, number>;
  nextPosition: number;
}

export function newLiveEvent(event: SportEvent): LiveEvent {
  return { event, markets: new Map(), selections: new Map(), version: 1, positions: new Map(), nextPosition: 0 };
}

/** Rebuilds the selection index entries of one market (after an upsert). */
export function indexMarket(le: LiveEvent, market: Market): void {
  for (const outcome of market.outcomes) le.selections.set(outcome.selectionId, { market, outcome });
}

export function unindexMarket(le: LiveEvent, market: Market): void {
  for (const outcome of market.outcomes) {
    const ref = le.selections.get(outcome.selectionId);
    if (ref !== undefined && ref.market === market) le.selections.delete(outcome.selectionId);
  }
}
