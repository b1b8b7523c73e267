// One event in the read model: its state, its market book and a version raised on every change.
import type { SportEvent } from '../domain/types.js';
import { MarketBook } from './market-book.js';

export interface LiveEvent {
  event: SportEvent;
  /** Markets in the producer's order, held column-wise. */
  book: MarketBook;
  /** Raised on every change; cached payloads built from an older version are stale. */
  version: number;
}

export function newLiveEvent(event: SportEvent, version = 1): LiveEvent {
  return { event, book: new MarketBook(), version };
}
